#include "renderer/view_settings.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

namespace esv {

static constexpr const char* kViewModeNames[] = {"shaded", "wireframe", "normals", "weights",
                                                 "batches", "uv",        "unlit",   "colors",
                                                 "skindiff", "shaded-wire", "mip", "texel-density",
                                                 "overdraw", "overdraw-all"};
static_assert(sizeof(kViewModeNames) / sizeof(kViewModeNames[0]) == static_cast<size_t>(ViewMode::Count));

const char* viewModeName(ViewMode mode) { return kViewModeNames[static_cast<size_t>(mode)]; }

bool parseViewMode(const char* name, ViewMode& mode) {
    for (size_t i = 0; i < static_cast<size_t>(ViewMode::Count); ++i)
        if (std::strcmp(name, kViewModeNames[i]) == 0) {
            mode = static_cast<ViewMode>(i);
            return true;
        }
    return false;
}

namespace {

template <typename Enum, size_t N>
bool parseName(const char* name, const char* const (&names)[N], Enum& out) {
    for (size_t i = 0; i < N; ++i)
        if (std::strcmp(name, names[i]) == 0) {
            out = static_cast<Enum>(i);
            return true;
        }
    return false;
}

constexpr const char* kLightingNames[] = {"file", "studio", "both"};
static_assert(sizeof(kLightingNames) / sizeof(kLightingNames[0]) == static_cast<size_t>(Lighting::Count));
constexpr const char* kMissingTextureNames[] = {"grey", "checker"};
static_assert(sizeof(kMissingTextureNames) / sizeof(kMissingTextureNames[0]) ==
              static_cast<size_t>(MissingTexture::Count));

}  // namespace

const char* lightingName(Lighting lighting) { return kLightingNames[static_cast<size_t>(lighting)]; }
bool parseLighting(const char* name, Lighting& lighting) { return parseName(name, kLightingNames, lighting); }

const char* missingTextureName(MissingTexture missing) {
    return kMissingTextureNames[static_cast<size_t>(missing)];
}
bool parseMissingTexture(const char* name, MissingTexture& missing) {
    return parseName(name, kMissingTextureNames, missing);
}

glm::vec3 heatColor(float w) {
    w = std::min(std::max(w, 0.0f), 1.0f);
    return glm::clamp(glm::vec3(2.0f * w - 0.5f, 1.0f - std::abs(2.0f * w - 1.0f), 1.5f - 2.0f * w), 0.0f,
                      1.0f);
}

namespace {

// The batch colours: eight chosen by hand, then each next one the candidate of a 7x7x7 lattice
// (greys left out) farthest from every colour chosen so far (the first of equals), so that the 64
// stay apart (at least 0.18 in RGB) however many batches a mesh has.
std::array<glm::vec3, kBatchColorCount> makeBatchColors() {
    std::array<glm::vec3, kBatchColorCount> out{};
    const glm::dvec3 first[] = {{0.9, 0.3, 0.25}, {0.25, 0.75, 0.35}, {0.25, 0.45, 0.95}, {0.95, 0.8, 0.2},
                                {0.75, 0.35, 0.9}, {0.2, 0.85, 0.85},  {0.95, 0.55, 0.15}, {0.6, 0.6, 0.6}};
    std::vector<glm::dvec3> chosen(std::begin(first), std::end(first));
    std::vector<glm::dvec3> candidates;
    for (int r = 0; r < 7; ++r)
        for (int g = 0; g < 7; ++g)
            for (int b = 0; b < 7; ++b)
                if (!(r == g && g == b)) candidates.push_back(glm::dvec3(r, g, b) * (0.8 / 6.0) + 0.15);
    while (chosen.size() < kBatchColorCount) {
        double best = -1.0;
        size_t pick = 0;
        for (size_t c = 0; c < candidates.size(); ++c) {
            double nearest = 1e9;
            for (const glm::dvec3& x : chosen) nearest = std::min(nearest, glm::length(candidates[c] - x));
            if (nearest > best) best = nearest, pick = c;
        }
        chosen.push_back(candidates[pick]);
    }
    for (size_t i = 0; i < kBatchColorCount; ++i) out[i] = glm::vec3(chosen[i]);
    return out;
}

}  // namespace

glm::vec3 batchColor(size_t batch) {
    static const std::array<glm::vec3, kBatchColorCount> colors = makeBatchColors();
    return colors[batch % kBatchColorCount];
}

float resolvedSkinDiffRange(float setting, float boxDiagonal) {
    if (setting > 0.0f) return setting;
    return std::max(1e-3f * std::max(boxDiagonal, 0.0f), 1e-12f);
}

}  // namespace esv
