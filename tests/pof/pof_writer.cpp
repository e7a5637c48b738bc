#include "pof/pof_writer.h"

#include <cstring>

namespace poftest {

Bytes& Bytes::u8(uint8_t v) {
    data.push_back(v);
    return *this;
}
Bytes& Bytes::u16(uint16_t v) {
    data.push_back(static_cast<uint8_t>(v));
    data.push_back(static_cast<uint8_t>(v >> 8));
    return *this;
}
Bytes& Bytes::u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) data.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
}
Bytes& Bytes::i32(int32_t v) {
    return u32(static_cast<uint32_t>(v));
}
Bytes& Bytes::f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return u32(bits);
}
Bytes& Bytes::vec(const glm::vec3& v) {
    return f32(v.x).f32(v.y).f32(v.z);
}
Bytes& Bytes::str(const std::string& s, bool nul) {
    i32(static_cast<int32_t>(s.size() + (nul ? 1 : 0)));
    data.insert(data.end(), s.begin(), s.end());
    if (nul) data.push_back(0);
    return *this;
}
Bytes& Bytes::raw(const std::vector<uint8_t>& bytes) {
    data.insert(data.end(), bytes.begin(), bytes.end());
    return *this;
}
Bytes& Bytes::zeros(size_t n) {
    data.insert(data.end(), n, 0);
    return *this;
}

namespace {

glm::vec3 planeNormal(const std::vector<glm::vec3>& positions, const Polygon& p) {
    if (p.corners.size() < 3) return glm::vec3(0.0f, 0.0f, 1.0f);
    auto at = [&](size_t i) {
        const uint32_t v = p.corners[i].vertex;
        return v < positions.size() ? positions[v] : glm::vec3(0.0f);
    };
    const glm::vec3 n = glm::cross(at(1) - at(0), at(2) - at(0));
    const float length = glm::length(n);
    return length > 0.0f ? n / length : glm::vec3(0.0f, 0.0f, 1.0f);
}

std::vector<uint8_t> tmap2(const std::vector<glm::vec3>& positions, const Polygon& p) {
    Bytes b;
    b.i32(6).i32(static_cast<int32_t>(52 + 16 * p.corners.size()));
    b.vec(glm::vec3(-1.0f)).vec(glm::vec3(1.0f)).vec(planeNormal(positions, p));
    b.i32(p.texture).u32(static_cast<uint32_t>(p.corners.size()));
    for (const Corner& c : p.corners) b.u32(c.vertex).u32(c.normal).f32(c.u).f32(c.v);
    return b.data;
}

// TMAP2POLY leaves under a chain of SORTNORM2 nodes: front = this polygon, back = the rest.
std::vector<uint8_t> tree23(const std::vector<glm::vec3>& positions, const std::vector<Polygon>& polygons,
                            size_t from) {
    std::vector<uint8_t> leaf = tmap2(positions, polygons[from]);
    if (from + 1 == polygons.size()) return leaf;
    std::vector<uint8_t> rest = tree23(positions, polygons, from + 1);
    Bytes b;
    b.i32(7).i32(static_cast<int32_t>(40 + leaf.size() + rest.size()));
    b.i32(40).i32(static_cast<int32_t>(40 + leaf.size()));
    b.vec(glm::vec3(-1.0f)).vec(glm::vec3(1.0f));
    b.raw(leaf).raw(rest);
    return b.data;
}

}  // namespace

