#include "convert/pod/pod_shape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

#include <meshoptimizer.h>

#include "scene/cpu_reference.h"
#include "scene/rebatch.h"
#include "scene/sampler.h"
#include "scene/up_axis.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace esv {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::string num(uint64_t v) {
    return std::to_string(v);
}
// "1 mesh", "3 meshes".
// `v` with one decimal ("48.6").
std::string oneDecimal(float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", double(v));
    return text;
}

std::string counted(uint64_t n, const char* one, const char* many) {
    return num(n) + " " + (n == 1 ? one : many);
}
std::string meshLabel(const Scene& s, size_t i) {
    return "mesh " + num(i) + (s.meshes[i].name.empty() ? "" : " '" + s.meshes[i].name + "'");
}

PodAttr groupOf(Semantic s) {
    switch (s) {
        case Semantic::Position:
            return PodAttr::Positions;
        case Semantic::Normal:
            return PodAttr::Normals;
        case Semantic::Tangent:
        case Semantic::Binormal:
            return PodAttr::Tangents;
        case Semantic::TexCoord:
            return PodAttr::Uvs;
        case Semantic::BoneWeights:
            return PodAttr::Weights;
        default:
            return PodAttr::Count;
    }
}

size_t attributeBytes(const VertexAttribute& a) {
    return isPacked(a.type) ? 4 : componentSize(a.type) * std::clamp<size_t>(a.components, 1, 4);
}

ComponentType indexTypeFor(uint32_t vertices) {
    return vertices <= 0x10000u ? ComponentType::UInt16 : ComponentType::UInt32;
}

IndexData makeIndices(const std::vector<uint32_t>& indices, uint32_t vertexCount) {
    IndexData out;
    out.type = indexTypeFor(vertexCount);
    out.count = static_cast<uint32_t>(indices.size());
    std::vector<uint8_t> bytes(indices.size() * componentSize(out.type));
    for (size_t i = 0; i < indices.size(); ++i) {
        if (out.type == ComponentType::UInt16) {
            const uint16_t v = static_cast<uint16_t>(indices[i]);
            std::memcpy(bytes.data() + 2 * i, &v, 2);
        } else {
            std::memcpy(bytes.data() + 4 * i, &indices[i], 4);
        }
    }
    out.bytes = makeOwnedBytes(std::move(bytes));
    return out;
}

// `stream` restricted to the vertices `pick` names, in that order.
VertexStream gatherStream(const VertexStream& stream, const std::vector<uint32_t>& pick) {
    VertexStream out;
    out.stride = stream.stride;
    out.count = static_cast<uint32_t>(pick.size());
    out.attributes = stream.attributes;
    std::vector<uint8_t> bytes(size_t(stream.stride) * pick.size());
    for (size_t v = 0; v < pick.size(); ++v) {
        const size_t from = size_t(pick[v]) * stream.stride;
        const size_t n =
            std::min<size_t>(stream.stride, stream.bytes.size > from ? stream.bytes.size - from : 0);
        if (n) std::memcpy(bytes.data() + v * stream.stride, stream.bytes.data + from, n);
    }
    out.bytes = makeOwnedBytes(std::move(bytes));
    return out;
}

// Every stream and morph target of `mesh` restricted to `pick` (in that order).
void gatherVertices(Mesh& mesh, const std::vector<uint32_t>& pick) {
    for (VertexStream& s : mesh.streams) s = gatherStream(s, pick);
    for (MorphTarget& t : mesh.morphTargets) t.stream = gatherStream(t.stream, pick);
    mesh.vertexCount = static_cast<uint32_t>(pick.size());
    if (mesh.tangentFrames) {
        auto frames = std::make_shared<std::vector<glm::vec4>>();
        for (uint32_t v : pick)
            frames->push_back(v < mesh.tangentFrames->size() ? (*mesh.tangentFrames)[v] : glm::vec4(0));
        mesh.tangentFrames = frames;
    }
}

// Vertex `v` of mesh-wide attribute position etc. as floats (0 when absent).
struct AttrRef {
    const VertexStream* stream = nullptr;
    const VertexAttribute* attr = nullptr;
};

glm::vec4 read(const AttrRef& r, uint32_t v) {
    float f[4];
    readAttribute(*r.stream, *r.attr, v, f);
    return {f[0], f[1], f[2], f[3]};
}

double angleDegrees(const glm::dvec3& a, const glm::dvec3& b) {
    const double la = glm::length(a), lb = glm::length(b);
    if (la == 0.0 || lb == 0.0) return la == lb ? 0.0 : 180.0;
    const double c = std::clamp(glm::dot(a, b) / (la * lb), -1.0, 1.0);
    const glm::dvec3 x = glm::cross(a, b);
    return std::atan2(glm::length(x) / (la * lb), c) * 180.0 / kPi;
}

// --- quantisers --------------------------------------------------------------------------------

int32_t roundClamp(double v, int32_t lo, int32_t hi) {
    const double r = std::nearbyint(v);
    return static_cast<int32_t>(std::clamp(r, double(lo), double(hi)));
}

// The signed normalised code of `n` (unit direction) per component with the smallest angle to it,
// trying the rounded code and its neighbours (the best of 27 often beats plain rounding).
void bestDirection(const glm::dvec3& n, int32_t scale, int32_t out[3]) {
    int32_t base[3];
    for (int c = 0; c < 3; ++c) base[c] = roundClamp(n[c] * scale, -scale, scale);
    // The rounded code wins ties (an axis stays the full code, not a shorter one of the same direction).
    out[0] = base[0], out[1] = base[1], out[2] = base[2];
    double best = angleDegrees(n, glm::dvec3(base[0], base[1], base[2]));
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dz = -1; dz <= 1; ++dz) {
                const int32_t q[3] = {std::clamp(base[0] + dx, -scale, scale),
                                      std::clamp(base[1] + dy, -scale, scale),
                                      std::clamp(base[2] + dz, -scale, scale)};
                const double a = angleDegrees(n, glm::dvec3(q[0], q[1], q[2]));
                if (a < best - 1e-12) best = a, out[0] = q[0], out[1] = q[1], out[2] = q[2];
            }
}

struct OutAttr {
    AttrRef src;
    VertexAttribute attr;  // as written
    PodQuant quant = PodQuant::Keep;
    size_t size = 0;
};

bool chooseLayout(const Mesh& mesh, const PodQuantize& q, std::vector<OutAttr>& out, std::string& error) {
    for (const VertexStream& s : mesh.streams)
        for (const VertexAttribute& a : s.attributes) {
            OutAttr o;
            o.src = {&s, &a};
            o.attr = a;
            const PodAttr g = groupOf(a.semantic);
            o.quant = g == PodAttr::Count ? PodQuant::Keep : q[g];
            VertexAttribute& w = o.attr;
            w.swizzle = a.swizzle;
            const uint8_t n = std::clamp<uint8_t>(a.components, 1, 4);
            switch (o.quant) {
                case PodQuant::Keep:
                    break;
                case PodQuant::Float:
                    w.type = ComponentType::Float32, w.normalized = false, w.components = n;
                    break;
                case PodQuant::Fixed:
                    w.type = ComponentType::Fixed16_16, w.normalized = false, w.components = n;
                    break;
                case PodQuant::Int16:
                    w.type = ComponentType::Int16, w.normalized = true,
                    w.components = std::min<uint8_t>(n, 3);
                    break;
                case PodQuant::Dec3n:
                    if (n == 4) {
                        error =
                            std::string(semanticName(a.semantic)) +
                            " with a handedness (w) DEC3N has no room for; --quantize tangents=byte holds it";
                        return false;
                    }
                    w.type = ComponentType::Int2_10_10_10, w.normalized = true, w.components = 3;
                    break;
                case PodQuant::Byte:
                    w.type = ComponentType::Int8, w.normalized = true, w.components = n;
                    break;
                case PodQuant::Half:
                    w.type = ComponentType::Float16, w.normalized = false, w.components = n;
                    break;
                case PodQuant::Short:
                    w.type = ComponentType::UInt16, w.normalized = true, w.components = n;
                    break;
                case PodQuant::UByte:
                    w.type = ComponentType::UInt8, w.normalized = true, w.components = n;
                    break;
                default:
                    break;
            }
            if (o.quant != PodQuant::Keep) w.swizzle = Swizzle::Identity;
            o.size = attributeBytes(w);
            out.push_back(o);
        }
    return true;
}

void store(uint8_t* p, ComponentType type, double value) {
    switch (type) {
        case ComponentType::Float32: {
            const float f = static_cast<float>(value);
            std::memcpy(p, &f, 4);
            break;
        }
        case ComponentType::Float16: {
            const uint16_t h = floatToHalf(static_cast<float>(value));
            std::memcpy(p, &h, 2);
            break;
        }
        case ComponentType::Fixed16_16: {
            const int32_t v = roundClamp(value * 65536.0, std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max());
            std::memcpy(p, &v, 4);
            break;
        }
        case ComponentType::Int16: {
            const int16_t v = static_cast<int16_t>(roundClamp(value, -32767, 32767));
            std::memcpy(p, &v, 2);
            break;
        }
        case ComponentType::UInt16: {
            const uint16_t v = static_cast<uint16_t>(roundClamp(value, 0, 65535));
            std::memcpy(p, &v, 2);
            break;
        }
        case ComponentType::Int8: {
            const int8_t v = static_cast<int8_t>(roundClamp(value, -127, 127));
            std::memcpy(p, &v, 1);
            break;
        }
        case ComponentType::UInt8:
            *p = static_cast<uint8_t>(roundClamp(value, 0, 255));
            break;
        default:
            break;
    }
}

void recordError(PodQuantReport& report, PodAttr g, PodQuant q, double e, uint64_t n) {
    PodQuantError& r = report[g];
    r.type = q;
    r.largest = std::max(r.largest, e);
    r.values += n;
}

}  // namespace

const char* podQuantName(PodQuant q) {
    static constexpr const char* kNames[] = {"keep", "float", "fixed", "int16", "dec3n",
                                             "byte", "half",  "short", "ubyte"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(PodQuant::Count));
    return q < PodQuant::Count ? kNames[static_cast<size_t>(q)] : "?";
}

const char* podAttrName(PodAttr a) {
    static constexpr const char* kNames[] = {"positions", "normals", "tangents", "uvs", "weights"};
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(PodAttr::Count));
    return a < PodAttr::Count ? kNames[static_cast<size_t>(a)] : "?";
}

namespace {
std::vector<PodQuant> choicesOf(PodAttr a) {
    switch (a) {
        case PodAttr::Positions:
            return {PodQuant::Int16, PodQuant::Fixed, PodQuant::Float};
        case PodAttr::Normals:
        case PodAttr::Tangents:
            return {PodQuant::Dec3n, PodQuant::Byte, PodQuant::Fixed, PodQuant::Float};
        case PodAttr::Uvs:
            return {PodQuant::Half, PodQuant::Short, PodQuant::Fixed, PodQuant::Float};
        case PodAttr::Weights:
            return {PodQuant::UByte, PodQuant::Float};
        default:
            return {};
    }
}
}  // namespace

