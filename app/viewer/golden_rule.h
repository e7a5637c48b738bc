// The golden rule: how two renders of one scene are judged alike, shared by the rendering tests
// (tests/common/image_compare.h) and `esview compare`. No GL and no files: plain RGBA8 pictures.
// The model covers a small part of each picture, so the rule is measured over the model's pixels:
// a per-channel tolerance, a maximum fraction of model pixels beyond it, and the model's mean colour.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace esv::golden {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // top row first
};

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
    size_t modelDiffering = 0;       // of those, the ones with any channel beyond the tolerance
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

// `esview compare`'s difference image of two images of one size: `a` in grey at half brightness
// (the mean of its RGB halved), and each pixel whose worst RGB channel differs by more than
// `tolerance` in red, from 128 at a difference just beyond the tolerance to 255 at 64 levels beyond it or
// more (green and blue 0); alpha 255.
inline constexpr int kDifferenceFullRed = 64;
Image differenceImage(const Image& a, const Image& b, int tolerance);

}  // namespace esv::golden