std::vector<uint8_t> bspData(int32_t version, const std::vector<glm::vec3>& positions,
                             const std::vector<Polygon>& polygons) {
    Bytes b;
    const uint32_t n = static_cast<uint32_t>(positions.size());
    const uint32_t dataOffset = (20 + n + 3) / 4 * 4;
    b.i32(1)
        .i32(static_cast<int32_t>(dataOffset + 24 * n))
        .i32(static_cast<int32_t>(n))
        .i32(static_cast<int32_t>(n));
    b.i32(static_cast<int32_t>(dataOffset));
    for (uint32_t i = 0; i < n; ++i) b.u8(1);
    b.zeros(dataOffset - 20 - n);
    for (const glm::vec3& p : positions) b.vec(p).vec(glm::vec3(0.0f, 0.0f, 1.0f));
    if (polygons.empty()) return b.data;
    if (version >= 2300) {
        b.raw(tree23(positions, polygons, 0));
        return b.data;
    }
    b.i32(5).i32(32).vec(glm::vec3(-1.0f)).vec(glm::vec3(1.0f));
    for (const Polygon& p : polygons) {
        const int32_t count = static_cast<int32_t>(p.corners.size());
        b.i32(p.flat ? 2 : 3).i32(44 + (p.flat ? 4 : 12) * count);
        b.vec(planeNormal(positions, p)).vec(glm::vec3(0.0f)).f32(1.0f).i32(count);
        if (p.flat) {
            b.u8(200).u8(100).u8(50).u8(0);
            for (const Corner& c : p.corners)
                b.u16(static_cast<uint16_t>(c.vertex)).u16(static_cast<uint16_t>(c.normal));
        } else {
            b.i32(p.texture);
            for (const Corner& c : p.corners)
                b.u16(static_cast<uint16_t>(c.vertex)).u16(static_cast<uint16_t>(c.normal)).f32(c.u).f32(c.v);
        }
    }
    b.i32(0).i32(0);
    return b.data;
}

std::vector<glm::vec3> quadPositions(float z) {
    return {{-1.0f, -1.0f, z}, {1.0f, -1.0f, z}, {1.0f, 1.0f, z}, {-1.0f, 1.0f, z}};
}

std::vector<Polygon> quadPolygons(int32_t texture, bool asOneQuad) {
    const Corner c0{0, 0, 0.0f, 1.0f}, c1{1, 1, 1.0f, 1.0f}, c2{2, 2, 1.0f, 0.0f}, c3{3, 3, 0.0f, 0.0f};
    if (asOneQuad) return {Polygon{texture, false, {c0, c1, c2, c3}}};
    return {Polygon{texture, false, {c0, c1, c2}}, Polygon{texture, false, {c0, c2, c3}}};
}

PofWriter& PofWriter::chunk(const char* id, const Bytes& body, int32_t length) {
    for (int i = 0; i < 4; ++i) m_body.u8(static_cast<uint8_t>(id[i]));
    m_body.i32(length >= 0 ? length : static_cast<int32_t>(body.size()));
    m_body.raw(body.data);
    return *this;
}

Bytes PofWriter::header(const Header& h) const {
    Bytes b;
    if (m_version >= 2116)
        b.f32(h.maxRadius).i32(h.flags).i32(h.subobjects);
    else
        b.i32(h.subobjects).f32(h.maxRadius).i32(h.flags);
    b.vec(h.min).vec(h.max);
    b.i32(static_cast<int32_t>(h.detailLevels.size()));
    for (int32_t d : h.detailLevels) b.i32(d);
    b.i32(static_cast<int32_t>(h.debris.size()));
    for (int32_t d : h.debris) b.i32(d);
    if (m_version >= 1903) {
        b.f32(h.mass).vec(h.massCenter);
        for (float f : h.inertia) b.f32(f);
    }
    if (m_version >= 2014) {
        b.i32(h.crossSections.empty() ? -1 : static_cast<int32_t>(h.crossSections.size()));
        for (const auto& c : h.crossSections) b.f32(c[0]).f32(c[1]);
    }
    if (m_version >= 2007) {
        b.i32(static_cast<int32_t>(h.lights.size()));
        for (const auto& l : h.lights) b.vec(l.first).i32(l.second);
    }
    return b;
}

Bytes PofWriter::textures(const std::vector<std::string>& names) {
    Bytes b;
    b.i32(static_cast<int32_t>(names.size()));
    for (const std::string& n : names) b.str(n);
    return b;
}

Bytes PofWriter::subobject(const Subobject& s) const {
    Bytes b;
    b.i32(s.number);
    if (m_version >= 2116)
        b.f32(s.radius).i32(s.parent).vec(s.offset);
    else
        b.i32(s.parent).vec(s.offset).f32(s.radius);
    b.vec(s.center).vec(s.min).vec(s.max);
    b.str(s.name, true).str(s.properties, true);
    b.i32(s.movementType).i32(s.movementAxis);
    if (m_version >= 2301) b.i32(s.translationType).i32(s.translationAxis);
    b.i32(s.reserved);
    b.i32(s.bspSizeOverride >= 0 ? s.bspSizeOverride : static_cast<int32_t>(s.bsp.size()));
    b.raw(s.bsp);
    return b;
}

