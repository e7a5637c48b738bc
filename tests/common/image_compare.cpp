#include "common/image_compare.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
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

CompareResult compareImages(const Image& actual, const Image& expected, int tolerance) {
    CompareResult r;
    r.sameSize = actual.width == expected.width && actual.height == expected.height &&
                 actual.rgba.size() == expected.rgba.size();
    if (!r.sameSize) return r;
    size_t differing = 0;
    r.maxDifference = 0;
    for (size_t i = 0; i < actual.rgba.size(); i += 4) {
        int worst = 0;
        for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(int(actual.rgba[i + c]) - int(expected.rgba[i + c])));
        r.maxDifference = std::max(r.maxDifference, worst);
        differing += worst > tolerance;
    }
    r.differingFraction = actual.rgba.empty() ? 0.0 : double(differing) / double(actual.rgba.size() / 4);
    return r;
}

std::string matchGolden(const std::string& name, const Image& actual, int tolerance, double maxFraction) {
    const std::filesystem::path golden = sourceDir() / "tests" / "golden" / (name + ".png");
    const char* update = std::getenv("ESVIEW_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        savePng(golden.string(), actual);
        return {};
    }
    Image expected;
    const std::filesystem::path actualPath = outputDir() / (name + ".actual.png");
    if (!loadPng(golden.string(), expected)) {
        savePng(actualPath.string(), actual);
        return "no golden image " + golden.string() + " (actual written to " + actualPath.string() + ")";
    }
    const CompareResult r = compareImages(actual, expected, tolerance);
    if (r.sameSize && r.differingFraction <= maxFraction) return {};
    savePng(actualPath.string(), actual);
    std::ostringstream message;
    if (!r.sameSize) {
        message << name << ": size " << actual.width << "x" << actual.height << " differs from the golden "
                << expected.width << "x" << expected.height;
    } else {
        // Diff image: differing pixels in red over a dimmed copy of the golden image.
        Image diff = expected;
        for (size_t i = 0; i < diff.rgba.size(); i += 4) {
            int worst = 0;
            for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(actual.rgba[i + c]) - int(expected.rgba[i + c])));
            if (worst > tolerance) {
                diff.rgba[i] = 255;
                diff.rgba[i + 1] = diff.rgba[i + 2] = 0;
            } else {
                for (int c = 0; c < 3; ++c) diff.rgba[i + c] = static_cast<uint8_t>(diff.rgba[i + c] / 3);
            }
            diff.rgba[i + 3] = 255;
        }
        const std::filesystem::path diffPath = outputDir() / (name + ".diff.png");
        savePng(diffPath.string(), diff);
        message << name << ": " << r.differingFraction * 100.0 << "% of pixels differ by more than " << tolerance
                << " (allowed " << maxFraction * 100.0 << "%, worst " << r.maxDifference << "); actual "
                << actualPath.string() << ", diff " << diffPath.string();
    }
    return message.str();
}

}  // namespace esv::test
