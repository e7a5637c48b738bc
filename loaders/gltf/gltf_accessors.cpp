// glTF reader: buffer views and accessors, checked against the bytes present; sparse accessors
// materialized; values read as floats or indices (gltf_internal.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "loaders/gltf/gltf_internal.h"
#include "loaders/index_scan.h"

namespace esv::gltf {
namespace {

// The shortest text (of 6 to 9 significant digits) that reads back as `value`.
std::string shortestText(float value) {
    char digits[32];
    for (int precision = 6; precision <= 9; ++precision) {
        std::snprintf(digits, sizeof(digits), "%.*g", precision, double(value));
        if (std::strtof(digits, nullptr) == value) break;
    }
    return digits;
}

// Components of an accessor type ("VEC3": 3); 0 for an unknown type.
uint32_t componentsOf(const std::string& type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4") return 4;
    if (type == "MAT2") return 4;
    if (type == "MAT3") return 9;
    if (type == "MAT4") return 16;
    return 0;
}

// Bytes of one element: matrix columns start 4-byte aligned (glTF 2.0, 3.6.2.4).
uint32_t elementSizeOf(const std::string& type, uint32_t components, uint32_t componentSize) {
    if (type == "MAT2" && componentSize == 1) return 8;
    if (type == "MAT3" && componentSize == 1) return 12;
    if (type == "MAT3" && componentSize == 2) return 24;
    return components * componentSize;
}

float normalizedValue(ComponentType type, const uint8_t* p) {
    switch (type) {
        case ComponentType::Int8:
            return std::max(float(int8_t(*p)) / 127.0f, -1.0f);
        case ComponentType::UInt8:
            return float(*p) / 255.0f;
        case ComponentType::Int16: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return std::max(float(v) / 32767.0f, -1.0f);
        }
        case ComponentType::UInt16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return float(v) / 65535.0f;
        }
        case ComponentType::UInt32: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return float(double(v) / 4294967295.0);
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}

float plainValue(ComponentType type, const uint8_t* p) {
    switch (type) {
        case ComponentType::Int8:
            return float(int8_t(*p));
        case ComponentType::UInt8:
            return float(*p);
        case ComponentType::Int16: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return float(v);
        }
        case ComponentType::UInt16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return float(v);
        }
        case ComponentType::UInt32: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return float(v);
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}

uint32_t indexValue(ComponentType type, const uint8_t* p) {
    if (type == ComponentType::UInt8) return *p;
    if (type == ComponentType::UInt16) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

}  // namespace

bool componentTypeOf(uint64_t code, ComponentType& out) {
    switch (code) {
        case 5120:
            out = ComponentType::Int8;
            return true;
        case 5121:
            out = ComponentType::UInt8;
            return true;
        case 5122:
            out = ComponentType::Int16;
            return true;
        case 5123:
            out = ComponentType::UInt16;
            return true;
        case 5125:
            out = ComponentType::UInt32;
            return true;
        case 5126:
            out = ComponentType::Float32;
            return true;
        default:
            return false;
    }
}

bool Reader::spend(uint64_t bytes, const std::string& where) {
    if (bytes > m_budget) {
        fail(where, "needs " + std::to_string(bytes) + " bytes, more than is left of the " +
                        std::to_string(m_budgetTotal) +
                        " bytes the reader makes from a file's counts (64 times its size, at least 64 MiB)");
        return false;
    }
    m_budget -= bytes;
    return true;
}

