// OpenGEX 3.0 reader: the structure walk, metrics, nodes and their transforms, materials,
// lights, cameras and animation. Geometry (meshes, skins, morph targets) is in
// opengex_geometry.cpp. The file is parsed by the OpenDDL parser first; this reader then
// interprets the tree, keeping every unknown structure out of the scene as the spec demands.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <type_traits>

#include <glm/gtc/matrix_transform.hpp>

#include "loaders/formats.h"
#include "loaders/opengex/opengex_internal.h"
#include "loaders/opengex/opengex_spectrum.h"

namespace esv {
namespace ogex {
namespace {

bool isNodeStructure(std::string_view id) {
    return id == "Node" || id == "BoneNode" || id == "GeometryNode" || id == "LightNode" || id == "CameraNode";
}

bool isTransformStructure(std::string_view id) {
    return id == "Transform" || id == "Translation" || id == "Rotation" || id == "Scale";
}

std::string str(std::string_view v) { return std::string(v); }

}  // namespace

glm::mat4 expandMatrix(const float* v, uint32_t size) {
    glm::mat4 m(1.0f);
    switch (size) {
        case 16:
            std::memcpy(&m[0][0], v, 16 * sizeof(float));
            break;
        case 12:
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 3; ++r) m[c][r] = v[c * 3 + r];
            break;
        case 9:
            for (int c = 0; c < 3; ++c)
                for (int r = 0; r < 3; ++r) m[c][r] = v[c * 3 + r];
            break;
        case 6:  // [a c 0 e; b d 0 f; 0 0 1 0; 0 0 0 1]
            m[0][0] = v[0];
            m[0][1] = v[1];
            m[1][0] = v[2];
            m[1][1] = v[3];
            m[3][0] = v[4];
            m[3][1] = v[5];
            break;
        case 4:
            m[0][0] = v[0];
            m[0][1] = v[1];
            m[1][0] = v[2];
            m[1][1] = v[3];
            break;
        default:
            break;
    }
    return m;
}

Reader::Reader(ddl::Document& doc, const std::string& path, const LoadOptions& options, Scene& scene,
               std::vector<Problem>& problems)
    : m_doc(doc), m_scene(scene), m_diag(path, options, scene, problems) {}

// ---------------------------------------------------------------------------------------------
// Reporting

std::string Reader::where(const Structure* at) const {
    std::vector<std::string> parts;
    for (const Structure* s = at; s; s = s->parent) {
        std::string part = str(s->identifier);
        if (s->hasName) part += (s->name.global ? " $" : " %") + str(s->name.identifier);
        parts.push_back(std::move(part));
    }
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += (out.empty() ? "" : " / ") + *it;
    return out;
}

FilePlace Reader::placeOf(const Structure* at) const {
    FilePlace place;
    if (at) m_doc.locate(at->offset, place.line, place.column);
    return place;
}

void Reader::fail(const Structure* at, const std::string& message) {
    m_diag.fatal(placeOf(at), at ? where(at) : "", message);
}

void Reader::violation(const Structure* at, const std::string& message) {
    m_diag.violation(placeOf(at), at ? where(at) : "", message);
}

// ---------------------------------------------------------------------------------------------
// Data access

const Structure* Reader::dataOf(const Structure* s, const char* expected) {
    const Structure* found = nullptr;
    size_t count = 0;
    for (const Structure* c : s->children)
        if (c->primitive) {
            if (!found) found = c;
            ++count;
        }
    if (!found) {
        violation(s, std::string("expected ") + expected + " data, found none");
    } else if (count > 1) {
        violation(s, std::string("expected one ") + expected + " substructure, found " + std::to_string(count));
    }
    return found;
}

bool Reader::readFloats(const Structure* d, std::vector<float>& out) {
    out.clear();
    if (!d) return false;
    const ddl::PrimitiveData& data = d->data;
    const size_t n = data.elementCount();
    switch (data.type) {
        case DataType::Float: {
            out.resize(n);
            if (n) std::memcpy(out.data(), data.bytes.data(), n * sizeof(float));
            return true;
        }
        case DataType::Double: {
            out.resize(n);
            for (size_t i = 0; i < n; ++i) {
                double v;
                std::memcpy(&v, data.bytes.data() + i * 8, 8);
                out[i] = static_cast<float>(v);
            }
            return true;
        }
        case DataType::Half: {
            out.resize(n);
            for (size_t i = 0; i < n; ++i) {
                uint16_t h;
                std::memcpy(&h, data.bytes.data() + i * 2, 2);
                const uint32_t sign = (h >> 15) & 1u, exponent = (h >> 10) & 31u, mantissa = h & 1023u;
                float v;
                if (exponent == 0) {
                    v = std::ldexp(static_cast<float>(mantissa), -24);
                } else if (exponent == 31) {
                    v = mantissa ? NAN : INFINITY;
                } else {
                    v = std::ldexp(static_cast<float>(mantissa | 1024u), static_cast<int>(exponent) - 25);
                }
                out[i] = sign ? -v : v;
            }
            return true;
        }
        default:
            violation(d, std::string("expected floating-point data, found ") + ddl::dataTypeName(data.type));
            return false;
    }
}

bool Reader::readUInts(const Structure* d, std::vector<uint64_t>& out) {
    out.clear();
    if (!d) return false;
    const ddl::PrimitiveData& data = d->data;
    const size_t n = data.elementCount();
    const bool isSigned = data.type == DataType::Int8 || data.type == DataType::Int16 ||
                          data.type == DataType::Int32 || data.type == DataType::Int64;
    const bool isUnsigned = data.type == DataType::UInt8 || data.type == DataType::UInt16 ||
                            data.type == DataType::UInt32 || data.type == DataType::UInt64;
    if (!isSigned && !isUnsigned) {
        violation(d, std::string("expected unsigned integer data, found ") + ddl::dataTypeName(data.type));
        return false;
    }
    if (isSigned) violation(d, std::string("expected unsigned integer data, found ") + ddl::dataTypeName(data.type));
    out.resize(n);
    const uint8_t* p = data.bytes.data();
    // One typed loop per width (a per-element variable-size copy costs more than the parse).
    auto widen = [&](auto tag) {
        using T = decltype(tag);
        for (size_t i = 0; i < n; ++i) {
            T v;
            std::memcpy(&v, p + i * sizeof(T), sizeof(T));
            if constexpr (std::is_signed_v<T>) {
                if (v < 0) return static_cast<int64_t>(v);
            }
            out[i] = static_cast<uint64_t>(v);
        }
        return int64_t(0);
    };
    int64_t negative = 0;
    switch (data.type) {
        case DataType::UInt8: negative = widen(uint8_t()); break;
        case DataType::UInt16: negative = widen(uint16_t()); break;
        case DataType::UInt32: negative = widen(uint32_t()); break;
        case DataType::UInt64: negative = widen(uint64_t()); break;
        case DataType::Int8: negative = widen(int8_t()); break;
        case DataType::Int16: negative = widen(int16_t()); break;
        case DataType::Int32: negative = widen(int32_t()); break;
        default: negative = widen(int64_t()); break;
    }
    if (negative < 0) {
        violation(d, "negative value " + std::to_string(negative) + " where a count or index is expected");
        return false;
    }
    return true;
}

bool Reader::readFloat(const Structure* s, float& out) {
    const Structure* d = dataOf(s, "float");
    std::vector<float> values;
    if (!readFloats(d, values)) return false;
    if (values.size() != 1 || d->data.arraySize > 1) {
        violation(d, "expected a single float, found " + std::to_string(values.size()) + " values");
        if (values.empty()) return false;
    }
    out = values[0];
    return true;
}

bool Reader::readString(const Structure* s, std::string& out) {
    const Structure* d = dataOf(s, "string");
    if (!d) return false;
    if (d->data.type != DataType::String) {
        violation(d, std::string("expected string data, found ") + ddl::dataTypeName(d->data.type));
        return false;
    }
    if (d->data.strings.size() != 1) {
        violation(d, "expected one string, found " + std::to_string(d->data.strings.size()));
        if (d->data.strings.empty()) return false;
    }
    out = d->data.strings[0];
    return true;
}

std::string_view Reader::propString(const Structure* s, std::string_view key, std::string_view fallback) {
    const ddl::Property* p = s->property(key);
    if (!p) return fallback;
    std::string_view v;
    if (!p->value.asString(v)) {
        violation(s, "property '" + str(key) + "' must be a string");
        return fallback;
    }
    return v;
}

bool Reader::propBool(const Structure* s, std::string_view key, bool fallback, bool* present) {
    const ddl::Property* p = s->property(key);
    if (present) *present = p != nullptr;
    if (!p) return fallback;
    bool v = fallback;
    if (!p->value.asBool(v)) {
        violation(s, "property '" + str(key) + "' must be a bool");
        if (present) *present = false;
        return fallback;
    }
    return v;
}

uint64_t Reader::propUInt(const Structure* s, std::string_view key, uint64_t fallback, bool* present) {
    const ddl::Property* p = s->property(key);
    if (present) *present = p != nullptr;
    if (!p) return fallback;
    uint64_t v = fallback;
    if (!p->value.asUInt64(v)) {
        violation(s, "property '" + str(key) + "' must be an unsigned integer");
        if (present) *present = false;
        return fallback;
    }
    return v;
}

float Reader::propFloat(const Structure* s, std::string_view key, float fallback, bool* present) {
    const ddl::Property* p = s->property(key);
    if (present) *present = p != nullptr;
    if (!p) return fallback;
    double v = fallback;
    if (!p->value.asDouble(v)) {
        violation(s, "property '" + str(key) + "' must be a number");
        if (present) *present = false;
        return fallback;
    }
    return static_cast<float>(v);
}

const Structure* Reader::resolveRef(const Structure* holder, const ddl::Reference& ref, const char* what) {
    if (ref.isNull()) return nullptr;
    const Structure* target = m_doc.resolve(ref, holder);
    if (!target) violation(holder, std::string("unresolved reference ") + ref.toString() + " to " + what);
    return target;
}

const Structure* Reader::refTarget(const Structure* s, const char* what) {
    const Structure* d = dataOf(s, "ref");
    if (!d) return nullptr;
    if (d->data.type != DataType::Ref || d->data.refs.size() != 1) {
        violation(d, std::string("expected one reference to ") + what);
        if (d->data.type != DataType::Ref || d->data.refs.empty()) return nullptr;
    }
    return resolveRef(d, d->data.refs[0], what);
}

std::string Reader::nameOf(const Structure* s) {
    std::string name;
    for (const Structure* c : s->children)
        if (!c->primitive && c->identifier == "Name") {
            readString(c, name);
            break;
        }
    return name;
}

// ---------------------------------------------------------------------------------------------
// Metrics

namespace {

// RGB (given primaries and white point, xy chromaticities) -> XYZ, as the spec's Metric section.
glm::mat3 rgbToXyz(glm::vec2 r, glm::vec2 g, glm::vec2 b, glm::vec2 w) {
    auto column = [](glm::vec2 c) { return glm::vec3(c.x / c.y, 1.0f, (1.0f - c.x - c.y) / c.y); };
    const glm::mat3 primaries(column(r), column(g), column(b));
    const glm::vec3 luminance = glm::inverse(primaries) * column(w);
    return glm::mat3(primaries[0] * luminance.x, primaries[1] * luminance.y, primaries[2] * luminance.z);
}

}  // namespace

void readMetric(Reader& r, const Structure* s) {
    std::string_view key = r.propString(s, "key", "");
    const Structure* d = r.dataOf(s, "metric");
    if (!d) return;
    Metrics& m = r.m_metrics;
    if (key == "distance" || key == "angle" || key == "time") {
        float v = 0.0f;
        if (!r.readFloat(s, v)) return;
        if (!(v > 0.0f) || !std::isfinite(v)) {
            r.violation(s, "the " + str(key) + " metric must be a positive number");
            return;
        }
        (key == "distance" ? m.distance : key == "angle" ? m.angle : m.time) = v;
    } else if (key == "up" || key == "forward") {
        std::string v;
        if (!r.readString(s, v)) return;
        if (key == "up") {
            if (v != "y" && v != "z") {
                r.violation(s, "the up metric must be \"y\" or \"z\", found \"" + v + "\"");
                return;
            }
            m.upZ = v == "z";
        } else {
            if (v != "x" && v != "-x" && v != "y" && v != "-y" && v != "z" && v != "-z") {
                r.violation(s, "the forward metric must be one of x, -x, y, -y, z, -z; found \"" + v + "\"");
                return;
            }
            m.forward = v;
        }
    } else if (key == "red" || key == "green" || key == "blue" || key == "white") {
        std::vector<float> v;
        if (!r.readFloats(d, v)) return;
        if (v.size() != 2 || !(v[1] > 0.0f)) {
            r.violation(s, "the " + str(key) + " metric must be one float[2] chromaticity with y > 0");
            return;
        }
        (key == "red" ? m.red : key == "green" ? m.green : key == "blue" ? m.blue : m.white) = glm::vec2(v[0], v[1]);
        m.colorSpaceIsSrgb = false;
    } else if (key.empty()) {
        r.violation(s, "a Metric needs a key");
    } else {
        r.note("Metric key \"" + str(key) + "\" is not one this reader knows; ignored");
    }
}

// ---------------------------------------------------------------------------------------------
// Transforms

namespace {

// Reads a Transform, Translation, Rotation or Scale into `e`. `inNode` enforces a single matrix.
bool readElement(Reader& r, const Structure* s, TransformElement& e) {
    const std::string_view id = s->identifier;
    e.object = r.propBool(s, "object", false);
    if (s->hasName) e.name = str(s->name.identifier);
    const Structure* d = r.dataOf(s, "float");
    std::vector<float> v;
    if (!r.readFloats(d, v)) return false;
    const uint32_t arraySize = d->data.arraySize;
    if (id == "Transform") {
        if (arraySize != 16 && arraySize != 12 && arraySize != 9 && arraySize != 6 && arraySize != 4) {
            r.violation(d, "a Transform needs float[16], [12], [9], [6] or [4] data, found float[" +
                               std::to_string(arraySize) + "]");
            return false;
        }
        if (v.size() != arraySize) {
            r.violation(d, "a node's Transform holds one matrix; found " + std::to_string(v.size() / arraySize));
            if (v.size() < arraySize) return false;
        }
        e.kind = ElementKind::Matrix;
        const glm::mat4 m = expandMatrix(v.data(), arraySize);
        std::memcpy(e.value.data(), &m[0][0], 16 * sizeof(float));
        return true;
    }
    const std::string_view kind = r.propString(s, "kind", id == "Rotation" ? "axis" : "xyz");
    size_t want = 1;
    if (id == "Translation") {
        if (kind == "x" || kind == "y" || kind == "z") {
            e.kind = ElementKind(int(ElementKind::TranslateX) + (kind[0] - 'x'));
        } else if (kind == "xyz") {
            e.kind = ElementKind::Translate;
            want = 3;
        } else {
            r.violation(s, "unknown Translation kind \"" + str(kind) + "\"");
            return false;
        }
    } else if (id == "Scale") {
        if (kind == "x" || kind == "y" || kind == "z") {
            e.kind = ElementKind(int(ElementKind::ScaleX) + (kind[0] - 'x'));
        } else if (kind == "xyz") {
            e.kind = ElementKind::Scale;
            want = 3;
        } else {
            r.violation(s, "unknown Scale kind \"" + str(kind) + "\"");
            return false;
        }
    } else {  // Rotation
        if (kind == "x" || kind == "y" || kind == "z") {
            e.kind = ElementKind(int(ElementKind::RotateX) + (kind[0] - 'x'));
        } else if (kind == "axis") {
            e.kind = ElementKind::RotateAxis;
            want = 4;
        } else if (kind == "quaternion") {
            e.kind = ElementKind::RotateQuat;
            want = 4;
        } else {
            r.violation(s, "unknown Rotation kind \"" + str(kind) + "\"");
            return false;
        }
    }
    if (v.size() != want) {
        r.violation(d, str(id) + " of kind \"" + str(kind) + "\" needs " + std::to_string(want) +
                           (want == 1 ? " float" : " floats") + ", found " + std::to_string(v.size()));
        if (v.size() < want) return false;
    } else if (want > 1 && arraySize != want) {
        r.violation(d, str(id) + " of kind \"" + str(kind) + "\" needs float[" + std::to_string(want) + "] data");
    }
    std::copy(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(want), e.value.begin());
    if (e.kind >= ElementKind::RotateX && e.kind <= ElementKind::RotateAxis) e.value[0] *= r.m_metrics.angle;
    return true;
}

bool isAngleElement(ElementKind k) { return k >= ElementKind::RotateX && k <= ElementKind::RotateAxis; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Materials

namespace {

TextureSlot slotFor(std::string_view attrib, bool& known) {
    known = true;
    if (attrib == "diffuse") return TextureSlot::Diffuse;
    if (attrib == "specular") return TextureSlot::Specular;
    if (attrib == "specular_power") return TextureSlot::Shininess;
    if (attrib == "emission") return TextureSlot::Emissive;
    if (attrib == "opacity" || attrib == "transparency") return TextureSlot::Opacity;
    if (attrib == "normal") return TextureSlot::Normal;
    if (attrib == "height") return TextureSlot::Bump;
    if (attrib == "occlusion") return TextureSlot::Occlusion;
    if (attrib == "roughness") return TextureSlot::Roughness;
    if (attrib == "metalness") return TextureSlot::Metallic;
    known = false;
    return TextureSlot::Count;
}

Wrap wrapFor(Reader& r, const Structure* s, std::string_view key) {
    const std::string_view mode = r.propString(s, key, "repeat");
    if (mode == "repeat") return Wrap::Repeat;
    if (mode == "clamp") return Wrap::Clamp;
    if (mode == "mirror_repeat") return Wrap::Mirror;
    if (mode == "border") return Wrap::Border;
    if (mode == "mirror_clamp") return Wrap::MirrorClamp;
    if (mode == "mirror_border") return Wrap::MirrorBorder;
    r.violation(s, "unknown addressing mode \"" + str(mode) + "\"");
    return Wrap::Repeat;
}

// A Spectrum structure converted to linear sRGB (CIE 1931 tables of the spec).
bool readSpectrum(Reader& r, const Structure* s, glm::vec3& rgb) {
    bool hasMin = false, hasMax = false;
    const uint64_t lo = r.propUInt(s, "min", 0, &hasMin), hi = r.propUInt(s, "max", 0, &hasMax);
    if (!hasMin || !hasMax || hi <= lo || hi > 100000) {
        r.violation(s, "a Spectrum needs min and max wavelengths with max > min");
        return false;
    }
    std::vector<float> values;
    if (!r.readFloats(r.dataOf(s, "float"), values)) return false;
    if (values.size() < 2) {
        r.violation(s, "a Spectrum needs at least two samples");
        return false;
    }
    rgb = spectrumToLinearSrgb(static_cast<float>(lo), static_cast<float>(hi), values.data(), values.size());
    return true;
}

// The colour of a Color structure (float[3] or float[4]); alpha in `alpha` when given.
bool readColor(Reader& r, const Structure* s, glm::vec3& rgb, float* alpha) {
    const Structure* d = r.dataOf(s, "float[3] or float[4]");
    std::vector<float> v;
    if (!r.readFloats(d, v)) return false;
    if ((d->data.arraySize != 3 && d->data.arraySize != 4) || v.size() != d->data.arraySize) {
        r.violation(d, "a Color holds one float[3] or float[4]");
        if (v.size() < 3) return false;
    }
    rgb = r.toSrgb(glm::vec3(v[0], v[1], v[2]));
    if (alpha && v.size() >= 4) *alpha = v[3];
    return true;
}

// ---- The parts of a Material (readMaterial), one per kind of substructure.

// A Material being read, and what its parts tell the end of the read.
struct MaterialBuild {
    Material m;
    std::vector<std::string> unsupported;  // what this renderer does not show, for one warning
    bool spectrumDiffuse = false, spectrumSpecular = false, spectrumEmission = false;  // set by a Spectrum
    bool metalRough = false;
    bool ior = false;  // a Param "ior" was given
};

// A Color or Spectrum `c` of the material. A Spectrum takes precedence over a Color of the same attrib.
void readMaterialColor(Reader& r, const Structure* c, std::string_view attrib, MaterialBuild& b) {
    Material& m = b.m;
    const std::string_view id = c->identifier;
    glm::vec3 rgb(0.0f);
    float alpha = 1.0f;
    const bool spectrum = id == "Spectrum";
    if (spectrum ? !readSpectrum(r, c, rgb) : !readColor(r, c, rgb, &alpha)) return;
    if (attrib == "diffuse") {
        if (spectrum || !b.spectrumDiffuse) m.diffuse = rgb;
        b.spectrumDiffuse |= spectrum;
        if (!spectrum && alpha != 1.0f) m.opacity = alpha;
    } else if (attrib == "specular") {
        if (spectrum || !b.spectrumSpecular) m.specular = rgb;
        b.spectrumSpecular |= spectrum;
    } else if (attrib == "emission") {
        if (spectrum || !b.spectrumEmission) m.emissive = rgb;
        b.spectrumEmission |= spectrum;
    } else if (attrib == "transparency") {
        // Transparency colour t: what passes through. Shown as opacity 1 - mean(t).
        m.opacity = std::clamp(1.0f - (rgb.r + rgb.g + rgb.b) / 3.0f, 0.0f, 1.0f);
    } else if (attrib == "clearcoat" || attrib == "sheen") {
        b.unsupported.push_back(str(attrib) + " colour");
    } else {
        r.note("material '" + m.name + "': " + str(id) + " attrib \"" + str(attrib) + "\" is not defined by OpenGEX; ignored");
    }
}

// A Param `c` of the material.
void readMaterialParam(Reader& r, const Structure* c, std::string_view attrib, MaterialBuild& b) {
    Material& m = b.m;
    float v = 0.0f;
    if (!r.readFloat(c, v)) return;
    if (attrib == "specular_power") {
        m.shininess = v;
    } else if (attrib == "opacity") {
        m.opacity = std::clamp(v, 0.0f, 1.0f);
    } else if (attrib == "roughness") {
        m.roughness = v;
        b.metalRough = true;
    } else if (attrib == "metalness") {
        m.metallic = v;
        b.metalRough = true;
    } else if (attrib == "ior") {
        m.ior = v;
        b.ior = true;
    } else if (attrib == "height_scale" || attrib == "clearcoat_roughness" || attrib == "sheen_roughness") {
        b.unsupported.push_back(str(attrib));
    } else {
        r.note("material '" + m.name + "': Param attrib \"" + str(attrib) + "\" is not defined by OpenGEX; ignored");
    }
}

// The texture coordinate set, addressing, swizzle and border colour of Texture `c`.
void readTextureSampling(Reader& r, const Structure* c, TextureRef& ref) {
    const uint64_t set = r.propUInt(c, "texcoord", 0);
    ref.uvSet = static_cast<uint8_t>(std::min<uint64_t>(set, 7));
    if (set > 7) r.violation(c, "texcoord set " + std::to_string(set) + " is beyond the 8 this viewer reads");
    ref.wrapS = wrapFor(r, c, "x_address");
    ref.wrapT = wrapFor(r, c, "y_address");
    wrapFor(r, c, "z_address");  // checked; the maps this renderer samples are 2D
    const std::string swizzle = str(r.propString(c, "swizzle", "i"));
    if (!parseSwizzle(swizzle, ref.swizzle))
        r.violation(c, "a swizzle is one or four characters from r, g, b, a, x, y, z, w, 0, 1, i; found \"" +
                           swizzle + "\"");
    const std::string_view border = r.propString(c, "border", "zero");
    if (border == "black") {
        ref.border = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
    } else if (border == "white") {
        ref.border = glm::vec4(1.0f);
    } else if (border != "zero") {
        r.violation(c, "the border colour must be \"black\", \"white\" or \"zero\", found \"" + str(border) + "\"");
    }
}

// The transform structures (with the structure each came from) and Animations inside a Texture.
struct TextureTransform {
    std::vector<TransformElement> elements;
    std::vector<const Structure*> elementStructures, animations;
};

// Texture coordinate transform: the product of the transform structures in order, their object
// property ignored (spec, Texture). Animations target them by local name.
TextureTransform readTextureTransform(Reader& r, const Structure* c) {
    TextureTransform tt;
    for (const Structure* t : c->children) {
        if (t->primitive) continue;
        if (isTransformStructure(t->identifier)) {
            TransformElement e;
            if (!readElement(r, t, e)) continue;
            e.object = false;
            tt.elements.push_back(std::move(e));
            tt.elementStructures.push_back(t);
        } else if (t->identifier == "Animation") {
            tt.animations.push_back(t);
        }
    }
    return tt;
}

// Adds a texture's transform (when it has elements) to Scene::uvTransforms as `name`, for `ref`,
// and its Animations to those read later.
void addUvTransform(Reader& r, TextureTransform& tt, const std::string& name, TextureRef& ref) {
    if (!tt.elements.empty()) {
        const int32_t uv = static_cast<int32_t>(r.m_scene.uvTransforms.size());
        for (size_t e = 0; e < tt.elements.size(); ++e) {
            Reader::Target tg;
            tg.uvTransform = uv;
            tg.index = static_cast<uint32_t>(e);
            tg.kind = tt.elements[e].kind;
            tg.angle = isAngleElement(tt.elements[e].kind);
            r.m_targets[tt.elementStructures[e]] = tg;
        }
        UvTransform transform;
        transform.name = name;
        transform.elements = std::move(tt.elements);
        r.m_scene.uvTransforms.push_back(std::move(transform));
        ref.uvTransform = uv;
    }
    // Without transforms the animations have nothing to target: their tracks say so.
    for (const Structure* a : tt.animations) r.m_uvAnimations.emplace_back(ref.uvTransform, a);
}

// A Texture `c` of the material: a scene texture in the slot of its attrib.
void readMaterialTexture(Reader& r, const Structure* c, std::string_view attrib, MaterialBuild& b) {
    Material& m = b.m;
    bool known = false;
    const TextureSlot slot = slotFor(attrib, known);
    std::string file;
    if (!r.readString(c, file)) return;
    if (!known) {
        if (attrib == "clearcoat" || attrib == "clearcoat_roughness" || attrib == "clearcoat_normal" ||
            attrib == "sheen" || attrib == "sheen_roughness") {
            b.unsupported.push_back(str(attrib) + " texture");
        } else {
            r.note("material '" + m.name + "': texture attrib \"" + str(attrib) + "\" is not defined by OpenGEX; ignored");
        }
        return;
    }
    if (attrib == "roughness" || attrib == "metalness") b.metalRough = true;
    TextureRef ref;
    readTextureSampling(r, c, ref);
    TextureTransform transform = readTextureTransform(r, c);
    if (file.empty()) {
        r.note("material '" + m.name + "': " + str(attrib) + " texture has an empty file name; ignored");
        return;
    }
    addUvTransform(r, transform, "material '" + m.name + "' / " + str(attrib), ref);
    Texture texture;
    texture.name = file;
    texture.path = file;
    ref.texture = static_cast<int32_t>(r.m_scene.textures.size());
    r.m_scene.textures.push_back(std::move(texture));
    m.texture(slot) = ref;
    if (attrib == "transparency")
        r.warn("material '" + m.name + "': " + str(attrib) + " texture \"" + file + "\": transparency map read as opacity");
}

}  // namespace

// A Material -> Scene::materials, its textures and texture coordinate transforms with it.
void readMaterial(Reader& r, const Structure* s) {
    MaterialBuild b;
    Material& m = b.m;
    m.name = r.nameOf(s);
    if (m.name.empty() && s->hasName) m.name = str(s->name.identifier);
    // Table 2.1 defaults: white diffuse, no specular, specular power 1, no emission, opacity 1.
    m.diffuse = glm::vec3(1.0f);
    m.ambient = glm::vec3(1.0f);
    m.specular = glm::vec3(0.0f);
    m.shininess = 1.0f;
    m.roughness = 0.0f;
    m.ior = 1.0f;
    m.twoSided = r.propBool(s, "two_sided", false);
    for (const Structure* c : s->children) {
        if (c->primitive) {
            r.violation(c, "a Material holds no data of its own");
            continue;
        }
        const std::string_view id = c->identifier;
        if (id == "Name") continue;
        const std::string_view attrib = r.propString(c, "attrib", "");
        if ((id == "Color" || id == "Param" || id == "Spectrum" || id == "Texture") && attrib.empty()) {
            r.violation(c, "a " + str(id) + " needs an attrib");
            continue;
        }
        if (id == "Color" || id == "Spectrum") {
            readMaterialColor(r, c, attrib, b);
        } else if (id == "Param") {
            readMaterialParam(r, c, attrib, b);
        } else if (id == "Texture") {
            readMaterialTexture(r, c, attrib, b);
        } else {
            ++r.m_unknown;
            ++r.m_unknownKinds[str(id)];
        }
    }
    if (b.metalRough) {
        m.model = ShadingModel::MetalRough;
        // Table 2.1's default index of refraction, 1.0, is that of a medium light passes into
        // unbent. As the dielectric F0 esview draws from the index it would take every highlight
        // away, so a metal/rough material that names none is drawn with glTF's 1.5 (F0 0.04).
        if (!b.ior) m.ior = Material().ior;
    }
    if (m.opacity < 1.0f) {
        m.blend.enabled = true;
        m.blend.srcRgb = m.blend.srcAlpha = BlendFactor::SrcAlpha;
        m.blend.dstRgb = m.blend.dstAlpha = BlendFactor::OneMinusSrcAlpha;
    }
    if (!b.unsupported.empty()) {
        std::string list;
        for (const std::string& u : b.unsupported) list += (list.empty() ? "" : ", ") + u;
        r.warn("material '" + m.name + "': not shown by this renderer: " + list);
    }
    r.m_material[s] = static_cast<int32_t>(r.m_scene.materials.size());
    r.m_scene.materials.push_back(std::move(m));
}

// ---------------------------------------------------------------------------------------------
// Lights and cameras

namespace {

float saturate(float v) { return std::clamp(v, 0.0f, 1.0f); }

void readAtten(Reader& r, const Structure* s, Light& light) {
    const std::string_view kind = r.propString(s, "kind", "distance");
    const std::string_view curve = r.propString(s, "curve", "linear");
    if (kind != "distance" && kind != "angle" && kind != "cos_angle") {
        r.violation(s, "unknown Atten kind \"" + str(kind) + "\"");
        return;
    }
    if (curve != "linear" && curve != "smooth" && curve != "inverse" && curve != "inverse_square") {
        r.violation(s, "unknown Atten curve \"" + str(curve) + "\"");
        return;
    }
    float begin = 0.0f, end = 1.0f, scale = 1.0f, offset = 0.0f, power = 1.0f;
    float kc = 0.0f, kl = curve == "inverse" ? 1.0f : 0.0f, kq = 1.0f;
    bool hasEnd = false;
    for (const Structure* c : s->children) {
        if (c->primitive || c->identifier != "Param") {
            if (c->primitive) r.violation(c, "an Atten holds only Param structures");
            continue;
        }
        const std::string_view attrib = r.propString(c, "attrib", "");
        float v = 0.0f;
        if (!r.readFloat(c, v)) continue;
        if (attrib == "begin") {
            begin = v;
        } else if (attrib == "end") {
            end = v;
            hasEnd = true;
        } else if (attrib == "scale") {
            scale = v;
        } else if (attrib == "offset") {
            offset = v;
        } else if (attrib == "constant") {
            kc = v;
        } else if (attrib == "linear") {
            kl = v;
        } else if (attrib == "quadratic") {
            kq = v;
        } else if (attrib == "power") {
            power = v;
        }
    }
    if (kind == "distance") {
        // Distances stay in the file's units, as the geometry does.
        if (curve == "linear" || curve == "smooth") {
            light.rangeStart = begin;
            light.range = end;
            light.smoothRange = curve == "smooth";
            if (!hasEnd) r.note("light '" + light.name + "': a " + str(curve) + " distance attenuation without an end ends at 1 unit");
        } else {
            if (!(scale > 0.0f)) {
                r.violation(s, "the attenuation scale must be positive");
                return;
            }
            // s^2 / (kq t^2 + kl s t + kc s^2) = 1 / (kc + (kl/s) t + (kq/s^2) t^2)
            light.constantAttenuation = kc;
            light.linearAttenuation = kl / scale;
            light.quadraticAttenuation = curve == "inverse_square" ? kq / (scale * scale) : 0.0f;
            light.attenuationOffset = offset;
        }
        return;
    }
    // Angular attenuation of a spot light: inner and outer half angles.
    float innerAngle = begin, outerAngle = end;
    if (kind == "angle") {
        innerAngle *= r.m_metrics.angle;
        outerAngle *= r.m_metrics.angle;
    } else {  // cos_angle: the inputs are cosines
        innerAngle = std::acos(saturate(begin));
        outerAngle = std::acos(saturate(end));
    }
    if (curve == "linear" || curve == "smooth") {
        light.innerCone = std::min(innerAngle, outerAngle);
        light.outerCone = std::max(innerAngle, outerAngle);
        light.smoothCone = curve == "smooth";
        light.coneLinearInCosine = kind == "cos_angle";
    } else {
        r.note("light '" + light.name + "': an " + str(curve) + " angular attenuation is shown as the spot's cone only");
    }
    light.falloffExponent = power;
}

}  // namespace

void readLightObject(Reader& r, const Structure* s) {
    Light light;
    light.name = s->hasName ? str(s->name.identifier) : "light object " + std::to_string(r.m_lightObject.size());
    const std::string_view type = r.propString(s, "type", "");
    if (type == "infinite") {
        light.type = LightType::Directional;
    } else if (type == "point") {
        light.type = LightType::Point;
    } else if (type == "spot") {
        // Without an angular Atten a spot light has no cone (the spec defines none): full circle.
        light.type = LightType::Spot;
        light.innerCone = light.outerCone = 3.14159265f;
    } else {
        r.violation(s, type.empty() ? "a LightObject needs a type" : "unknown light type \"" + str(type) + "\"");
        light.type = LightType::Point;
    }
    light.castsShadows = r.propBool(s, "shadow", true);
    light.openGexFalloff = true;
    bool spectrum = false;
    for (const Structure* c : s->children) {
        if (c->primitive) {
            r.violation(c, "a LightObject holds no data of its own");
            continue;
        }
        const std::string_view id = c->identifier;
        const std::string_view attrib = r.propString(c, "attrib", "");
        if (id == "Color" && attrib == "light") {
            glm::vec3 rgb;
            if (readColor(r, c, rgb, nullptr) && !spectrum) light.color = rgb;
        } else if (id == "Spectrum" && attrib == "light") {
            glm::vec3 rgb;
            if (readSpectrum(r, c, rgb)) {
                light.color = rgb;
                spectrum = true;
            }
        } else if (id == "Param" && (attrib == "intensity" || attrib == "illuminance")) {
            float v = 1.0f;
            if (r.readFloat(c, v)) light.intensity = v;
            if ((attrib == "intensity") == (light.type == LightType::Directional))
                r.note("light '" + light.name + "': \"" + str(attrib) + "\" applies to " +
                       (attrib == "intensity" ? "point and spot lights" : "infinite lights") + "; used anyway");
        } else if (id == "Texture" && attrib == "projection") {
            std::string file;
            if (!r.readString(c, file)) continue;
            if (file.empty()) {
                r.note("light '" + light.name + "': projection texture has an empty file name; ignored");
                continue;
            }
            if (r.m_lightProjectionFile.count(s)) {
                r.violation(
                    c,
                    "a LightObject holds a single projection Texture (spec, LightObject); the first is used");
                continue;
            }
            // The image is addressed by the light's frustum, not by vertex texture coordinates:
            // texcoord and transforms have nothing to act on. Addressing, swizzle and border as
            // for material textures.
            TextureRef ref;
            ref.wrapS = wrapFor(r, c, "x_address");
            ref.wrapT = wrapFor(r, c, "y_address");
            wrapFor(r, c, "z_address");
            const std::string swizzle = str(r.propString(c, "swizzle", "i"));
            if (!parseSwizzle(swizzle, ref.swizzle))
                r.violation(
                    c, "a swizzle is one or four characters from r, g, b, a, x, y, z, w, 0, 1, i; found \"" +
                           swizzle + "\"");
            const std::string_view border = r.propString(c, "border", "zero");
            if (border == "black") {
                ref.border = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
            } else if (border == "white") {
                ref.border = glm::vec4(1.0f);
            } else if (border != "zero") {
                r.violation(c, "the border colour must be \"black\", \"white\" or \"zero\", found \"" +
                                   str(border) + "\"");
            }
            for (const Structure* t : c->children)
                if (!t->primitive && (isTransformStructure(t->identifier) || t->identifier == "Animation")) {
                    r.note("light '" + light.name + "': projection texture \"" + file +
                           "\": texture coordinate transforms do not apply to a projection; ignored");
                    break;
                }
            if (light.type != LightType::Spot)
                r.warn("light '" + light.name + "': projection texture \"" + file +
                       "\" on a light that is not a spot light (spec: spot lights only); not projected");
            light.projection = ref;
            r.m_lightProjectionFile[s] = file;
        } else if (id == "Atten") {
            if (light.type == LightType::Directional) {
                r.note("light '" + light.name + "': attenuation of an infinite light is ignored, as the spec says");
                continue;
            }
            readAtten(r, c, light);
        } else if (id == "Color" || id == "Param" || id == "Spectrum" || id == "Texture") {
            r.note("light '" + light.name + "': " + str(id) + " attrib \"" + str(attrib) + "\" is not one OpenGEX defines; ignored");
        } else {
            ++r.m_unknown;
            ++r.m_unknownKinds[str(id)];
        }
    }
    if (light.type == LightType::Spot && r.m_lightProjectionFile.count(s) && !(light.outerCone < 1.5707963f))
        r.note(
            "light '" + light.name +
            "': the spot has no cone under 90 degrees; its projection texture spans a 45-degree half angle");
    r.m_lightObject[s] = light;
}

void readCameraObject(Reader& r, const Structure* s) {
    Camera camera;
    camera.name = s->hasName ? str(s->name.identifier) : "camera object " + std::to_string(r.m_cameraObject.size());
    for (const Structure* c : s->children) {
        if (c->primitive || c->identifier != "Param") {
            if (c->primitive) {
                r.violation(c, "a CameraObject holds no data of its own");
            } else {
                ++r.m_unknown;
                ++r.m_unknownKinds[str(c->identifier)];
            }
            continue;
        }
        const std::string_view attrib = r.propString(c, "attrib", "");
        float v = 0.0f;
        if (!r.readFloat(c, v)) continue;
        if (attrib == "fov" || attrib == "fovx") {
            camera.xfov = v * r.m_metrics.angle;
        } else if (attrib == "fovy") {
            camera.yfov = v * r.m_metrics.angle;
            camera.xfov = 0.0f;
        } else if (attrib == "near") {
            camera.nearZ = v;
        } else if (attrib == "far") {
            camera.farZ = v;
        } else {
            r.note("camera '" + camera.name + "': Param attrib \"" + str(attrib) + "\" is not one OpenGEX defines; ignored");
        }
    }
    // fovy wins when both are given (it is the one the renderer uses directly).
    for (const Structure* c : s->children)
        if (!c->primitive && c->identifier == "Param" && r.propString(c, "attrib", "") == "fovy") camera.xfov = 0.0f;
    if (!(camera.nearZ > 0.0f) || !(camera.farZ > camera.nearZ)) {
        r.violation(s, "camera near and far must satisfy 0 < near < far");
        camera.nearZ = 0.1f;
        camera.farZ = 1000.0f;
    }
    r.m_cameraObject[s] = camera;
}

// ---------------------------------------------------------------------------------------------
// Nodes

namespace {

NodeKind kindOf(std::string_view id) {
    if (id == "BoneNode") return NodeKind::Bone;
    if (id == "GeometryNode") return NodeKind::Mesh;
    if (id == "LightNode") return NodeKind::Light;
    if (id == "CameraNode") return NodeKind::Camera;
    return NodeKind::Empty;
}

// ---- The parts of a node (readNode), in the order they run.

// What a node structure holds besides its Name, sorted by kind.
struct NodeParts {
    std::vector<TransformElement> elements;
    const Structure* objectRef = nullptr;  // the first ObjectRef
    size_t objectRefs = 0;
    std::vector<const Structure*> materialRefs, morphWeights;
    std::vector<const Structure*> children;  // node structures
};

// Sorts the children of node structure `s` (node `index`): its transform elements become
// animation targets, its Animations are kept for later.
NodeParts collectNodeParts(Reader& r, const Structure* s, int32_t index) {
    NodeParts p;
    for (const Structure* c : s->children) {
        if (c->primitive) {
            r.violation(c, "a node holds no data of its own");
            continue;
        }
        const std::string_view id = c->identifier;
        if (id == "Name") continue;
        if (isTransformStructure(id)) {
            TransformElement e;
            if (readElement(r, c, e)) {
                Reader::Target t;
                t.node = index;
                t.index = static_cast<uint32_t>(p.elements.size());
                t.kind = e.kind;
                t.angle = isAngleElement(e.kind);
                r.m_targets[c] = t;
                p.elements.push_back(std::move(e));
            }
        } else if (id == "ObjectRef") {
            if (!p.objectRef) p.objectRef = c;
            ++p.objectRefs;
        } else if (id == "MaterialRef") {
            p.materialRefs.push_back(c);
        } else if (id == "MorphWeight") {
            p.morphWeights.push_back(c);
        } else if (id == "Animation") {
            r.m_animations.emplace_back(index, c);
        } else if (isNodeStructure(id)) {
            p.children.push_back(c);
        } else {
            ++r.m_unknown;
            ++r.m_unknownKinds[str(id)];
        }
    }
    return p;
}

// The object node structure `s` of kind `kind` places (null for none), after checking that
// exactly the nodes that need one have an ObjectRef and only GeometryNodes MaterialRefs and
// MorphWeights.
const Structure* objectOf(Reader& r, const Structure* s, NodeKind kind, const NodeParts& p) {
    if (kind == NodeKind::Mesh || kind == NodeKind::Light || kind == NodeKind::Camera) {
        if (!p.objectRef) {
            r.violation(s, "a " + str(s->identifier) + " must contain an ObjectRef");
        } else if (p.objectRefs > 1) {
            r.violation(s, "a " + str(s->identifier) + " contains " + std::to_string(p.objectRefs) + " ObjectRefs; the first is used");
        }
    } else if (p.objectRef) {
        r.violation(p.objectRef, "a " + str(s->identifier) + " has no object to reference");
    }
    if (kind != NodeKind::Mesh && (!p.materialRefs.empty() || !p.morphWeights.empty()))
        r.violation(s, "MaterialRef and MorphWeight belong in a GeometryNode");

    return p.objectRef && kind != NodeKind::Empty && kind != NodeKind::Bone
               ? r.refTarget(p.objectRef, kind == NodeKind::Mesh    ? "a GeometryObject"
                                          : kind == NodeKind::Light ? "a LightObject"
                                                                    : "a CameraObject")
               : nullptr;
}

// The MaterialRefs as (material index, scene material) pairs.
std::vector<std::pair<uint64_t, int32_t>> boundMaterialsOf(Reader& r, const std::vector<const Structure*>& materialRefs) {
    std::vector<std::pair<uint64_t, int32_t>> boundMaterials;
    std::vector<uint64_t> seen;
    for (const Structure* m : materialRefs) {
        const uint64_t slot = r.propUInt(m, "index", 0);
        if (std::find(seen.begin(), seen.end(), slot) != seen.end())
            r.violation(m, "a second MaterialRef with index " + std::to_string(slot));
        seen.push_back(slot);
        const Structure* target = r.refTarget(m, "a Material");
        if (!target) continue;
        auto mat = r.m_material.find(target);
        if (mat == r.m_material.end()) {
            r.violation(m, "a MaterialRef must name a Material");
            continue;
        }
        boundMaterials.emplace_back(slot, mat->second);
    }
    return boundMaterials;
}

// The MorphWeights of node `index` (which places geometry `g`) as its morph weights and animation
// targets. With any MorphWeight, unlisted targets weigh 0 (spec, MorphWeight).
void readMorphWeights(Reader& r, int32_t index, const GeometryInfo& g, const std::vector<const Structure*>& morphWeights) {
    Node& n = r.m_scene.nodes[index];
    const Mesh& mesh = r.m_scene.meshes[g.mesh];
    n.morphWeights.assign(mesh.morphTargets.size(), 0.0f);
    std::vector<uint64_t> indices;
    for (const Structure* w : morphWeights) {
        const uint64_t target = r.propUInt(w, "index", 0);
        if (std::find(indices.begin(), indices.end(), target) != indices.end())
            r.violation(w, "a second MorphWeight for morph target " + std::to_string(target));
        indices.push_back(target);
        float value = 0.0f;
        if (!r.readFloat(w, value)) continue;
        auto t = target <= UINT32_MAX ? g.morphTarget.find(static_cast<uint32_t>(target)) : g.morphTarget.end();
        if (t == g.morphTarget.end()) {
            r.note("node '" + n.name + "': MorphWeight for morph target " + std::to_string(target) +
                   ", which the geometry does not have; ignored");
            continue;
        }
        n.morphWeights[t->second] = value;
        Reader::Target tr;
        tr.node = index;
        tr.index = t->second;
        tr.morphWeight = true;
        r.m_targets[w] = tr;
    }
}

// GeometryNode `s` (node `index`) placing `object`: its mesh, its `boundMaterials` by IndexArray
// material index, and morph weights; an empty node when the object is no readable GeometryObject.
void placeGeometry(Reader& r, const Structure* s, int32_t index, const Structure* object, const NodeParts& p,
                   const std::vector<std::pair<uint64_t, int32_t>>& boundMaterials) {
    Node& n = r.m_scene.nodes[index];
    auto it = object ? r.m_geometry.find(object) : r.m_geometry.end();
    if (object && it == r.m_geometry.end()) r.violation(p.objectRef, "the ObjectRef of a GeometryNode must name a GeometryObject");
    if (it == r.m_geometry.end() || it->second.mesh < 0) {
        n.kind = NodeKind::Empty;  // drawn as nothing, still placed in the tree
        return;
    }
    const GeometryInfo& g = it->second;
    n.object = g.mesh;
    n.visible = r.propBool(s, "visible", g.visible);
    r.propBool(s, "shadow", true);
    r.propBool(s, "motion_blur", true);
    r.m_geometryNodes.emplace_back(s, object);
    // Materials by IndexArray material index.
    n.materials.assign(g.materialIndices.size(), -1);
    for (const auto& [slot, material] : boundMaterials) {
        bool used = false;
        for (size_t k = 0; k < g.materialIndices.size(); ++k)
            if (g.materialIndices[k] == slot) {
                n.materials[k] = material;
                used = true;
            }
        if (!used) r.note("node '" + n.name + "': material index " + std::to_string(slot) + " is used by no IndexArray");
    }
    if (!p.morphWeights.empty()) readMorphWeights(r, index, g, p.morphWeights);
}

// LightNode `s` (node `n`) placing `object`: an instance of the LightObject in Scene::lights (its
// projection texture made when first placed); an empty node when the object is no LightObject.
void placeLight(Reader& r, const Structure* s, Node& n, const Structure* object, const Structure* objectRef) {
    auto it = object ? r.m_lightObject.find(object) : r.m_lightObject.end();
    if (object && it == r.m_lightObject.end()) r.violation(objectRef, "the ObjectRef of a LightNode must name a LightObject");
    if (it == r.m_lightObject.end()) {
        n.kind = NodeKind::Empty;
        return;
    }
    auto file = r.m_lightProjectionFile.find(object);
    if (file != r.m_lightProjectionFile.end() && it->second.projection.texture < 0) {
        Texture texture;
        texture.name = file->second;
        texture.path = file->second;
        it->second.projection.texture = static_cast<int32_t>(r.m_scene.textures.size());
        r.m_scene.textures.push_back(std::move(texture));
    }
    Light light = it->second;
    if (!n.name.empty()) light.name = n.name;
    light.castsShadows = r.propBool(s, "shadow", light.castsShadows);
    n.object = static_cast<int32_t>(r.m_scene.lights.size());
    r.m_scene.lights.push_back(std::move(light));
}

// CameraNode (node `n`) placing `object`: an instance of the CameraObject in Scene::cameras; an
// empty node when the object is no CameraObject.
void placeCamera(Reader& r, Node& n, const Structure* object, const Structure* objectRef) {
    auto it = object ? r.m_cameraObject.find(object) : r.m_cameraObject.end();
    if (object && it == r.m_cameraObject.end()) r.violation(objectRef, "the ObjectRef of a CameraNode must name a CameraObject");
    if (it == r.m_cameraObject.end()) {
        n.kind = NodeKind::Empty;
        return;
    }
    Camera camera = it->second;
    if (!n.name.empty()) camera.name = n.name;
    n.object = static_cast<int32_t>(r.m_scene.cameras.size());
    r.m_scene.cameras.push_back(std::move(camera));
}

}  // namespace

// Node structure `s` (and its subtree) -> Scene::nodes under `parent`: its transform, and the
// object it places.
void readNode(Reader& r, const Structure* s, int32_t parent) {
    const int32_t index = static_cast<int32_t>(r.m_scene.nodes.size());
    r.m_scene.nodes.emplace_back();
    r.m_node[s] = index;
    {
        Node& n = r.m_scene.nodes.back();
        n.parent = parent;
        n.kind = kindOf(s->identifier);
        n.name = r.nameOf(s);
        if (n.name.empty() && s->hasName) n.name = str(s->name.identifier);
    }
    NodeParts parts = collectNodeParts(r, s, index);
    const NodeKind kind = kindOf(s->identifier);
    {
        Node& n = r.m_scene.nodes[index];
        glm::mat4 local(1.0f), object(1.0f);
        for (const TransformElement& e : parts.elements) (e.object ? object : local) = (e.object ? object : local) * e.toMatrix();
        n.local.matrix = local;
        n.local.useMatrix = true;
        n.objectTransform = object;
        n.elements = std::move(parts.elements);
    }
    const Structure* object = objectOf(r, s, kind, parts);
    // MaterialRefs are checked whether or not the geometry could be read (check mode lists all).
    const std::vector<std::pair<uint64_t, int32_t>> boundMaterials = boundMaterialsOf(r, parts.materialRefs);
    Node& n = r.m_scene.nodes[index];
    if (object) r.m_placed.insert(object);
    if (kind == NodeKind::Mesh) {
        placeGeometry(r, s, index, object, parts, boundMaterials);
    } else if (kind == NodeKind::Light) {
        placeLight(r, s, n, object, parts.objectRef);
    } else if (kind == NodeKind::Camera) {
        placeCamera(r, n, object, parts.objectRef);
    }
    for (const Structure* c : parts.children) readNode(r, c, index);
}

// ---------------------------------------------------------------------------------------------
// Animation

namespace {

struct ClipInfo {
    std::string name;
    float rate = 0.0f;
    float begin = INFINITY, end = -INFINITY;  // from Animation begin/end (seconds)
    float keyBegin = INFINITY, keyEnd = -INFINITY;  // from the keys
    bool hasBegin = false, hasEnd = false;
    std::vector<Track> tracks;
};

// The Key substructures of a Time or Value structure, by kind.
std::map<std::string, const Structure*> keysOf(Reader& r, const Structure* s) {
    std::map<std::string, const Structure*> keys;
    for (const Structure* c : s->children) {
        if (c->primitive || c->identifier != "Key") {
            if (c->primitive) r.violation(c, "key data belongs in a Key structure");
            continue;
        }
        std::string kind = str(r.propString(c, "kind", "value"));
        if (keys.count(kind)) r.violation(c, "a second Key of kind \"" + kind + "\"");
        keys.emplace(kind, c);
    }
    return keys;
}

// Key values as floats, `comps` per key (expanding Transform subarrays of 12/9/6/4 to 16).
bool keyValues(Reader& r, const Structure* key, uint32_t comps, size_t count, std::vector<float>& out,
               bool scalar) {
    const Structure* d = r.dataOf(key, "float");
    std::vector<float> v;
    if (!r.readFloats(d, v)) return false;
    const uint32_t size = std::max<uint32_t>(1, d->data.arraySize);
    if (scalar) {
        if (size != 1) r.violation(d, "tension, continuity and bias keys are scalars");
        if (v.size() != count) {
            r.violation(d, "expected " + std::to_string(count) + " values, found " + std::to_string(v.size()));
            return false;
        }
        out = std::move(v);
        return true;
    }
    const bool matrix = comps == 16 && (size == 16 || size == 12 || size == 9 || size == 6 || size == 4);
    if (!matrix && size != comps) {
        r.violation(d, "the target takes " + std::to_string(comps) + (comps == 1 ? " value" : " values") +
                           " per key; the keys have " + std::to_string(size));
        return false;
    }
    if (v.size() != uint64_t(size) * count) {
        r.violation(d, "expected " + std::to_string(count) + " keys, found " + std::to_string(v.size() / size));
        return false;
    }
    if (matrix && size != 16) {
        out.resize(count * 16);
        for (size_t k = 0; k < count; ++k) {
            const glm::mat4 m = expandMatrix(&v[k * size], size);
            std::memcpy(&out[k * 16], &m[0][0], 16 * sizeof(float));
        }
    } else {
        out = std::move(v);
    }
    return true;
}

// Reads one Track of an Animation held by node `node` (or, with node -1, by the Texture whose
// transform is `uvTransform`, -1 when that Texture has none).
bool readTrack(Reader& r, const Structure* s, int32_t node, int32_t uvTransform, Track& track) {
    const ddl::Property* target = s->property("target");
    const ddl::Reference* ref = nullptr;
    if (!target || !target->value.asRef(ref)) {
        r.violation(s, "a Track needs a target reference");
        return false;
    }
    const Structure* t = r.resolveRef(s, *ref, "an animation target");
    if (!t) return false;
    auto it = r.m_targets.find(t);
    if (it == r.m_targets.end()) {
        r.violation(s, "the target " + ref->toString() +
                           (node >= 0 ? " is not a transform or MorphWeight this reader placed (it must be a Transform, "
                                        "Translation, Rotation, Scale or MorphWeight of the animated node)"
                                      : " is not a transform of the texture that holds the animation (it must be a "
                                        "Transform, Translation, Rotation or Scale inside that Texture)"));
        return false;
    }
    const Reader::Target& tg = it->second;
    if (tg.node != node || tg.uvTransform != uvTransform)
        r.violation(s, "the target " + ref->toString() +
                           (node >= 0 ? " belongs to another node than the animation"
                                      : " is not a transform of the texture that holds the animation"));
    if (tg.uvTransform >= 0) {
        track.node = -1;
        track.uvTransform = tg.uvTransform;
        track.channel = Channel::UvElement;
    } else {
        track.node = tg.node;
        track.channel = tg.morphWeight ? Channel::MorphWeight : Channel::Element;
    }
    track.element = tg.index;
    const uint32_t comps = tg.morphWeight ? 1 : elementComponents(tg.kind);
    track.components = comps;

    const Structure* time = nullptr;
    const Structure* value = nullptr;
    for (const Structure* c : s->children) {
        if (c->primitive) continue;
        if (c->identifier == "Time") {
            if (time) r.violation(c, "a Track holds one Time structure");
            if (!time) time = c;
        } else if (c->identifier == "Value") {
            if (value) r.violation(c, "a Track holds one Value structure");
            if (!value) value = c;
        }
    }
    if (!time || !value) {
        r.violation(s, std::string("a Track must contain a ") + (!time ? "Time" : "Value") + " structure");
        return false;
    }
    auto timeKeys = keysOf(r, time);
    auto valueKeys = keysOf(r, value);
    if (!timeKeys.count("value")) {
        r.violation(time, "a Time structure needs a Key of kind \"value\"");
        return false;
    }
    if (!valueKeys.count("value")) {
        r.violation(value, "a Value structure needs a Key of kind \"value\"");
        return false;
    }
    std::vector<float> times;
    const Structure* timeData = r.dataOf(timeKeys["value"], "float");
    if (!r.readFloats(timeData, times)) return false;
    if (timeData->data.arraySize > 1) r.violation(timeData, "key times are scalars");
    const size_t n = times.size();
    if (n == 0) {
        r.violation(time, "a track without keys");
        return false;
    }
    for (float& t2 : times) t2 *= r.m_metrics.time;
    for (size_t k = 1; k < n; ++k)
        if (!(times[k] > times[k - 1])) {
            r.violation(timeKeys["value"], "key times must increase (key " + std::to_string(k) + ")");
            return false;
        }
    track.times = std::move(times);

    const std::string_view timeCurve = r.propString(time, "curve", "linear");
    if (timeCurve == "bezier") {
        if (!timeKeys.count("-control") || !timeKeys.count("+control")) {
            r.violation(time, "a bezier Time needs -control and +control keys");
            return false;
        }
        if (!keyValues(r, timeKeys["-control"], 1, n, track.inTimes, true) ||
            !keyValues(r, timeKeys["+control"], 1, n, track.outTimes, true))
            return false;
        for (float& c : track.inTimes) c *= r.m_metrics.time;
        for (float& c : track.outTimes) c *= r.m_metrics.time;
        // Spec, Time: t(k-1) < out(k-1) < in(k) < t(k); the solver clamps what breaks this.
        for (size_t k = 0; k < n; ++k) {
            const bool inOk = k == 0 || (track.inTimes[k] < track.times[k] && track.inTimes[k] > track.outTimes[k - 1]);
            const bool outOk = k + 1 == n || track.outTimes[k] > track.times[k];
            if (!inOk || !outOk) {
                r.violation(time, "bezier time control points of key " + std::to_string(k) +
                                      " are out of order (each must lie between its key and the neighbouring control point)");
                break;
            }
        }
    } else if (timeCurve != "linear") {
        r.violation(time, "unknown Time curve \"" + str(timeCurve) + "\"");
    }

    if (!keyValues(r, valueKeys["value"], comps, n, track.values, false)) return false;
    const std::string_view valueCurve = r.propString(value, "curve", "linear");
    if (valueCurve == "constant") {
        track.interpolation = Interpolation::Step;
    } else if (valueCurve == "linear") {
        track.interpolation = Interpolation::Linear;
    } else if (valueCurve == "bezier") {
        track.interpolation = Interpolation::Bezier;
        if (!valueKeys.count("-control") || !valueKeys.count("+control")) {
            r.violation(value, "a bezier Value needs -control and +control keys");
            return false;
        }
        if (!keyValues(r, valueKeys["-control"], comps, n, track.inValues, false) ||
            !keyValues(r, valueKeys["+control"], comps, n, track.outValues, false))
            return false;
    } else if (valueCurve == "tcb") {
        track.interpolation = Interpolation::Tcb;
        track.tcbSpacingAdjust = false;
        for (const char* k : {"tension", "continuity", "bias"})
            if (!valueKeys.count(k)) {
                r.violation(value, std::string("a tcb Value needs a Key of kind \"") + k + "\"");
                return false;
            }
        if (!keyValues(r, valueKeys["tension"], 1, n, track.tension, true) ||
            !keyValues(r, valueKeys["continuity"], 1, n, track.continuity, true) ||
            !keyValues(r, valueKeys["bias"], 1, n, track.bias, true))
            return false;
    } else {
        r.violation(value, "unknown Value curve \"" + str(valueCurve) + "\"");
        return false;
    }
    // Angles: the whole value for x/y/z rotations, the first component of an axis rotation.
    if (!tg.morphWeight && tg.angle) {
        const size_t stride = comps;
        for (std::vector<float>* v : {&track.values, &track.inValues, &track.outValues})
            for (size_t k = 0; k < v->size(); k += stride) (*v)[k] *= r.m_metrics.angle;
    }
    return true;
}

}  // namespace

void readAnimations(Reader& r) {
    std::map<uint64_t, ClipInfo> clips;
    // Clip structures: names and rates.
    for (const Structure* s : r.m_doc.roots()) {
        if (s->primitive || s->identifier != "Clip") continue;
        const uint64_t index = r.propUInt(s, "index", 0);
        ClipInfo& c = clips[index];
        if (!c.name.empty()) r.violation(s, "a second Clip with index " + std::to_string(index));
        c.name = r.nameOf(s);
        for (const Structure* p : s->children) {
            if (p->primitive || p->identifier != "Param") continue;
            float v = 0.0f;
            if (r.propString(p, "attrib", "") == "rate" && r.readFloat(p, v)) c.rate = v / r.m_metrics.time;
        }
    }
    // Node animations, then those inside Textures (node -1, their uv transform).
    std::vector<std::tuple<int32_t, int32_t, const Structure*>> animations;
    for (const auto& [node, s] : r.m_animations) animations.emplace_back(node, -1, s);
    for (const auto& [uv, s] : r.m_uvAnimations) animations.emplace_back(-1, uv, s);
    for (const auto& [node, uvTransform, s] : animations) {
        const uint64_t index = r.propUInt(s, "clip", 0);
        ClipInfo& c = clips[index];
        bool hasBegin = false, hasEnd = false;
        const float begin = r.propFloat(s, "begin", 0.0f, &hasBegin) * r.m_metrics.time;
        const float end = r.propFloat(s, "end", 0.0f, &hasEnd) * r.m_metrics.time;
        if (hasBegin) {
            c.begin = std::min(c.begin, begin);
            c.hasBegin = true;
        }
        if (hasEnd) {
            c.end = std::max(c.end, end);
            c.hasEnd = true;
        }
        size_t tracks = 0;
        for (const Structure* t : s->children) {
            if (t->primitive || t->identifier != "Track") {
                if (t->primitive) r.violation(t, "an Animation holds only Track structures");
                continue;
            }
            ++tracks;
            Track track;
            if (!readTrack(r, t, node, uvTransform, track)) continue;
            for (const Track& other : c.tracks)
                if (other.node == track.node && other.uvTransform == track.uvTransform &&
                    other.channel == track.channel && other.element == track.element) {
                    r.violation(t, "a second track in clip " + std::to_string(index) + " for the same target");
                    break;
                }
            c.keyBegin = std::min(c.keyBegin, track.times.front());
            c.keyEnd = std::max(c.keyEnd, track.times.back());
            c.tracks.push_back(std::move(track));
        }
        if (tracks == 0) r.violation(s, "an Animation must contain at least one Track");
    }
    for (auto& [index, c] : clips) {
        Clip clip;
        clip.name = c.name.empty() ? "clip " + std::to_string(index) : c.name;
        clip.start = c.hasBegin ? c.begin : std::isfinite(c.keyBegin) ? c.keyBegin : 0.0f;
        clip.end = c.hasEnd ? c.end : std::isfinite(c.keyEnd) ? c.keyEnd : clip.start;
        if (clip.end < clip.start) {
            r.warn("clip '" + clip.name + "' ends before it begins; its end is set to its beginning");
            clip.end = clip.start;
        }
        clip.fps = c.rate > 0.0f && std::isfinite(c.rate) ? c.rate : 0.0f;
        clip.tracks = std::move(c.tracks);
        r.m_scene.animation.clips.push_back(std::move(clip));
    }
    if (!r.m_scene.animation.clips.empty() && r.m_scene.animation.clips[0].fps > 0.0f)
        r.m_scene.animation.fps = r.m_scene.animation.clips[0].fps;
}

// ---------------------------------------------------------------------------------------------
// The whole file

void Reader::run() {
    m_scene.format = "ogex";
    const std::vector<Structure*>& roots = m_doc.roots();
    // Metrics first (they must precede everything else; a late one still applies, with a warning).
    bool other = false;
    for (const Structure* s : roots) {
        if (!s->primitive && s->identifier == "Metric") {
            if (other) violation(s, "a Metric must precede all other structures");
            readMetric(*this, s);
        } else {
            other = true;
        }
    }
    if (!m_metrics.colorSpaceIsSrgb) {
        const glm::mat3 fileToXyz = rgbToXyz(m_metrics.red, m_metrics.green, m_metrics.blue, m_metrics.white);
        const glm::mat3 srgbToXyz = rgbToXyz({0.64f, 0.33f}, {0.3f, 0.6f}, {0.15f, 0.06f}, {0.3127f, 0.329f});
        m_metrics.toSrgb = glm::inverse(srgbToXyz) * fileToXyz;
        note("colours converted from the file's primaries and white point to sRGB");
    }
    m_scene.metersPerUnit = m_metrics.distance;
    m_scene.up = m_metrics.upZ ? UpAxis::Z : UpAxis::Y;
    // The forward metric: "the forward direction for models such as characters and vehicles" (3.0).
    const std::string& f = m_metrics.forward;
    const float sign = !f.empty() && f[0] == '-' ? -1.0f : 1.0f;
    const char axis = f.empty() ? 'x' : f.back();
    m_scene.front = sign * glm::vec3(axis == 'x' ? 1.0f : 0.0f, axis == 'y' ? 1.0f : 0.0f, axis == 'z' ? 1.0f : 0.0f);

    // Objects and materials (top level only), then the node tree that references them.
    for (const Structure* s : roots) {
        if (s->primitive) {
            violation(s, "primitive data at the top level is not part of OpenGEX");
            continue;
        }
        const std::string_view id = s->identifier;
        if (id == "Material") {
            readMaterial(*this, s);
        } else if (id == "GeometryObject") {
            readGeometryObject(s);
        } else if (id == "LightObject") {
            readLightObject(*this, s);
        } else if (id == "CameraObject") {
            readCameraObject(*this, s);
        } else if (id == "Metric" || id == "Clip" || isNodeStructure(id)) {
            // handled in their own passes
        } else if (id == "Mesh" || id == "VertexArray" || id == "Animation" || id == "Transform" ||
                   id == "Translation" || id == "Rotation" || id == "Scale" || id == "Skin" || id == "Name" ||
                   id == "ObjectRef" || id == "MaterialRef" || id == "Color" || id == "Param" || id == "Texture") {
            violation(s, "a " + str(id) + " cannot be a top-level structure");
        } else {
            ++m_unknown;
            ++m_unknownKinds[str(id)];
        }
    }
    for (const Structure* s : roots)
        if (!s->primitive && isNodeStructure(s->identifier)) readNode(*this, s, -1);
    bindSkins();
    readAnimations(*this);

    // Objects no node places: DESIGN counts lights and cameras by their nodes, so list these.
    std::map<std::string, size_t> lonely;
    for (const auto& [object, light] : m_lightObject)
        if (!m_placed.count(object)) ++lonely[std::string("LightObject (") + lightTypeName(light.type) + ")"];
    for (const auto& [object, camera] : m_cameraObject)
        if (!m_placed.count(object)) ++lonely["CameraObject"];
    for (const auto& [object, geometry] : m_geometry)
        if (!m_placed.count(object)) ++lonely["GeometryObject"];
    for (const auto& [kind, count] : lonely)
        note(std::to_string(count) + " " + kind + (count > 1 ? "s" : "") + " placed by no node (not drawn)");
    if (m_unknown) {
        std::string kinds;
        for (const auto& [name, count] : m_unknownKinds)
            kinds += (kinds.empty() ? "" : ", ") + name + (count > 1 ? " x" + std::to_string(count) : "");
        note(std::to_string(m_unknown) + " structure(s) this reader does not know were skipped, as OpenGEX requires: " + kinds);
    }
    note(std::string("metrics: 1 unit = ") + std::to_string(m_metrics.distance) + " m, up " + (m_metrics.upZ ? "z" : "y") +
         ", forward " + m_metrics.forward + ", angles x" + std::to_string(m_metrics.angle) + ", times x" +
         std::to_string(m_metrics.time));
    m_diag.finish();
}

}  // namespace ogex

LoadResult loadOpenGex(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& path,
                       const LoadOptions& options) {
    const uint8_t* data = bytes ? bytes->data() : nullptr;
    const size_t size = bytes ? bytes->size() : 0;
    return loadOpenGex(std::shared_ptr<const void>(std::move(bytes)), data, size, path, options);
}

LoadResult loadOpenGex(std::shared_ptr<const void> owner, const uint8_t* data, size_t size, const std::string& path,
                       const LoadOptions& options, std::shared_ptr<void>* parsed) {
    LoadResult result;
    auto document = std::make_shared<ddl::Document>();
    ddl::Document& doc = *document;
    ddl::ParseError error;
    bool parsedText = false;
    {
        // The thread the parse converts long numeric arrays on (texts of 1 MiB and more): this
        // reader's own, started when the parse hands over its first such array and joined here,
        // as soon as the parse is done.
        ddl::ThreadWorker thread;
        ddl::ParseOptions parseOptions;
        parseOptions.worker = &thread;
        parsedText =
            doc.parse(std::move(owner), std::string_view(reinterpret_cast<const char*>(data), size), error, parseOptions);
    }
    if (!parsedText) {
        Problem p;
        p.file = path;
        p.line = error.line;
        p.column = error.column;
        p.message = error.message;
        result.problems.push_back(std::move(p));
        return result;
    }
    auto scene = std::make_unique<Scene>();
    try {
        ogex::Reader reader(doc, path, options, *scene, result.problems);
        reader.run();
    } catch (const std::bad_alloc&) {
        result.problems.push_back({path, -1, 0, 0, "", "out of memory while reading the file"});
    }
    if (result.problems.empty()) result.scene = std::move(scene);
    if (parsed) *parsed = std::move(document);
    return result;
}

}  // namespace esv
