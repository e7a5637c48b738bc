// Animation transport of the viewer: which clip, what time, how it plays. Pure logic on the scene
// model (no GL, no ImGui), driven by the panel, the keyboard and scripts, and unit tested.
#pragma once

#include <vector>

#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv {

enum class LoopMode { Loop, Once, PingPong };
const char* loopModeName(LoopMode mode);

struct Transport {
    int clip = -1;          // index into scene.animation.clips; -1 = rest pose
    float time = 0.0f;      // seconds from the clip's start, in [0, duration]
    bool playing = true;
    float speed = 1.0f;     // playback rate; negative plays backwards
    LoopMode loop = LoopMode::Loop;
    int direction = 1;      // ping-pong: +1 forwards, -1 on the way back (multiplies speed)
    // A second clip blended over the first: pose = mix(clip pose, blend clip pose, blendWeight).
    int blendClip = -1;
    float blendWeight = 0.0f;
    float blendTime = 0.0f;  // seconds from the blend clip's start; advances with `time`, wraps in its own range
    // The play range (in and out points, seconds from the clip's start, in <= out): when `range` is
    // set, playing loops, stops or turns at these points instead of the clip's ends. Seeking and
    // stepping may still leave it (the part outside is shown, as in an editor); playing brings the
    // time back into it. A new clip clears it.
    bool range = false;
    float rangeIn = 0.0f;
    float rangeOut = 0.0f;
};

// Frames per second used for frame stepping and the frame readout: the clip's own rate when it has
// one, else the scene's (POD) rate, else 30.
float transportFrameRate(const Scene& scene, int clip);
float transportDuration(const Scene& scene, int clip);

// Selects `clip` (-1 = rest pose): time to the start (the end when speed is negative), direction +1.
// Out-of-range indices select the rest pose.
void selectClip(const Scene& scene, Transport& t, int clip);

// Advances by dt seconds of wall time when playing: time += dt * speed * direction, then
// Loop wraps, Once clamps and stops at the end it reached, PingPong reflects and flips direction;
// the ends are the play range's in and out points when one is set (a time outside it is first
// clamped into it), else the clip's.
void advanceTransport(const Scene& scene, Transport& t, float dt);

// Sets the play range to [in, out] seconds (each clamped to the clip, swapped when in > out). A NaN
// point, the rest pose or a clip with no duration clears it instead.
void setPlayRange(const Scene& scene, Transport& t, float in, float out);
void clearPlayRange(Transport& t);

// The in (`out` false) or out point at the current time: the other point stays, unless it would
// end on the wrong side, then it goes to the clip's end (a new in point) or start (a new out point).
void setRangePointAtTime(const Scene& scene, Transport& t, bool out);

// Where playing runs: the play range when one is set, else [0, duration].
void playBounds(const Scene& scene, const Transport& t, float& lo, float& hi);

// Sets the time (clamped to the clip) without changing play state.
void seekTransport(const Scene& scene, Transport& t, float seconds);

// Steps `frames` frames (at transportFrameRate) from the current time, snapped to the frame grid,
// clamped to the clip, and pauses.
void stepFrames(const Scene& scene, Transport& t, int frames);

// Times (seconds from the clip's start, ascending, unique within 1e-5 s) of every key of every track
// of `clip` (only the tracks of node `node` when it is not -1), clamped to the clip's range.
std::vector<float> clipKeyTimes(const Scene& scene, int clip, int node = -1);

// Moves to the next (`delta` > 0) or previous key time strictly after/before the current time
// (|delta| keys) among the keys of every node (`node` -1) or of node `node` alone, stays at the
// last/first when there is none, and pauses.
void stepKeys(const Scene& scene, Transport& t, int delta, int node = -1);

// The start and end of the play range when one is set, else of the clip.
void jumpToStart(const Scene& scene, Transport& t);
void jumpToEnd(const Scene& scene, Transport& t);

// Current fractional frame (time * frame rate).
float transportFrame(const Scene& scene, const Transport& t);

// The whole frame a fractional frame has reached, as the readout shows it: a frame within 1e-3
// below a whole one (float rounding of a time on the grid) counts as that one, else it is floored.
int wholeFrame(float frame);

// Evaluates the transport into `pose`: evaluatePose of the clip at start + time, blended with the
// blend clip when one is set with a weight > 0 (see blendPoses). `scratch` is reused storage.
void evaluateTransport(const Scene& scene, const Transport& t, Pose& pose, Pose& scratch);

}  // namespace esv
