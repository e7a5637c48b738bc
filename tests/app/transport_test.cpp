// Animation transport (app/viewer/transport.h) and pose blending (blendPoses): a scene built in code with
// keys at binary-exact times, so every wrap, reflection, frame step and key step has an exact answer.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "app/viewer/transport.h"

namespace esv {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kEps = 1e-5f;

Track track(int node, Channel channel, uint32_t components, std::vector<float> times, std::vector<float> values) {
    Track t;
    t.node = node;
    t.channel = channel;
    t.interpolation = Interpolation::Linear;
    t.components = components;
    t.times = std::move(times);
    t.values = std::move(values);
    return t;
}

// Nodes: 0 "mover" (rest translation 1,2,3), 1 its child (rest translation 0,0,1), 2 a camera
// (fov 1.0), 3 a mesh with two morph targets (defaults 0.2, 0.4).
// Clip 0 "walk": seconds 1..3 (duration 2), no fps of its own (the scene's 25). Node 0 moves
// x = 10 * (clip time), keys at clip times 0, 1, 2; node 1 rotates with keys at 0, 0.5, 2; a scale
// track of node 0 adds a key 1e-6 s after clip time 1 (the same key) and one past the end (clamped).
// Clip 1 "wave": seconds 0..0.5 at 10 fps. Node 0 held at (0, 20, 0), turning to 90 degrees about Z
// stored as the negated quaternion (the short way is still 90 degrees), invisible, camera fov 0.5,
// morph weights (1, 0).
// Clip 2 "still": a zero-duration clip at second 1 holding node 0 at (7, 0, 0).
Scene transportScene() {
    Scene scene;
    scene.animation.fps = 25.0f;
    scene.nodes.resize(4);
    scene.nodes[0].name = "mover";
    scene.nodes[0].local.translation = {1.0f, 2.0f, 3.0f};
    scene.nodes[1].name = "child";
    scene.nodes[1].parent = 0;
    scene.nodes[1].local.translation = {0.0f, 0.0f, 1.0f};
    scene.nodes[2].name = "camera";
    scene.nodes[2].kind = NodeKind::Camera;
    scene.nodes[2].object = 0;
    scene.cameras.resize(1);
    scene.cameras[0].yfov = 1.0f;
    scene.nodes[3].name = "face";
    scene.nodes[3].kind = NodeKind::Mesh;
    scene.nodes[3].object = 0;
    scene.meshes.resize(1);
    scene.meshes[0].morphTargets.resize(2);
    scene.meshes[0].defaultMorphWeights = {0.2f, 0.4f};

    Clip walk;
    walk.name = "walk";
    walk.start = 1.0f;
    walk.end = 3.0f;
    walk.tracks.push_back(track(0, Channel::Translation, 3, {1.0f, 2.0f, 3.0f},
                                {0, 0, 0, 10, 0, 0, 20, 0, 0}));
    const glm::quat half = glm::angleAxis(kPi / 4.0f, glm::vec3(0, 1, 0));
    walk.tracks.push_back(track(1, Channel::Rotation, 4, {1.0f, 1.5f, 3.0f},
                                {0, 0, 0, 1, half.x, half.y, half.z, half.w, 0, 0, 0, 1}));
    walk.tracks.push_back(track(0, Channel::Scale, 3, {1.0f, 2.000001f, 2.5f, 3.5f},
                                {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
    scene.animation.clips.push_back(walk);

    Clip wave;
    wave.name = "wave";
    wave.start = 0.0f;
    wave.end = 0.5f;
    wave.fps = 10.0f;
    wave.tracks.push_back(track(0, Channel::Translation, 3, {0.0f, 0.5f}, {0, 20, 0, 0, 20, 0}));
    const glm::quat quarter = -glm::angleAxis(kPi / 2.0f, glm::vec3(0, 0, 1));
    wave.tracks.push_back(
        track(0, Channel::Rotation, 4, {0.0f, 0.5f}, {0, 0, 0, 1, quarter.x, quarter.y, quarter.z, quarter.w}));
    wave.tracks.push_back(track(0, Channel::Visibility, 1, {0.0f}, {0.0f}));
    wave.tracks.push_back(track(2, Channel::CameraFov, 1, {0.0f}, {0.5f}));
    wave.tracks.push_back(track(3, Channel::MorphWeights, 2, {0.0f}, {1.0f, 0.0f}));
    scene.animation.clips.push_back(wave);

    Clip still;
    still.name = "still";
    still.start = 1.0f;
    still.end = 1.0f;
    still.tracks.push_back(track(0, Channel::Translation, 3, {1.0f}, {7, 0, 0}));
    scene.animation.clips.push_back(still);
    return scene;
}

Transport playing(const Scene& scene, int clip, LoopMode loop, float speed = 1.0f) {
    Transport t;
    t.speed = speed;
    t.loop = loop;
    selectClip(scene, t, clip);
    return t;
}

float angleAboutZ(const glm::quat& q) {
    return 2.0f * std::atan2(q.z, q.w);
}

// ---------------------------------------------------------------------------------------------
// Clip facts and selection

TEST(Transport, FrameRateDurationAndNames) {
    Scene scene = transportScene();
    EXPECT_FLOAT_EQ(transportFrameRate(scene, 0), 25.0f);  // no clip fps: the scene's
    EXPECT_FLOAT_EQ(transportFrameRate(scene, 1), 10.0f);  // the clip's own
    EXPECT_FLOAT_EQ(transportFrameRate(scene, -1), 25.0f);
    EXPECT_FLOAT_EQ(transportDuration(scene, 0), 2.0f);
    EXPECT_FLOAT_EQ(transportDuration(scene, 1), 0.5f);
    EXPECT_EQ(transportDuration(scene, 2), 0.0f);
    EXPECT_EQ(transportDuration(scene, -1), 0.0f);
    EXPECT_EQ(transportDuration(scene, 7), 0.0f);
    scene.animation.fps = 0.0f;
    EXPECT_FLOAT_EQ(transportFrameRate(scene, 0), 30.0f);
    EXPECT_STREQ(loopModeName(LoopMode::Loop), "loop");
    EXPECT_STREQ(loopModeName(LoopMode::Once), "once");
    EXPECT_STREQ(loopModeName(LoopMode::PingPong), "ping-pong");
}

TEST(Transport, SelectClipStartsAtTheEndItPlaysFrom) {
    const Scene scene = transportScene();
    Transport t;
    t.direction = -1;
    t.time = 1.25f;
    selectClip(scene, t, 0);
    EXPECT_EQ(t.clip, 0);
    EXPECT_EQ(t.time, 0.0f);
    EXPECT_EQ(t.direction, 1);
    t.speed = -1.0f;
    selectClip(scene, t, 1);
    EXPECT_EQ(t.clip, 1);
    EXPECT_EQ(t.time, 0.5f);
    selectClip(scene, t, 3);  // out of range: rest pose
    EXPECT_EQ(t.clip, -1);
    EXPECT_EQ(t.time, 0.0f);
    selectClip(scene, t, -5);
    EXPECT_EQ(t.clip, -1);
}

// ---------------------------------------------------------------------------------------------
// Advancing

TEST(Transport, LoopWrapsForwardAndBackward) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.time = 1.5f;
    advanceTransport(scene, t, 1.0f);
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_TRUE(t.playing);
    advanceTransport(scene, t, 7.25f);  // several durations at once
    EXPECT_EQ(t.time, 1.75f);

    t.speed = -1.0f;
    t.time = 0.5f;
    advanceTransport(scene, t, 1.0f);
    EXPECT_EQ(t.time, 1.5f);
    advanceTransport(scene, t, 6.25f);
    EXPECT_EQ(t.time, 1.25f);

    t.speed = 2.0f;
    t.time = 0.0f;
    advanceTransport(scene, t, 0.75f);
    EXPECT_EQ(t.time, 1.5f);
    EXPECT_EQ(t.direction, 1);

    t.playing = false;  // paused: nothing moves
    advanceTransport(scene, t, 0.25f);
    EXPECT_EQ(t.time, 1.5f);
}

TEST(Transport, OnceClampsAndStopsAtEitherEnd) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Once);
    advanceTransport(scene, t, 1.25f);
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_TRUE(t.playing);
    advanceTransport(scene, t, 1.0f);
    EXPECT_EQ(t.time, 2.0f);
    EXPECT_FALSE(t.playing);
    advanceTransport(scene, t, 1.0f);  // stopped stays stopped
    EXPECT_EQ(t.time, 2.0f);

    t = playing(scene, 0, LoopMode::Once, -2.0f);
    EXPECT_EQ(t.time, 2.0f);
    advanceTransport(scene, t, 0.5f);
    EXPECT_EQ(t.time, 1.0f);
    EXPECT_TRUE(t.playing);
    advanceTransport(scene, t, 5.0f);
    EXPECT_EQ(t.time, 0.0f);
    EXPECT_FALSE(t.playing);

    // Landing exactly on the end stops too.
    t = playing(scene, 1, LoopMode::Once);
    advanceTransport(scene, t, 0.5f);
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_FALSE(t.playing);
}

TEST(Transport, PingPongReflectsAtBothEnds) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::PingPong);
    t.time = 1.5f;
    advanceTransport(scene, t, 1.0f);  // 0.5 to the end, 0.5 back
    EXPECT_EQ(t.time, 1.5f);
    EXPECT_EQ(t.direction, -1);
    advanceTransport(scene, t, 2.0f);  // 1.5 back to the start, 0.5 forward
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_EQ(t.direction, 1);
    advanceTransport(scene, t, 1.5f);  // exactly onto the end: turns there
    EXPECT_EQ(t.time, 2.0f);
    EXPECT_EQ(t.direction, -1);
    advanceTransport(scene, t, 0.25f);
    EXPECT_EQ(t.time, 1.75f);
    EXPECT_TRUE(t.playing);
}

