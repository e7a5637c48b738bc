#include "scene/tangents.h"

#include <cmath>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

glm::vec3 read3(const VertexStream& s, const VertexAttribute& a, uint32_t v) {
    float f[4];
    readAttribute(s, a, v, f);
    return glm::vec3(f[0], f[1], f[2]);
}

// Any unit vector perpendicular to n (for vertices whose UVs give no direction).
glm::vec3 perpendicular(const glm::vec3& n) {
    const glm::vec3 axis = std::fabs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    return glm::normalize(glm::cross(axis, n));
}

}  // namespace

bool computeTangents(const Mesh& mesh, std::vector<glm::vec4>& tangents, std::string* source, uint8_t uvSet) {
    tangents.clear();
    const uint32_t count = mesh.vertexCount;
    const VertexStream *ps = nullptr, *ns = nullptr, *us = nullptr, *ts = nullptr, *bs = nullptr;
    const VertexAttribute* pa = findAttribute(mesh, Semantic::Position, 0, &ps);
    const VertexAttribute* na = findAttribute(mesh, Semantic::Normal, 0, &ns);
    const VertexAttribute* ua = findAttribute(mesh, Semantic::TexCoord, uvSet, &us);
    const VertexAttribute* ta = findAttribute(mesh, Semantic::Tangent, 0, &ts);
    const VertexAttribute* ba = findAttribute(mesh, Semantic::Binormal, 0, &bs);
    if (!pa || !na || count == 0) return false;

    std::vector<glm::vec3> normals(count);
    for (uint32_t v = 0; v < count; ++v) normals[v] = read3(*ns, *na, v);

    if (ta) {
        tangents.resize(count);
        for (uint32_t v = 0; v < count; ++v) {
            float f[4] = {0, 0, 0, 1};
            const int components = readAttribute(*ts, *ta, v, f);
            const glm::vec3 t(f[0], f[1], f[2]);
            float w = components >= 4 ? (f[3] < 0.0f ? -1.0f : 1.0f) : 1.0f;
            if (ba) w = glm::dot(glm::cross(normals[v], t), read3(*bs, *ba, v)) < 0.0f ? -1.0f : 1.0f;
            tangents[v] = glm::vec4(t, w);
        }
        if (source)
            *source = ba ? "the file's tangents, handedness from its binormals" : "the file's tangents";
        return true;
    }
    if (!ua) return false;

    std::vector<glm::vec3> positions(count), sdir(count, glm::vec3(0.0f)), tdir(count, glm::vec3(0.0f));
    std::vector<glm::vec2> uvs(count);
    float f[4];
    for (uint32_t v = 0; v < count; ++v) {
        readAttribute(*ps, *pa, v, f);
        positions[v] = glm::vec3(mesh.positionUnpack * glm::vec4(f[0], f[1], f[2], 1.0f));
        readAttribute(*us, *ua, v, f);
        uvs[v] = glm::vec2(f[0], f[1]);
    }
    std::vector<uint32_t> triangles;
    expandTriangles(mesh, triangles);
    for (size_t i = 0; i + 2 < triangles.size(); i += 3) {
        const uint32_t a = triangles[i], b = triangles[i + 1], c = triangles[i + 2];
        if (a >= count || b >= count || c >= count) continue;
        const glm::vec3 e1 = positions[b] - positions[a], e2 = positions[c] - positions[a];
        const glm::vec2 d1 = uvs[b] - uvs[a], d2 = uvs[c] - uvs[a];
        const float det = d1.x * d2.y - d2.x * d1.y;
        if (std::fabs(det) < 1e-20f || !std::isfinite(det)) continue;
        const float r = 1.0f / det;
        const glm::vec3 s = (e1 * d2.y - e2 * d1.y) * r;  // direction of +U
        const glm::vec3 t = (e2 * d1.x - e1 * d2.x) * r;  // direction of +V
        if (!std::isfinite(s.x + s.y + s.z + t.x + t.y + t.z)) continue;
        for (uint32_t v : {a, b, c}) {
            sdir[v] += s;
            tdir[v] += t;
        }
    }
    tangents.resize(count);
    for (uint32_t v = 0; v < count; ++v) {
        const float nl = glm::length(normals[v]);
        const glm::vec3 n = nl > 0.0f ? normals[v] / nl : glm::vec3(0, 0, 1);
        glm::vec3 t = sdir[v] - n * glm::dot(n, sdir[v]);
        const float tl = glm::length(t);
        t = tl > 1e-12f ? t / tl : perpendicular(n);
        const float w = glm::dot(glm::cross(n, t), tdir[v]) < 0.0f ? -1.0f : 1.0f;
        tangents[v] = glm::vec4(t, w);
    }
    if (source) *source = "computed from UV set " + std::to_string(uvSet);
    return true;
}

}  // namespace esv