std::string podQuantChoices(PodAttr a) {
    std::string out;
    for (PodQuant q : choicesOf(a)) out += (out.empty() ? "" : "|") + std::string(podQuantName(q));
    return out;
}

bool parsePodQuantize(const std::string& text, PodQuantize& q, std::string& error) {
    size_t at = 0;
    if (text.empty()) {
        error = "--quantize needs 'all' or GROUP=TYPE items";
        return false;
    }
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, comma - at);
        at = comma + 1;
        if (item == "all") {
            for (size_t g = 0; g < size_t(PodAttr::Count); ++g) q.choice[g] = choicesOf(PodAttr(g)).front();
        } else {
            const size_t eq = item.find('=');
            bool known = false;
            if (eq != std::string::npos) {
                const std::string group = item.substr(0, eq), type = item.substr(eq + 1);
                for (size_t g = 0; g < size_t(PodAttr::Count) && !known; ++g) {
                    if (group != podAttrName(PodAttr(g))) continue;
                    for (PodQuant c : choicesOf(PodAttr(g)))
                        if (type == podQuantName(c)) q.choice[g] = c, known = true;
                    if (!known) {
                        error = "--quantize: " + group + " take " + podQuantChoices(PodAttr(g)) + ", not '" +
                                type + "'";
                        return false;
                    }
                }
            }
            if (!known) {
                error = "--quantize: '" + item +
                        "' is not 'all' or GROUP=TYPE (GROUP: positions, normals, tangents, uvs, weights)";
                return false;
            }
        }
        if (comma == text.size()) break;
    }
    return true;
}