TEST(Transport, PingPongStepsLargerThanTwoDurations) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::PingPong);
    advanceTransport(scene, t, 5.5f);  // one full cycle (4 s) + 1.5 forward
    EXPECT_EQ(t.time, 1.5f);
    EXPECT_EQ(t.direction, 1);
    t = playing(scene, 0, LoopMode::PingPong);
    advanceTransport(scene, t, 6.5f);  // cycle + 2 forward + 0.5 back
    EXPECT_EQ(t.time, 1.5f);
    EXPECT_EQ(t.direction, -1);
    advanceTransport(scene, t, 41.0f);  // ten cycles + 1 more back
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_EQ(t.direction, -1);
    t = playing(scene, 0, LoopMode::PingPong);
    advanceTransport(scene, t, 1e6f);  // a huge step is one fmod, and lands on the cycle start
    EXPECT_EQ(t.time, 0.0f);
    EXPECT_EQ(t.direction, 1);
}

TEST(Transport, PingPongWithNegativeSpeed) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::PingPong, -1.0f);
    EXPECT_EQ(t.time, 2.0f);
    advanceTransport(scene, t, 1.5f);
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_EQ(t.direction, 1);  // direction multiplies speed: still going backwards
    advanceTransport(scene, t, 1.0f);  // 0.5 to the start, 0.5 forward again
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_EQ(t.direction, -1);
    advanceTransport(scene, t, 1.0f);
    EXPECT_EQ(t.time, 1.5f);
    EXPECT_EQ(t.direction, -1);
}

