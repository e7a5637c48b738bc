// Loading a scene off the render thread: reading (in chunks, so large files show progress),
// parsing and validating, reading its textures, and the preparation stage for the GPU (textures
// decoded, bones re-batched for its palette, vertex types, tangents) all run on a worker thread.
// Only the GL upload (Renderer::setScene) is left for the render thread, which polls for the
// result between frames.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "loaders/load.h"
#include "prepare/prepare.h"

namespace esv {

// A finished load: the scene as loaded (kept to prepare again for another target) and prepared
// for the target the load was started for; or no scene, and problems that say why.
struct LoadedScene {
    std::shared_ptr<const Scene> loaded;
    std::unique_ptr<Scene> prepared;
    std::vector<Problem> problems;
    // Wall-clock milliseconds of the worker's stages: reading and parsing the file (validation
    // included), reading its textures, preparing for the target.
    double readMs = 0.0, texturesMs = 0.0, prepareMs = 0.0;
};

class SceneLoader {
public:
    SceneLoader() = default;
    ~SceneLoader();
    SceneLoader(const SceneLoader&) = delete;
    SceneLoader& operator=(const SceneLoader&) = delete;

    // Starts loading `path` ("demo" or a file) and preparing it for `target`, textures looked for
    // in `textureFolders` after the model's own places. A load already running is abandoned: its
    // result is dropped when it finishes.
    void start(const std::string& path, const TargetCaps& target,
               const std::vector<std::string>& textureFolders = {});

    bool busy() const { return m_busy.load(); }
    // Progress of the running load: fraction 0..1 and a short stage label.
    void progress(float& fraction, std::string& stage) const;
    const std::string& path() const { return m_path; }

    // When the load has finished: moves its result into `result` (a scene, or problems) and returns
    // true, once. Returns false while it runs or when nothing was started.
    bool poll(LoadedScene& result);

    // Blocks until the running load (if any) has finished. Scripts use this for determinism.
    void wait();

private:
    void setStage(float fraction, std::string stage);

    std::thread m_thread;
    std::atomic<bool> m_busy{false};
    std::atomic<uint64_t> m_generation{0};
    mutable std::mutex m_mutex;  // guards the fields below
    float m_fraction = 0.0f;
    std::string m_stage;
    bool m_done = false;
    LoadedScene m_result;
    std::string m_path;
};

// Modification time and size of a file folded into one number, for noticing changes on disk;
// 0 when it cannot be read (missing file, "demo"). For `archive.vp:inner` the archive's stamp.
int64_t fileStamp(const std::string& path);

}  // namespace esv
