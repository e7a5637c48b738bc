#include "awd/awd_writer.h"

#include <cstring>
#include <stdexcept>

#include <lzma.h>
#include <zlib.h>

namespace esv::awdtest {

Bytes& Bytes::u8(uint32_t v) {
    data.push_back(static_cast<uint8_t>(v));
    return *this;
}
Bytes& Bytes::u16(uint32_t v) {
    for (int i = 0; i < 2; ++i) data.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
}
Bytes& Bytes::u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) data.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
}
Bytes& Bytes::f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return u32(bits);
}
Bytes& Bytes::f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    for (int i = 0; i < 8; ++i) data.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    return *this;
}
Bytes& Bytes::str(const std::string& s) {
    u16(static_cast<uint32_t>(s.size()));
    return raw(s.data(), s.size());
}
Bytes& Bytes::raw(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    data.insert(data.end(), b, b + n);
    return *this;
}
Bytes& Bytes::matrix(const glm::mat4& m, bool wide) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) num(m[c][r], wide);
    return *this;
}

Props& Props::raw(uint16_t key, const Bytes& value) {
    m_items.u16(key).u32(static_cast<uint32_t>(value.size())).raw(value);
    return *this;
}
Bytes Props::bytes() const { return Bytes().u32(static_cast<uint32_t>(m_items.size())).raw(m_items); }

UserAttrs& UserAttrs::add(uint8_t ns, const std::string& key, uint8_t type, const Bytes& value) {
    m_items.u8(ns).str(key).u8(type).u32(static_cast<uint32_t>(value.size())).raw(value);
    return *this;
}
Bytes UserAttrs::bytes() const { return Bytes().u32(static_cast<uint32_t>(m_items.size())).raw(m_items); }

std::vector<uint8_t> zlibCompress(const std::vector<uint8_t>& data) {
    uLongf size = compressBound(static_cast<uLong>(data.size()));
    std::vector<uint8_t> out(size);
    if (compress2(out.data(), &size, data.data(), static_cast<uLong>(data.size()), 9) != Z_OK)
        throw std::runtime_error("zlib compress failed");
    out.resize(size);
    return out;
}

std::vector<uint8_t> lzmaCompress(const std::vector<uint8_t>& data, LzmaLayout layout, uint32_t dictionary) {
    lzma_options_lzma options;
    lzma_lzma_preset(&options, 6);
    options.dict_size = dictionary;
    lzma_stream strm = LZMA_STREAM_INIT;
    if (lzma_alone_encoder(&strm, &options) != LZMA_OK) throw std::runtime_error("lzma encoder");
    std::vector<uint8_t> alone(data.size() + data.size() / 2 + 1024);
    strm.next_in = data.data();
    strm.avail_in = data.size();
    strm.next_out = alone.data();
    strm.avail_out = alone.size();
    lzma_ret rc = lzma_code(&strm, LZMA_FINISH);
    if (rc != LZMA_STREAM_END) throw std::runtime_error("lzma encode");
    alone.resize(alone.size() - strm.avail_out);
    lzma_end(&strm);
    // liblzma writes .lzma: properties (5 bytes), 64-bit size (all ones: unknown, end marker
    // written), data.
    std::vector<uint8_t> out;
    switch (layout) {
        case LzmaLayout::Alone:  // as the Away3D tools write it: the size filled in
            out = alone;
            for (int i = 0; i < 8; ++i) out[5 + i] = static_cast<uint8_t>(uint64_t(data.size()) >> (8 * i));
            break;
        case LzmaLayout::AloneUnknownSize:
            out = alone;
            break;
        case LzmaLayout::Spec:  // the spec's table 4: uint32 size, the 5 properties bytes, data
            for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(data.size() >> (8 * i)));
            out.insert(out.end(), alone.begin(), alone.begin() + 5);
            out.insert(out.end(), alone.begin() + 13, alone.end());
            break;
    }
    return out;
}

uint32_t AwdWriter::block(uint8_t type, const Bytes& payload, uint8_t ns, uint8_t flags) {
    const uint32_t id = m_nextId;
    blockWithId(id, type, payload, ns, flags);
    return id;
}

void AwdWriter::blockWithId(uint32_t id, uint8_t type, const Bytes& payload, uint8_t ns, uint8_t flags) {
    Bytes stored = payload;
    if (flags & 0x08) stored.data = (flags & 0x10) ? lzmaCompress(payload.data, m_options.lzmaLayout) : zlibCompress(payload.data);
    m_body.u32(id).u8(ns).u8(type).u8(flags).u32(static_cast<uint32_t>(stored.size())).raw(stored);
    if (id >= m_nextId) m_nextId = id + 1;
}

