#include "renderer/view_settings.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace esv {

static constexpr const char* kViewModeNames[] = {"shaded", "wireframe", "normals", "weights",
                                                 "batches", "uv",        "unlit",   "colors",
                                                 "skindiff"};
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

glm::vec3 batchColor(size_t batch) {
    static const glm::vec3 kBatchColors[] = {
        {0.9f, 0.3f, 0.25f},  {0.25f, 0.75f, 0.35f}, {0.25f, 0.45f, 0.95f}, {0.95f, 0.8f, 0.2f},
        {0.75f, 0.35f, 0.9f}, {0.2f, 0.85f, 0.85f},  {0.95f, 0.55f, 0.15f}, {0.6f, 0.6f, 0.6f}};
    static_assert(sizeof(kBatchColors) / sizeof(kBatchColors[0]) == kBatchColorCount);
    return kBatchColors[batch % kBatchColorCount];
}

float resolvedSkinDiffRange(float setting, float boxDiagonal) {
    if (setting > 0.0f) return setting;
    return std::max(1e-3f * std::max(boxDiagonal, 0.0f), 1e-12f);
}

}  // namespace esv
