#include "app/viewer/scene_loader.h"

#include <chrono>
#include <filesystem>

#include "app/viewer/scene_source.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/textures/scene_textures.h"

namespace esv {

SceneLoader::~SceneLoader() {
    if (m_thread.joinable()) m_thread.join();
}

void SceneLoader::setStage(float fraction, std::string stage) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_fraction = fraction;
    m_stage = std::move(stage);
}

void SceneLoader::progress(float& fraction, std::string& stage) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    fraction = m_fraction;
    stage = m_stage;
}

void SceneLoader::start(const std::string& path, const TargetCaps& target,
                        const std::vector<std::string>& textureFolders) {
    // One worker at a time: a newer request waits for the older worker (its result is dropped).
    if (m_thread.joinable()) m_thread.join();
    const uint64_t generation = ++m_generation;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_done = false;
        m_result = LoadedScene{};
        m_fraction = 0.0f;
        m_stage = "reading";
        m_path = path;
    }
    m_busy = true;
    auto work = [this, path, target, generation, textureFolders] {
        using Clock = std::chrono::steady_clock;
        const auto since = [](Clock::time_point start) {
            return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        };
        Clock::time_point start = Clock::now();
        LoadResult result;
        if (isDemoName(path)) {
            setStage(0.5f, "building");
            result = openScene(path);
        } else {
            // The one file reader (mapped where the OS allows); archives read their member whole.
            result = loadSceneFile(path, {}, [&](float f) { setStage(0.4f * f, f < 1.0f ? "reading" : "parsing"); });
        }
        LoadedScene out;
        out.problems = std::move(result.problems);
        out.readMs = since(start);
        if (result.scene) {
            start = Clock::now();
            // The scene as loaded holds its images as stored; the target's decoding is preparation.
            if (!texturesRead(*result.scene))
                readSceneTextures(
                    *result.scene,
                    [&](size_t i, size_t n) {
                        setStage(0.6f + 0.2f * float(i) / float(n),
                                 "textures " + std::to_string(i + 1) + "/" + std::to_string(n));
                    },
                    textureFolders);
            out.texturesMs = since(start);
            start = Clock::now();
            out.loaded = std::move(result.scene);
            out.prepared = prepareForTarget(*out.loaded, target, [&](float fraction, const std::string& stage) {
                setStage(0.8f + 0.2f * fraction, stage);
            });
            out.prepareMs = since(start);
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        if (generation == m_generation.load()) {
            m_result = std::move(out);
            m_done = true;
            m_fraction = 1.0f;
            m_stage = "uploading";
        }
        m_busy = false;
    };
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    work();  // a browser without worker threads: the load runs in this frame
#else
    m_thread = std::thread(std::move(work));
#endif
}

bool SceneLoader::poll(LoadedScene& result) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_done) return false;
    m_done = false;
    result = std::move(m_result);
    m_result = LoadedScene{};
    return true;
}

void SceneLoader::wait() {
    if (m_thread.joinable()) m_thread.join();
}

int64_t fileStamp(const std::string& name) {
    if (isDemoName(name)) return 0;
    ArchivePath inside;
    const std::string path = splitArchivePath(name, inside) ? inside.archive : name;  // the archive's
    std::error_code ec;
    const auto time = std::filesystem::last_write_time(path, ec);
    if (ec) return 0;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return 0;
    // Unsigned arithmetic: the mix may wrap, and 0 stays reserved for "unreadable".
    const uint64_t mixed = uint64_t(time.time_since_epoch().count()) * 31u + uint64_t(size);
    return mixed == 0 ? 1 : int64_t(mixed & 0x7fffffffffffffffull);
}

}  // namespace esv