Bytes PofWriter::firingPoints(const std::vector<std::vector<FiringPoint>>& slots) const {
    Bytes b;
    b.i32(static_cast<int32_t>(slots.size()));
    for (const auto& slot : slots) {
        b.i32(static_cast<int32_t>(slot.size()));
        for (const FiringPoint& p : slot) {
            b.vec(p.position).vec(p.normal);
            if (m_version >= 2118) b.f32(0.0f);
        }
    }
    return b;
}

Bytes PofWriter::turrets(int32_t subobject, int32_t physicalParent, const std::vector<glm::vec3>& points) {
    Bytes b;
    b.i32(1).i32(subobject).i32(physicalParent).vec(glm::vec3(0.0f, 1.0f, 0.0f));
    b.i32(static_cast<int32_t>(points.size()));
    for (const glm::vec3& p : points) b.vec(p);
    return b;
}

Bytes PofWriter::specialPoints(const std::vector<std::string>& names) {
    Bytes b;
    b.i32(static_cast<int32_t>(names.size()));
    for (const std::string& n : names)
        b.str(n, true).str("$special=subsystem", true).vec(glm::vec3(1.0f)).f32(2.0f);
    return b;
}

Bytes PofWriter::thrusters(const std::vector<std::vector<FiringPoint>>& glows) const {
    Bytes b;
    b.i32(static_cast<int32_t>(glows.size()));
    for (const auto& t : glows) {
        b.i32(static_cast<int32_t>(t.size()));
        if (m_version >= 2117) b.str("$engine_subsystem=engine", true);
        for (const FiringPoint& g : t) b.vec(g.position).vec(g.normal).f32(0.5f);
    }
    return b;
}

Bytes PofWriter::eyes(const std::vector<int32_t>& subobjects) {
    Bytes b;
    b.i32(static_cast<int32_t>(subobjects.size()));
    for (int32_t s : subobjects) b.i32(s).vec(glm::vec3(0.0f, 1.0f, 2.0f)).vec(glm::vec3(0.0f, 0.0f, 1.0f));
    return b;
}

Bytes PofWriter::docks(const std::vector<std::vector<FiringPoint>>& points) {
    Bytes b;
    b.i32(static_cast<int32_t>(points.size()));
    for (const auto& d : points) {
        b.str("$name=dock", true).i32(1).i32(0).i32(static_cast<int32_t>(d.size()));
        for (const FiringPoint& p : d) b.vec(p.position).vec(p.normal);
    }
    return b;
}

Bytes PofWriter::paths(const std::vector<std::pair<std::string, size_t>>& nameAndVertexCount) {
    Bytes b;
    b.i32(static_cast<int32_t>(nameAndVertexCount.size()));
    for (const auto& [name, count] : nameAndVertexCount) {
        b.str(name, true).str("", true).i32(static_cast<int32_t>(count));
        for (size_t v = 0; v < count; ++v) b.vec(glm::vec3(float(v))).f32(1.0f).i32(1).i32(0);
    }
    return b;
}

Bytes PofWriter::shield(const std::vector<glm::vec3>& vertices,
                        const std::vector<std::array<int32_t, 3>>& faces) {
    Bytes b;
    b.i32(static_cast<int32_t>(vertices.size()));
    for (const glm::vec3& v : vertices) b.vec(v);
    b.i32(static_cast<int32_t>(faces.size()));
    for (const auto& f : faces)
        b.vec(glm::vec3(0.0f, 0.0f, 1.0f)).i32(f[0]).i32(f[1]).i32(f[2]).i32(-1).i32(-1).i32(-1);
    return b;
}

std::vector<uint8_t> PofWriter::finish() const {
    Bytes b;
    b.u8('P').u8('S').u8('P').u8('O').i32(m_version);
    b.raw(m_body.data);
    return b.data;
}

}  // namespace poftest
