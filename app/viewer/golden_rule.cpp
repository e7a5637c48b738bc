#include "app/viewer/golden_rule.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace esv::golden {

Image crop(const Image& image, int x0, int y0, int x1, int y1) {
    Image out;
    out.width = x1 - x0;
    out.height = y1 - y0;
    for (int y = y0; y < y1; ++y)
        out.rgba.insert(out.rgba.end(), image.rgba.begin() + (size_t(y) * image.width + x0) * 4,
                        image.rgba.begin() + (size_t(y) * image.width + x1) * 4);
    return out;
}

Rgb cornerBackground(const Image& image) {
    if (image.width <= 0 || image.height <= 0) return {};
    const size_t w = size_t(image.width), h = size_t(image.height);
    const size_t corners[4] = {0, (w - 1) * 4, (h - 1) * w * 4, ((h - 1) * w + w - 1) * 4};
    auto near = [&](size_t a, size_t b) {
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(image.rgba[a + c]) - int(image.rgba[b + c])) > 2) return false;
        return true;
    };
    size_t best = corners[0];
    int bestVotes = 0;
    for (size_t a : corners) {
        int votes = 0;
        for (size_t b : corners) votes += near(a, b);
        if (votes > bestVotes) best = a, bestVotes = votes;
    }
    return {image.rgba[best], image.rgba[best + 1], image.rgba[best + 2]};
}

bool isModelPixel(const Image& image, size_t i, const Rgb& background) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(int(image.rgba[i + c]) - int(background[c])) > kModelThreshold) return true;
    return false;
}

CompareResult compareImages(const Image& actual, const Image& expected, int tolerance) {
    return compareImages(actual, expected, tolerance, cornerBackground(expected));
}

CompareResult compareImages(const Image& actual, const Image& expected, int tolerance,
                            const Rgb& background) {
    CompareResult r;
    r.background = background;
    r.sameSize = actual.width == expected.width && actual.height == expected.height &&
                 actual.rgba.size() == expected.rgba.size();
    if (!r.sameSize) return r;
    size_t differing = 0;
    std::array<double, 3> sumActual{}, sumExpected{};
    r.maxDifference = 0;
    for (size_t i = 0; i < actual.rgba.size(); i += 4) {
        int worst = 0;
        for (int c = 0; c < 4; ++c)
            worst = std::max(worst, std::abs(int(actual.rgba[i + c]) - int(expected.rgba[i + c])));
        r.maxDifference = std::max(r.maxDifference, worst);
        differing += worst > tolerance;
        if (!isModelPixel(actual, i, background) && !isModelPixel(expected, i, background)) continue;
        ++r.modelPixels;
        r.modelDiffering += worst > tolerance;
        for (int c = 0; c < 3; ++c) {
            sumActual[c] += actual.rgba[i + c];
            sumExpected[c] += expected.rgba[i + c];
        }
    }
    const size_t pixels = actual.rgba.size() / 4;
    r.differingFraction = pixels ? double(differing) / double(pixels) : 0.0;
    r.modelFraction = r.modelPixels ? double(r.modelDiffering) / double(r.modelPixels) : 0.0;
    r.meanDifference = 0.0;
    for (int c = 0; c < 3; ++c) {
        r.meanActual[c] = r.modelPixels ? sumActual[c] / double(r.modelPixels) : 0.0;
        r.meanExpected[c] = r.modelPixels ? sumExpected[c] / double(r.modelPixels) : 0.0;
        r.meanDifference = std::max(r.meanDifference, std::abs(r.meanActual[c] - r.meanExpected[c]));
    }
    return r;
}

std::string brokenRules(const CompareResult& r, const GoldenRule& rule) {
    if (!r.sameSize) return "image sizes differ";
    std::ostringstream out;
    out << std::setprecision(3);
    const char* separator = "";
    if (r.modelFraction > rule.maxModelFraction) {
        out << separator << "model pixels beyond " << rule.tolerance << " levels: " << r.modelFraction * 100.0
            << "% of " << r.modelPixels << " (allowed " << rule.maxModelFraction * 100.0 << "%)";
        separator = "; ";
    }
    if (r.differingFraction > rule.maxPictureFraction) {
        out << separator << "picture pixels beyond " << rule.tolerance
            << " levels: " << r.differingFraction * 100.0 << "% (allowed " << rule.maxPictureFraction * 100.0
            << "%)";
        separator = "; ";
    }
    if (r.meanDifference > rule.maxMeanDifference) {
        out << separator << "model mean colour off by " << r.meanDifference << " levels (allowed "
            << rule.maxMeanDifference << "): actual " << std::fixed << std::setprecision(1) << r.meanActual[0]
            << "," << r.meanActual[1] << "," << r.meanActual[2] << " golden " << r.meanExpected[0] << ","
            << r.meanExpected[1] << "," << r.meanExpected[2];
    }
    return out.str();
}

Image diffImage(const Image& actual, const Image& expected, int tolerance) {
    Image diff = expected;
    for (size_t i = 0; i < diff.rgba.size(); i += 4) {
        int worst = 0;
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(int(actual.rgba[i + c]) - int(expected.rgba[i + c])));
        if (worst > tolerance) {
            diff.rgba[i] = 255;
            diff.rgba[i + 1] = diff.rgba[i + 2] = 0;
        } else {
            for (int c = 0; c < 3; ++c) diff.rgba[i + c] = static_cast<uint8_t>(diff.rgba[i + c] / 3);
        }
        diff.rgba[i + 3] = 255;
    }
    return diff;
}

Image differenceImage(const Image& a, const Image& b, int tolerance) {
    Image out = a;
    for (size_t i = 0; i + 3 < out.rgba.size() && i + 3 < b.rgba.size(); i += 4) {
        int worst = 0;
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])));
        if (worst > tolerance) {
            const int over = std::min(worst - tolerance, kDifferenceFullRed);
            out.rgba[i] = static_cast<uint8_t>(128 + 127 * over / kDifferenceFullRed);
            out.rgba[i + 1] = out.rgba[i + 2] = 0;
        } else {
            const int grey = (int(a.rgba[i]) + a.rgba[i + 1] + a.rgba[i + 2]) / 6;
            out.rgba[i] = out.rgba[i + 1] = out.rgba[i + 2] = static_cast<uint8_t>(grey);
        }
        out.rgba[i + 3] = 255;
    }
    return out;
}

}  // namespace esv::golden