uint16_t floatToHalf(float value) {
    uint32_t f;
    std::memcpy(&f, &value, 4);
    const uint32_t sign = (f >> 16) & 0x8000u;
    const uint32_t absf = f & 0x7FFFFFFFu;
    if (absf >= 0x7F800000u)
        return static_cast<uint16_t>(sign | 0x7C00u | (absf > 0x7F800000u ? 0x200u : 0u));
    if (absf >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds beyond 65504
    if (absf < 0x38800000u) {
        // Subnormal half: value / 2^-24, rounded to nearest even.
        float a;
        std::memcpy(&a, &absf, 4);
        const float scaled = a * 16777216.0f;  // exact (power of two)
        return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
    }
    const uint32_t mant = absf & 0x7FFFFFu;
    const uint32_t exp = (absf >> 23) - 127 + 15;
    uint32_t h = (exp << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // carries into the exponent correctly
    return static_cast<uint16_t>(sign | h);
}

namespace {
// Where one attribute's values go in the new interleaved stream: its first byte, the stride, the
// vertex count, the size of one component and the source values (model space).
struct QuantTarget {
    uint8_t* base;
    uint32_t stride;
    uint32_t n;
    size_t comp;
    int nc;
    std::vector<glm::dvec4> src;
};

// Source values of attribute a (positions in model space: through the mesh's own unpack matrix).
std::vector<glm::dvec4> sourceValues(const Mesh& mesh, const OutAttr& a, PodAttr g, uint32_t n) {
    std::vector<glm::dvec4> src(n);
    for (uint32_t v = 0; v < n; ++v) {
        glm::vec4 f = read(a.src, v);
        if (g == PodAttr::Positions) {
            const glm::vec4 p = mesh.positionUnpack * glm::vec4(glm::vec3(f), 1.0f);
            f = glm::vec4(glm::vec3(p) / (p.w != 0.0f ? p.w : 1.0f), 1.0f);
        }
        src[v] = glm::dvec4(f);
    }
    return src;
}

// Positions as shorts over their bounds; unpack becomes the matrix that decodes them.
void encodeInt16(const QuantTarget& t, OutAttr& a, glm::mat4& unpack) {
    const std::vector<glm::dvec4>& src = t.src;
    glm::dvec3 lo(1e300), hi(-1e300);
    for (const auto& p : src) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
    const glm::dvec3 centre = (lo + hi) * 0.5, half = (hi - lo) * 0.5;
    glm::dvec3 scale;
    for (int c = 0; c < 3; ++c) scale[c] = half[c] > 0.0 ? half[c] : 1.0;
    // Centre and scale as the floats the unpack matrix holds, so that what is stored
    // decodes through exactly that matrix.
    const glm::vec3 cf(centre), sf(scale);
    for (uint32_t v = 0; v < t.n; ++v)
        for (int c = 0; c < 3; ++c)
            store(t.base + size_t(v) * t.stride + c * t.comp, a.attr.type,
                  (src[v][c] - double(cf[c])) / double(sf[c]) * 32767.0);
    unpack = glm::translate(glm::mat4(1.0f), cf) * glm::scale(glm::mat4(1.0f), sf);
    a.attr.components = 3;
}

// Directions as the nearest 10:10:10 word (Dec3n) or bytes; a fourth byte keeps the sign of w.
void encodeDirections(const QuantTarget& t, const OutAttr& a) {
    const std::vector<glm::dvec4>& src = t.src;
    const int32_t scale = a.quant == PodQuant::Dec3n ? 511 : 127;
    for (uint32_t v = 0; v < t.n; ++v) {
        glm::dvec3 d(src[v]);
        const double len = glm::length(d);
        int32_t code[3] = {0, 0, 0};
        if (len > 0.0) bestDirection(d / len, scale, code);
        uint8_t* p = t.base + size_t(v) * t.stride;
        if (a.quant == PodQuant::Dec3n) {
            const uint32_t word = (uint32_t(code[0]) & 0x3FFu) | ((uint32_t(code[1]) & 0x3FFu) << 10) |
                                  ((uint32_t(code[2]) & 0x3FFu) << 20);
            std::memcpy(p, &word, 4);
        } else {
            for (int c = 0; c < 3; ++c) store(p + c, ComponentType::Int8, code[c]);
            if (t.nc == 4) store(p + 3, ComponentType::Int8, src[v].w < 0.0 ? -127 : 127);
        }
    }
}

// Values as normalised shorts, unsigned when all lie in 0..1; fails when one lies outside -1..1.
bool encodeShorts(const QuantTarget& t, OutAttr& a, const std::string& what, std::string& error) {
    const std::vector<glm::dvec4>& src = t.src;
    double lo = 1e300, hi = -1e300;
    for (const auto& p : src)
        for (int c = 0; c < t.nc; ++c) lo = std::min(lo, p[c]), hi = std::max(hi, p[c]);
    const bool unsignedRange = lo >= 0.0 && hi <= 1.0;
    if (!unsignedRange && !(lo >= -1.0 && hi <= 1.0)) {
        error = what + ": values from " + std::to_string(lo) + " to " + std::to_string(hi) +
                " do not fit normalised shorts (-1 to 1); --quantize uvs=half holds them";
        return false;
    }
    a.attr.type = unsignedRange ? ComponentType::UInt16 : ComponentType::Int16;
    for (uint32_t v = 0; v < t.n; ++v)
        for (int c = 0; c < t.nc; ++c)
            store(t.base + size_t(v) * t.stride + c * 2, a.attr.type,
                  src[v][c] * (unsignedRange ? 65535.0 : 32767.0));
    return true;
}

// Weights as unsigned bytes.
void encodeWeights(const QuantTarget& t) {
    const std::vector<glm::dvec4>& src = t.src;
    const int nc = t.nc;
    // Largest remainder: the bytes of a vertex sum to exactly 255 (weights summing to 1).
    for (uint32_t v = 0; v < t.n; ++v) {
        double w[4] = {0, 0, 0, 0}, sum = 0.0;
        for (int c = 0; c < nc; ++c) w[c] = std::max(0.0, src[v][c]), sum += w[c];
        int32_t code[4] = {0, 0, 0, 0};
        if (sum > 0.0) {
            int32_t total = 0;
            double rem[4];
            for (int c = 0; c < nc; ++c) {
                const double x = w[c] / sum * 255.0;
                code[c] = static_cast<int32_t>(std::floor(x));
                rem[c] = x - code[c];
                total += code[c];
            }
            while (total < 255) {
                int best = 0;
                for (int c = 1; c < nc; ++c)
                    if (rem[c] > rem[best]) best = c;
                ++code[best], rem[best] = -1.0, ++total;
            }
        }
        for (int c = 0; c < nc; ++c) t.base[size_t(v) * t.stride + c] = static_cast<uint8_t>(code[c]);
    }
}

// Values as 16.16 fixed point, half or float; fails when one is out of range. Positions stored so
// need no unpack matrix.
bool encodeFloats(const QuantTarget& t, const OutAttr& a, PodAttr g, const std::string& what,
                  glm::mat4& unpack, std::string& error) {
    const std::vector<glm::dvec4>& src = t.src;
    const double limit = a.quant == PodQuant::Fixed  ? 32767.99998
                         : a.quant == PodQuant::Half ? 65504.0
                                                     : 3.4e38;
    for (uint32_t v = 0; v < t.n; ++v)
        for (int c = 0; c < t.nc; ++c) {
            if (!(std::fabs(src[v][c]) <= limit)) {
                error = what + ": the value " + std::to_string(src[v][c]) + " does not fit " +
                        (a.quant == PodQuant::Fixed ? "16.16 fixed point" : "a half float") +
                        "; --quantize " + podAttrName(g) + "=float keeps them as floats";
                return false;
            }
            store(t.base + size_t(v) * t.stride + c * t.comp, a.attr.type, src[v][c]);
        }
    if (g == PodAttr::Positions) unpack = glm::mat4(1.0f);
    return true;
}

// The largest error of attribute attr read back from bytes as the renderer reads it: distance for
// positions and texture coordinates, degrees for directions, weight for weights.
double largestError(const QuantTarget& t, const std::vector<uint8_t>& bytes, const VertexAttribute& attr,
                    PodAttr g, const glm::mat4& unpack) {
    const std::vector<glm::dvec4>& src = t.src;
    const int nc = t.nc;
    VertexStream view;
    view.stride = t.stride;
    view.count = t.n;
    std::vector<uint8_t> copy = bytes;
    view.bytes = makeOwnedBytes(std::move(copy));
    const AttrRef back{&view, &attr};
    double largest = 0.0;
    for (uint32_t v = 0; v < t.n; ++v) {
        const glm::dvec4 r(read(back, v));
        double e = 0.0;
        switch (g) {
            case PodAttr::Positions: {
                const glm::dvec4 p = glm::dmat4(unpack) * glm::dvec4(glm::dvec3(r), 1.0);
                e = glm::length(glm::dvec3(p) - glm::dvec3(src[v]));
                break;
            }
            case PodAttr::Normals:
            case PodAttr::Tangents:
                e = angleDegrees(glm::dvec3(r), glm::dvec3(src[v]));
                break;
            case PodAttr::Uvs: {
                double s = 0.0;
                for (int c = 0; c < nc; ++c) s += (r[c] - src[v][c]) * (r[c] - src[v][c]);
                e = std::sqrt(s);
                break;
            }
            case PodAttr::Weights: {
                double sum = 0.0;
                for (int c = 0; c < nc; ++c) sum += std::max(0.0, src[v][c]);
                for (int c = 0; c < nc; ++c)
                    e = std::max(e, std::fabs(r[c] - (sum > 0.0 ? std::max(0.0, src[v][c]) / sum : 0.0)));
                break;
            }
            default:
                break;
        }
        largest = std::max(largest, e);
    }
    return largest;
}

// Attribute a into bytes (the new stream, stride bytes a vertex): copied when kept, else encoded
// as a.quant and its largest error added to local; fails (with error) on values the type cannot hold.
bool quantizeAttribute(const Mesh& mesh, std::vector<uint8_t>& bytes, uint32_t stride, OutAttr& a,
                       glm::mat4& unpack, PodQuantReport& local, std::string& error) {
    const uint32_t n = mesh.vertexCount;
    const PodAttr g = groupOf(a.src.attr->semantic);
    uint8_t* base = bytes.data() + a.attr.offset;
    if (a.quant == PodQuant::Keep) {
        for (uint32_t v = 0; v < n; ++v)
            std::memcpy(base + size_t(v) * stride,
                        a.src.stream->bytes.data + size_t(v) * a.src.stream->stride + a.src.attr->offset,
                        a.size);
        a.src = {};
        return true;
    }
    const size_t comp = isPacked(a.attr.type) ? 4 : componentSize(a.attr.type);
    const QuantTarget t{base, stride, n, comp, a.attr.components, sourceValues(mesh, a, g, n)};
    const std::string what = std::string(podAttrName(g)) + "=" + podQuantName(a.quant);
    switch (a.quant) {
        case PodQuant::Int16:
            encodeInt16(t, a, unpack);
            break;
        case PodQuant::Dec3n:
        case PodQuant::Byte:
            encodeDirections(t, a);
            break;
        case PodQuant::Short:
            if (!encodeShorts(t, a, what, error)) return false;
            break;
        case PodQuant::UByte:
            encodeWeights(t);
            break;
        case PodQuant::Fixed:
        case PodQuant::Half:
        case PodQuant::Float:
            if (!encodeFloats(t, a, g, what, unpack, error)) return false;
            break;
        default:
            break;
    }
    recordError(local, g, a.quant, largestError(t, bytes, a.attr, g, unpack), n);
    a.src = {};
    return true;
}
}  // namespace

bool quantizeMesh(Mesh& mesh, const PodQuantize& q, PodQuantReport& report, std::string& error) {
    std::vector<OutAttr> attrs;
    if (!chooseLayout(mesh, q, attrs, error)) return false;
    bool any = false;
    for (const OutAttr& a : attrs) any = any || a.quant != PodQuant::Keep;
    if (!any || mesh.vertexCount == 0) return true;
    const uint32_t n = mesh.vertexCount;

    // Layout: list order as read, each attribute aligned to its component size.
    uint32_t cursor = 0;
    for (OutAttr& a : attrs) {
        const uint32_t align = isPacked(a.attr.type) ? 4u : static_cast<uint32_t>(componentSize(a.attr.type));
        cursor = (cursor + align - 1) / align * align;
        a.attr.offset = cursor;
        cursor += static_cast<uint32_t>(a.size);
    }
    VertexStream out;
    out.stride = (cursor + 3) / 4 * 4;
    out.count = n;
    std::vector<uint8_t> bytes(size_t(out.stride) * n, 0);
    glm::mat4 unpack = mesh.positionUnpack;
    PodQuantReport local;
    for (OutAttr& a : attrs)
        if (!quantizeAttribute(mesh, bytes, out.stride, a, unpack, local, error)) return false;
    // Committed only now: a refusal above leaves the mesh as it was.
    for (size_t g = 0; g < size_t(PodAttr::Count); ++g)
        if (local.error[g].values)
            recordError(report, PodAttr(g), local.error[g].type, local.error[g].largest,
                        local.error[g].values);
    for (const OutAttr& a : attrs) out.attributes.push_back(a.attr);
    out.bytes = makeOwnedBytes(std::move(bytes));
    mesh.streams.assign(1, std::move(out));
    mesh.positionUnpack = unpack;
    return true;
}

// --- vertex order and strips ---------------------------------------------------------------------

namespace {
// podTriangleRanges, with the bone batch each range is (-1: triangles no batch names, kept in place).
// Batches are taken in order and clipped so that no triangle falls in two ranges.
std::vector<std::pair<uint32_t, uint32_t>> triangleRanges(const Mesh& mesh, std::vector<int32_t>* batchOf) {
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    const uint32_t total = triangleCount(mesh);
    auto add = [&](uint32_t first, uint32_t end, int32_t batch) {
        ranges.push_back({first, end});
        if (batchOf) batchOf->push_back(batch);
    };
    uint32_t at = 0;
    for (size_t k = 0; k < mesh.boneBatches.size(); ++k) {
        const BoneBatch& b = mesh.boneBatches[k];
        const uint32_t first = std::max(at, std::min(b.firstTriangle, total));
        const uint32_t end = std::max(first, static_cast<uint32_t>(std::min<uint64_t>(
                                                 uint64_t(b.firstTriangle) + b.triangleCount, total)));
        if (first > at) add(at, first, -1);
        add(first, end, static_cast<int32_t>(k));
        at = end;
    }
    if (at < total || ranges.empty()) add(at, total, -1);
    return ranges;
}
}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> podTriangleRanges(const Mesh& mesh) {
    return triangleRanges(mesh, nullptr);
}

namespace {
// meshoptimizer asserts on an index beyond the vertices: checked first.
bool indicesInRange(const std::vector<uint32_t>& indices, uint32_t vertexCount, std::string& error) {
    for (uint32_t i : indices)
        if (i >= vertexCount) {
            error = "index " + std::to_string(i) + " names no vertex (" + std::to_string(vertexCount) +
                    " vertices)";
            return false;
        }
    return true;
}

bool simpleTriangles(const Mesh& mesh, std::string& error) {
    if (mesh.submeshes.size() != 1 || mesh.submeshes[0].baseVertex != 0 ||
        mesh.submeshes[0].firstIndex != 0 ||
        (mesh.submeshes[0].primitive != Primitive::Triangles &&
         mesh.submeshes[0].primitive != Primitive::TriangleStrip)) {
        error = "not one triangle list from the first index";
        return false;
    }
    return true;
}
}  // namespace

namespace {
// Merges vertices whose bytes are the same in every stream (exporters often write each triangle's
// own corners), never across triangle ranges (bone batches: a vertex keeps its one batch). Rewrites
// `tris` (expanded triangles of `mesh`); the merged-away vertices stay unused (the fetch remap
// drops them). Returns how many were merged.
size_t weldVertices(Mesh& mesh, std::vector<uint32_t>& tris) {
    if (mesh.vertexCount == 0 || tris.empty()) return 0;
    std::vector<uint32_t> rangeOf(mesh.vertexCount, ~0u);
    const auto ranges = podTriangleRanges(mesh);
    for (size_t k = 0; k < ranges.size(); ++k)
        for (size_t i = size_t(ranges[k].first) * 3; i < size_t(ranges[k].second) * 3 && i < tris.size(); ++i)
            rangeOf[tris[i]] = static_cast<uint32_t>(k);
    std::vector<meshopt_Stream> streams;
    streams.push_back({rangeOf.data(), 4, 4});
    auto add = [&](const VertexStream& st) {
        size_t extent = 0;
        for (const VertexAttribute& a : st.attributes)
            extent = std::max(extent, size_t(a.offset) + attributeBytes(a));
        if (extent > 0 && st.count >= mesh.vertexCount)
            streams.push_back({st.bytes.data, extent, std::max<size_t>(st.stride, 1)});
    };
    for (const VertexStream& st : mesh.streams) add(st);
    for (const MorphTarget& t : mesh.morphTargets) add(t.stream);
    std::vector<uint32_t> remap(mesh.vertexCount);
    const size_t unique = meshopt_generateVertexRemapMulti(remap.data(), tris.data(), tris.size(),
                                                           mesh.vertexCount, streams.data(), streams.size());
    // remap numbers the unique vertices 0..unique-1; point each at its first source vertex instead.
    std::vector<uint32_t> first(unique, ~0u);
    for (uint32_t v = 0; v < mesh.vertexCount; ++v)
        if (remap[v] != ~0u && first[remap[v]] == ~0u) first[remap[v]] = v;
    auto distinct = [&]() {
        std::vector<uint8_t> seen(mesh.vertexCount, 0);
        size_t n = 0;
        for (uint32_t i : tris) n += seen[i] ? 0 : (seen[i] = 1);
        return n;
    };
    const size_t before = distinct();
    for (uint32_t& i : tris) i = first[remap[i]];
    return before - distinct();
}

// Drops the vertices `indices` never names, keeping the others in their order.
void dropUnused(Mesh& mesh, std::vector<uint32_t>& indices) {
    std::vector<uint8_t> used(mesh.vertexCount, 0);
    for (uint32_t i : indices) used[i] = 1;
    std::vector<uint32_t> newIndex(mesh.vertexCount, ~0u), pick;
    for (uint32_t v = 0; v < mesh.vertexCount; ++v)
        if (used[v]) newIndex[v] = static_cast<uint32_t>(pick.size()), pick.push_back(v);
    if (pick.size() == mesh.vertexCount) return;
    for (uint32_t& i : indices) i = newIndex[i];
    gatherVertices(mesh, pick);
}
}  // namespace

namespace {
// Renumbers the vertices in the order `indices` first uses them (what
// meshopt_optimizeVertexFetchRemap does, which takes triangle lists only; strips come here too), in
// every stream and in `indices`; vertices no index names are dropped.
void remapForFetch(Mesh& mesh, std::vector<uint32_t>& indices) {
    std::vector<uint32_t> remap(mesh.vertexCount, ~0u), pick;
    for (uint32_t& i : indices) {
        if (remap[i] == ~0u) remap[i] = static_cast<uint32_t>(pick.size()), pick.push_back(i);
        i = remap[i];
    }
    gatherVertices(mesh, pick);
}
}  // namespace

bool optimizePodVertexFetch(Mesh& mesh, std::string& error) {
    if (!simpleTriangles(mesh, error)) return false;
    if (mesh.vertexCount == 0 || mesh.indices.count == 0) return true;
    std::vector<uint32_t> indices(mesh.submeshes[0].indexCount);
    for (size_t i = 0; i < indices.size(); ++i) {
        const uint8_t* p = mesh.indices.bytes.data + i * componentSize(mesh.indices.type);
        if (mesh.indices.type == ComponentType::UInt32) {
            std::memcpy(&indices[i], p, 4);
        } else if (mesh.indices.type == ComponentType::UInt16) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            indices[i] = v;
        } else {
            indices[i] = *p;
        }
    }
    if (!indicesInRange(indices, mesh.vertexCount, error)) return false;
    remapForFetch(mesh, indices);
    mesh.adjacency = {};
    mesh.indices = makeIndices(indices, mesh.vertexCount);
    return true;
}

bool optimizePodMesh(Mesh& mesh, std::string& error) {
    if (!simpleTriangles(mesh, error)) return false;
    std::vector<uint32_t> tris;
    expandTriangles(mesh, tris);
    if (tris.empty() || mesh.vertexCount == 0) return true;
    if (!indicesInRange(tris, mesh.vertexCount, error)) return false;
    weldVertices(mesh, tris);
    const auto ranges = podTriangleRanges(mesh);
    std::vector<uint32_t> out(tris.size());
    for (const auto& r : ranges) {
        const size_t first = size_t(r.first) * 3, count = size_t(r.second - r.first) * 3;
        if (count)
            meshopt_optimizeVertexCache(out.data() + first, tris.data() + first, count, mesh.vertexCount);
    }
    remapForFetch(mesh, out);
    mesh.adjacency = {};
    mesh.indices = makeIndices(out, mesh.vertexCount);
    Submesh sub = mesh.submeshes[0];
    sub.primitive = Primitive::Triangles;
    sub.stripLengths.clear();
    sub.firstIndex = 0;
    sub.indexCount = static_cast<uint32_t>(out.size());
    mesh.submeshes.assign(1, sub);
    return true;
}

bool stripifyPodMesh(Mesh& mesh, std::string& error) {
    if (mesh.submeshes.size() != 1 || mesh.submeshes[0].primitive != Primitive::Triangles) return true;
    if (!simpleTriangles(mesh, error)) return false;
    std::vector<uint32_t> tris;
    expandTriangles(mesh, tris);
    if (tris.empty()) return true;
    if (!indicesInRange(tris, mesh.vertexCount, error)) return false;
    weldVertices(mesh, tris);
    std::vector<int32_t> batchOf;
    const auto ranges = triangleRanges(mesh, &batchOf);
    std::vector<uint32_t> indices, lengths, rangeTriangles;
    constexpr unsigned kRestart = ~0u;
    for (const auto& r : ranges) {
        const size_t first = size_t(r.first) * 3, count = size_t(r.second - r.first) * 3;
        uint32_t made = 0;
        if (count) {
            // meshoptimizer's strip-friendly order first: long strips, few restarts.
            std::vector<uint32_t> ordered(count), strip(meshopt_stripifyBound(count));
            meshopt_optimizeVertexCacheStrip(ordered.data(), tris.data() + first, count, mesh.vertexCount);
            const size_t size =
                meshopt_stripify(strip.data(), ordered.data(), count, mesh.vertexCount, kRestart);
            size_t start = 0;
            for (size_t i = 0; i <= size; ++i) {
                if (i < size && strip[i] != kRestart) continue;
                const size_t len = i - start;
                if (len >= 3) {
                    indices.insert(indices.end(), strip.begin() + long(start), strip.begin() + long(i));
                    lengths.push_back(static_cast<uint32_t>(len - 2));
                    made += static_cast<uint32_t>(len - 2);
                }
                start = i + 1;
            }
        }
        rangeTriangles.push_back(made);
    }
    // Batch ranges recounted in strip triangles (degenerate ones included).
    uint32_t at = 0;
    for (size_t k = 0; k < ranges.size(); ++k) {
        if (batchOf[k] >= 0) {
            mesh.boneBatches[batchOf[k]].firstTriangle = at;
            mesh.boneBatches[batchOf[k]].triangleCount = rangeTriangles[k];
        }
        at += rangeTriangles[k];
    }
    dropUnused(mesh, indices);
    mesh.indices = makeIndices(indices, mesh.vertexCount);
    Submesh sub = mesh.submeshes[0];
    sub.primitive = Primitive::TriangleStrip;
    sub.stripLengths = std::move(lengths);
    sub.firstIndex = 0;
    sub.indexCount = static_cast<uint32_t>(indices.size());
    mesh.submeshes.assign(1, sub);
    mesh.adjacency = {};
    return true;
}

// --- scene shaping ---------------------------------------------------------------------------------

namespace {

bool drawsTriangles(Primitive p) {
    return p == Primitive::Triangles || p == Primitive::TriangleStrip || p == Primitive::TriangleFan ||
           p == Primitive::Quads;
}

// True when the submesh is already one POD primitive list as the writer takes it.
bool podReady(const Submesh& s, const Mesh& m) {
    if (s.firstIndex != 0 || s.baseVertex != 0 || s.primitiveRestart || s.frontFaceCW || s.materialSlot != 0)
        return false;
    if (m.indices.count > 0 && m.indices.type == ComponentType::UInt8) return false;
    switch (s.primitive) {
        case Primitive::Triangles:
        case Primitive::Points:
        case Primitive::Lines:
            return true;
        case Primitive::TriangleStrip:
            return !s.stripLengths.empty();
        default:
            return false;
    }
}

// One part of a mesh: the expanded primitives of one submesh over its own vertices.
Mesh meshPart(const Mesh& m, Primitive primitive, const std::vector<uint32_t>& corners,
              uint32_t firstTriangle, const std::string& name) {
    Mesh part = m;
    part.name = name;
    part.submeshes.clear();
    part.boneBatches.clear();
    part.adjacency = {};
    std::vector<uint32_t> pick, remap(m.vertexCount, ~0u), indices;
    indices.reserve(corners.size());
    for (uint32_t v : corners) {
        if (v >= m.vertexCount) continue;
        if (remap[v] == ~0u) remap[v] = static_cast<uint32_t>(pick.size()), pick.push_back(v);
        indices.push_back(remap[v]);
    }
    gatherVertices(part, pick);
    part.indices = makeIndices(indices, part.vertexCount);
    Submesh out;
    out.primitive = primitive;
    out.indexCount = static_cast<uint32_t>(indices.size());
    part.submeshes.push_back(out);
    if (primitive == Primitive::Triangles) {
        const uint32_t count = static_cast<uint32_t>(corners.size() / 3);
        for (const BoneBatch& b : m.boneBatches) {
            const uint32_t lo = std::max(b.firstTriangle, firstTriangle);
            const uint32_t hi = std::min(b.firstTriangle + b.triangleCount, firstTriangle + count);
            if (hi <= lo) continue;
            BoneBatch nb = b;
            nb.firstTriangle = lo - firstTriangle;
            nb.triangleCount = hi - lo;
            part.boneBatches.push_back(nb);
        }
    }
    return part;
}

// Meshes of several submeshes, or of a primitive the writer does not take as it is, become one mesh
// per submesh; extra parts are shown by new child nodes of every node that showed the mesh.
bool splitMeshes(Scene& scene, PodShapeReport& report, std::string& error) {
    const size_t meshCount = scene.meshes.size();
    for (size_t i = 0; i < meshCount; ++i) {
        Mesh& m = scene.meshes[i];
        bool ready = m.submeshes.size() <= 1;
        for (const Submesh& s : m.submeshes) ready = ready && podReady(s, m);
        if (ready) {
            // One material per mesh node: the one the submesh draws with.
            for (Node& n : scene.nodes) {
                if (n.kind != NodeKind::Mesh || n.object != static_cast<int32_t>(i) ||
                    n.materials.size() <= 1)
                    continue;
                const int32_t mat = n.materials[0];
                n.materials.assign(1, mat);
            }
            continue;
        }
        std::vector<uint32_t> tris, triStart, lines, lineStart, points, pointStart;
        expandTriangles(m, tris, &triStart);
        expandLines(m, lines, &lineStart);
        expandPoints(m, points, &pointStart);
        std::vector<Mesh> parts;
        std::vector<uint32_t> slots;
        for (size_t k = 0; k < m.submeshes.size(); ++k) {
            const Submesh& s = m.submeshes[k];
            const std::string name = m.submeshes.size() > 1 ? m.name + " " + num(k) : m.name;
            auto slice = [](const std::vector<uint32_t>& all, const std::vector<uint32_t>& start, size_t k2,
                            size_t per) {
                const size_t lo = start[k2] * per;
                const size_t hi = k2 + 1 < start.size() ? start[k2 + 1] * per : all.size();
                return std::vector<uint32_t>(all.begin() + long(lo), all.begin() + long(std::max(lo, hi)));
            };
            if (drawsTriangles(s.primitive)) {
                std::vector<uint32_t> c = slice(tris, triStart, k, 3);
                if (s.frontFaceCW)
                    for (size_t t = 0; t + 2 < c.size(); t += 3) std::swap(c[t + 1], c[t + 2]);
                parts.push_back(meshPart(m, Primitive::Triangles, c, triStart[k], name));
            } else if (s.primitive == Primitive::Lines || s.primitive == Primitive::LineStrip) {
                parts.push_back(meshPart(m, Primitive::Lines, slice(lines, lineStart, k, 2), 0, name));
            } else if (s.primitive == Primitive::Points) {
                parts.push_back(meshPart(m, Primitive::Points, slice(points, pointStart, k, 1), 0, name));
            } else {
                error = meshLabel(scene, i) + ": a " + primitiveName(s.primitive) +
                        " submesh among others; POD holds one primitive list per mesh";
                return false;
            }
            slots.push_back(s.materialSlot);
        }
        if (parts.empty()) {
            m.submeshes.clear();
            continue;
        }
        const std::string label = meshLabel(scene, i);
        scene.meshes[i] = std::move(parts[0]);
        std::vector<int32_t> partMesh{static_cast<int32_t>(i)};
        for (size_t k = 1; k < parts.size(); ++k) {
            partMesh.push_back(static_cast<int32_t>(scene.meshes.size()));
            scene.meshes.push_back(std::move(parts[k]));
        }
        const size_t nodeCount = scene.nodes.size();
        for (size_t n = 0; n < nodeCount; ++n) {
            if (scene.nodes[n].kind != NodeKind::Mesh || scene.nodes[n].object != static_cast<int32_t>(i))
                continue;
            const std::vector<int32_t> mats = scene.nodes[n].materials;
            auto material = [&](uint32_t slot) { return slot < mats.size() ? mats[slot] : -1; };
            scene.nodes[n].materials = {material(slots[0])};
            for (size_t k = 1; k < parts.size(); ++k) {
                Node child;
                child.name = scene.nodes[n].name + " part " + num(k);
                child.parent = static_cast<int32_t>(n);
                child.kind = NodeKind::Mesh;
                child.object = partMesh[k];
                child.materials = {material(slots[k])};
                child.skin = scene.nodes[n].skin;
                child.objectTransform = scene.nodes[n].objectTransform;
                scene.nodes.push_back(std::move(child));
            }
        }
        if (parts.size() > 1) {
            ++report.meshesSplit;
            report.notes.push_back(
                label + ": " + num(parts.size()) +
                " submeshes written as as many meshes (POD draws one primitive list with one "
                "material per mesh), the extra ones shown by child nodes");
        } else {
            report.notes.push_back(label + ": " +
                                   primitiveName(m.submeshes.empty()
                                                     ? Primitive::Triangles
                                                     : scene.meshes[i].submeshes[0].primitive) +
                                   " expanded from the file's primitive list");
        }
    }
    return true;
}

// A skinned mesh shown by nodes with different skins gets one copy per further skin (POD bone
// batches name bone nodes).
void splitSkinnedInstances(Scene& scene, PodShapeReport& report) {
    const size_t meshCount = scene.meshes.size();
    for (size_t i = 0; i < meshCount; ++i) {
        std::vector<int32_t> skins;
        for (const Node& n : scene.nodes)
            if (n.kind == NodeKind::Mesh && n.object == static_cast<int32_t>(i) && n.skin >= 0 &&
                std::find(skins.begin(), skins.end(), n.skin) == skins.end())
                skins.push_back(n.skin);
        for (size_t k = 1; k < skins.size(); ++k) {
            const int32_t copy = static_cast<int32_t>(scene.meshes.size());
            scene.meshes.push_back(scene.meshes[i]);
            for (Node& n : scene.nodes)
                if (n.kind == NodeKind::Mesh && n.object == static_cast<int32_t>(i) && n.skin == skins[k])
                    n.object = copy;
        }
        if (skins.size() > 1)
            report.notes.push_back(meshLabel(scene, i) + ": " + counted(skins.size() - 1, "copy", "copies") +
                                   ", one for the nodes of each further skin (POD bone batches name one skeleton)");
    }
}

// Keeps the one clip POD holds (--clip, else the first with a refusal) and applies --fps.
bool pickClip(Scene& scene, const PodShapeOptions& options, PodShapeReport& report, std::string& error) {
    auto& clips = scene.animation.clips;
    if (options.clip >= 0) {
        if (static_cast<size_t>(options.clip) >= clips.size()) {
            error = "clip " + num(static_cast<uint64_t>(options.clip)) + " does not exist";
            return false;
        }
        if (clips.size() > 1)
            report.notes.push_back("clip '" + clips[options.clip].name + "' written, " +
                                   counted(clips.size() - 1, "other", "others") + " left out (--clip)");
        Clip keep = clips[options.clip];
        clips.assign(1, std::move(keep));
    } else if (clips.size() > 1) {
        std::string names;
        for (size_t c = 0; c < clips.size() && c < 4; ++c) names += (c ? ", '" : "'") + clips[c].name + "'";
        if (clips.size() > 4) names += ", ...";
        report.refusals.push_back(num(clips.size()) + " animation clips (" + names +
                                  "); POD holds one (--clip NAME picks it)");
        Clip keep = clips[0];  // shaping goes on with the first, to find what else would be refused
        clips.assign(1, std::move(keep));
    }
    if (options.fps > 0.0f && options.fps != scene.animation.fps) {
        scene.animation.fps = options.fps;
        scene.animation.frames = 0;  // counted again from the clip at the new rate
    }
    return true;
}

// Visibility and texture coordinate tracks (POD has neither): refused, or left out when the
// options say so; then the clip moved to start at 0 s.
void dropPodlessTracks(Clip& clip, const PodShapeOptions& options, PodShapeReport& report) {
    size_t visibility = 0, uv = 0;
    for (const Track& t : clip.tracks) {
        visibility += t.channel == Channel::Visibility;
        uv += t.channel == Channel::UvElement;
    }
    if (visibility && !options.dropVisibility)
        report.refusals.push_back("clip '" + clip.name + "': " + num(visibility) +
                                  " visibility tracks; POD has no visibility (--drop-visibility leaves them out)");
    else if (visibility)
        report.notes.push_back("clip '" + clip.name + "': " + num(visibility) +
                               " visibility tracks left out (--drop-visibility)");
    if (uv && !options.dropUvAnimation)
        report.refusals.push_back("clip '" + clip.name + "': " + num(uv) +
                                  " texture coordinate tracks; POD has no texture coordinate animation "
                                  "(--drop-uv-animation leaves them out)");
    else if (uv)
        report.notes.push_back("clip '" + clip.name + "': " + num(uv) +
                               " texture coordinate tracks left out (--drop-uv-animation)");
    clip.tracks.erase(std::remove_if(clip.tracks.begin(), clip.tracks.end(),
                                     [&](const Track& t) {
                                         return t.channel == Channel::Visibility ||
                                                t.channel == Channel::UvElement;
                                     }),
                      clip.tracks.end());
    if (clip.start != 0.0f) {
        for (Track& t : clip.tracks)
            for (float& time : t.times) time -= clip.start;
        report.notes.push_back("clip '" + clip.name +
                               "' moved to start at 0 s (POD animation starts at frame 0); it started at " +
                               std::to_string(clip.start) + " s");
        clip.end -= clip.start;
        clip.start = 0.0f;
    }
}

// Element tracks sampled per node: which nodes have them, and each one's stepped matrix track
// (baked) and, for an animated object transform, its object's (bakedObject).
struct ElementBake {
    std::vector<uint8_t> elementNode, objectNode;
    std::vector<Track> baked, bakedObject;
};

// Marks the nodes with element tracks in b; false when there are none.
bool findElementNodes(const Scene& scene, const Clip& clip, ElementBake& b) {
    b.elementNode.assign(scene.nodes.size(), 0), b.objectNode.assign(scene.nodes.size(), 0);
    bool any = false;
    for (const Track& t : clip.tracks)
        if (t.channel == Channel::Element && t.node >= 0 &&
            static_cast<size_t>(t.node) < scene.nodes.size()) {
            b.elementNode[t.node] = 1, any = true;
            // An animated object transform (OpenGEX object elements): POD has none, so its object
            // moves to a child node animated by it (below).
            if (t.element < scene.nodes[t.node].elements.size() &&
                scene.nodes[t.node].elements[t.element].object && scene.nodes[t.node].kind != NodeKind::Empty)
                b.objectNode[t.node] = 1;
        }
    return any;
}

// Samples the marked nodes' local (and object) transforms at each of frames frames into b's tracks.
void bakeElementTracks(const Scene& scene, uint32_t frames, float fps, ElementBake& b) {
    b.baked.resize(scene.nodes.size()), b.bakedObject.resize(scene.nodes.size());
    Pose pose;
    for (uint32_t f = 0; f < frames; ++f) {
        const float t = float(f) / fps;
        evaluatePose(scene, 0, t, pose);
        for (size_t n = 0; n < scene.nodes.size(); ++n) {
            if (!b.elementNode[n]) continue;
            Track& tr = b.baked[n];
            tr.node = static_cast<int32_t>(n);
            tr.channel = Channel::Matrix;
            tr.interpolation = Interpolation::Step;
            tr.components = 16;
            tr.times.push_back(t);
            const glm::mat4 m = pose.local[n].toMatrix();
            const float* v = &m[0][0];
            tr.values.insert(tr.values.end(), v, v + 16);
            if (!b.objectNode[n]) continue;
            Track& ot = b.bakedObject[n];
            ot.channel = Channel::Matrix;
            ot.interpolation = Interpolation::Step;
            ot.components = 16;
            ot.times.push_back(t);
            const float* o = &pose.objectLocal[n][0][0];
            ot.values.insert(ot.values.end(), o, o + 16);
        }
    }
}

// The clip's element tracks (and the marked nodes' other tracks) replaced by the baked matrix
// tracks; the nodes' rest transforms become matrices. Returns the nodes so animated.
size_t replaceElementTracks(Scene& scene, Clip& clip, ElementBake& b) {
    size_t count = 0;
    clip.tracks.erase(std::remove_if(clip.tracks.begin(), clip.tracks.end(),
                                     [&](const Track& t) { return t.channel == Channel::Element; }),
                      clip.tracks.end());
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        if (!b.elementNode[n]) continue;
        // The node's other tracks (none for element-animated OpenGEX nodes) would fight the matrix.
        clip.tracks.erase(std::remove_if(clip.tracks.begin(), clip.tracks.end(),
                                         [&](const Track& t) { return t.node == static_cast<int32_t>(n); }),
                          clip.tracks.end());
        Node& node = scene.nodes[n];
        const glm::mat4 rest = node.local.toMatrix();
        node.local = Transform{};
        node.local.useMatrix = true;
        node.local.matrix = rest;
        clip.tracks.push_back(std::move(b.baked[n]));
        ++count;
    }
    return count;
}

// Each node with an animated object transform hands its object to a new child node animated by the
// baked object track. Returns the nodes so split.
size_t moveAnimatedObjects(Scene& scene, Clip& clip, ElementBake& b) {
    size_t objects = 0;
    const size_t nodeCount = scene.nodes.size();
    for (size_t n = 0; n < nodeCount; ++n) {
        if (!b.objectNode[n]) continue;
        Node child;
        child.name = scene.nodes[n].name + " object";
        child.parent = static_cast<int32_t>(n);
        child.kind = scene.nodes[n].kind;
        child.object = scene.nodes[n].object;
        child.materials = scene.nodes[n].materials;
        child.skin = scene.nodes[n].skin;
        child.visible = scene.nodes[n].visible;
        child.local.useMatrix = true;
        child.local.matrix = scene.nodes[n].objectTransform;
        Node& node = scene.nodes[n];
        node.kind = NodeKind::Empty, node.object = -1, node.materials.clear(), node.skin = -1;
        node.objectTransform = glm::mat4(1.0f);
        b.bakedObject[n].node = static_cast<int32_t>(scene.nodes.size());
        clip.tracks.push_back(std::move(b.bakedObject[n]));
        scene.nodes.push_back(std::move(child));
        ++objects;
    }
    return objects;
}

// Keeps the one clip POD holds, and samples the node element tracks (OpenGEX transform elements,
// which POD has no blocks for) into one stepped matrix track per node at every frame.
bool prepareAnimation(Scene& scene, const PodShapeOptions& options, PodShapeReport& report,
                      std::string& error) {
    if (!pickClip(scene, options, report, error)) return false;
    auto& clips = scene.animation.clips;
    if (clips.empty()) return true;
    Clip& clip = clips[0];
    dropPodlessTracks(clip, options, report);
    ElementBake b;
    if (!findElementNodes(scene, clip, b)) return true;
    const float fps = scene.animation.fps;
    const uint32_t frames = static_cast<uint32_t>(std::ceil(double(clip.end) * fps - 1e-3)) + 1;
    bakeElementTracks(scene, frames, fps, b);
    const size_t count = replaceElementTracks(scene, clip, b);
    const size_t objects = moveAnimatedObjects(scene, clip, b);
    if (objects)
        report.notes.push_back("clip '" + clip.name + "': the animated object transforms of " + counted(objects, "node", "nodes") +
                               " sampled at every frame onto child nodes that show their objects (POD "
                               "has no object transforms)");
    report.notes.push_back("clip '" + clip.name + "': the transform element tracks of " + counted(count, "node", "nodes") +
                           " sampled as matrices at every frame (" + num(frames) + " frames at " +
                           std::to_string(int(fps)) + " FPS)");
    return true;
}

// Mesh nodes with an object transform (OpenGEX): the mesh moves to a new child node placed by it.
void moveObjectTransforms(Scene& scene, PodShapeReport& report) {
    const size_t count = scene.nodes.size();
    size_t moved = 0;
    for (size_t n = 0; n < count; ++n) {
        Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Mesh || node.objectTransform == glm::mat4(1.0f)) continue;
        Node child;
        child.name = node.name + " object";
        child.parent = static_cast<int32_t>(n);
        child.kind = NodeKind::Mesh;
        child.object = node.object;
        child.materials = node.materials;
        child.skin = node.skin;
        child.local.useMatrix = true;
        child.local.matrix = node.objectTransform;
        node.kind = NodeKind::Empty;
        node.object = -1;
        node.materials.clear();
        node.skin = -1;
        node.objectTransform = glm::mat4(1.0f);
        scene.nodes.push_back(std::move(child));
        ++moved;
    }
    if (moved)
        report.notes.push_back(counted(moved, "mesh node", "mesh nodes") +
                               " with an object transform: the mesh shown by a child node "
                               "placed by it (POD has no object transforms)");
}

