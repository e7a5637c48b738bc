// Image comparison for rendering tests. The model covers a small part of each picture, so the rule
// is measured over the model's pixels: a per-channel tolerance, a maximum fraction of model pixels
// beyond it, and the model's mean colour. A failed comparison writes the actual and a diff image
// next to the build.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "app/viewer/golden_rule.h"

namespace esv::test {

// The rule itself and the picture type live in app/viewer/golden_rule.h, which `esview compare` shares.
using golden::Image;

bool loadPng(const std::string& path, Image& image);
bool savePng(const std::string& path, const Image& image);
using golden::brokenRules;
using golden::compareImages;
using golden::CompareResult;
using golden::cornerBackground;
using golden::crop;
using golden::diffImage;
using golden::GoldenRule;
using golden::isModelPixel;
using golden::kModelThreshold;
using golden::Rgb;

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
