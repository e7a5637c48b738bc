// Loading scenes from files: format detection, dispatch to the format readers (both through the
// table in format_table.h), validation.
// Loaders never touch GL; they return a plain Scene plus an import report, or problems.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "loaders/format_table.h"
#include "scene/scene.h"

namespace esv {

// One thing wrong with an input. Formats with byte offsets set `offset`; text formats set
// `line`/`column`. `where` is a context path such as "scene / mesh 2 / normal list".
struct Problem {
    std::string file;
    int64_t offset = -1;  // -1 = none
    int line = 0;         // 0 = none
    int column = 0;
    std::string where;
    std::string message;

    // "file: offset 0x1A4: mesh 2 / normal list: stride 8 is smaller than 3 floats"
    std::string format() const;
};

struct LoadResult {
    std::unique_ptr<Scene> scene;  // null when loading failed
    std::vector<Problem> problems; // errors (load failed) or spec violations found by check mode
    bool ok() const { return scene != nullptr && problems.empty(); }
};

// One file read out of a container (format_table.h, ContainerInfo::readMember): its bytes, or the
// problems that stopped the read (a problem with an empty `file` is about the requested member:
// the caller names it); and, for a read that worked, the container's own problems as one warning
// sentence (empty for a clean container).
struct ContainerRead {
    std::shared_ptr<const std::vector<uint8_t>> bytes;
    std::vector<Problem> problems;
    std::string warning;
};

struct LoadOptions {
    // check mode: keep going after the first problem where the format allows, and validate fully.
    bool collectAll = false;
};

// Told how far a file has been read: the fraction 0..1 of its bytes, from the reading thread.
using ReadProgress = std::function<void(float fraction)>;

// Reads the whole file at `path` and loads it: the one way a model file is read (the viewer, the
// command line, benchmarks). The file is mapped where the OS allows; a format that keeps nothing
// of the bytes (OpenGEX) parses the mapping, the others get a copy their scene owns. With
// `progress` the pages are read in 4 MiB steps, each reported. Never throws; I/O errors are
// problems too. `archive.vp:inner/path` loads a file inside a FreeSpace VP archive
// (loaders/archive); a bare archive is a problem that names the models inside it.
LoadResult loadSceneFile(const std::string& path, const LoadOptions& options = {}, const ReadProgress& progress = {});

// Loads from bytes already in memory; `bytes` is kept alive by the scene's vertex views.
LoadResult loadSceneMemory(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                           const LoadOptions& options = {});

// Reads a file (or `archive.vp:inner/path`) into a shared buffer, through a mapping where the OS
// allows, reporting progress as loadSceneFile does. Returns null and fills `error` on failure.
std::shared_ptr<const std::vector<uint8_t>> readWholeFile(const std::string& path, std::string& error,
                                                          const ReadProgress& progress = {});

// Range-checks every index, count, stride, offset and reference of a scene (whatever produced it).
// Appends one problem per violation; `file` names the source in the problems.
void validateScene(const Scene& scene, const std::string& file, std::vector<Problem>& problems);

}  // namespace esv
