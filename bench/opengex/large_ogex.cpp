// Synthetic OpenGEX writer for bench_opengex (see large_ogex.h). Layout follows the files written
// by the Blender exporter (and assimp's own samples): metrics, the armature node with nested bone
// nodes and their animation, top-level geometry nodes, then geometry objects, then materials.
#include "bench/opengex/large_ogex.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace esv::bench {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kFrameRate = 30.0;
constexpr size_t kFlushBytes = size_t(1) << 20;
constexpr int kVectorsPerLine = 8;  // subarrays per line, as exporters wrap them
constexpr int kScalarsPerLine = 16;

// Column-major 4x4 matrix, as OpenGEX stores them (translation in elements 12..14).
struct Mat4 {
    double m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
};

Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            double s = 0;
            for (int k = 0; k < 4; ++k) s += a.m[k * 4 + row] * b.m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

Mat4 translation(double x, double y, double z) {
    Mat4 r;
    r.m[12] = x, r.m[13] = y, r.m[14] = z;
    return r;
}

// Rotation by `angle` radians about the unit axis (x, y, z).
Mat4 rotation(double x, double y, double z, double angle) {
    const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
    Mat4 r;
    r.m[0] = t * x * x + c, r.m[1] = t * x * y + s * z, r.m[2] = t * x * z - s * y;
    r.m[4] = t * x * y - s * z, r.m[5] = t * y * y + c, r.m[6] = t * y * z + s * x;
    r.m[8] = t * x * z + s * y, r.m[9] = t * y * z - s * x, r.m[10] = t * z * z + c;
    return r;
}

// Deterministic noise in [-1, 1] from an integer (a 32-bit integer hash).
double noise(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return double(x) / 2147483647.5 - 1.0;
}

class Writer {
public:
    explicit Writer(std::FILE* file) : m_file(file) { m_buffer.reserve(kFlushBytes + 4096); }

    void text(const char* s) { append(s, std::strlen(s)); }
    void text(const std::string& s) { append(s.data(), s.size()); }
    void tabs(int depth) {
        for (int i = 0; i < depth; ++i) m_buffer.push_back('\t');
    }
    void line(int depth, const char* s) {
        tabs(depth);
        text(s);
        m_buffer.push_back('\n');
    }
    // Six significant digits, shortest of fixed and exponent form ("%.6g").
    void number(double value) {
        char digits[32];
        const auto end =
            std::to_chars(digits, digits + sizeof(digits), float(value), std::chars_format::general, 6).ptr;
        append(digits, size_t(end - digits));
    }
    void integer(uint64_t value) {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
        append(digits, size_t(end - digits));
    }
    void matrix(const Mat4& m) {
        m_buffer.push_back('{');
        for (int i = 0; i < 16; ++i) {
            if (i) text(", ");
            number(m.m[i]);
        }
        m_buffer.push_back('}');
    }
    // A separator after element `i` of `count`: a comma, and a line break every `perLine` items.
    void separator(size_t i, size_t count, int perLine, int depth) {
        if (i + 1 == count) {
            m_buffer.push_back('\n');
        } else if ((i + 1) % size_t(perLine) == 0) {
            text(",\n");
            tabs(depth);
        } else {
            text(", ");
        }
    }

