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

}  // namespace esv
