// Stub: being written.
#include "loaders/textures/texture_lookup.h"

namespace esv {

std::string resolveTexturePath(const std::string& modelPath, const std::string& name, std::vector<std::string>* searched) {
    (void)modelPath; (void)name; (void)searched;
    return {};
}

}  // namespace esv