std::vector<uint8_t> AwdWriter::finish(int64_t bodyLength) const {
    std::vector<uint8_t> body = m_body.data;
    if (m_options.compression == Compression::Zlib) body = zlibCompress(body);
    if (m_options.compression == Compression::Lzma) body = lzmaCompress(body, m_options.lzmaLayout);
    uint16_t flags = m_options.extraFlags;
    if (m_options.streaming) flags |= 0x1;
    if (m_options.matrix64) flags |= 0x2;
    if (m_options.geometry64) flags |= 0x4;
    if (m_options.properties64) flags |= 0x8;
    Bytes out;
    out.text("AWD").u8(m_options.major).u8(m_options.minor).u16(flags).u8(static_cast<uint8_t>(m_options.compression));
    out.u32(bodyLength >= 0 ? static_cast<uint32_t>(bodyLength) : static_cast<uint32_t>(body.size()));
    out.raw(body.data(), body.size());
    return out.data;
}

Bytes AwdWriter::sceneHeader(uint32_t parent, const glm::mat4& m, const std::string& name) const {
    return Bytes().u32(parent).matrix(m, m_options.matrix64).str(name);
}

AwdWriter::Stream AwdWriter::floats(uint8_t type, const std::vector<double>& values) const {
    Stream s;
    s.type = type;
    s.dataType = m_options.geometry64 ? 8 : 7;
    for (double v : values) s.data.num(v, m_options.geometry64);
    return s;
}

AwdWriter::Stream AwdWriter::shorts(uint8_t type, const std::vector<uint32_t>& values) {
    Stream s;
    s.type = type;
    s.dataType = 5;
    for (uint32_t v : values) s.data.u16(v);
    return s;
}

Bytes AwdWriter::triangleGeometry(const std::string& name, const std::vector<SubGeometry>& subs, const Props& props,
                                  const UserAttrs& user) const {
    Bytes b;
    b.str(name).u16(static_cast<uint32_t>(subs.size())).raw(props.bytes());
    for (const SubGeometry& sub : subs) {
        Bytes streams;
        for (const Stream& s : sub.streams) streams.u8(s.type).u8(s.dataType).u32(static_cast<uint32_t>(s.data.size())).raw(s.data);
        const Bytes p = sub.props.bytes();
        b.u32(static_cast<uint32_t>(streams.size() + (sub.lengthIncludesProps ? p.size() : 0)));
        b.raw(p).raw(streams).raw(sub.user.bytes());
    }
    return b.raw(user.bytes());
}