    bool finish() {
        flush();
        return !m_failed;
    }

private:
    void append(const char* s, size_t n) {
        m_buffer.append(s, n);
        if (m_buffer.size() >= kFlushBytes) flush();
    }
    void flush() {
        if (!m_buffer.empty() && std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
            m_failed = true;
        m_buffer.clear();
    }

    std::FILE* m_file;
    std::string m_buffer;
    bool m_failed = false;
};

// The scene's rig: a binary tree of bones (bone k's parent is (k - 1) / 2) under an armature node.
struct Rig {
    std::vector<Mat4> world;  // bind pose, armature included
    Mat4 armature = translation(0.0, 0.0, 0.25);
    double duration = 0;
};

Mat4 boneLocal(uint32_t k, double time, double duration) {
    const double ax = noise(k * 3 + 1), ay = noise(k * 3 + 2), az = noise(k * 3 + 3) + 1.5;
    const double len = std::sqrt(ax * ax + ay * ay + az * az);
    const double rest = 0.35 * noise(k * 7 + 11);
    const double swing = 0.4 * std::sin(2 * kPi * time / duration + k);
    const Mat4 offset = k == 0 ? Mat4{} : translation(0.0, 0.0, 0.3 + 0.02 * (k % 5));
    return offset * rotation(ax / len, ay / len, az / len, rest + swing - 0.4 * std::sin(double(k)));
}

Rig makeRig(const LargeOgexShape& shape) {
    Rig rig;
    rig.duration = double(shape.keys > 1 ? shape.keys - 1 : 1) / kFrameRate;
    rig.world.resize(shape.bones);
    for (uint32_t k = 0; k < shape.bones; ++k) {
        const Mat4 parent = k == 0 ? rig.armature : rig.world[(k - 1) / 2];
        rig.world[k] = parent * boneLocal(k, 0.0, rig.duration);
    }
    return rig;
}

void writeBone(Writer& w, const LargeOgexShape& shape, const Rig& rig, uint32_t k, int d) {
    w.tabs(d);
    w.text("BoneNode $bone" + std::to_string(k) + "\n");
    w.line(d, "{");
    w.tabs(d + 1);
    w.text("Name {string {\"bone_" + std::to_string(k) + "\"}}\n\n");
    w.line(d + 1, "Transform %transform");
    w.line(d + 1, "{");
    w.line(d + 2, "float[16]");
    w.line(d + 2, "{");
    w.tabs(d + 3);
    w.matrix(boneLocal(k, 0.0, rig.duration));
    w.text("\n");
    w.line(d + 2, "}");
    w.line(d + 1, "}\n");

    w.line(d + 1, "Animation");
    w.line(d + 1, "{");
    w.line(d + 2, "Track (target = %transform)");
    w.line(d + 2, "{");
    w.line(d + 3, "Time");
    w.line(d + 3, "{");
    w.tabs(d + 4);
    w.text("Key {float {");
    for (uint32_t f = 0; f < shape.keys; ++f) {
        if (f) w.text(", ");
        w.number(double(f) / kFrameRate);
    }
    w.text("}}\n");
    w.line(d + 3, "}\n");
    w.line(d + 3, "Value");
    w.line(d + 3, "{");
    w.line(d + 4, "Key");
    w.line(d + 4, "{");
    w.line(d + 5, "float[16]");
    w.line(d + 5, "{");
    for (uint32_t f = 0; f < shape.keys; ++f) {
        w.tabs(d + 6);
        w.matrix(boneLocal(k, double(f) / kFrameRate, rig.duration));
        w.text(f + 1 < shape.keys ? ",\n" : "\n");
    }
    w.line(d + 5, "}");
    w.line(d + 4, "}");
    w.line(d + 3, "}");
    w.line(d + 2, "}");
    w.line(d + 1, "}");

    for (uint32_t child = 2 * k + 1; child <= 2 * k + 2 && child < shape.bones; ++child) {
        w.text("\n");
        writeBone(w, shape, rig, child, d + 1);
    }
    w.line(d, "}");
}

Mat4 meshNodeTransform(uint32_t m) {
    return translation(0.4 * double(m % 12) - 2.2, 0.4 * double(m / 12) - 1.6, 0.0) *
           rotation(0.0, 0.0, 1.0, 0.1 * double(m));
}

void writeGeometryNode(Writer& w, const LargeOgexShape& shape, uint32_t m) {
    const std::string id = std::to_string(m);
    w.text("GeometryNode $node" + id + "\n{\n");
    w.text("\tName {string {\"tube_" + id + "\"}}\n");
    w.text("\tObjectRef {ref {$geometry" + id + "}}\n");
    w.text("\tMaterialRef (index = 0) {ref {$material" + std::to_string(m % shape.materials) + "}}\n\n");
    w.text("\tTransform\n\t{\n\t\tfloat[16]\n\t\t{\n\t\t\t");
    w.matrix(meshNodeTransform(m));
    w.text("\n\t\t}\n\t}\n}\n\n");
}

// Opens a vertex or index array: `Identifier (props)\n{\n\ttype\t\t// count\n\t{`.
void openArray(Writer& w, const char* header, const char* type, size_t count) {
    w.line(2, header);
    w.line(2, "{");
    w.tabs(3);
    w.text(type);
    w.text("\t\t// ");
    w.integer(count);
    w.text("\n");
    w.line(3, "{");
    w.tabs(4);
}

void closeArray(Writer& w) {
    w.line(3, "}");
    w.line(2, "}\n");
}

void writeGeometryObject(Writer& w, const LargeOgexShape& shape, const Rig& rig, uint32_t m,
                         LargeOgexStats& stats) {
    const uint32_t columns = shape.segments + 1;
    const size_t vertexCount = size_t(shape.rings) * columns;
    const double radius = 0.05 + 0.01 * double(m % 4);
    const double height = 1.2;
    const auto vertexNoise = [m](size_t v, uint32_t channel) {
        return noise(uint32_t(m * 2654435761U + v * 4 + channel));
    };

    w.text("GeometryObject $geometry" + std::to_string(m) + "\t\t// tube_" + std::to_string(m) + "\n{\n");
    w.line(1, "Mesh (primitive = \"triangles\")");
    w.line(1, "{");

    openArray(w, "VertexArray (attrib = \"position\")", "float[3]", vertexCount);
    for (size_t v = 0; v < vertexCount; ++v) {
        const double theta = 2 * kPi * double(v % columns) / shape.segments;
        const double r = radius * (1.0 + 0.02 * vertexNoise(v, 0));
        const double z = height * double(v / columns) / double(shape.rings - 1);
        w.text("{");
        w.number(r * std::cos(theta));
        w.text(", ");
        w.number(r * std::sin(theta));
        w.text(", ");
        w.number(z);
        w.text("}");
        w.separator(v, vertexCount, kVectorsPerLine, 4);
    }
    closeArray(w);

    openArray(w, "VertexArray (attrib = \"normal\")", "float[3]", vertexCount);
    for (size_t v = 0; v < vertexCount; ++v) {
        const double theta = 2 * kPi * double(v % columns) / shape.segments;
        const double nz = 0.05 * vertexNoise(v, 1);
        const double len = std::sqrt(1.0 + nz * nz);
        w.text("{");
        w.number(std::cos(theta) / len);
        w.text(", ");
        w.number(std::sin(theta) / len);
        w.text(", ");
        w.number(nz / len);
        w.text("}");
        w.separator(v, vertexCount, kVectorsPerLine, 4);
    }
    closeArray(w);

    openArray(w, "VertexArray (attrib = \"texcoord\")", "float[2]", vertexCount);
    for (size_t v = 0; v < vertexCount; ++v) {
        w.text("{");
        w.number(double(v % columns) / shape.segments);
        w.text(", ");
        w.number(double(v / columns) / double(shape.rings - 1));
        w.text("}");
        w.separator(v, vertexCount, kVectorsPerLine, 4);
    }
    closeArray(w);

    const size_t triangleCount = size_t(shape.rings - 1) * shape.segments * 2;
    openArray(w, "IndexArray", "unsigned_int32[3]", triangleCount);
    size_t t = 0;
    for (uint32_t ring = 0; ring + 1 < shape.rings; ++ring)
        for (uint32_t s = 0; s < shape.segments; ++s) {
            const uint64_t a = uint64_t(ring) * columns + s, b = a + 1, c = a + columns, d = c + 1;
            const uint64_t tri[2][3] = {{a, b, c}, {c, b, d}};
            for (const auto& corners : tri) {
                w.text("{");
                w.integer(corners[0]);
                w.text(", ");
                w.integer(corners[1]);
                w.text(", ");
                w.integer(corners[2]);
                w.text("}");
                w.separator(t++, triangleCount, kVectorsPerLine, 4);
            }
        }
    closeArray(w);

    // Skin: the tube's height is spread over the skin's bones in order; between two bones a vertex
    // has two influences, on a bone exactly one, and every seventh vertex a small third one.
    std::vector<uint32_t> counts(vertexCount);
    std::vector<uint32_t> indices;
    std::vector<double> weights;
    indices.reserve(vertexCount * 2);
    weights.reserve(vertexCount * 2);
    const uint32_t skinBones = shape.bonesPerSkin < shape.bones ? shape.bonesPerSkin : shape.bones;
    for (size_t v = 0; v < vertexCount; ++v) {
        const double along = double(v / columns) / double(shape.rings - 1) * double(skinBones - 1);
        const uint32_t bone = uint32_t(along);
        const double frac = along - double(bone);
        const size_t first = indices.size();
        indices.push_back(bone);
        weights.push_back(1.0 - frac);
        if (frac > 1e-3 && bone + 1 < skinBones) {
            indices.push_back(bone + 1);
            weights.push_back(frac);
        }
        if (v % 7 == 3 && skinBones > 3) {
            indices.push_back((bone + skinBones / 2) % skinBones);
            weights.push_back(0.05 + 0.03 * vertexNoise(v, 2));
        }
        double sum = 0;
        for (size_t i = first; i < weights.size(); ++i) sum += weights[i];
        for (size_t i = first; i < weights.size(); ++i) weights[i] /= sum;
        counts[v] = uint32_t(indices.size() - first);
    }
    stats.influences += indices.size();

    w.line(2, "Skin");
    w.line(2, "{");
    w.line(3, "Transform");
    w.line(3, "{");
    w.line(4, "float[16]");
    w.line(4, "{");
    w.tabs(5);
    w.matrix(meshNodeTransform(m));
    w.text("\n");
    w.line(4, "}");
    w.line(3, "}\n");
    w.line(3, "Skeleton");
    w.line(3, "{");
    w.line(4, "BoneRefArray");
    w.line(4, "{");
    w.tabs(5);
    w.text("ref\t\t\t// ");
    w.integer(skinBones);
    w.text("\n");
    w.line(5, "{");
    w.tabs(6);
    std::vector<uint32_t> skinBone(skinBones);
    for (uint32_t j = 0; j < skinBones; ++j) {
        skinBone[j] = (m * 3 + j) % shape.bones;
        if (j) w.text(", ");
        w.text("$bone" + std::to_string(skinBone[j]));
    }
    w.text("\n");
    w.line(5, "}");
    w.line(4, "}\n");
    w.line(4, "Transform");
    w.line(4, "{");
    w.tabs(5);
    w.text("float[16]\t// ");
    w.integer(skinBones);
    w.text("\n");
    w.line(5, "{");
    for (uint32_t j = 0; j < skinBones; ++j) {
        w.tabs(6);
        w.matrix(rig.world[skinBone[j]]);
        w.text(j + 1 < skinBones ? ",\n" : "\n");
    }
    w.line(5, "}");
    w.line(4, "}");
    w.line(3, "}\n");

    const auto scalarArray = [&w](const char* name, const char* type, size_t count, auto&& item) {
        w.line(3, name);
        w.line(3, "{");
        w.tabs(4);
        w.text(type);
        w.text("\t\t// ");
        w.integer(count);
        w.text("\n");
        w.line(4, "{");
        w.tabs(5);
        for (size_t i = 0; i < count; ++i) {
            item(i);
            w.separator(i, count, kScalarsPerLine, 5);
        }
        w.line(4, "}");
        w.line(3, "}");
    };
    scalarArray("BoneCountArray", "unsigned_int16", counts.size(), [&](size_t i) { w.integer(counts[i]); });
    w.text("\n");
    scalarArray("BoneIndexArray", "unsigned_int16", indices.size(), [&](size_t i) { w.integer(indices[i]); });
    w.text("\n");
    scalarArray("BoneWeightArray", "float", weights.size(), [&](size_t i) { w.number(weights[i]); });
    w.line(2, "}");

    w.line(1, "}");
    w.text("}\n\n");
    stats.vertices += vertexCount;
    stats.triangles += triangleCount;
}

void writeMaterial(Writer& w, uint32_t k) {
    const auto channel = [k](uint32_t c) { return 0.5 + 0.45 * noise(k * 5 + c + 100); };
    w.text("Material $material" + std::to_string(k) + "\n{\n");
    w.text("\tName {string {\"material_" + std::to_string(k) + "\"}}\n");
    w.text("\tColor (attrib = \"diffuse\") {float[3] {{");
    for (uint32_t c = 0; c < 3; ++c) {
        if (c) w.text(", ");
        w.number(channel(c));
    }
    w.text("}}}\n");
    w.text("\tColor (attrib = \"specular\") {float[3] {{0.5, 0.5, 0.5}}}\n");
    w.text("\tParam (attrib = \"specular_power\") {float {");
    w.number(20.0 + 10.0 * k);
    w.text("}}\n}\n\n");
}

}  // namespace

