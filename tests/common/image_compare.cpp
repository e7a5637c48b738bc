#include "common/image_compare.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <stb_image.h>
#include <stb_image_write.h>

#include "common/test_paths.h"

namespace esv::test {

bool loadPng(const std::string& path, Image& image) {
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4);
    if (!data) return false;
    image.rgba.assign(data, data + size_t(image.width) * image.height * 4);
    stbi_image_free(data);
    return true;
}

Image crop(const Image& image, int x0, int y0, int x1, int y1) {
    Image out;
    out.width = x1 - x0;
    out.height = y1 - y0;
    for (int y = y0; y < y1; ++y)
        out.rgba.insert(out.rgba.end(), image.rgba.begin() + (size_t(y) * image.width + x0) * 4,
                        image.rgba.begin() + (size_t(y) * image.width + x1) * 4);
    return out;
}

bool savePng(const std::string& path, const Image& image) {
    return stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4) != 0;
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
    size_t differing = 0, modelDiffering = 0;
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
        modelDiffering += worst > tolerance;
        for (int c = 0; c < 3; ++c) {
            sumActual[c] += actual.rgba[i + c];
            sumExpected[c] += expected.rgba[i + c];
        }
    }
    const size_t pixels = actual.rgba.size() / 4;
    r.differingFraction = pixels ? double(differing) / double(pixels) : 0.0;
    r.modelFraction = r.modelPixels ? double(modelDiffering) / double(r.modelPixels) : 0.0;
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

bool updatingGoldens() {
    const char* update = std::getenv("ESVIEW_UPDATE_GOLDEN");
    return update && std::string(update) == "1";
}

namespace {

// One line of measures for choosing the rule: the model fraction at several tolerances.
void printStats(const std::string& name, const Image& actual, const Image& expected, const GoldenRule& rule) {
    const CompareResult r = compareImages(actual, expected, rule.tolerance);
    std::ostringstream line;
    line << std::setprecision(3) << "golden stats " << name << ": worst " << r.maxDifference << ", model "
         << r.modelPixels << " px (" << 100.0 * double(r.modelPixels) / double(actual.rgba.size() / 4)
         << "%), mean off " << r.meanDifference << ", model fraction beyond";
    for (int tolerance : {2, 4, 6, 8, 10, 12, 16, 24})
        line << " " << tolerance << ":" << compareImages(actual, expected, tolerance).modelFraction * 100.0
             << "%";
    line << ", picture fraction beyond " << rule.tolerance << ": " << r.differingFraction * 100.0 << "%\n";
    std::cerr << line.str();
}

}  // namespace

std::string matchGolden(const std::string& name, const Image& actual, const GoldenRule& rule) {
    const std::filesystem::path golden = sourceDir() / "tests" / "golden" / (name + ".png");
    if (updatingGoldens()) {
        savePng(golden.string(), actual);
        return {};
    }
    Image expected;
    if (!loadPng(golden.string(), expected)) {
        const std::filesystem::path actualPath = outputDir() / (name + ".actual.png");
        savePng(actualPath.string(), actual);
        return "no golden image " + golden.string() + " (actual written to " + actualPath.string() + ")";
    }
    return matchImage(name, actual, expected, rule);
}

std::string matchImage(const std::string& name, const Image& actual, const Image& expected,
                       const GoldenRule& rule) {
    const std::filesystem::path actualPath = outputDir() / (name + ".actual.png");
    const CompareResult r = compareImages(actual, expected, rule.tolerance);
    const char* stats = std::getenv("ESVIEW_GOLDEN_STATS");
    if (stats && std::string(stats) == "1" && r.sameSize) printStats(name, actual, expected, rule);
    const std::string broken = brokenRules(r, rule);
    if (broken.empty()) return {};
    savePng(actualPath.string(), actual);
    std::ostringstream message;
    if (!r.sameSize) {
        message << name << ": size " << actual.width << "x" << actual.height << " differs from the golden "
                << expected.width << "x" << expected.height;
    } else {
        const std::filesystem::path diffPath = outputDir() / (name + ".diff.png");
        savePng(diffPath.string(), diffImage(actual, expected, rule.tolerance));
        message << name << ": " << broken << "; worst pixel " << r.maxDifference << "; actual "
                << actualPath.string() << ", diff " << diffPath.string();
    }
    return message.str();
}

}  // namespace esv::test
