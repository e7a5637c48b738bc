// Entry points of the format readers, called by loadSceneMemory after format detection.
// Each returns a scene (with its import report) or problems; it never throws and never reads
// outside `bytes`. Validation of the finished scene is done by the caller.
#pragma once

#include "loaders/load.h"

namespace esv {

LoadResult loadPod(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                   const LoadOptions& options);
LoadResult loadOpenGex(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                       const LoadOptions& options);
// The same for text owned by anything (loadSceneFile passes a mapped file): OpenGEX keeps no view
// into the text once the scene is built, so the text need not be a vector.
// With `parsed` set, the parsed document (and with it `owner`) is handed over there instead of
// being freed before the return, so that the caller can free it beside other work.
LoadResult loadOpenGex(std::shared_ptr<const void> owner, const uint8_t* data, size_t size, const std::string& path,
                       const LoadOptions& options, std::shared_ptr<void>* parsed = nullptr);

LoadResult loadAwd(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                   const LoadOptions& options);

// glTF 2.0: a .glb (binary container) or .gltf (JSON, buffers and images beside it or in data URIs).
// The same for bytes owned by anything (format_table.h's loadRead); `parsed` is not used.
LoadResult loadGltfRead(std::shared_ptr<const void> owner, const uint8_t* data, size_t size, const std::string& path,
                        const LoadOptions& options, std::shared_ptr<void>* parsed);
LoadResult loadGltf(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                    const LoadOptions& options);
// The files beside it a glTF names (buffers and images by relative URI, percent escapes decoded, in
// file order, each once), read from its JSON without loading it: what a host that fetches files
// one by one (the web page) must fetch before the model loads. Empty for a file that is not glTF
// or whose JSON does not parse.
std::vector<std::string> gltfReferencedFiles(const uint8_t* data, size_t size);

LoadResult loadPof(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                   const LoadOptions& options);

}  // namespace esv