const BufferView* Reader::bufferView(int32_t index, const std::string& where) {
    if (index < 0 || size_t(index) >= m_views.size()) {
        fail(where, "bufferView " + std::to_string(index) + " does not exist (the file has " +
                        std::to_string(m_views.size()) + ")");
        return nullptr;
    }
    BufferView& v = m_views[size_t(index)];
    if (v.resolved) return v.ok ? &v : nullptr;
    v.resolved = true;
    const std::string at = pointer("bufferViews", size_t(index));
    const Json& j = array("bufferViews")[size_t(index)];
    if (!objectAt(j, at)) return nullptr;
    int32_t buffer = -1;
    uint64_t offset = 0, length = 0, stride = 0;
    if (!getIndex(j, "buffer", at, "buffers", buffer, true)) return nullptr;
    if (!getUint(j, "byteLength", at, length, true)) return nullptr;
    getUint(j, "byteOffset", at, offset, false);
    if (getUint(j, "byteStride", at, stride, false) && (stride < 4 || stride > 252 || stride % 4 != 0)) {
        fail(at + "/byteStride", std::to_string(stride) + " is not a multiple of 4 between 4 and 252");
        return nullptr;
    }
    const Json* ext = member(j, "extensions");
    const Json* meshopt = ext ? member(*ext, "EXT_meshopt_compression") : nullptr;
    if (meshopt && meshoptSupported()) {
        // The view's bytes are decoded from the extension's buffer; its own is a fallback.
        v.bytes = ByteView{nullptr, nullptr, size_t(std::min<uint64_t>(length, uint64_t(1) << 40))};
        v.stride = uint32_t(stride);
        if (!decodeMeshopt(*meshopt, at, v)) return nullptr;
        v.ok = true;
        return &v;
    }
    if (!m_bufferOk[size_t(buffer)]) {
        if (m_bufferFallback[size_t(buffer)])
            fail(at,
                 "buffer " + std::to_string(buffer) + " is an EXT_meshopt_compression fallback without data");
        return nullptr;  // else the buffer's own problem was reported
    }
    const ByteView& b = m_buffers[size_t(buffer)];
    if (offset > b.size || length > b.size - offset) {
        fail(at, "byteOffset " + std::to_string(offset) + " + byteLength " + std::to_string(length) +
                     " exceeds buffer " + std::to_string(buffer) + "'s " + std::to_string(b.size) + " bytes");
        return nullptr;
    }
    v.bytes = b.sub(size_t(offset), size_t(length));
    v.stride = uint32_t(stride);
    v.offsetInBuffer = offset;
    v.ok = true;
    return &v;
}

const Accessor* Reader::accessor(int32_t index, const std::string& where) {
    if (index < 0 || size_t(index) >= m_accessors.size()) {
        fail(where, "accessor " + std::to_string(index) + " does not exist (the file has " +
                        std::to_string(m_accessors.size()) + ")");
        return nullptr;
    }
    Accessor& a = m_accessors[size_t(index)];
    if (!a.resolved) {
        a.resolved = true;
        a.ok = resolveAccessor(size_t(index), a);
    }
    return a.ok ? &a : nullptr;
}

bool Reader::resolveAccessor(size_t index, Accessor& a) {
    const std::string at = pointer("accessors", index);
    const Json& j = array("accessors")[index];
    if (!objectAt(j, at)) return false;
    uint64_t code = 0, count = 0, offset = 0;
    if (!getUint(j, "componentType", at, code, true) || !getUint(j, "count", at, count, true)) return false;
    if (!componentTypeOf(code, a.type)) {
        fail(at + "/componentType", std::to_string(code) + " is not a glTF component type");
        return false;
    }
    a.typeName = getString(j, "type");
    a.components = componentsOf(a.typeName);
    if (a.components == 0) {
        fail(at + "/type", "'" + a.typeName.substr(0, 20) + "' is not SCALAR, VEC2-4 or MAT2-4");
        return false;
    }
    if (count == 0 || count > 0xFFFFFFFFu) {
        fail(at + "/count", std::to_string(count) + " is not between 1 and 2^32-1");
        return false;
    }
    a.count = uint32_t(count);
    const Json* norm = member(j, "normalized");
    a.normalized = norm && norm->is_boolean() && norm->get<bool>();
    if (a.normalized && (a.type == ComponentType::Float32 || a.type == ComponentType::UInt32)) {
        fail(at + "/normalized", std::string("true for ") + componentTypeName(a.type) + " components");
        return false;
    }
    const uint32_t size = uint32_t(componentSize(a.type));
    a.elementSize = elementSizeOf(a.typeName, a.components, size);
    getUint(j, "byteOffset", at, offset, false);
    if (!member(j, "bufferView")) {
        // No buffer view: zeros (then, usually, sparse values). Checked against the caps first.
        if (count > (uint64_t(256) << 20) / a.elementSize) {
            fail(at, "count " + std::to_string(count) + " of zeros exceeds the reader's cap");
            return false;
        }
        if (!spend(count * a.elementSize, at)) return false;
        a.stride = a.elementSize;
        a.bytes = makeOwnedBytes(std::vector<uint8_t>(size_t(count) * a.elementSize, 0));
    } else {
        int32_t view = -1;
        if (!getIndex(j, "bufferView", at, "bufferViews", view, true)) return false;
        const BufferView* v = bufferView(view, at + "/bufferView");
        if (!v) return false;
        a.bufferView = view;
        a.viewStride = v->stride;
        a.offsetInView = offset;
        a.stride = v->stride ? v->stride : a.elementSize;
        if (v->stride && v->stride < a.elementSize) {
            fail(at, "elements of " + std::to_string(a.elementSize) + " bytes in bufferView " +
                         std::to_string(view) + " of stride " + std::to_string(v->stride));
            return false;
        }
        const uint64_t need = (count - 1) * a.stride + a.elementSize;
        if (offset > v->bytes.size || need > v->bytes.size - offset) {
            fail(at, "count " + std::to_string(count) + " at stride " + std::to_string(a.stride) + " needs " +
                         std::to_string(offset + need) + " bytes; bufferView " + std::to_string(view) +
                         " holds " + std::to_string(v->bytes.size));
            return false;
        }
        if ((v->offsetInBuffer + offset) % size != 0)
            m_diag.violation(FilePlace{}, at,
                             "starts at byte " + std::to_string(v->offsetInBuffer + offset) +
                                 " of its buffer, not a multiple of the " + std::to_string(size) +
                                 "-byte component size");
        a.bytes = v->bytes.sub(size_t(offset), size_t(need));
    }
    if (const Json* sparse = member(j, "sparse"); sparse && !applySparse(index, *sparse, a)) return false;
    if (m_options.collectAll) checkDeclaredBounds(j, at, a);
    return true;
}

