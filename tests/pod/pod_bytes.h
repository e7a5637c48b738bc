// Builds POD byte fixtures for tests: tags, leaves and containers written one call at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "loaders/pod/pod_format.h"

namespace esv::test {

class PodBytes {
public:
    PodBytes& tag(uint32_t id, uint32_t length) {
        put32(id);
        put32(length);
        return *this;
    }
    PodBytes& open(uint32_t id) { return tag(id, 0); }
    PodBytes& close(uint32_t id) { return tag(id | pod::kEndTagBit, 0); }
    PodBytes& leaf(uint32_t id, const void* data, size_t size) {
        tag(id, static_cast<uint32_t>(size));
        raw(data, size);
        return close(id);
    }
    PodBytes& u32(uint32_t id, uint32_t v) {
        uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
        return leaf(id, b, 4);
    }
    PodBytes& i32(uint32_t id, int32_t v) { return u32(id, static_cast<uint32_t>(v)); }
    PodBytes& u32s(uint32_t id, std::initializer_list<uint32_t> values) { return u32s(id, std::vector<uint32_t>(values)); }
    PodBytes& u32s(uint32_t id, const std::vector<uint32_t>& values) {
        std::vector<uint8_t> b;
        for (uint32_t v : values) append32(b, v);
        return leaf(id, b.data(), b.size());
    }
    PodBytes& f32s(uint32_t id, std::initializer_list<float> values) { return f32s(id, std::vector<float>(values)); }
    PodBytes& f32s(uint32_t id, const std::vector<float>& values) {
        std::vector<uint8_t> b;
        for (float f : values) {
            uint32_t v;
            std::memcpy(&v, &f, 4);
            append32(b, v);
        }
        return leaf(id, b.data(), b.size());
    }
    // 16.16 fixed-point values.
    PodBytes& fixed(uint32_t id, std::initializer_list<float> values) {
        std::vector<uint8_t> b;
        for (float f : values) append32(b, static_cast<uint32_t>(static_cast<int32_t>(f * 65536.0f)));
        return leaf(id, b.data(), b.size());
    }
    PodBytes& str(uint32_t id, const std::string& s) { return leaf(id, s.c_str(), s.size() + 1); }
    PodBytes& u16s(uint32_t id, std::initializer_list<uint16_t> values) {
        std::vector<uint8_t> b;
        for (uint16_t v : values) {
            b.push_back(uint8_t(v));
            b.push_back(uint8_t(v >> 8));
        }
        return leaf(id, b.data(), b.size());
    }
    PodBytes& raw(const void* data, size_t size) {
        const uint8_t* p = static_cast<const uint8_t*>(data);
        m_bytes.insert(m_bytes.end(), p, p + size);
        return *this;
    }
    PodBytes& version() { return str(pod::Version, pod::kVersionString); }
    // A POD Data Block list (9000-9003) as container `id` with `data` as its 9003 payload.
    PodBytes& dataList(uint32_t id, uint32_t type, uint32_t n, uint32_t stride, const std::vector<uint8_t>& data) {
        open(id);
        u32(pod::DataBlockType, type).u32(pod::DataBlockComponents, n).u32(pod::DataBlockStride, stride);
        if (!data.empty() || n > 0) leaf(pod::DataBlockData, data.data(), data.size());
        return close(id);
    }
    // The scene's Num* blocks.
    PodBytes& counts(uint32_t cameras, uint32_t lights, uint32_t meshes, uint32_t nodes, uint32_t meshNodes,
                     uint32_t textures, uint32_t materials, uint32_t frames) {
        u32(pod::NumCameras, cameras).u32(pod::NumLights, lights).u32(pod::NumMeshes, meshes).u32(pod::NumNodes, nodes);
        u32(pod::NumMeshNodes, meshNodes).u32(pod::NumTextures, textures).u32(pod::NumMaterials, materials);
        return u32(pod::NumFrames, frames);
    }

    size_t size() const { return m_bytes.size(); }
    std::vector<uint8_t>& bytes() { return m_bytes; }
    std::shared_ptr<const std::vector<uint8_t>> shared() const { return std::make_shared<const std::vector<uint8_t>>(m_bytes); }

    static std::vector<uint8_t> floats(std::initializer_list<float> values) {
        std::vector<uint8_t> b;
        for (float f : values) {
            uint32_t v;
            std::memcpy(&v, &f, 4);
            append32(b, v);
        }
        return b;
    }
    static std::vector<uint8_t> shorts(std::initializer_list<uint16_t> values) {
        std::vector<uint8_t> b;
        for (uint16_t v : values) {
            b.push_back(uint8_t(v));
            b.push_back(uint8_t(v >> 8));
        }
        return b;
    }
    static std::vector<uint8_t> words(std::initializer_list<uint32_t> values) {
        std::vector<uint8_t> b;
        for (uint32_t v : values) append32(b, v);
        return b;
    }
    static void append32(std::vector<uint8_t>& b, uint32_t v) {
        for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
    }

private:
    void put32(uint32_t v) { append32(m_bytes, v); }
    std::vector<uint8_t> m_bytes;
};

}  // namespace esv::test