bool nearlySame(const glm::mat4& a, const glm::mat4& b) {
    float big = 1.0f;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) big = std::max({big, std::fabs(a[c][r]), std::fabs(b[c][r])});
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!(std::fabs(a[c][r] - b[c][r]) <= 1e-4f * big)) return false;
    return true;
}

// Splits `m` into translation * rotation * scale (a mirror kept as a negative x scale). False when
// the three do not rebuild it (shear, perspective, a zero axis).
bool decompose(const glm::mat4& m, Transform& out) {
    const glm::vec3 c0(m[0]), c1(m[1]), c2(m[2]);
    glm::vec3 scale(glm::length(c0), glm::length(c1), glm::length(c2));
    if (!(scale.x > 0.0f && scale.y > 0.0f && scale.z > 0.0f)) return false;
    if (glm::dot(glm::cross(c0, c1), c2) < 0.0f) scale.x = -scale.x;
    out = Transform{};
    out.translation = glm::vec3(m[3]);
    out.rotation = glm::normalize(glm::quat_cast(glm::mat3(c0 / scale.x, c1 / scale.y, c2 / scale.z)));
    out.scale = scale;
    return nearlySame(out.toMatrix(), m);
}

glm::mat4 worldOf(const Scene& scene, int32_t node) {
    glm::mat4 w(1.0f);
    for (int guard = 0; node >= 0 && guard < 100000; ++guard, node = scene.nodes[node].parent)
        w = scene.nodes[node].local.toMatrix() * w;
    return w;
}

