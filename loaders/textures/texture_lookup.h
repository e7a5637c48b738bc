// Finding the file a model's texture name refers to.
#pragma once

#include <string>
#include <vector>

namespace esv {

// Resolves `name` (as written in the model file at `modelPath`: any case, maybe a Windows path,
// maybe another extension or none) to an existing file. Tries, in order: next to the model, then
// in the common subfolders (textures/, maps/, ...), each case-insensitively, first with the name's
// own extension then with the other known image extensions (.pvr, .png, .dds, .tga, .jpg, .jpeg,
// .bmp, ...). Returns the path found, or an empty string; `searched` lists every place looked at
// (for the import report).
std::string resolveTexturePath(const std::string& modelPath, const std::string& name,
                               std::vector<std::string>* searched = nullptr);

}  // namespace esv