// Check mode: an accessor's declared min and max are its elements' own (glTF 2.0, 3.6.2.5: the
// stored values, normalized or not, after sparse substitution; floats compared in single precision).
// Matrices are left out (their columns are padded).
void Reader::checkDeclaredBounds(const Json& j, const std::string& at, const Accessor& a) {
    if (a.typeName.rfind("MAT", 0) == 0) return;
    for (const char* name : {"min", "max"}) {
        const Json* declared = member(j, name);
        if (!declared || !declared->is_array() || declared->size() != a.components) continue;
        const bool isMin = name[1] == 'i';
        const size_t size = componentSize(a.type);
        for (uint32_t c = 0; c < a.components; ++c) {
            const Json& d = (*declared)[c];
            if (!d.is_number()) continue;
            float actual = plainValue(a.type, a.bytes.data + size_t(c) * size);
            for (uint32_t e = 1; e < a.count; ++e) {
                const float v = plainValue(a.type, a.bytes.data + size_t(e) * a.stride + size_t(c) * size);
                actual = isMin ? std::min(actual, v) : std::max(actual, v);
            }
            const float stated = float(d.get<double>());
            if (stated != actual)
                m_diag.violation(FilePlace{}, at + "/" + name + "/" + std::to_string(c),
                                 "declares " + shortestText(stated) + "; the " + (isMin ? "smallest" : "largest") +
                                     " stored value is " + shortestText(actual));
        }
    }
}

