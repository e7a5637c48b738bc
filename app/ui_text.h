// Small pure functions behind what the panels show: texture names, the frame readout and the
// timeline's key ticks (no ImGui, no GL; unit tested).
#pragma once

#include <string>
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

}  // namespace esv
