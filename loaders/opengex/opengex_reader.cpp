// OpenGEX 3.0 reader: implementation in progress.
#include "loaders/formats.h"

namespace esv {

LoadResult loadOpenGex(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                       const LoadOptions& options) {
    (void)bytes;
    (void)options;
    LoadResult result;
    result.problems.push_back({path, -1, 0, 0, "", "OpenGEX reading is not finished"});
    return result;
}

}  // namespace esv
