// Paths shared by tests: the sample models (skip when absent) and the output folder for images.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace esv::test {

inline std::filesystem::path sharedDir() { return ESVIEW_SHARED_DIR; }
inline std::filesystem::path modelsDir() { return sharedDir() / "models"; }
inline std::filesystem::path sourceDir() { return ESVIEW_SOURCE_DIR; }
inline std::filesystem::path outputDir() {
    std::filesystem::path dir = ESVIEW_TEST_OUTPUT_DIR;
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace esv::test

// Skips the current test when the shared sample models are not beside the repository.
#define ESVIEW_REQUIRE_MODELS(sub)                                                        \
    do {                                                                                  \
        if (!std::filesystem::exists(::esv::test::modelsDir() / (sub)))                   \
            GTEST_SKIP() << "sample models not found at " << ::esv::test::modelsDir() / (sub); \
    } while (0)
