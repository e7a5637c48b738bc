// compare_images ACTUAL.png EXPECTED.png [--diff DIFF.png] [--tolerance N] [--model-fraction F]
//                [--picture-fraction F] [--mean-difference L]
// The rendering tests' golden rule (common/image_compare.h, GoldenRule's defaults unless an option
// loosens one) for tests outside C++ (tests/web/web_test.py compares the browser's pictures with the
// native viewer's). Prints one line: "match: ..." with the measures, or "differs: " and the broken
// rules; on a mismatch of same-sized images it writes the difference image to --diff.
// Exit code 0: the images match; 1: they differ; 2: bad arguments or an unreadable image.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/image_compare.h"

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: compare_images ACTUAL.png EXPECTED.png [--diff DIFF.png] [--tolerance N] "
                 "[--model-fraction F] [--picture-fraction F] [--mean-difference L]\n");
    return 2;
}

bool number(const char* text, double& value) {
    char* end = nullptr;
    value = std::strtod(text, &end);
    return end != text && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
    std::string paths[2], diffPath;
    int positional = 0;
    esv::test::GoldenRule rule;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0) {
            if (positional == 2) return usage();
            paths[positional++] = arg;
            continue;
        }
        if (i + 1 >= argc) return usage();
        const char* value = argv[++i];
        double v = 0.0;
        if (arg == "--diff")
            diffPath = value;
        else if (!number(value, v) || v < 0.0)
            return usage();
        else if (arg == "--tolerance")
            rule.tolerance = int(v);
        else if (arg == "--model-fraction")
            rule.maxModelFraction = v;
        else if (arg == "--picture-fraction")
            rule.maxPictureFraction = v;
        else if (arg == "--mean-difference")
            rule.maxMeanDifference = v;
        else
            return usage();
    }
    if (positional != 2) return usage();
    esv::test::Image actual, expected;
    for (int i = 0; i < 2; ++i)
        if (!esv::test::loadPng(paths[i], i == 0 ? actual : expected)) {
            std::fprintf(stderr, "compare_images: cannot read %s\n", paths[i].c_str());
            return 2;
        }
    const esv::test::CompareResult r = esv::test::compareImages(actual, expected, rule.tolerance);
    const std::string broken = esv::test::brokenRules(r, rule);
    if (!r.sameSize) {
        std::printf("differs: size %dx%d, expected %dx%d\n", actual.width, actual.height, expected.width,
                    expected.height);
        return 1;
    }
    char measures[200];
    std::snprintf(measures, sizeof(measures),
                  "worst pixel %d, %zu model pixels, %.2f%% of them beyond %d levels, %.2f%% of the picture, "
                  "mean colour off %.2f",
                  r.maxDifference, r.modelPixels, r.modelFraction * 100.0, rule.tolerance,
                  r.differingFraction * 100.0, r.meanDifference);
    if (broken.empty()) {
        std::printf("match: %s\n", measures);
        return 0;
    }
    if (!diffPath.empty() &&
        !esv::test::savePng(diffPath, esv::test::diffImage(actual, expected, rule.tolerance))) {
        std::fprintf(stderr, "compare_images: cannot write %s\n", diffPath.c_str());
        return 2;
    }
    std::printf("differs: %s; %s\n", broken.c_str(), measures);
    return 1;
}
