// The animation sampler: clip + time -> local transforms -> world matrices -> skin palettes and
// morph weights. Pure CPU, no GL.
#pragma once

#include <vector>

#include "scene/scene.h"

namespace esv {

// The evaluated state of a scene at one time. Arrays are indexed like Scene::nodes.
struct Pose {
    std::vector<Transform> local;
    std::vector<glm::mat4> world;        // parent world * local
    std::vector<glm::mat4> objectLocal;  // the node's object transform (animated OpenGEX object elements)
    std::vector<glm::mat4> objectWorld;  // world * objectLocal (what a node's object uses)
    std::vector<std::vector<float>> morphWeights;  // per node; empty when its mesh has no targets
    std::vector<float> cameraFov;  // per node; the camera's fov, animated or not (0 for non-cameras)
    std::vector<uint8_t> visible;
    // Per Scene::uvTransforms entry: its matrix at this time (the elements as written at rest, with
    // Channel::UvElement tracks applied), for the renderer's texture coordinate transforms.
    std::vector<glm::mat4> uvMatrices;

    // Scratch space of evaluatePose, kept here so that a reused Pose allocates nothing per frame.
    std::vector<uint8_t> resolved;
    std::vector<uint32_t> chain;
    std::vector<float> trackValues;
    std::vector<float> elementValues;      // OpenGEX elements of all nodes, 16 floats each
    std::vector<uint32_t> elementOffset;   // per node: its first element in elementValues / 16
    std::vector<uint8_t> elementsChanged;  // per node: an element track touched it
    std::vector<float> uvElementValues;     // elements of all uv transforms, 16 floats each
    std::vector<uint32_t> uvElementOffset;  // per uv transform: its first element in uvElementValues / 16
    std::vector<uint8_t> uvChanged;         // per uv transform: a UvElement track touched it
};

// Evaluates `clip` (index into scene.animation.clips, -1 = rest pose: the scene as written, no
// animation) at `seconds` (clamped to the clip's range) into `pose`. Reuses pose's storage.
void evaluatePose(const Scene& scene, int clip, float seconds, Pose& pose);

// Blends two poses of `scene` into `out`: per node, translation and scale lerp, rotation slerps on
// the shorter arc, morph weights and camera fov lerp, and visibility is a's below weight 0.5, b's
// from it. UV matrices blend like matrix locals (decomposed where they are translation * rotation
// * scale, element-wise otherwise). A node whose local is a matrix on either side is blended as TRS after decomposing the
// matrix (translation, per-axis scale, rotation); a matrix that is not translation * rotation *
// scale (shear, perspective, zero scale) is blended element-wise instead and stays a matrix. World
// matrices are then recomputed from the blended locals as evaluatePose computes them. `weight` is
// clamped to [0, 1] (NaN reads as 0); 0 copies a and 1 copies b exactly. `out` may be a or b itself:
// every value is read before it is written. A pose not sized to the scene's nodes (not an
// evaluatePose result for `scene`) is not blended: out is the other pose, or the rest pose.
void blendPoses(const Scene& scene, const Pose& a, const Pose& b, float weight, Pose& out);

// Samples one track at `seconds` into `out` (track.components floats). Step, linear (shortest-path
// slerp for rotations stored x,y,z,w), Bezier (control values, optional absolute control times) and
// TCB interpolation; times outside the keys clamp to the first/last key. A track with no keys or
// too few values writes zeros.
void sampleTrack(const Track& track, float seconds, float* out);

// Skin palette for the mesh instance `node`: palette[j] = world(joint j) * inverseBind[j].
// Empty when the node has no skin.
void skinPalette(const Scene& scene, const Pose& pose, int node, std::vector<glm::mat4>& palette);

// Seconds of POD frame `frame` (fractional frames interpolate).
inline float frameToSeconds(const Scene& scene, float frame) {
    return scene.animation.fps > 0.0f ? frame / scene.animation.fps : 0.0f;
}

}  // namespace esv
