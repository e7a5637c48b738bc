// PNG files of RGBA8 pictures: the viewer's screenshots, `esview render` and `esview thumbnail`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace esv {

// Writes tightly packed RGBA8 rows (top row first) as a PNG. Returns false on I/O failure.
bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace esv