Bytes AwdWriter::primitive(const std::string& name, uint8_t type, const Props& props) const {
    return Bytes().str(name).u8(type).raw(props.bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::container(uint32_t parent, const glm::mat4& m, const std::string& name, const Props& props,
                           const UserAttrs& user) const {
    return sceneHeader(parent, m, name).raw(props.bytes()).raw(user.bytes());
}

Bytes AwdWriter::meshInstance(uint32_t parent, const glm::mat4& m, const std::string& name, uint32_t geometry,
                              const std::vector<uint32_t>& materials, const Props& props) const {
    Bytes b = sceneHeader(parent, m, name);
    b.u32(geometry).u16(static_cast<uint32_t>(materials.size()));
    for (uint32_t id : materials) b.u32(id);
    return b.raw(props.bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::light(uint32_t parent, const glm::mat4& m, const std::string& name, uint8_t type, const Props& props) const {
    return sceneHeader(parent, m, name).u8(type).raw(props.bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::camera(uint32_t parent, const glm::mat4& m, const std::string& name, uint16_t lens,
                        const Props& lensProps, const Props& props) const {
    return sceneHeader(parent, m, name).u8(1).u16(1).u16(lens).raw(lensProps.bytes()).raw(props.bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::textureProjector(uint32_t parent, const glm::mat4& m, const std::string& name, uint32_t texture,
                                  float aspect, float fov) const {
    return sceneHeader(parent, m, name).u32(texture).f32(aspect).f32(fov).raw(Props().bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::lightPicker(const std::string& name, const std::vector<uint32_t>& lights) const {
    Bytes b;
    b.str(name).u16(static_cast<uint32_t>(lights.size()));
    for (uint32_t id : lights) b.u32(id);
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::material(const std::string& name, uint8_t type, const Props& props, const std::vector<Method>& methods,
                          const UserAttrs& user) const {
    Bytes b;
    b.str(name).u8(type).u8(static_cast<uint32_t>(methods.size())).raw(props.bytes());
    for (const Method& m : methods) b.u16(m.type).raw(m.props.bytes()).raw(UserAttrs().bytes());
    return b.raw(user.bytes());
}

Bytes AwdWriter::texture(const std::string& name, bool embedded, const Bytes& data) const {
    return Bytes().str(name).u8(embedded ? 1 : 0).u32(static_cast<uint32_t>(data.size())).raw(data).raw(Props().bytes()).raw(
        UserAttrs().bytes());
}

Bytes AwdWriter::cubeTexture(const std::string& name, bool embedded, const std::vector<Bytes>& faces) const {
    Bytes b;
    b.u8(embedded ? 1 : 0).str(name);
    for (const Bytes& f : faces) b.u32(static_cast<uint32_t>(f.size())).raw(f);
    return b.raw(Props().bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::skyBox(const std::string& name, uint32_t cube) const {
    return Bytes().str(name).u32(cube).raw(Props().bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::sharedMethod(const std::string& name, const Method& method) const {
    return Bytes().str(name).u16(method.type).raw(method.props.bytes()).raw(UserAttrs().bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::shadowMethod(const std::string& name, uint32_t light, const Method& method) const {
    return Bytes().str(name).u32(light).u16(method.type).raw(method.props.bytes()).raw(UserAttrs().bytes()).raw(
        UserAttrs().bytes());
}

Bytes AwdWriter::command(uint32_t parent, const glm::mat4& m, const std::string& name, uint16_t type, uint32_t target,
                         const Props& objectProps) const {
    Bytes b;
    b.u8(1).raw(sceneHeader(parent, m, name)).u16(1).u16(type).raw(Props().addr(1, target).bytes());
    return b.raw(objectProps.bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::skeleton(const std::string& name, const std::vector<Joint>& joints) const {
    Bytes b;
    b.str(name).u16(uint32_t(joints.size())).raw(Props().bytes());
    for (size_t j = 0; j < joints.size(); ++j) {
        b.u16(uint32_t(j + 1)).u16(uint32_t(joints[j].parent + 1)).str(joints[j].name);
        b.matrix(joints[j].inverseBind, m_options.matrix64).raw(Props().bytes()).raw(UserAttrs().bytes());
    }
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::skeletonPose(const std::string& name, const std::vector<glm::mat4>& locals) const {
    Bytes b;
    b.str(name).u16(uint32_t(locals.size())).raw(Props().bytes());
    for (const glm::mat4& m : locals) b.u8(1).matrix(m, m_options.matrix64);
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::skeletonAnimation(const std::string& name, const std::vector<std::pair<uint32_t, uint16_t>>& frames) const {
    Bytes b;
    b.str(name).u16(uint32_t(frames.size())).raw(Props().bytes());
    for (const auto& [pose, ms] : frames) b.u32(pose).u16(ms);
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::meshPoseAnimation(const std::string& name, uint32_t geometry,
                                   const std::vector<std::pair<uint16_t, std::vector<double>>>& frames,
                                   const Props& props) const {
    Bytes b;
    b.str(name).u32(geometry).u16(uint32_t(frames.size())).u16(1).u16(1).u16(1).raw(props.bytes());
    for (const auto& [ms, positions] : frames) {
        Bytes data;
        for (double v : positions) data.num(v, m_options.geometry64);
        b.u16(ms).u32(uint32_t(data.size())).raw(data);
    }
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::animationSet(const std::string& name, const std::vector<uint32_t>& clips) const {
    Bytes b;
    b.str(name).u16(uint32_t(clips.size())).raw(Props().bytes());
    for (uint32_t c : clips) b.u32(c);
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::animator(const std::string& name, uint16_t type, uint32_t skeleton, uint32_t set,
                          const std::vector<uint32_t>& meshes) const {
    Bytes b;
    Props props;
    if (skeleton) props.addr(1, skeleton);
    b.str(name).u16(type).raw(props.bytes()).u32(set).u16(uint32_t(meshes.size()));
    for (uint32_t m : meshes) b.u32(m);
    return b.u16(0).u8(0).raw(UserAttrs().bytes()).raw(UserAttrs().bytes());
}

Bytes AwdWriter::uvAnimation(const std::string& name,
                             const std::vector<std::pair<std::array<float, 6>, uint16_t>>& frames) const {
    Bytes b;
    b.str(name).u16(uint32_t(frames.size())).raw(Props().bytes());
    for (const auto& [m, ms] : frames) {
        for (float v : m) b.f32(v);
        b.u16(ms);
    }
    return b.raw(UserAttrs().bytes());
}

Bytes AwdWriter::nameSpace(uint8_t handle, const std::string& uri) const { return Bytes().u8(handle).str(uri); }

Bytes AwdWriter::metaData(const Props& props) const { return props.bytes(); }

Bytes jpegMagic() { return Bytes().u8(0xFF).u8(0xD8).u8(0xFF).u8(0xE0).u32(0); }
Bytes pngMagic() { return Bytes().u8(0x89).text("PNG").u8(0x0D).u8(0x0A).u8(0x1A).u8(0x0A); }

}  // namespace esv::awdtest
