// Finding the file a model's texture name refers to.
#pragma once

#include <string>
#include <vector>

namespace esv {

// Resolves `name` (as written in the model file at `modelPath`: any case, maybe a Windows path,
// maybe another extension or none) to an existing file. Tries, in order: next to the model, then
// in the common subfolders (textures/, maps/, ...), each case-insensitively, first with the name's
// own extension then with the other known image extensions (.pvr, .ktx, .ktx2, .png, .dds, .tga,
// .jpg, .jpeg, .bmp, ..., .pcx). FreeSpace layouts come next: data/maps beside data/models, then the data/maps
// folder of the VP archives in the game folder, data/ and the model's folder. A model inside an
// archive (`archive.vp:data/models/x.pof`) looks in that archive first (data/maps, its own folder),
// then loose files beside the archive, then the other archives there (README.md has the order and
// where it comes from). `extraFolders` (the user's texture search path) are searched last, in
// order. Returns the path found (`archive.vp:data/maps/x.dds` for a file inside an archive, which
// readWholeFile reads), or an empty string; `searched` lists every place looked at (for the import
// report).
std::string resolveTexturePath(const std::string& modelPath, const std::string& name,
                               std::vector<std::string>* searched = nullptr,
                               const std::vector<std::string>& extraFolders = {});

// The image extensions resolveTexturePath tries after a name's own, in its order, lower case with
// the dot (".pvr", ".png", ...): what a caller that cannot list folders (the browser page fetching
// a model's textures by URL) tries the same way.
const std::vector<std::string>& textureExtensions();

}  // namespace esv
