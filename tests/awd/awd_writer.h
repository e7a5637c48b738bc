// A minimal AWD 2.0 / 2.1 writer for tests: builds blocks field by field (little-endian), wraps
// them in a header, and compresses the body with zlib or LZMA. It writes what the reader's tests
// need, including malformed files (any id, length, flag or field can be set by hand); it does not
// check what it is given.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace esv::awdtest {

// Little-endian bytes.
class Bytes {
public:
    std::vector<uint8_t> data;

    Bytes& u8(uint32_t v);
    Bytes& u16(uint32_t v);
    Bytes& u32(uint32_t v);
    Bytes& f32(float v);
    Bytes& f64(double v);
    Bytes& num(double v, bool wide) { return wide ? f64(v) : f32(float(v)); }
    Bytes& str(const std::string& s);  // VarString: uint16 length + bytes
    Bytes& raw(const void* p, size_t n);
    Bytes& raw(const Bytes& b) { return raw(b.data.data(), b.data.size()); }
    Bytes& text(const std::string& s) { return raw(s.data(), s.size()); }  // no length
    // A 4x3 matrix (12 numbers, column by column, as AWD scene headers hold it).
    Bytes& matrix(const glm::mat4& m, bool wide);
    size_t size() const { return data.size(); }
};

// A numeric attribute list ("properties"): uint32 length, then key, length, value entries.
class Props {
public:
    Props& raw(uint16_t key, const Bytes& value);
    Props& f(uint16_t key, double v, bool wide = false) { return raw(key, Bytes().num(v, wide)); }
    Props& u8(uint16_t key, uint32_t v) { return raw(key, Bytes().u8(v)); }
    Props& u16(uint16_t key, uint32_t v) { return raw(key, Bytes().u16(v)); }
    Props& u32(uint16_t key, uint32_t v) { return raw(key, Bytes().u32(v)); }
    Props& color(uint16_t key, uint32_t rgb) { return u32(key, rgb); }  // 0xAARRGGBB
    Props& addr(uint16_t key, uint32_t id) { return u32(key, id); }
    Props& flag(uint16_t key, bool v) { return u8(key, v ? 1 : 0); }
    Props& str(uint16_t key, const std::string& s) { return raw(key, Bytes().text(s)); }
    Bytes bytes() const;
    bool empty() const { return m_items.data.empty(); }

private:
    Bytes m_items;
};

// A user attribute list: uint32 length, then namespace, VarString key, type, length, value.
class UserAttrs {
public:
    UserAttrs& add(uint8_t ns, const std::string& key, uint8_t type, const Bytes& value);
    Bytes bytes() const;

private:
    Bytes m_items;
};

enum class Compression : uint8_t { None = 0, Zlib = 1, Lzma = 2 };

// How an LZMA body starts. Alone is what the Away3D tools write: the .lzma header (5 properties
// bytes, the 64-bit decompressed size), then raw LZMA1. AloneUnknownSize leaves the size all ones
// (the stream ends with its end marker). Spec follows the spec's table 4: uint32 size, then the 5
// properties bytes, then raw LZMA1.
enum class LzmaLayout : uint8_t { Alone, AloneUnknownSize, Spec };

struct WriterOptions {
    uint8_t major = 2, minor = 1;
    Compression compression = Compression::None;
    bool streaming = false;
    bool matrix64 = false, geometry64 = false, properties64 = false;  // header precision flags
    uint16_t extraFlags = 0;
    LzmaLayout lzmaLayout = LzmaLayout::Alone;  // body and per-block LZMA
};

// Zlib stream (header and checksum) / AWD LZMA body in the given layout, with the given LZMA
// dictionary size (the Away3D tools write 1 MiB).
std::vector<uint8_t> zlibCompress(const std::vector<uint8_t>& data);
std::vector<uint8_t> lzmaCompress(const std::vector<uint8_t>& data, LzmaLayout layout = LzmaLayout::Alone,
                                  uint32_t dictionary = 1u << 20);

class AwdWriter {
public:
    explicit AwdWriter(WriterOptions options = {}) : m_options(options) {}
    const WriterOptions& options() const { return m_options; }

    // Appends a block with the next persistent id (returned).
    uint32_t block(uint8_t type, const Bytes& payload, uint8_t ns = 0, uint8_t flags = 0);
    // Appends a block with the given id (0 = temporary); persistent ids continue after it.
    void blockWithId(uint32_t id, uint8_t type, const Bytes& payload, uint8_t ns = 0, uint8_t flags = 0);
    // Raw bytes appended to the body (e.g. a cut block).
    void rawBody(const Bytes& b) { m_body.raw(b); }
    // Header + body, compressed as the options say. `bodyLength` overrides the header's field.
    std::vector<uint8_t> finish(int64_t bodyLength = -1) const;
    const std::vector<uint8_t>& body() const { return m_body.data; }
    uint32_t nextId() const { return m_nextId; }

