// Paths shared by tests: the sample models (skip when absent, fail in CI) and the output folder for images.
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

// Ends the current test for want of something CI always has (the shared sample models,
// Xvfb, glslangValidator, astcenc): a skip in a developer build, a failure in a build
// configured with -DESVIEW_REQUIRE_SHARED=ON (what `.ci/run` does). Stream the reason into it.
#if ESVIEW_REQUIRE_SHARED
#define ESVIEW_SKIP_UNLESS_REQUIRED() GTEST_FAIL() << "missing, and ESVIEW_REQUIRE_SHARED is on: "
#else
#define ESVIEW_SKIP_UNLESS_REQUIRED() GTEST_SKIP()
#endif

// Skips the current test when the shared sample models are not beside the repository (fails
// instead with ESVIEW_REQUIRE_SHARED on).
#define ESVIEW_REQUIRE_MODELS(sub)                                                    \
    do {                                                                              \
        if (!std::filesystem::exists(::esv::test::modelsDir() / (sub)))               \
            ESVIEW_SKIP_UNLESS_REQUIRED()                                             \
                << "sample models not found at " << ::esv::test::modelsDir() / (sub); \
    } while (0)
