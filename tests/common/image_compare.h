// Image comparison for rendering tests. The model covers a small part of each picture, so the rule
// is measured over the model's pixels: a per-channel tolerance, a maximum fraction of model pixels
// beyond it, and the model's mean colour. A failed comparison writes the actual and a diff image
// next to the build.
#pragma once

#include <array>
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
// The part of `image` in [x0, x1) x [y0, y1) (inside the image).
Image crop(const Image& image, int x0, int y0, int x1, int y1);

using Rgb = std::array<uint8_t, 3>;

// The background colour of a render: the colour most of the four corners share (the first corner
// when no two agree).
Rgb cornerBackground(const Image& image);

// A pixel is "model" when its worst RGB channel differs from the background by more than this.
// Anti-aliased edge pixels with less coverage are indistinguishable from the background within
// the per-pixel tolerance, so they are left to the whole-picture bound.
constexpr int kModelThreshold = 8;

// True when the pixel at byte offset `i` of `image` differs from `background` beyond kModelThreshold.
bool isModelPixel(const Image& image, size_t i, const Rgb& background);

struct CompareResult {
    bool sameSize = false;
    int maxDifference = 255;         // worst channel of any pixel, alpha included
    double differingFraction = 1.0;  // of all pixels: any channel beyond the tolerance
    size_t modelPixels = 0;          // pixels either image covers with the model
    double modelFraction = 1.0;      // of the model pixels: any channel beyond the tolerance
    Rgb background{};                // the one the model pixels were measured against
    std::array<double, 3> meanActual{}, meanExpected{};  // RGB over the model pixels
    double meanDifference = 255.0;                       // worst channel |meanActual - meanExpected|
};

// Compares two images pixel by pixel with a per-channel `tolerance` (levels, 0-255). Model pixels
// are those that differ from `background` in either image; without one, it is taken from
// `expected`'s corners.
CompareResult compareImages(const Image& actual, const Image& expected, int tolerance);
CompareResult compareImages(const Image& actual, const Image& expected, int tolerance, const Rgb& background);

// What a render must meet against its golden image. The defaults are what llvmpipe renders need
// across the golden cases with margin (tests/gles_render/golden_rule_test.cpp shows that darkening,
// greyscale, a one-pixel shift, a wrong frame or a missing texture each break them).
struct GoldenRule {
    int tolerance = 10;                // per channel, levels
    double maxModelFraction = 0.02;    // of the model pixels beyond the tolerance
    double maxPictureFraction = 0.01;  // of all pixels beyond the tolerance
    double maxMeanDifference = 3.0;    // levels, worst channel of the model's mean colour
};

// The rules `r` breaks, in one line ("model pixels beyond 10 levels: 4.1% (allowed 2%); ..."),
// or an empty string when it meets them all.
std::string brokenRules(const CompareResult& r, const GoldenRule& rule);

// The difference image of two images of one size: pixels with an RGB channel beyond `tolerance` in
// red over a dimmed copy of `expected`.
Image diffImage(const Image& actual, const Image& expected, int tolerance);

// True only when ESVIEW_UPDATE_GOLDEN is exactly "1": the golden images are then rewritten
// instead of compared. Any other value, or none, means compare.
bool updatingGoldens();

// Compares `actual` with the golden image tests/golden/<name>.png under `rule`. When
// updatingGoldens() it (re)writes the golden image instead. On a mismatch it writes
// <name>.actual.png and <name>.diff.png into the test output folder and returns a one-line message
// naming the broken rule, by how much, and the files; an empty string means the images match.
// With ESVIEW_GOLDEN_STATS=1 it prints the measures of every comparison to stderr.
std::string matchGolden(const std::string& name, const Image& actual, const GoldenRule& rule = {});

// matchGolden's comparison with the golden image already loaded as `expected`; `name` names the
// files written on a mismatch.
std::string matchImage(const std::string& name, const Image& actual, const Image& expected,
                       const GoldenRule& rule = {});

}  // namespace esv::test
