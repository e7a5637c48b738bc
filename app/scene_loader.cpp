#include "app/scene_loader.h"

#include <cstdio>
#include <filesystem>
#include <vector>

#include "app/scene_source.h"
#include "loaders/archive/vp_archive.h"
#include "loaders/textures/scene_textures.h"

namespace esv {
namespace {

// Reads `path` in 4 MiB chunks, reporting the fraction read. Same failures as readWholeFile.
std::shared_ptr<const std::vector<uint8_t>> readWithProgress(const std::string& path, std::string& error,
                                                             const std::function<void(float)>& report) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        error = "cannot open file";
        return nullptr;
    }
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) {
        std::fclose(f);
        error = "cannot read the file size";
        return nullptr;
    }
    auto bytes = std::make_shared<std::vector<uint8_t>>();
    try {
        bytes->resize(size_t(size));
    } catch (const std::bad_alloc&) {
        std::fclose(f);
        error = "file too large to read into memory (" + std::to_string(size) + " bytes)";
        return nullptr;
    }
    constexpr size_t kChunk = size_t(4) << 20;
    size_t done = 0;
    while (done < bytes->size()) {
        const size_t want = std::min(kChunk, bytes->size() - done);
        const size_t got = std::fread(bytes->data() + done, 1, want, f);
        done += got;
        if (got != want) break;
        report(float(done) / float(bytes->size()));
    }
    std::fclose(f);
    if (done != bytes->size()) {
        error = "read " + std::to_string(done) + " of " + std::to_string(bytes->size()) + " bytes";
        return nullptr;
    }
    return bytes;
}

}  // namespace

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

void SceneLoader::start(const std::string& path, const TargetCaps& target) {
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
    m_thread = std::thread([this, path, target, generation] {
        LoadResult result;
        ArchivePath inside;
        if (isDemoName(path)) {
            setStage(0.5f, "building");
            result = openScene(path);
        } else if (splitArchivePath(path, inside) || isVpArchiveFile(path)) {
            // A file inside a VP archive: one read of its bytes (archives hold small files; the
            // archive's own problems become a warning there).
            setStage(0.2f, "reading from the archive");
            result = loadSceneFile(path);
        } else {
            std::string error;
            auto bytes = readWithProgress(path, error, [&](float f) { setStage(0.4f * f, "reading"); });
            if (!bytes) {
                Problem p;
                p.file = path;
                p.message = error;
                result.problems.push_back(p);
            } else {
                setStage(0.4f, "parsing");
                result = loadSceneMemory(bytes, path);
            }
        }
        LoadedScene out;
        out.problems = std::move(result.problems);
        if (result.scene) {
            // The scene as loaded holds its images as stored; the target's decoding is preparation.
            if (!texturesRead(*result.scene))
                readSceneTextures(*result.scene, [&](size_t i, size_t n) {
                    setStage(0.6f + 0.2f * float(i) / float(n),
                             "textures " + std::to_string(i + 1) + "/" + std::to_string(n));
                });
            out.loaded = std::move(result.scene);
            out.prepared = prepareForTarget(*out.loaded, target, [&](float fraction, const std::string& stage) {
                setStage(0.8f + 0.2f * fraction, stage);
            });
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        if (generation == m_generation.load()) {
            m_result = std::move(out);
            m_done = true;
            m_fraction = 1.0f;
            m_stage = "uploading";
        }
        m_busy = false;
    });
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
