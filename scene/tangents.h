// Per-vertex tangent frames for tangent-space normal maps.
#pragma once

#include <string>
#include <vector>

#include "scene/scene.h"

namespace esv {

// One tangent per vertex in model space: xyz the tangent (along +U), w the handedness, so that
// bitangent = w * cross(normal, tangent). Taken from the file's tangents (handedness from its
// binormals when present, else +1), or computed from positions, normals and the UV set `uvSet`
// (triangle tangents accumulated per vertex, Gram-Schmidt against the normal). `source` says which.
// Returns false (and leaves `tangents` empty) when the mesh lacks normals or that UV set.
bool computeTangents(const Mesh& mesh, std::vector<glm::vec4>& tangents, std::string* source = nullptr,
                     uint8_t uvSet = 0);

}  // namespace esv
