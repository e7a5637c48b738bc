// PowerVR POD writer: the scene model back to a POD 2.0 file, the exact inverse of the reader's
// mapping (loaders/pod/README.md). Whatever the writer accepts reads back as the same scene (up to
// names POD does not store); whatever POD cannot express is refused with one plain sentence.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

struct PodWriteOptions {
    // One interleaved vertex buffer per mesh (6014, 9003 = offsets); false: one tightly packed
    // array per attribute list.
    bool interleave = true;
    // Scene flag 1: non-vertex numbers (node animation, colours, camera and light values, the
    // unpack matrix) stored as 16.16 fixed point. Vertex data keeps its own type either way.
    bool fixedPoint = false;
    // Every multi-byte value byte-swapped, vertex and index data per component (legacy big-endian
    // files; this project's reader refuses them).
    bool bigEndian = false;
    // Animated channels store each distinct value once plus one float offset per frame (5013-5016).
    bool indexedAnimation = false;
    // UInt8 x4 attributes as one 32-bit word: UBYTE4 (7) when not normalised, ABGR (18) when
    // normalised, instead of 4 bytes (10 / 15). Both read back as the same attribute.
    bool packedBytes = false;
    // When the rest pose (Node::local, Camera::yfov) differs from the clip at time 0, write the rest
    // pose as frame 0 (POD's rest and bind pose, notes 5) and the clip from frame 1, so that clip
    // time t reads back at t + 1/FPS. False: refuse such a scene.
    bool restFrame = true;
    // Sample tracks POD cannot hold as they are (keys between frames, step or Bezier or TCB
    // translation/rotation/scale, interpolated matrices) at every frame. False: refuse them.
    bool bakeAnimation = false;
    // Leave out morph targets and their weight tracks (POD has none). False: refuse them.
    bool dropMorphTargets = false;
    // The clip to write (POD holds one, read back as "Take 001"); -1: the scene's only clip.
    int clip = -1;
    std::string history = "esview";      // block 1003; empty: not written
    std::vector<uint8_t> sceneUserData;  // block 2018; empty: not written
};

// Serialises `scene` as POD into `out` (replaced). Returns false with one sentence in `error` (and
// `out` emptied) when the scene holds something POD cannot express: see loaders/pod/README.md,
// "Writer". Lossless changes the writer made (indices widened, a rest frame added, morph targets
// dropped on request) are appended to `notes` when given. Never throws except std::bad_alloc.
bool writePod(const Scene& scene, const PodWriteOptions& options, std::vector<uint8_t>& out,
              std::string& error, std::vector<std::string>* notes = nullptr);

}  // namespace esv
