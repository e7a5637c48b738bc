// Small pure functions behind what the panels show: texture names, the frame readout, the
// timeline's key ticks and labels cut to a column's width (no ImGui, no GL; unit tested).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace esv {

// The name a texture reference shows: the base name of a path or URL (`file:///C:/maps/skin%20a.png`
// -> `skin a.png`, `C:\maps\skin.pvr` -> `skin.pvr`, `skin.png` as is), with `file://` stripped
// and percent escapes decoded; the full text belongs in a tooltip. Empty stays empty; a path that
// ends in a separator keeps its last folder's name.
std::string textureDisplayName(const std::string& path);

// The frame readout of the transport, always a whole frame beside the time the panel prints: "frame 12
// / 40" from 12 (within 1e-3 below it, rounding) up to 13; `frameCount` is the clip's duration in
// frames, rounded. Without a frame rate (`frameCount` <= 0) just "frame 12".
std::string frameText(float frame, float frameCount);

// The key ticks a timeline `width` pixels wide over `duration` seconds draws of `keys` (ascending
// seconds): a key is kept when it lies at least `minSpacing` pixels after the last kept one, so at
// most one tick per `minSpacing` pixels (the first key always). A clip baked at every frame then
// shows evenly spread ticks instead of a solid bar.
std::vector<float> thinTicks(const std::vector<float>& keys, float duration, float width, float minSpacing);

// True when no two neighbouring keys are closer than `minSpacing` pixels (every key readable).
bool ticksReadable(const std::vector<float>& keys, float duration, float width, float minSpacing);

// What the panels end a cut label with: U+2026 when the font has it, else three full stops.
inline constexpr std::string_view kEllipsis = "\xE2\x80\xA6";
inline constexpr std::string_view kEllipsisAscii = "...";

// `text` (UTF-8) cut to `width` pixels, as `measure` gives the width of a run of text: the text
// itself when it fits; else its longest prefix, cut between code points and without the spaces it
// ends with, followed by `ellipsis`, that fits; else the ellipsis alone (the caller clips it). A
// `measure` that never shrinks as a text grows gives the longest such prefix (found by bisection,
// about log2(length) calls).
std::string fitText(std::string_view text, float width, const std::function<float(std::string_view)>& measure,
                    std::string_view ellipsis = kEllipsis);

}  // namespace esv