// POD's rest pose becomes the skin's bind pose: each joint's local is set so that its world matrix
// is meshWorld * inverse(inverseBind), parents first. The clip keeps its poses: every channel of a
// joint that no track animates gets a one-key track holding its old rest value.
bool restAtBindPose(Scene& scene, int32_t meshNode, const Skin& skin, std::string& error) {
    for (int32_t a = scene.nodes[meshNode].parent; a >= 0; a = scene.nodes[a].parent)
        if (std::find(skin.joints.begin(), skin.joints.end(), a) != skin.joints.end()) {
            error = "the skinned mesh node hangs below one of its bones";
            return false;
        }
    const glm::mat4 meshWorld = worldOf(scene, meshNode);
    std::vector<std::pair<int, int32_t>> order;  // depth, joint
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        int depth = 0;
        for (int32_t a = skin.joints[j]; a >= 0 && depth < 100000; a = scene.nodes[a].parent) ++depth;
        order.push_back({depth, static_cast<int32_t>(j)});
    }
    std::sort(order.begin(), order.end());
    Clip* clip = scene.animation.clips.empty() ? nullptr : &scene.animation.clips[0];
    for (const auto& o : order) {
        const int32_t j = o.second, node = skin.joints[j];
        if (node < 0 || static_cast<size_t>(node) >= scene.nodes.size()) continue;
        Node& n = scene.nodes[node];
        const glm::mat4 parentWorld = n.parent >= 0 ? worldOf(scene, n.parent) : glm::mat4(1.0f);
        const glm::mat4 ib =
            static_cast<size_t>(j) < skin.inverseBind.size() ? skin.inverseBind[j] : glm::mat4(1.0f);
        const glm::mat4 local = glm::inverse(parentWorld) * meshWorld * glm::inverse(ib);
        const Transform old = n.local;
        bool animated[4] = {false, false, false, false};  // T R S M
        if (clip)
            for (const Track& t : clip->tracks)
                if (t.node == node && t.channel <= Channel::Matrix)
                    animated[static_cast<int>(t.channel)] = true;
        auto hold = [&](Channel c, const float* v, uint32_t n2) {
            if (!clip) return;
            Track t;
            t.node = node;
            t.channel = c;
            t.components = n2;
            t.interpolation = c == Channel::Matrix ? Interpolation::Step : Interpolation::Linear;
            t.times = {0.0f};
            t.values.assign(v, v + n2);
            clip->tracks.push_back(std::move(t));
        };
        if (old.useMatrix) {
            n.local.matrix = local;
            if (!animated[3]) hold(Channel::Matrix, &old.matrix[0][0], 16);
        } else {
            Transform trs;
            if (!decompose(local, trs)) {
                error = "the bind pose of bone '" + n.name + "' is not translation, rotation and scale";
                return false;
            }
            n.local = trs;
            if (!animated[0]) hold(Channel::Translation, &old.translation[0], 3);
            if (!animated[1]) {
                const float q[4] = {old.rotation.x, old.rotation.y, old.rotation.z, old.rotation.w};
                hold(Channel::Rotation, q, 4);
            }
            if (!animated[2]) hold(Channel::Scale, &old.scale[0], 3);
        }
    }
    return true;
}

