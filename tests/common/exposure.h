// The luminance budget of a first look at a model (issue 23): of the model's pixels, at most 20%
// darker than luminance 25 and at most 10% brighter than 245 (Rec. 709 weights on 0-255 levels).
// The model's pixels are those that differ from the background colour by more than
// kModelThreshold levels in a channel: a model pixel of the background's own colour (a dim grey) is
// neither dark nor blown, so leaving it out can only make the fractions larger.
#pragma once

#include <algorithm>
#include <cstddef>

#include "common/image_compare.h"

namespace esv::test {

constexpr double kDarkLuminance = 25.0, kBlownLuminance = 245.0;
constexpr double kMaxDark = 0.20, kMaxBlown = 0.10;

struct Exposure {
    size_t modelPixels = 0;
    double dark = 0.0, blown = 0.0;  // fractions of the model pixels
    bool withinBudget() const { return dark <= kMaxDark && blown <= kMaxBlown; }
};

// Measures the model's pixels of `image` inside [x0, x1) x [y0, y1) (clamped to the image) against
// `background`.
inline Exposure measureExposure(const Image& image, const Rgb& background, int x0, int y0, int x1, int y1) {
    x0 = std::max(x0, 0), y0 = std::max(y0, 0);
    x1 = std::min(x1, image.width), y1 = std::min(y1, image.height);
    Exposure e;
    size_t dark = 0, blown = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const size_t i = (size_t(y) * size_t(image.width) + size_t(x)) * 4;
            if (!isModelPixel(image, i, background)) continue;
            ++e.modelPixels;
            const uint8_t* p = &image.rgba[i];
            const double luminance = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
            dark += luminance < kDarkLuminance ? 1 : 0;
            blown += luminance > kBlownLuminance ? 1 : 0;
        }
    if (e.modelPixels > 0) {
        e.dark = double(dark) / double(e.modelPixels);
        e.blown = double(blown) / double(e.modelPixels);
    }
    return e;
}

inline Exposure measureExposure(const Image& image, const Rgb& background) {
    return measureExposure(image, background, 0, 0, image.width, image.height);
}

}  // namespace esv::test