TEST(Transport, BlendTimeFollowsTheClockAndLoopsInItsClip) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.blendClip = 1;
    t.blendWeight = 0.5f;
    t.blendTime = 0.125f;
    advanceTransport(scene, t, 1.25f);
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_EQ(t.blendTime, 0.375f);  // 1.375 wrapped in 0.5
    t.speed = -1.0f;
    t.blendTime = 0.125f;
    advanceTransport(scene, t, 1.25f);
    EXPECT_EQ(t.blendTime, 0.375f);  // -1.125 wrapped backwards

    // Ping-pong on the way back drives the blend clip backwards too, and Once does not stop it.
    t = playing(scene, 0, LoopMode::PingPong);
    t.blendClip = 1;
    t.time = 1.5f;
    t.direction = -1;
    t.blendTime = 0.125f;
    advanceTransport(scene, t, 0.25f);
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_EQ(t.blendTime, 0.375f);
    t = playing(scene, 1, LoopMode::Once);
    t.blendClip = 0;
    advanceTransport(scene, t, 2.5f);
    EXPECT_FALSE(t.playing);
    EXPECT_EQ(t.blendTime, 0.5f);
}

TEST(Transport, ZeroDurationClipAndRestPose) {
    const Scene scene = transportScene();
    for (LoopMode mode : {LoopMode::Loop, LoopMode::PingPong, LoopMode::Once}) {
        Transport t = playing(scene, 2, mode, -1.5f);
        t.blendClip = 2;
        advanceTransport(scene, t, 0.7f);
        EXPECT_EQ(t.time, 0.0f) << loopModeName(mode);
        EXPECT_EQ(t.blendTime, 0.0f);
        EXPECT_EQ(t.playing, mode != LoopMode::Once) << loopModeName(mode);
        stepFrames(scene, t, 3);
        EXPECT_EQ(t.time, 0.0f);
        stepKeys(scene, t, 1);
        EXPECT_EQ(t.time, 0.0f);
        jumpToEnd(scene, t);
        EXPECT_EQ(t.time, 0.0f);
        EXPECT_EQ(transportFrame(scene, t), 0.0f);
    }
    EXPECT_EQ(clipKeyTimes(scene, 2), std::vector<float>{0.0f});

    Pose pose, scratch;
    Transport t = playing(scene, 2, LoopMode::Loop);
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_EQ(pose.local[0].translation, glm::vec3(7, 0, 0));

    t = playing(scene, -1, LoopMode::Loop);
    advanceTransport(scene, t, 1.0f);
    EXPECT_EQ(t.time, 0.0f);
    EXPECT_TRUE(clipKeyTimes(scene, -1).empty());
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_EQ(pose.local[0].translation, glm::vec3(1, 2, 3));
    EXPECT_EQ(pose.world[1][3], glm::vec4(1, 2, 4, 1));
}

