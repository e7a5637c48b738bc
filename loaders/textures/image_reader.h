// Reading image files into scene Images, the container chosen by magic bytes, never by extension
// (several sample ".bmp" files are PNGs): stb_image (PNG, JPEG, TGA, BMP, GIF, PSD, HDR, PIC),
// binary PGM/PPM, PVR version 3 and the legacy version 2 container, DDS, KTX 1.1 and KTX 2.0, PCX. Every read is bounds-checked; a bad
// file is a one-line error, never a crash or an unbounded allocation.
#pragma once

#include <string>

#include "scene/image.h"

namespace esv {

// Reads an image held in `bytes`. Compressed surfaces are views into `bytes` (no copy);
// uncompressed pixel formats (RGB565, RGBA4444, LA88, L8, A8, channel orders, ...) are converted
// to RGBA8 with a note in image.notes. Returns false with `error` (one line, with the byte offset
// where it applies; `name` is not repeated in it) when the data is not a readable image.
bool readImage(const ByteView& bytes, Image& image, std::string& error);

// Container readers behind readImage (exposed for tests and the fuzzer).
bool readPvr(const ByteView& bytes, Image& image, std::string& error);  // version 2 or 3
bool readDds(const ByteView& bytes, Image& image, std::string& error);
bool readKtx(const ByteView& bytes, Image& image, std::string& error);   // KTX 1.1, either byte order
bool readKtx2(const ByteView& bytes, Image& image, std::string& error);  // KTX 2.0
bool readPcx(const ByteView& bytes, Image& image, std::string& error);  // always RGBA8
bool readPnm(const ByteView& bytes, Image& image, std::string& error);  // P5, P6; always RGBA8
bool readWithStb(const ByteView& bytes, Image& image, std::string& error);

}  // namespace esv
