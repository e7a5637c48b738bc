#include "loaders/formats.h"

namespace esv {

// Placeholder until the POD reader lands: reports the file as unsupported.
LoadResult loadPod(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                   const LoadOptions&) {
    LoadResult result;
    (void)bytes;
    result.problems.push_back({path, 0, 0, 0, "", "the POD reader is not part of this build yet"});
    return result;
}

}  // namespace esv
