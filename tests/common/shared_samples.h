// Every shared sample model of the four formats (../shared/models/{pod,awd,ogex,pof}), for the
// tests that sweep them all. Link `loaders` (the format table decides what is a model file).
#pragma once

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include "common/test_paths.h"
#include "loaders/format_table.h"

namespace esv::test {

// The model files under the shared models folder, in a stable (sorted) order; empty without
// ../shared (callers use ESVIEW_REQUIRE_MODELS to skip or fail).
inline std::vector<std::filesystem::path> sharedModelFiles() {
    std::vector<std::filesystem::path> files;
    for (const char* folder : {"pod", "awd", "ogex", "pof"}) {
        const std::filesystem::path dir = modelsDir() / folder;
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) continue;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
            if (entry.is_regular_file() && hasModelExtension(entry.path().string()))
                files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace esv::test