// ---------------------------------------------------------------------------------------------
// Seeking and stepping

TEST(Transport, SeekClampsWithoutChangingPlayState) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    seekTransport(scene, t, 1.25f);
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_TRUE(t.playing);
    seekTransport(scene, t, 9.0f);
    EXPECT_EQ(t.time, 2.0f);
    seekTransport(scene, t, -1.0f);
    EXPECT_EQ(t.time, 0.0f);
    seekTransport(scene, t, NAN);
    EXPECT_EQ(t.time, 0.0f);
    jumpToEnd(scene, t);
    EXPECT_EQ(t.time, 2.0f);
    jumpToStart(scene, t);
    EXPECT_EQ(t.time, 0.0f);
    EXPECT_TRUE(t.playing);
}

TEST(Transport, StepFramesSnapsToTheClipsGrid) {
    const Scene scene = transportScene();
    // Clip 0 at the scene's 25 fps: 0.513 s is frame 12.825.
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.time = 0.513f;
    stepFrames(scene, t, 1);
    EXPECT_FALSE(t.playing);
    EXPECT_FLOAT_EQ(t.time, 13.0f / 25.0f);
    EXPECT_NEAR(transportFrame(scene, t), 13.0f, kEps);
    t.time = 0.513f;
    stepFrames(scene, t, -1);
    EXPECT_FLOAT_EQ(t.time, 12.0f / 25.0f);
    stepFrames(scene, t, 3);  // from on the grid: three whole frames
    EXPECT_FLOAT_EQ(t.time, 15.0f / 25.0f);
    stepFrames(scene, t, -3);
    EXPECT_FLOAT_EQ(t.time, 12.0f / 25.0f);
    stepFrames(scene, t, 0);  // snaps only
    EXPECT_FLOAT_EQ(t.time, 12.0f / 25.0f);
    stepFrames(scene, t, 1000);
    EXPECT_EQ(t.time, 2.0f);
    stepFrames(scene, t, -1000);
    EXPECT_EQ(t.time, 0.0f);

    // Clip 1 at its own 10 fps: 0.13 s is frame 1.3.
    t = playing(scene, 1, LoopMode::Loop);
    t.time = 0.13f;
    stepFrames(scene, t, 1);
    EXPECT_FLOAT_EQ(t.time, 0.2f);
    stepFrames(scene, t, 2);
    EXPECT_FLOAT_EQ(t.time, 0.4f);
    stepFrames(scene, t, 1);
    EXPECT_FLOAT_EQ(t.time, 0.5f);
    stepFrames(scene, t, 1);  // clamped at the end
    EXPECT_FLOAT_EQ(t.time, 0.5f);
    t.time = 0.13f;
    stepFrames(scene, t, -1);
    EXPECT_FLOAT_EQ(t.time, 0.1f);
    EXPECT_NEAR(transportFrame(scene, t), 1.0f, kEps);
}