// POD binds skins at frame 0: inverse bind = inverse(bone world) * mesh node world at the rest
// pose. A skin bound elsewhere, but by one rigid offset D shared by all its joints (bone world *
// inverse bind = D), is rebound exactly: vertices move by inverse(mesh node world) * D, and the
// inverse binds become what POD derives. Other skins are refused.
bool rebindSkins(Scene& scene, bool bindPoseRest, PodShapeReport& report, std::string& error) {
    if (scene.skins.empty()) return true;
    Pose rest;
    evaluatePose(scene, -1, 0.0f, rest);
    std::vector<int32_t> skinNode(scene.skins.size(), -1);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        if (node.kind != NodeKind::Mesh || node.skin < 0 ||
            static_cast<size_t>(node.skin) >= scene.skins.size())
            continue;
        if (skinNode[node.skin] < 0) skinNode[node.skin] = static_cast<int32_t>(n);
    }
    for (size_t k = 0; k < scene.skins.size(); ++k) {
        if (skinNode[k] < 0) continue;
        Skin& skin = scene.skins[k];
        const glm::mat4 meshWorld = rest.world[skinNode[k]];
        bool bound = true, shared = true;
        glm::mat4 offset(1.0f);
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const int32_t joint = skin.joints[j];
            if (joint < 0 || static_cast<size_t>(joint) >= scene.nodes.size()) continue;
            const glm::mat4 ib = j < skin.inverseBind.size() ? skin.inverseBind[j] : glm::mat4(1.0f);
            bound = bound && nearlySame(ib, glm::inverse(rest.world[joint]) * meshWorld);
            const glm::mat4 d = rest.world[joint] * ib;
            if (j == 0) offset = d;
            shared = shared && nearlySame(d, offset);
        }
        if (bound) continue;
        const std::string what = "skin " + num(k) + " '" + skin.name + "'";
        if (!shared) {
            if (!bindPoseRest)
                report.refusals.push_back(
                    what +
                    ": its bind pose is not the rest pose, and its bones differ from it by different "
                    "transforms; POD binds skins at the rest pose, frame 0 (--bind-pose-rest makes the "
                    "bind pose the rest pose)");
            if (!restAtBindPose(scene, skinNode[k], skin, error)) {
                error = what + ": " + error;
                return false;
            }
            report.notes.push_back(
                what + ": the rest pose (frame 0) is now its bind pose; the clip keeps its poses (--bind-pose-rest)");
            evaluatePose(scene, -1, 0.0f, rest);
            continue;
        }
        const glm::mat4 x = glm::inverse(meshWorld) * offset;
        const glm::mat3 linear(x), normal = glm::transpose(glm::inverse(linear));
        PodQuantize floats;
        floats[PodAttr::Positions] = floats[PodAttr::Normals] = floats[PodAttr::Tangents] = PodQuant::Float;
        std::vector<int32_t> meshes;
        for (const Node& n : scene.nodes)
            if (n.kind == NodeKind::Mesh && n.skin == static_cast<int32_t>(k) && n.object >= 0 &&
                std::find(meshes.begin(), meshes.end(), n.object) == meshes.end())
                meshes.push_back(n.object);
        for (int32_t mi : meshes) {
            Mesh& m = scene.meshes[mi];
            PodQuantReport ignored;
            std::string why;
            if (!quantizeMesh(m, floats, ignored, why)) {
                error = meshLabel(scene, size_t(mi)) + ": " + why;
                return false;
            }
            if (m.streams.empty()) continue;
            VertexStream& st = m.streams[0];
            std::vector<uint8_t> bytes(st.bytes.begin(), st.bytes.end());
            for (const VertexAttribute& a : st.attributes) {
                const PodAttr g = groupOf(a.semantic);
                if (a.type != ComponentType::Float32 ||
                    (g != PodAttr::Positions && g != PodAttr::Normals && g != PodAttr::Tangents))
                    continue;
                for (uint32_t v = 0; v < m.vertexCount; ++v) {
                    float* f = reinterpret_cast<float*>(bytes.data() + size_t(v) * st.stride + a.offset);
                    glm::vec3 p(f[0], f[1], a.components > 2 ? f[2] : 0.0f);
                    p = g == PodAttr::Positions ? glm::vec3(x * glm::vec4(p, 1.0f))
                        : g == PodAttr::Normals ? normal * p
                                                : linear * p;
                    f[0] = p.x, f[1] = p.y;
                    if (a.components > 2) f[2] = p.z;
                }
            }
            st.bytes = makeOwnedBytes(std::move(bytes));
        }
        skin.inverseBind.resize(skin.joints.size(), glm::mat4(1.0f));
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const int32_t joint = skin.joints[j];
            if (joint >= 0 && static_cast<size_t>(joint) < scene.nodes.size())
                skin.inverseBind[j] = glm::inverse(rest.world[joint]) * meshWorld;
        }
        skin.bindPlacedByMeshNode = true;
        report.notes.push_back(
            what +
            ": rebound at the rest pose (POD binds skins at frame 0); its vertices moved by the "
            "bind offset all its bones share");
    }
    return true;
}