// Sparse values replace elements of a copy of the accessor (glTF 2.0, 3.6.2.3).
bool Reader::applySparse(size_t index, const Json& sparse, Accessor& a) {
    const std::string at = pointer("accessors", index) + "/sparse";
    uint64_t count = 0;
    if (!objectAt(sparse, at) || !getUint(sparse, "count", at, count, true)) return false;
    if (count == 0 || count > a.count) {
        fail(at + "/count",
             std::to_string(count) + " is not between 1 and the accessor's count " + std::to_string(a.count));
        return false;
    }
    const Json* indices = member(sparse, "indices");
    const Json* values = member(sparse, "values");
    if (!indices || !values || !indices->is_object() || !values->is_object()) {
        fail(at, "needs indices and values objects");
        return false;
    }
    int32_t iv = -1, vv = -1;
    uint64_t ioff = 0, voff = 0, icode = 0;
    if (!getIndex(*indices, "bufferView", at + "/indices", "bufferViews", iv, true) ||
        !getIndex(*values, "bufferView", at + "/values", "bufferViews", vv, true) ||
        !getUint(*indices, "componentType", at + "/indices", icode, true))
        return false;
    getUint(*indices, "byteOffset", at + "/indices", ioff, false);
    getUint(*values, "byteOffset", at + "/values", voff, false);
    ComponentType itype;
    if (!componentTypeOf(icode, itype) ||
        (itype != ComponentType::UInt8 && itype != ComponentType::UInt16 && itype != ComponentType::UInt32)) {
        fail(at + "/indices/componentType", std::to_string(icode) + " is not an unsigned byte, short or int");
        return false;
    }
    const BufferView* ib = bufferView(iv, at + "/indices/bufferView");
    const BufferView* vb = bufferView(vv, at + "/values/bufferView");
    if (!ib || !vb) return false;
    const uint64_t isize = componentSize(itype);
    if (ioff > ib->bytes.size || count > (ib->bytes.size - ioff) / isize) {
        fail(at + "/indices", std::to_string(count) + " indices of " + std::to_string(isize) +
                                  " bytes at offset " + std::to_string(ioff) + " exceed bufferView " +
                                  std::to_string(iv) + "'s " + std::to_string(ib->bytes.size) + " bytes");
        return false;
    }
    if (voff > vb->bytes.size || count > (vb->bytes.size - voff) / a.elementSize) {
        fail(at + "/values", std::to_string(count) + " values of " + std::to_string(a.elementSize) +
                                 " bytes at offset " + std::to_string(voff) + " exceed bufferView " +
                                 std::to_string(vv) + "'s " + std::to_string(vb->bytes.size) + " bytes");
        return false;
    }
    // The copy is tightly packed; a.bytes was checked to hold count elements at a.stride.
    std::vector<uint8_t> copy(size_t(a.count) * a.elementSize);
    for (uint32_t e = 0; e < a.count; ++e)
        std::memcpy(copy.data() + size_t(e) * a.elementSize, a.bytes.data + size_t(e) * a.stride,
                    a.elementSize);
    uint32_t previous = 0;
    for (uint64_t k = 0; k < count; ++k) {
        const uint32_t i = indexValue(itype, ib->bytes.data + ioff + k * isize);
        if (i >= a.count || (k > 0 && i <= previous)) {
            fail(at + "/indices", "index " + std::to_string(k) + " is " + std::to_string(i) +
                                      (i >= a.count ? ", past the accessor's count " + std::to_string(a.count)
                                                    : ", not above the one before"));
            return false;
        }
        previous = i;
        std::memcpy(copy.data() + size_t(i) * a.elementSize, vb->bytes.data + voff + k * a.elementSize,
                    a.elementSize);
    }
    a.bytes = makeOwnedBytes(std::move(copy));
    a.stride = a.elementSize;
    a.bufferView = -1;
    a.viewStride = 0;
    a.offsetInView = 0;
    return true;
}

// Every element's components as floats (normalized types mapped to [0,1] or [-1,1]); matrix
// columns' padding skipped.
bool Reader::readFloats(const Accessor& a, std::vector<float>& out) const {
    const size_t size = componentSize(a.type);
    const uint32_t rows = a.typeName == "MAT2"   ? 2
                          : a.typeName == "MAT3" ? 3
                          : a.typeName == "MAT4" ? 4
                                                 : a.components;
    const uint32_t columns = a.components / rows;
    const uint32_t columnBytes = columns > 1 ? uint32_t((rows * size + 3) / 4 * 4) : uint32_t(rows * size);
    out.resize(size_t(a.count) * a.components);
    for (uint32_t e = 0; e < a.count; ++e) {
        const uint8_t* p = a.bytes.data + size_t(e) * a.stride;
        for (uint32_t c = 0; c < columns; ++c)
            for (uint32_t r = 0; r < rows; ++r) {
                const uint8_t* q = p + c * columnBytes + r * size;
                out[size_t(e) * a.components + c * rows + r] =
                    a.normalized ? normalizedValue(a.type, q) : plainValue(a.type, q);
            }
    }
    return true;
}

uint32_t Reader::firstIndexPast(const Accessor& a, uint32_t limit, uint32_t& value) const {
    const uint32_t most =
        a.largestIndex >= 0 ? uint32_t(a.largestIndex) : largestIndex(a.type, a.bytes.data, a.count, a.stride, false);
    if (most < limit) return a.count;
    for (uint32_t e = 0; e < a.count; ++e)
        if ((value = indexValue(a.type, a.bytes.data + size_t(e) * a.stride)) >= limit) return e;
    return a.count;
}

bool Reader::readIndices(const Accessor& a, std::vector<uint32_t>& out) const {
    out.resize(a.count);
    for (uint32_t e = 0; e < a.count; ++e) out[e] = indexValue(a.type, a.bytes.data + size_t(e) * a.stride);
    return true;
}

}  // namespace esv::gltf