TEST(Transport, KeyTimesAreUniqueSortedAndClamped) {
    const Scene scene = transportScene();
    // Translation 0, 1, 2; rotation 0, 0.5, 2; scale 0, 1 + 1e-6 (same key), 1.5, 2.5 (clamped to 2).
    const std::vector<float> keys = clipKeyTimes(scene, 0);
    ASSERT_EQ(keys.size(), 5u);
    EXPECT_EQ(keys[0], 0.0f);
    EXPECT_EQ(keys[1], 0.5f);
    EXPECT_EQ(keys[2], 1.0f);
    EXPECT_EQ(keys[3], 1.5f);
    EXPECT_EQ(keys[4], 2.0f);
    EXPECT_EQ(clipKeyTimes(scene, 1), (std::vector<float>{0.0f, 0.5f}));
    EXPECT_TRUE(clipKeyTimes(scene, 9).empty());
    // One node's keys (the timeline shows them when the clip's are too dense to read).
    EXPECT_EQ(clipKeyTimes(scene, 0, 0), (std::vector<float>{0.0f, 1.0f, 1.5f, 2.0f}));
    EXPECT_EQ(clipKeyTimes(scene, 0, 1), (std::vector<float>{0.0f, 0.5f, 2.0f}));
    EXPECT_TRUE(clipKeyTimes(scene, 0, 3).empty());
}

TEST(Transport, StepKeysNextPreviousAndAtTheEnds) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.time = 0.7f;
    stepKeys(scene, t, 1);
    EXPECT_FALSE(t.playing);
    EXPECT_EQ(t.time, 1.0f);
    stepKeys(scene, t, 1);  // strictly after the key it stands on
    EXPECT_EQ(t.time, 1.5f);
    stepKeys(scene, t, -1);
    EXPECT_EQ(t.time, 1.0f);
    t.time = 1.000002f;  // on the key within the epsilon: still that key
    stepKeys(scene, t, -1);
    EXPECT_EQ(t.time, 0.5f);
    t.time = 0.7f;
    stepKeys(scene, t, 2);
    EXPECT_EQ(t.time, 1.5f);
    stepKeys(scene, t, -2);
    EXPECT_EQ(t.time, 0.5f);
    stepKeys(scene, t, -3);  // past the first: stops on it
    EXPECT_EQ(t.time, 0.0f);
    stepKeys(scene, t, -1);  // none before: stays
    EXPECT_EQ(t.time, 0.0f);
    stepKeys(scene, t, 10);  // past the last: stops on it
    EXPECT_EQ(t.time, 2.0f);
    stepKeys(scene, t, 1);  // none after: stays
    EXPECT_EQ(t.time, 2.0f);
    stepKeys(scene, t, 0);
    EXPECT_EQ(t.time, 2.0f);
}

// Clip 0's keys of node 1 alone are 0, 0.5 and 2 (of node 0: 0, 1, 1.5, 2); node 2 has none in it.
TEST(Transport, StepKeysOfOneNode) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.time = 0.7f;
    stepKeys(scene, t, 1, 1);
    EXPECT_FALSE(t.playing);
    EXPECT_EQ(t.time, 2.0f) << "past node 0's keys at 1 and 1.5";
    stepKeys(scene, t, -1, 1);
    EXPECT_EQ(t.time, 0.5f);
    stepKeys(scene, t, 1, 0);
    EXPECT_EQ(t.time, 1.0f) << "node 0 has no key at 0.5's next of node 1";
    stepKeys(scene, t, 1, 0);
    EXPECT_EQ(t.time, 1.5f);
    stepKeys(scene, t, -1, 1);
    EXPECT_EQ(t.time, 0.5f);
    stepKeys(scene, t, 1, 2);  // no keys of its own in the clip: stays
    EXPECT_EQ(t.time, 0.5f);
    stepKeys(scene, t, 1);  // every node's again
    EXPECT_EQ(t.time, 1.0f);
}