// True when every texture coordinate that material `material` samples `ref` with lies within [0, 1]
// (within half a texel of the texture's size when it has been read, else 1/4096): there clamp,
// mirror and border sample what repeat does. The coordinates are those of the submeshes drawn with the
// material by some node (triangles, lines and points alike); a material no node draws has none.
bool uvsWithinUnit(const Scene& scene, size_t material, const TextureRef& ref) {
    float tolU = 1.0f / 4096.0f, tolV = tolU;
    if (ref.texture >= 0 && static_cast<size_t>(ref.texture) < scene.textures.size()) {
        const Image& image = scene.textures[ref.texture].image;
        if (image.width) tolU = 0.5f / float(image.width);
        if (image.height) tolV = 0.5f / float(image.height);
    }
    std::vector<uint8_t> checked(scene.meshes.size() * 64, 0);  // (mesh, slot) pairs already read
    std::vector<uint32_t> tris, lines, points, triStart, lineStart, pointStart;
    for (const Node& node : scene.nodes) {
        if (node.kind != NodeKind::Mesh || node.object < 0 || static_cast<size_t>(node.object) >= scene.meshes.size())
            continue;
        const Mesh& mesh = scene.meshes[node.object];
        const VertexStream* stream = nullptr;
        const VertexAttribute* uv = findAttribute(mesh, Semantic::TexCoord, ref.uvSet, &stream);
        if (!uv || !stream) continue;  // no coordinates: every texel read is (0, 0)
        bool expanded = false;
        for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
            const uint32_t slot = mesh.submeshes[s].materialSlot;
            if (slot >= node.materials.size() || node.materials[slot] != static_cast<int32_t>(material)) continue;
            const size_t key = size_t(node.object) * 64 + std::min<size_t>(s, 63);
            if (s < 64 && checked[key]) continue;
            if (s < 64) checked[key] = 1;
            if (!expanded) {
                expandTriangles(mesh, tris, &triStart);
                expandLines(mesh, lines, &lineStart);
                expandPoints(mesh, points, &pointStart);
                expanded = true;
            }
            auto inside = [&](const std::vector<uint32_t>& list, const std::vector<uint32_t>& start, size_t per) {
                const size_t from = s < start.size() ? size_t(start[s]) * per : list.size();
                const size_t to = s + 1 < start.size() ? size_t(start[s + 1]) * per : list.size();
                for (size_t k = from; k < to && k < list.size(); ++k) {
                    if (list[k] >= mesh.vertexCount) continue;
                    float v[4];
                    readAttribute(*stream, *uv, list[k], v);
                    if (!(v[0] >= -tolU && v[0] <= 1.0f + tolU && v[1] >= -tolV && v[1] <= 1.0f + tolV))
                        return false;
                }
                return true;
            };
            if (!inside(tris, triStart, 3) || !inside(lines, lineStart, 2) || !inside(points, pointStart, 1))
                return false;
        }
    }
    return true;
}

// Per mesh, whether some mesh node shows it.
std::vector<uint8_t> drawnMeshes(const Scene& scene) {
    std::vector<uint8_t> drawn(scene.meshes.size(), 0);
    for (const Node& n : scene.nodes)
        if (n.kind == NodeKind::Mesh && n.object >= 0 && static_cast<size_t>(n.object) < drawn.size())
            drawn[n.object] = 1;
    return drawn;
}

// Meshes that a node showed before (`drawnBefore`) and none shows now are left out, the mesh nodes'
// indices renumbered. Returns how many were left out.
size_t dropUndrawnMeshes(Scene& scene, const std::vector<uint8_t>& drawnBefore) {
    const std::vector<uint8_t> drawn = drawnMeshes(scene);
    std::vector<int32_t> newIndex(scene.meshes.size(), -1);
    std::vector<Mesh> kept;
    size_t dropped = 0;
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        if (!drawn[i] && i < drawnBefore.size() && drawnBefore[i]) {
            ++dropped;
            continue;
        }
        newIndex[i] = static_cast<int32_t>(kept.size());
        kept.push_back(std::move(scene.meshes[i]));
    }
    scene.meshes = std::move(kept);
    if (!dropped) return 0;
    for (Node& n : scene.nodes)
        if (n.kind == NodeKind::Mesh && n.object >= 0 && static_cast<size_t>(n.object) < newIndex.size())
            n.object = newIndex[n.object];
    return dropped;
}

// Lights and cameras: what POD has no field for, refused unless --plain-lights / --plain-cameras.
void shapeLightsAndCameras(Scene& scene, const PodShapeOptions& options, PodShapeReport& report) {
    size_t plainLights = 0, ambient = 0;
    std::vector<int32_t> newIndex(scene.lights.size(), -1);
    std::vector<Light> kept;
    for (size_t i = 0; i < scene.lights.size(); ++i) {
        Light& l = scene.lights[i];
        const std::string where = "light " + num(i) + " '" + l.name + "'";
        std::vector<std::string> what;
        if (l.type == LightType::Ambient) what.push_back("an ambient light (POD has point, directional and spot lights)");
        if (l.range != 0.0f) what.push_back("a range (POD lights reach infinitely far)");
        if (l.innerCone != 0.0f) what.push_back("an inner cone angle (POD spot lights have a falloff angle and exponent)");
        if (!l.enabled) what.push_back("switched off (POD has no such flag)");
        if (!what.empty() && !options.plainLights) {
            std::string text;
            for (const std::string& w : what) text += (text.empty() ? "" : "; ") + w;
            report.refusals.push_back(where + ": " + text +
                                      " (--plain-lights writes it as POD has lights: no range or inner cone, "
                                      "switched off as black, ambient added to the scene's ambient colour)");
        }
        plainLights += !what.empty();
        if (l.type == LightType::Ambient) {
            if (l.enabled) scene.ambient += l.color * l.intensity;
            ++ambient;
            continue;
        }
        l.range = l.rangeStart = 0.0f;
        l.innerCone = 0.0f;
        if (!l.enabled) l.color = glm::vec3(0.0f), l.enabled = true;
        newIndex[i] = static_cast<int32_t>(kept.size());
        kept.push_back(std::move(l));
    }
    scene.lights = std::move(kept);
    if (ambient)
        for (Node& n : scene.nodes)
            if (n.kind == NodeKind::Light && n.object >= 0 && static_cast<size_t>(n.object) < newIndex.size()) {
                n.object = newIndex[n.object];
                if (n.object < 0) n.kind = NodeKind::Empty;
            }
    if (plainLights && options.plainLights)
        report.notes.push_back(counted(plainLights, "light", "lights") + " written as POD has them (--plain-lights)" +
                               (ambient ? ", " + counted(ambient, "ambient one", "ambient ones") + " added to the scene's ambient colour"
                                        : std::string()));
    size_t plainCameras = 0;
    for (size_t i = 0; i < scene.cameras.size(); ++i) {
        Camera& c = scene.cameras[i];
        const std::string where = "camera " + num(i) + " '" + c.name + "'";
        // POD's field of view is vertical (the SDK passes it to PerspectiveFovRH): a horizontal one
        // (OpenGEX "fov") becomes the vertical angle of the camera's aspect ratio, else of a square
        // view, as the glTF writer does.
        if (!c.orthographic && c.xfov > 0.0f && c.xfov < glm::pi<float>()) {
            const float aspect = c.aspect > 0.0f ? c.aspect : 1.0f;
            c.yfov = 2.0f * std::atan(std::tan(c.xfov * 0.5f) / aspect);
            report.notes.push_back(where + ": horizontal field of view " + oneDecimal(glm::degrees(c.xfov)) +
                                   " degrees written as POD's vertical one, " + oneDecimal(glm::degrees(c.yfov)) +
                                   " degrees" + (c.aspect > 0.0f ? "" : " (no aspect ratio: as in a square view)"));
        }
        c.xfov = 0.0f;
        std::vector<std::string> what;
        if (c.orthographic) what.push_back("an orthographic camera (POD cameras are perspective)");
        if (c.aspect != 0.0f) what.push_back("a fixed aspect ratio (POD cameras take it from the viewport)");
        if (what.empty()) continue;
        if (!options.plainCameras) {
            std::string text;
            for (const std::string& w : what) text += (text.empty() ? "" : "; ") + w;
            report.refusals.push_back(where + ": " + text +
                                      " (--plain-cameras writes it perspective with the viewport's aspect ratio)");
        }
        if (c.orthographic) c.orthographic = false, c.yfov = glm::radians(45.0f), c.xfov = 0.0f;
        c.aspect = 0.0f;
        ++plainCameras;
    }
    if (plainCameras && options.plainCameras)
        report.notes.push_back(counted(plainCameras, "camera", "cameras") + " written perspective with the viewport's aspect ratio "
                                                   "(--plain-cameras)");
}

// What of a material POD's material block has no field for (the POD writer refuses each), and what
// --plain-materials makes of it.
std::vector<std::string> podlessMaterialParts(const Material& m) {
    std::vector<std::string> what;
    if (m.twoSided) what.push_back("two-sided");
    if (m.alphaCutoff != 0.0f) what.push_back("an alpha cutoff");
    if (m.model == ShadingModel::Unlit) what.push_back("unlit");
    if (!m.vertexColors) what.push_back("vertex colours switched off");
    if (m.emissive != glm::vec3(0.0f)) {
        // POD stores emission as an amount of the base colour, and only on metal/rough materials.
        bool multiple = m.model == ShadingModel::MetalRough;
        int big = 0;
        for (int c = 1; c < 3; ++c)
            if (std::fabs(m.diffuse[c]) > std::fabs(m.diffuse[big])) big = c;
        const float k = m.diffuse[big] != 0.0f ? m.emissive[big] / m.diffuse[big] : 0.0f;
        for (int c = 0; c < 3 && multiple; ++c)
            multiple = std::fabs(m.diffuse[c] * k - m.emissive[c]) <= 1e-6f * std::max(1.0f, std::fabs(m.emissive[c]));
        if (!multiple) what.push_back("an emissive colour POD cannot store (an amount of the base colour, metal/rough only)");
    }
    // POD has no texture block for KHR_materials_specular's maps (its factors are not written either).
    if (m.texture(TextureSlot::SpecularStrength).texture >= 0) what.push_back("a specular strength map");
    if (m.texture(TextureSlot::SpecularTint).texture >= 0) what.push_back("a specular colour map");
    return what;
}

