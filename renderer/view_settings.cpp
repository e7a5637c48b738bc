#include "renderer/view_settings.h"

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

}  // namespace esv
