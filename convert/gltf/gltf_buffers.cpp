// Buffer, buffer views and accessors of the glTF writer (gltf_writer_internal.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "convert/gltf/gltf_writer_internal.h"

namespace esv::gltf {
namespace {

const char* accessorType(int components) {
    switch (components) {
        case 1:
            return "SCALAR";
        case 2:
            return "VEC2";
        case 3:
            return "VEC3";
        case 4:
            return "VEC4";
        default:
            return "MAT4";
    }
}

}  // namespace

int Writer::addView(const uint8_t* data, size_t size, int target, size_t stride) {
    m_bin.resize(align4(m_bin.size()), 0);
    Json view = {{"buffer", 0}, {"byteOffset", m_bin.size()}, {"byteLength", size}};
    if (stride) view["byteStride"] = stride;
    if (target) view["target"] = target;
    m_bin.insert(m_bin.end(), data, data + size);
    m_views.push_back(view);
    return int(m_views.size() - 1);
}

// Encodes `values` (components per element) and adds an accessor for them. Vertex attributes
// (target kArrayBuffer) get elements aligned to 4 bytes (specification 3.6.2.4).
int Writer::addAccessor(const std::vector<float>& values, int components, Encoding encoding, bool minMax,
                        int target) {
    const size_t comps = components == 16 ? 16 : size_t(components);
    const size_t count = values.size() / comps;
    const size_t size = kEncSize[size_t(encoding.enc)];
    const size_t element = comps * size;
    const size_t stride = target == kArrayBuffer ? align4(element) : element;
    std::vector<uint8_t> data(count * stride, 0);
    std::vector<double> lo(comps, 1e300), hi(comps, -1e300);
    for (size_t e = 0; e < count; ++e)
        for (size_t c = 0; c < comps; ++c) {
            const float f = finiteOr(values[e * comps + c], 0.0f);
            uint8_t* p = &data[e * stride + c * size];
            double stored = 0.0;
            auto quant = [&](float scale, float low, float high) {
                const float x = encoding.normalized ? std::clamp(f, low / scale, high / scale) * scale
                                                    : std::clamp(f, low, high);
                return std::round(x);
            };
            switch (encoding.enc) {
                case Enc::Float: {
                    std::memcpy(p, &f, 4);
                    stored = f;
                    break;
                }
                case Enc::Int8: {
                    const auto v = static_cast<int8_t>(quant(127.0f, -127.0f, 127.0f));
                    std::memcpy(p, &v, 1);
                    stored = v;
                    break;
                }
                case Enc::UInt8: {
                    const auto v = static_cast<uint8_t>(quant(255.0f, 0.0f, 255.0f));
                    *p = v;
                    stored = v;
                    break;
                }
                case Enc::Int16: {
                    const auto v = static_cast<int16_t>(quant(32767.0f, -32767.0f, 32767.0f));
                    std::memcpy(p, &v, 2);
                    stored = v;
                    break;
                }
                default: {
                    const auto v = static_cast<uint16_t>(quant(65535.0f, 0.0f, 65535.0f));
                    std::memcpy(p, &v, 2);
                    stored = v;
                    break;
                }
            }
            lo[c] = std::min(lo[c], stored);
            hi[c] = std::max(hi[c], stored);
        }
    const int view = addView(data.data(), data.size(), target, stride != element ? stride : 0);
    Json accessor = {{"bufferView", view},
                     {"componentType", kEncGl[size_t(encoding.enc)]},
                     {"count", count},
                     {"type", accessorType(components)}};
    if (encoding.normalized) accessor["normalized"] = true;
    if (minMax && count > 0) {
        accessor["min"] = lo;
        accessor["max"] = hi;
    }
    m_accessors.push_back(accessor);
    return int(m_accessors.size() - 1);
}

int Writer::addIndices(const std::vector<uint32_t>& indices, uint32_t vertexCount) {
    std::vector<uint8_t> data;
    int type = kUInt;
    // 65535 is the primitive restart value of 16-bit indices, which glTF forbids.
    if (vertexCount <= 65535) {
        type = kUShort;
        data.resize(indices.size() * 2);
        for (size_t i = 0; i < indices.size(); ++i) {
            const auto v = static_cast<uint16_t>(indices[i]);
            std::memcpy(&data[i * 2], &v, 2);
        }
    } else {
        data.resize(indices.size() * 4);
        std::memcpy(data.data(), indices.data(), data.size());
    }
    const int view = addView(data.data(), data.size(), kElementArrayBuffer, 0);
    m_accessors.push_back(
        {{"bufferView", view}, {"componentType", type}, {"count", indices.size()}, {"type", "SCALAR"}});
    return int(m_accessors.size() - 1);
}

int Writer::addJoints(const std::vector<uint16_t>& joints, uint32_t jointCount) {
    std::vector<uint8_t> data;
    int type = kUByte;
    if (jointCount <= 256) {
        data.assign(joints.begin(), joints.end());
    } else {
        type = kUShort;
        data.resize(joints.size() * 2);
        std::memcpy(data.data(), joints.data(), data.size());
    }
    const int view = addView(data.data(), data.size(), kArrayBuffer, 0);
    m_accessors.push_back(
        {{"bufferView", view}, {"componentType", type}, {"count", joints.size() / 4}, {"type", "VEC4"}});
    return int(m_accessors.size() - 1);
}

}  // namespace esv::gltf
