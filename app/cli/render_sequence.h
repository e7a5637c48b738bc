// `esview render --turntable N` and `--frames A:B[:STEP]`: a numbered sequence of pictures written
// through an output pattern (OUT_%02d.png), and optionally encoded as a video by ffmpeg.
#pragma once

#include <optional>
#include <string>

#include "app/cli/render_command.h"

namespace CLI {
class App;
}

namespace esv {

// An animation frame range: A..B inclusive, every STEP frames (frames as --frame counts them).
struct FrameRange {
    int first = 0, last = 0, step = 1;
};

// Parses "A:B" or "A:B:STEP" (0 <= A <= B, STEP >= 1, integers). Empty when good, else the
// problem in a phrase (a CLI11 check).
std::string checkFrameRange(const std::string& text);
bool parseFrameRange(const std::string& text, FrameRange& range);

// An output pattern holds exactly one printf integer conversion (%d, %i or %u, with the flags '0',
// '-', '+' or ' ' and a width: %04d), and any other '%' doubled. Empty when `pattern` is one, else
// the problem in a phrase.
std::string checkOutputPattern(const std::string& pattern);
// The pattern with its conversion replaced by `number`, as printf would (the pattern checked).
std::string patternName(const std::string& pattern, int number);

struct SequenceRequest {
    int turntable = 0;                 // N pictures, the camera turned 360/N degrees each; 0: none
    std::optional<FrameRange> frames;  // or an animation sequence
    std::string video;                 // an MP4 file ffmpeg encodes the pictures into; empty: none
};

// The shots of a sequence: turntable picture k turned 2 pi k / N about the up axis, or one shot
// per frame of the range; with the number each picture's file is named by (k, or the frame).
std::vector<RenderShot> sequenceShots(const SequenceRequest& sequence, std::vector<int>& numbers);

// Renders the sequence into request.output (a pattern, checked) and, with a video asked for,
// encodes it. Returns an ExitCode: 1 when the input is bad, a picture cannot be written, ffmpeg is
// not on PATH (one line, before anything is drawn) or fails.
int runRenderSequence(RenderRequest request, const SequenceRequest& sequence);

// --turntable, --frames and --video on `render` (registered after its --frame, --time and --camera,
// which they exclude as they must).
void addSequenceOptions(CLI::App* render, SequenceRequest& sequence);

// `esview render` once parsed: one picture (runRender) or a sequence (runRenderSequence). An output
// pattern without exactly one integer conversion, or --video without a sequence, is a usage error
// (one line on stderr, exit 2).
int runRenderCommand(const RenderRequest& request, const SequenceRequest& sequence);

// True when an executable `name` is in one of PATH's folders.
bool onPath(const std::string& name);

}  // namespace esv