bool writeLargeOgex(const std::string& path, const LargeOgexShape& shape, LargeOgexStats& stats,
                    std::string& error) {
    stats = {};
    if (shape.meshes == 0 || shape.rings < 2 || shape.segments < 3 || shape.bones == 0 || shape.keys == 0 ||
        shape.materials == 0 || shape.bonesPerSkin == 0) {
        error = "the requested shape has an empty part";
        return false;
    }
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        error = "cannot create " + path + ": " + std::strerror(errno);
        return false;
    }
    Writer w(file);
    w.text(
        "// Synthetic OpenGEX scene written by bench_opengex: skinned tubes on an animated bone tree.\n\n");
    w.text("Metric (key = \"distance\") {float {1.0}}\n");
    w.text("Metric (key = \"angle\") {float {1.0}}\n");
    w.text("Metric (key = \"time\") {float {1.0}}\n");
    w.text("Metric (key = \"up\") {string {\"z\"}}\n\n");

    const Rig rig = makeRig(shape);
    w.text("Node $armature\n{\n\tName {string {\"Armature\"}}\n\n");
    w.text("\tTransform\n\t{\n\t\tfloat[16]\n\t\t{\n\t\t\t");
    w.matrix(rig.armature);
    w.text("\n\t\t}\n\t}\n\n");
    writeBone(w, shape, rig, 0, 1);
    w.text("}\n\n");

    for (uint32_t m = 0; m < shape.meshes; ++m) writeGeometryNode(w, shape, m);
    for (uint32_t m = 0; m < shape.meshes; ++m) writeGeometryObject(w, shape, rig, m, stats);
    for (uint32_t k = 0; k < shape.materials; ++k) writeMaterial(w, k);

    const bool written = w.finish();
    const long end = std::ftell(file);
    if (std::fclose(file) != 0 || !written || end < 0) {
        error = "cannot write " + path + " (disk full?)";
        return false;
    }
    stats.bytes = size_t(end);
    return true;
}

}  // namespace esv::bench
