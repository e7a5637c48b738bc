// Image comparison for rendering tests: per-channel tolerance plus a maximum fraction of pixels
// allowed to differ. A failed comparison writes the actual and a diff image next to the build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace esv::test {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // top row first
};

bool loadPng(const std::string& path, Image& image);
bool savePng(const std::string& path, const Image& image);

struct CompareResult {
    bool sameSize = false;
    double differingFraction = 1.0;  // pixels with any channel beyond the tolerance
    int maxDifference = 255;
};

CompareResult compareImages(const Image& actual, const Image& expected, int tolerance);

// Compares `actual` with the golden image tests/golden/<name>.png. With ESVIEW_UPDATE_GOLDEN=1
// in the environment it (re)writes the golden image instead. On a mismatch it writes
// <name>.actual.png and <name>.diff.png into the test output folder and returns a message naming
// them; an empty string means the images match.
std::string matchGolden(const std::string& name, const Image& actual, int tolerance, double maxFraction);

}  // namespace esv::test