    // ---- payload builders (precision from the options)
    Bytes sceneHeader(uint32_t parent, const glm::mat4& m, const std::string& name) const;

    struct Stream {
        uint8_t type = 1;
        uint8_t dataType = 7;
        Bytes data;
    };
    Stream floats(uint8_t type, const std::vector<double>& values) const;  // geometry precision
    static Stream shorts(uint8_t type, const std::vector<uint32_t>& values);
    struct SubGeometry {
        std::vector<Stream> streams;
        Props props;
        UserAttrs user;
        bool lengthIncludesProps = true;  // AwayBuilder's sub-geometry length; false = the spec's
    };
    Bytes triangleGeometry(const std::string& name, const std::vector<SubGeometry>& subs, const Props& props = {},
                           const UserAttrs& user = {}) const;
    Bytes primitive(const std::string& name, uint8_t type, const Props& props) const;
    Bytes container(uint32_t parent, const glm::mat4& m, const std::string& name, const Props& props = {},
                    const UserAttrs& user = {}) const;
    Bytes meshInstance(uint32_t parent, const glm::mat4& m, const std::string& name, uint32_t geometry,
                       const std::vector<uint32_t>& materials, const Props& props = {}) const;
    Bytes light(uint32_t parent, const glm::mat4& m, const std::string& name, uint8_t type, const Props& props) const;
    Bytes camera(uint32_t parent, const glm::mat4& m, const std::string& name, uint16_t lens, const Props& lensProps,
                 const Props& props) const;
    Bytes textureProjector(uint32_t parent, const glm::mat4& m, const std::string& name, uint32_t texture, float aspect,
                           float fov) const;
    Bytes lightPicker(const std::string& name, const std::vector<uint32_t>& lights) const;
    struct Method {
        uint16_t type = 0;
        Props props;
    };
    Bytes material(const std::string& name, uint8_t type, const Props& props, const std::vector<Method>& methods = {},
                   const UserAttrs& user = {}) const;
    Bytes texture(const std::string& name, bool embedded, const Bytes& data) const;
    Bytes cubeTexture(const std::string& name, bool embedded, const std::vector<Bytes>& faces) const;
    Bytes skyBox(const std::string& name, uint32_t cube) const;
    Bytes sharedMethod(const std::string& name, const Method& method) const;
    Bytes shadowMethod(const std::string& name, uint32_t light, const Method& method) const;
    Bytes command(uint32_t parent, const glm::mat4& m, const std::string& name, uint16_t type, uint32_t target,
                  const Props& objectProps = {}) const;
    // Animation blocks (AWD2Parser layouts). Joint parents are stored as parent index + 1 (0 = root).
    struct Joint {
        std::string name;
        int parent = -1;
        glm::mat4 inverseBind{1.0f};
    };
    Bytes skeleton(const std::string& name, const std::vector<Joint>& joints) const;
    Bytes skeletonPose(const std::string& name, const std::vector<glm::mat4>& locals) const;
    Bytes skeletonAnimation(const std::string& name, const std::vector<std::pair<uint32_t, uint16_t>>& frames) const;
    // MeshPoseAnimation (type 112) with one sub-geometry and one position stream, every vertex stored.
    Bytes meshPoseAnimation(const std::string& name, uint32_t geometry,
                            const std::vector<std::pair<uint16_t, std::vector<double>>>& frames, const Props& props = {}) const;
    Bytes animationSet(const std::string& name, const std::vector<uint32_t>& clips) const;
    Bytes animator(const std::string& name, uint16_t type, uint32_t skeleton, uint32_t set,
                   const std::vector<uint32_t>& meshes) const;
    Bytes uvAnimation(const std::string& name, const std::vector<std::pair<std::array<float, 6>, uint16_t>>& frames) const;
    Bytes nameSpace(uint8_t handle, const std::string& uri) const;
    Bytes metaData(const Props& props) const;

private:
    WriterOptions m_options;
    Bytes m_body;
    uint32_t m_nextId = 1;
};

// Smallest valid image headers for embedded textures (the reader only looks at the magic).
Bytes jpegMagic();
Bytes pngMagic();

}  // namespace esv::awdtest