// Clip 0 (2 s) with the range [0.5, 1.5]: Loop wraps, Once stops and PingPong turns at its ends.
TEST(Transport, PlayRangeBoundsLoopOnceAndPingPong) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    setPlayRange(scene, t, 0.5f, 1.5f);
    ASSERT_TRUE(t.range);
    t.time = 0.5f;
    advanceTransport(scene, t, 0.75f);
    EXPECT_EQ(t.time, 1.25f);
    advanceTransport(scene, t, 0.5f);  // 0.25 past the out point: from the in point on
    EXPECT_EQ(t.time, 0.75f);
    advanceTransport(scene, t, 3.25f);  // several ranges at once
    EXPECT_EQ(t.time, 1.0f);
    t.speed = -1.0f;
    advanceTransport(scene, t, 0.75f);
    EXPECT_EQ(t.time, 1.25f) << "backwards past the in point: from the out point";
    t.speed = 1.0f;
    t.time = 1.875f;  // left outside the range (a seek): playing brings it back in
    advanceTransport(scene, t, 0.25f);
    EXPECT_EQ(t.time, 0.75f);
    t.time = 0.0f;
    advanceTransport(scene, t, 0.25f);
    EXPECT_EQ(t.time, 0.75f);

    t = playing(scene, 0, LoopMode::Once);
    setPlayRange(scene, t, 0.5f, 1.5f);
    t.time = 0.5f;
    advanceTransport(scene, t, 0.75f);
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_TRUE(t.playing);
    advanceTransport(scene, t, 0.5f);
    EXPECT_EQ(t.time, 1.5f);
    EXPECT_FALSE(t.playing);
    t.playing = true;
    t.speed = -1.0f;
    advanceTransport(scene, t, 2.0f);
    EXPECT_EQ(t.time, 0.5f);
    EXPECT_FALSE(t.playing);

    t = playing(scene, 0, LoopMode::PingPong);
    setPlayRange(scene, t, 0.5f, 1.5f);
    t.time = 1.25f;
    advanceTransport(scene, t, 0.5f);  // 0.25 to the out point, 0.25 back
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_EQ(t.direction, -1);
    advanceTransport(scene, t, 1.0f);  // 0.75 back to the in point, 0.25 forward
    EXPECT_EQ(t.time, 0.75f);
    EXPECT_EQ(t.direction, 1);
    advanceTransport(scene, t, 4.5f);  // two cycles of 2 s, then 0.5 forward
    EXPECT_EQ(t.time, 1.25f);
    EXPECT_EQ(t.direction, 1);

    // A range of one instant holds it; Once stops there.
    t = playing(scene, 0, LoopMode::Loop);
    setPlayRange(scene, t, 1.0f, 1.0f);
    advanceTransport(scene, t, 0.3f);
    EXPECT_EQ(t.time, 1.0f);
    EXPECT_TRUE(t.playing);
    t.loop = LoopMode::Once;
    advanceTransport(scene, t, 0.3f);
    EXPECT_EQ(t.time, 1.0f);
    EXPECT_FALSE(t.playing);
}

TEST(Transport, PlayRangeIsClampedClearedAndSetAtThePlayhead) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    setPlayRange(scene, t, 1.5f, 0.5f);  // given backwards
    EXPECT_TRUE(t.range);
    EXPECT_EQ(t.rangeIn, 0.5f);
    EXPECT_EQ(t.rangeOut, 1.5f);
    setPlayRange(scene, t, -1.0f, 9.0f);
    EXPECT_EQ(t.rangeIn, 0.0f);
    EXPECT_EQ(t.rangeOut, 2.0f);
    setPlayRange(scene, t, std::nanf(""), 1.0f);
    EXPECT_FALSE(t.range);

    // Seeking and stepping may leave the range; Home and End go to its ends.
    setPlayRange(scene, t, 0.5f, 1.5f);
    seekTransport(scene, t, 1.875f);
    EXPECT_EQ(t.time, 1.875f);
    stepKeys(scene, t, -1);
    EXPECT_EQ(t.time, 1.5f);
    stepKeys(scene, t, -3);
    EXPECT_EQ(t.time, 0.0f);
    jumpToEnd(scene, t);
    EXPECT_EQ(t.time, 1.5f);
    jumpToStart(scene, t);
    EXPECT_EQ(t.time, 0.5f);
    clearPlayRange(t);
    EXPECT_FALSE(t.range);
    jumpToEnd(scene, t);
    EXPECT_EQ(t.time, 2.0f);
    jumpToStart(scene, t);
    EXPECT_EQ(t.time, 0.0f);

    // In and out at the playhead: the other end stays unless it would be on the wrong side.
    t.time = 0.5f;
    setRangePointAtTime(scene, t, false);
    EXPECT_TRUE(t.range);
    EXPECT_EQ(t.rangeIn, 0.5f);
    EXPECT_EQ(t.rangeOut, 2.0f);
    t.time = 1.5f;
    setRangePointAtTime(scene, t, true);
    EXPECT_EQ(t.rangeIn, 0.5f);
    EXPECT_EQ(t.rangeOut, 1.5f);
    t.time = 0.25f;
    setRangePointAtTime(scene, t, true);  // out before the in point: in goes to the start
    EXPECT_EQ(t.rangeIn, 0.0f);
    EXPECT_EQ(t.rangeOut, 0.25f);
    t.time = 1.0f;
    setRangePointAtTime(scene, t, false);  // in after the out point: out goes to the end
    EXPECT_EQ(t.rangeIn, 1.0f);
    EXPECT_EQ(t.rangeOut, 2.0f);

    // Another clip clears it; a clip with no duration and the rest pose take none.
    selectClip(scene, t, 1);
    EXPECT_FALSE(t.range);
    selectClip(scene, t, 2);
    setPlayRange(scene, t, 0.0f, 0.0f);
    EXPECT_FALSE(t.range);
    selectClip(scene, t, -1);
    setRangePointAtTime(scene, t, true);
    EXPECT_FALSE(t.range);
}

