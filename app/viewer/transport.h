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
};

// Frames per second used for frame stepping and the frame readout: the clip's own rate when it has
// one, else the scene's (POD) rate, else 30.
float transportFrameRate(const Scene& scene, int clip);
float transportDuration(const Scene& scene, int clip);

// Selects `clip` (-1 = rest pose): time to the start (the end when speed is negative), direction +1.
// Out-of-range indices select the rest pose.
void selectClip(const Scene& scene, Transport& t, int clip);

// Advances by dt seconds of wall time when playing: time += dt * speed * direction, then
// Loop wraps, Once clamps and stops at the end it reached, PingPong reflects and flips direction.
void advanceTransport(const Scene& scene, Transport& t, float dt);

// Sets the time (clamped to the clip) without changing play state.
void seekTransport(const Scene& scene, Transport& t, float seconds);

// Steps `frames` frames (at transportFrameRate) from the current time, snapped to the frame grid,
// clamped to the clip, and pauses.
void stepFrames(const Scene& scene, Transport& t, int frames);

// Times (seconds from the clip's start, ascending, unique within 1e-5 s) of every key of every track
// of `clip` (only the tracks of node `node` when it is not -1), clamped to the clip's range.
std::vector<float> clipKeyTimes(const Scene& scene, int clip, int node = -1);

// Moves to the next (`delta` > 0) or previous key time strictly after/before the current time
// (|delta| keys), stays at the last/first when there is none, and pauses.
void stepKeys(const Scene& scene, Transport& t, int delta);

void jumpToStart(const Scene& scene, Transport& t);
void jumpToEnd(const Scene& scene, Transport& t);

// Current fractional frame (time * frame rate).
float transportFrame(const Scene& scene, const Transport& t);

// Evaluates the transport into `pose`: evaluatePose of the clip at start + time, blended with the
// blend clip when one is set with a weight > 0 (see blendPoses). `scratch` is reused storage.
void evaluateTransport(const Scene& scene, const Transport& t, Pose& pose, Pose& scratch);

}  // namespace esv
