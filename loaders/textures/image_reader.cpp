// Stub: being written.
#include "loaders/textures/image_reader.h"

namespace esv {

bool readImage(const ByteView& bytes, Image& image, std::string& error) {
    (void)bytes; (void)image;
    error = "image reading is not implemented yet";
    return false;
}
bool readPvr(const ByteView& bytes, Image& image, std::string& error) { return readImage(bytes, image, error); }
bool readDds(const ByteView& bytes, Image& image, std::string& error) { return readImage(bytes, image, error); }
bool readWithStb(const ByteView& bytes, Image& image, std::string& error) { return readImage(bytes, image, error); }

}  // namespace esv