TEST(Transport, WholeFrameAsTheReadoutShowsIt) {
    EXPECT_EQ(wholeFrame(12.0f), 12);
    EXPECT_EQ(wholeFrame(11.9996f), 12);  // a hair below, from rounding
    EXPECT_EQ(wholeFrame(11.99f), 11);
    EXPECT_EQ(wholeFrame(12.4f), 12);
    EXPECT_EQ(wholeFrame(-0.0002f), 0);
    EXPECT_EQ(wholeFrame(std::nanf("")), 0);
    const Scene scene = transportScene();
    Transport t = playing(scene, 1, LoopMode::Loop);  // 10 fps
    seekTransport(scene, t, 0.3f);
    EXPECT_EQ(wholeFrame(transportFrame(scene, t)), 3);
}

// ---------------------------------------------------------------------------------------------
// Evaluation and blending

TEST(Transport, EvaluatesTheClipAtItsStartPlusTime) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.time = 0.5f;
    Pose pose, scratch;
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_EQ(pose.local[0].translation, glm::vec3(5, 0, 0));
    t.blendClip = 1;
    t.blendWeight = 0.0f;  // no weight: no blend
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_EQ(pose.local[0].translation, glm::vec3(5, 0, 0));
    EXPECT_TRUE(pose.visible[0]);
}

TEST(Transport, BlendAtWeightZeroOneAndHalf) {
    const Scene scene = transportScene();
    Transport t = playing(scene, 0, LoopMode::Loop);
    t.time = 1.0f;
    t.blendClip = 1;
    t.blendTime = 0.5f;
    Pose pose, scratch, clipPose, blendPose;
    evaluatePose(scene, 0, 2.0f, clipPose);
    evaluatePose(scene, 1, 0.5f, blendPose);

    t.blendWeight = 1e-30f;  // > 0, so blended, but nowhere near the blend clip
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_EQ(pose.local[0].translation.x, 10.0f);
    EXPECT_NEAR(pose.local[0].translation.y, 0.0f, kEps);
    EXPECT_TRUE(pose.visible[0]);

    t.blendWeight = 1.0f;
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_EQ(pose.local[0].translation, glm::vec3(0, 20, 0));
    EXPECT_EQ(pose.local[0].rotation, blendPose.local[0].rotation);
    EXPECT_EQ(pose.world[1], blendPose.world[1]);
    EXPECT_FALSE(pose.visible[0]);

    t.blendWeight = 0.5f;
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_NEAR(pose.local[0].translation.x, 5.0f, kEps);
    EXPECT_NEAR(pose.local[0].translation.y, 10.0f, kEps);
    // Identity to a quarter turn about Z stored negated: the short way, an eighth turn.
    EXPECT_NEAR(std::fabs(angleAboutZ(pose.local[0].rotation)), kPi / 4.0f, 1e-5f);
    EXPECT_NEAR(std::fabs(pose.local[0].rotation.w), std::cos(kPi / 8.0f), 1e-6f);
    EXPECT_NEAR(glm::length(pose.local[0].rotation), 1.0f, 1e-6f);
    // Node 1 turns about Y in clip 0 only; clip 1 leaves it at rest: half of clip 0's angle.
    const float clipAngle = 2.0f * std::acos(std::fabs(clipPose.local[1].rotation.w));
    EXPECT_GT(clipAngle, 0.1f);
    EXPECT_NEAR(2.0f * std::acos(std::fabs(pose.local[1].rotation.w)), clipAngle / 2.0f, 1e-4f);
    EXPECT_FALSE(pose.visible[0]);  // weight 0.5 takes b's visibility
    EXPECT_NEAR(pose.cameraFov[2], 0.75f, kEps);
    ASSERT_EQ(pose.morphWeights[3].size(), 2u);
    EXPECT_NEAR(pose.morphWeights[3][0], 0.6f, kEps);
    EXPECT_NEAR(pose.morphWeights[3][1], 0.2f, kEps);
    // World matrices come from the blended locals, through the hierarchy.
    const glm::mat4 world0 = pose.local[0].toMatrix();
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            EXPECT_NEAR(pose.world[0][c][r], world0[c][r], kEps);
            EXPECT_NEAR(pose.world[1][c][r], (world0 * pose.local[1].toMatrix())[c][r], kEps);
        }

    t.blendWeight = 0.4f;
    evaluateTransport(scene, t, pose, scratch);
    EXPECT_TRUE(pose.visible[0]);
    EXPECT_NEAR(pose.local[0].translation.x, 6.0f, kEps);
    EXPECT_NEAR(pose.local[0].translation.y, 8.0f, kEps);
}

