// The contract every libFuzzer target checks, in one place: a reader returns what it reads (a scene,
// an archive, an image) or says why not, never neither; each problem it lists says what is wrong
// and where. A broken contract is a finding: check() traps and libFuzzer keeps the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "scene/cpu_reference.h"
#include "scene/sampler.h"
#include "scene/scene.h"

namespace esv::fuzz {

// Traps when `ok` is false.
inline void check(bool ok) {
    if (!ok) __builtin_trap();
}

// The closing line of a capped problem list (loaders/diagnostics.h, the VP archive reader): it
// stands for the problems left out and has no place of its own.
inline constexpr const char* kFurtherProblems = "further problems are not listed";

// One problem met in an input of `inputSize` bytes: a sentence and a place, which is a byte offset,
// a line, or a context path ("mesh 2 / normal list": the validator checks the finished scene, which
// knows objects, not positions in the file). Only an empty input and the cap's closing line have
// no place.
inline void checkProblem(const Problem& p, size_t inputSize) {
    check(!p.message.empty());
    check(p.offset >= -1 && p.line >= 0 && p.column >= 0);
    const bool located = p.offset >= 0 || p.line >= 1 || !p.where.empty();
    check(located || inputSize == 0 || p.message == kFurtherProblems);
}

// What a reader returned (`produced`: a scene, an archive) or problems, never neither; each problem
// as checkProblem says.
inline void checkResultOrProblems(bool produced, const std::vector<Problem>& problems, size_t inputSize) {
    check(produced || !problems.empty());
    for (const Problem& p : problems) checkProblem(p, inputSize);
}

// A model loader's result for an input of `inputSize` bytes: a scene or problems.
inline void checkLoadResult(const LoadResult& r, size_t inputSize) {
    checkResultOrProblems(r.scene != nullptr, r.problems, inputSize);
}

// Loads `bytes` under the name `path` in load and check mode (LoadOptions::collectAll), checks
// each result as checkLoadResult says, then hands it to `use` (a scene or problems).
template <typename Use>
void loadInBothModes(const std::shared_ptr<const std::vector<uint8_t>>& bytes, const char* path, Use&& use) {
    for (bool collectAll : {false, true}) {
        LoadOptions options;
        options.collectAll = collectAll;
        const LoadResult r = loadSceneMemory(bytes, path, options);
        checkLoadResult(r, bytes->size());
        use(r);
    }
}

// A reader that gives one reason when it fails (the image readers): a result or that reason.
inline void checkResultOrReason(bool produced, const std::string& reason) {
    check(produced || !reason.empty());
}

// A scene that loads is safe to read: touches the first and last byte of every vertex stream and
// index view (a view past its buffer is a sanitizer report).
inline void touchViews(const Scene& scene) {
    volatile uint32_t sum = 0;
    for (const Mesh& m : scene.meshes) {
        for (const VertexStream& s : m.streams)
            if (s.bytes.size) sum = sum + s.bytes.data[0] + s.bytes.data[s.bytes.size - 1];
        if (m.indices.bytes.size)
            sum = sum + m.indices.bytes.data[0] + m.indices.bytes.data[m.indices.bytes.size - 1];
    }
}

// A scene that loads is safe to use: its rest pose and the bounds of every drawn vertex evaluate
// (every stream, index and joint in range).
inline void evaluateRestPose(const Scene& scene) {
    Pose pose;
    evaluatePose(scene, -1, 0.0f, pose);
    volatile bool valid = sceneBounds(scene, pose).valid();
    (void)valid;
}

}  // namespace esv::fuzz
