#include "app/viewer/png_file.h"

#include <stb_image_write.h>

namespace esv {

bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba) {
    if (rgba.size() < size_t(width) * size_t(height) * 4) return false;
    return stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4) != 0;
}

}  // namespace esv