TEST(BlendPoses, EndWeightsCopyAndOutputMayBeAnInput) {
    const Scene scene = transportScene();
    Pose a, b, out;
    evaluatePose(scene, 0, 1.75f, a);
    evaluatePose(scene, 1, 0.25f, b);
    blendPoses(scene, a, b, 0.0f, out);
    EXPECT_EQ(out.local[0].translation, a.local[0].translation);
    EXPECT_EQ(out.local[1].rotation, a.local[1].rotation);
    EXPECT_EQ(out.world[1], a.world[1]);
    blendPoses(scene, a, b, -3.0f, out);  // clamped to 0
    EXPECT_EQ(out.world[1], a.world[1]);
    blendPoses(scene, a, b, 7.0f, out);  // clamped to 1
    EXPECT_EQ(out.world[1], b.world[1]);
    EXPECT_EQ(out.cameraFov[2], 0.5f);

    blendPoses(scene, a, b, 0.3f, out);
    Pose intoA = a, intoB = b;
    blendPoses(scene, intoA, b, 0.3f, intoA);
    blendPoses(scene, a, intoB, 0.3f, intoB);
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        EXPECT_EQ(intoA.world[i], out.world[i]) << i;
        EXPECT_EQ(intoB.world[i], out.world[i]) << i;
        EXPECT_EQ(intoA.morphWeights[i], out.morphWeights[i]) << i;
        EXPECT_EQ(intoB.visible[i], out.visible[i]) << i;
    }

    // A pose not made for the scene is not blended.
    Pose empty;
    blendPoses(scene, a, empty, 0.5f, out);
    EXPECT_EQ(out.world[1], a.world[1]);
    blendPoses(scene, empty, empty, 0.5f, out);
    EXPECT_EQ(out.local[0].translation, glm::vec3(1, 2, 3));
}

TEST(BlendPoses, MatrixLocalsBlendAsTrsUnlessSheared) {
    Scene scene;
    scene.nodes.resize(2);
    Pose a, b, out;
    evaluatePose(scene, -1, 0.0f, a);
    evaluatePose(scene, -1, 0.0f, b);
    // Node 0: a matrix (translate 2,0,0, quarter turn about Z, scale 3) against identity TRS.
    a.local[0].useMatrix = true;
    a.local[0].matrix = glm::scale(glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(2, 0, 0)), kPi / 2.0f,
                                               glm::vec3(0, 0, 1)),
                                   glm::vec3(3.0f));
    // Node 1: a sheared matrix, which no TRS rebuilds: blended element-wise.
    glm::mat4 shear(1.0f);
    shear[1][0] = 0.5f;
    a.local[1].useMatrix = true;
    a.local[1].matrix = shear;
    blendPoses(scene, a, b, 0.5f, out);

    EXPECT_FALSE(out.local[0].useMatrix);
    EXPECT_NEAR(out.local[0].translation.x, 1.0f, kEps);
    EXPECT_NEAR(out.local[0].scale.x, 2.0f, kEps);
    EXPECT_NEAR(out.local[0].scale.z, 2.0f, kEps);
    EXPECT_NEAR(std::fabs(angleAboutZ(out.local[0].rotation)), kPi / 4.0f, 1e-5f);

    EXPECT_TRUE(out.local[1].useMatrix);
    EXPECT_NEAR(out.local[1].matrix[1][0], 0.25f, kEps);
    EXPECT_NEAR(out.local[1].matrix[0][0], 1.0f, kEps);
    EXPECT_EQ(out.world[1], out.local[1].matrix);
}

}  // namespace
}  // namespace esv