void plainMaterial(Material& m) {
    m.twoSided = false;
    m.alphaCutoff = 0.0f;
    if (m.model == ShadingModel::Unlit) m.model = ShadingModel::Classic;
    m.vertexColors = true;
    m.texture(TextureSlot::SpecularStrength) = TextureRef{};
    m.texture(TextureSlot::SpecularTint) = TextureRef{};
    if (!podlessMaterialParts(m).empty()) m.emissive = glm::vec3(0.0f);  // only the emission is left
}

// Materials: what POD has no field for. Metal/rough values a classic material carries are never
// drawn (POD's PBR blocks would make the material metal/rough): left out with a note. Wrap modes,
// texture coordinate transforms and swizzles: refused unless the options drop them.
void shapeMaterials(Scene& scene, const PodShapeOptions& options, PodShapeReport& report) {
    const Material defaults;
    size_t classicReset = 0, sameAsRepeat = 0, repeated = 0, plain = 0, plainMaterials = 0, specularMapsDropped = 0;
    for (size_t i = 0; i < scene.materials.size(); ++i) {
        Material& m = scene.materials[i];
        if (m.model == ShadingModel::Classic &&
            (m.metallic != defaults.metallic || m.roughness != defaults.roughness || m.ior != defaults.ior ||
             m.reflectivity != defaults.reflectivity)) {
            m.metallic = defaults.metallic, m.roughness = defaults.roughness, m.ior = defaults.ior;
            m.reflectivity = defaults.reflectivity;
            ++classicReset;
        }
        const std::string where = "material " + num(i) + " '" + m.name + "'";
        const std::vector<std::string> podless = podlessMaterialParts(m);
        if (!podless.empty()) {
            if (!options.plainMaterials) {
                std::string text;
                for (const std::string& w : podless) text += (text.empty() ? "" : "; ") + w;
                report.refusals.push_back(where + ": " + text +
                                          " (--plain-materials writes it as POD has materials: one-sided, no alpha "
                                          "cutoff, lit, vertex colours on, no emission POD cannot store, no "
                                          "specular strength or colour map)");
            }
            specularMapsDropped += m.texture(TextureSlot::SpecularStrength).texture >= 0 ||
                                   m.texture(TextureSlot::SpecularTint).texture >= 0;
            plainMaterial(m);
            ++plainMaterials;
        }
        bool transformed = false, swizzled = false, wrapped = false;
        for (TextureRef& r : m.textures) {
            if (r.texture < 0) continue;
            if (r.uvTransform >= 0 && static_cast<size_t>(r.uvTransform) < scene.uvTransforms.size()) {
                if (scene.uvTransforms[r.uvTransform].matrix() != glm::mat4(1.0f)) transformed = true;
                r.uvTransform = -1;
            }
            if (!isIdentitySwizzle(r.swizzle)) swizzled = true;
            r.swizzle = kIdentitySwizzle;
            if (r.wrapS == Wrap::Repeat && r.wrapT == Wrap::Repeat) continue;
            // Inside [0, 1] every wrap mode samples what repeat does: nothing to refuse.
            if (uvsWithinUnit(scene, i, r)) {
                ++sameAsRepeat;
            } else {
                wrapped = true;
            }
            r.wrapS = r.wrapT = Wrap::Repeat;
        }
        if (transformed && !options.plainTextures)
            report.refusals.push_back(where +
                                      ": a texture coordinate transform; POD has none (--plain-textures leaves "
                                      "it out)");
        else if (transformed)
            ++plain;
        if (swizzled && !options.plainTextures)
            report.refusals.push_back(where + ": a texture swizzle; POD has none (--plain-textures leaves it out)");
        else if (swizzled && !transformed)
            ++plain;
        if (wrapped && !options.wrapRepeat)
            report.refusals.push_back(where +
                                      ": a texture wrap mode other than repeat, with texture coordinates outside "
                                      "0 to 1; POD has none (--wrap-repeat writes it repeating)");
        else if (wrapped)
            ++repeated;
    }
    if (classicReset)
        report.notes.push_back(counted(classicReset, "classic material", "classic materials") +
                               ": their unused metal/rough values left out");
    if (sameAsRepeat)
        report.notes.push_back(counted(sameAsRepeat, "texture", "textures") +
                               " with another wrap mode written repeating: their texture coordinates "
                               "lie within 0 to 1, where both sample alike");
    if (repeated)
        report.notes.push_back(counted(repeated, "material", "materials") + ": textures with another wrap mode written repeating "
                                               "(--wrap-repeat)");
    if (plain)
        report.notes.push_back(counted(plain, "material", "materials") + ": texture coordinate transforms and swizzles left out "
                                            "(--plain-textures)");
    if (plainMaterials && options.plainMaterials)
        report.notes.push_back(counted(plainMaterials, "material", "materials") +
                               " written as POD has materials: one-sided, no alpha cutoff, lit, vertex colours on "
                               "(--plain-materials)");
    if (specularMapsDropped && options.plainMaterials)
        report.notes.push_back(counted(specularMapsDropped, "material", "materials") +
                               ": KHR_materials_specular's specular strength and colour maps left out; POD has no "
                               "texture block for them (--plain-materials)");
}

}  // namespace

bool shapeSceneForPod(Scene& scene, const PodShapeOptions& options, PodShapeReport& report,
                      std::string& error) {
    shapeMaterials(scene, options, report);
    if (!prepareAnimation(scene, options, report, error)) return false;
    const std::vector<uint8_t> drawnBefore = drawnMeshes(scene);
    size_t hidden = 0;
    std::string hiddenNames;
    for (Node& n : scene.nodes) {
        if (n.visible) continue;
        if (hidden < 3) hiddenNames += (hidden ? ", '" : "'") + n.name + "'";
        if (n.kind == NodeKind::Mesh)
            n.kind = NodeKind::Empty, n.object = -1, n.materials.clear(), n.skin = -1;
        n.visible = true;
        ++hidden;
    }
    if (hidden > 3) hiddenNames += ", ...";
    if (hidden && !options.dropHidden) {
        report.refusals.push_back(num(hidden) + (hidden == 1 ? " hidden node (" : " hidden nodes (") + hiddenNames +
                                  "); POD has no visibility (--drop-hidden leaves out what hidden nodes show)");
    } else if (hidden) {
        const size_t dropped = dropUndrawnMeshes(scene, drawnBefore);
        report.notes.push_back(counted(hidden, "hidden node", "hidden nodes") + " written as empty nodes, " +
                               counted(dropped, "mesh", "meshes") + " only they showed left out (POD has no visibility; --drop-hidden)");
    }
    for (Node& n : scene.nodes) n.elements.clear();  // `local` and `objectTransform` hold their products
    moveObjectTransforms(scene, report);
    if (turnSceneToYUp(scene))
        report.notes.push_back("the Z-up scene turned to POD's Y up: (x, y, z) becomes (x, z, -y)");
    // Morph targets.
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        Mesh& m = scene.meshes[i];
        if (m.morphTargets.empty()) continue;
        if (!options.dropMorphs)
            report.refusals.push_back(meshLabel(scene, i) + ": " + num(m.morphTargets.size()) +
                                      " morph targets; POD has none (--drop-morphs leaves them out)");
        else
            report.notes.push_back(meshLabel(scene, i) + ": morph targets left out (--drop-morphs)");
        m.morphTargets.clear();
        m.defaultMorphWeights.clear();
        m.morphBaseWeighted = false;
    }
    {  // without --drop-morphs a refusal stands above; shaping goes on without them either way
        for (Node& n : scene.nodes) n.morphWeights.clear();
        for (Clip& c : scene.animation.clips)
            c.tracks.erase(std::remove_if(c.tracks.begin(), c.tracks.end(),
                                          [](const Track& t) {
                                              return t.channel == Channel::MorphWeights ||
                                                     t.channel == Channel::MorphWeight;
                                          }),
                           c.tracks.end());
    }
    // Meshes whose vertices have no positions draw nothing.
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        Mesh& m = scene.meshes[i];
        if (m.vertexCount == 0 || findAttribute(m, Semantic::Position, 0, nullptr)) continue;
        report.notes.push_back(meshLabel(scene, i) + ": " + num(m.vertexCount) +
                               " vertices without positions (it draws nothing) written empty");
        Mesh empty;
        empty.name = m.name;
        m = std::move(empty);
    }
    if (!splitMeshes(scene, report, error)) return false;
    splitSkinnedInstances(scene, report);
    if (!rebindSkins(scene, options.bindPoseRest, report, error)) return false;
    shapeLightsAndCameras(scene, options, report);
    if (!report.refusals.empty()) {
        // The rest (batches, quantisation, vertex order) refuses nothing an option drops.
        error = report.refusals.front();
        return false;
    }
    if (options.maxBones > 0) {
        report.meshesRebatched = rebatchSceneBones(scene, options.maxBones);
        if (report.meshesRebatched)
            report.notes.push_back(counted(report.meshesRebatched, "skinned mesh", "skinned meshes") + " re-batched for " +
                                   num(options.maxBones) + " bones per batch");
    }
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        Mesh& m = scene.meshes[i];
        std::string why;
        if (!quantizeMesh(m, options.quantize, report.quant, why)) {
            error = meshLabel(scene, i) + ": " + why;
            return false;
        }
        const bool triangles = m.submeshes.size() == 1 && m.vertexCount > 0 &&
                               (m.submeshes[0].primitive == Primitive::Triangles ||
                                m.submeshes[0].primitive == Primitive::TriangleStrip);
        if (options.optimize && triangles && !options.strips) {
            if (!optimizePodMesh(m, why)) {
                error = meshLabel(scene, i) + ": " + why;
                return false;
            }
            ++report.meshesOptimized;
        }
        if (options.strips && triangles) {
            // Strips are made from a list (a file's strips are expanded first), in their own order.
            const bool ok =
                (m.submeshes[0].primitive != Primitive::TriangleStrip || optimizePodMesh(m, why)) &&
                stripifyPodMesh(m, why) && (!options.optimize || optimizePodVertexFetch(m, why));
            if (!ok) {
                error = meshLabel(scene, i) + ": " + why;
                return false;
            }
            if (options.optimize) ++report.meshesOptimized;
            ++report.meshesStripped;
        }
    }
    return true;
}

}  // namespace esv
