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

bool savePng(const std::string& path, const Image& image) {
    return stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4) != 0;
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
