// Small glTF documents built in code for the reader's tests: a binary buffer assembled from typed
// values, put into a .gltf as a data URI or into a .glb's BIN chunk.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "loaders/load.h"

namespace esv::test {

inline std::string base64(const std::vector<uint8_t>& bytes) {
    static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const uint32_t n = uint32_t(bytes[i]) << 16 |
                           (i + 1 < bytes.size() ? uint32_t(bytes[i + 1]) << 8 : 0) |
                           (i + 2 < bytes.size() ? bytes[i + 2] : 0);
        out += kChars[(n >> 18) & 63];
        out += kChars[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? kChars[(n >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? kChars[n & 63] : '=';
    }
    return out;
}

// Bytes of a buffer, appended value by value (little-endian, as glTF stores them).
struct Bin {
    std::vector<uint8_t> bytes;
    template <typename T>
    Bin& put(std::initializer_list<T> values) {
        for (T v : values)
            for (size_t i = 0; i < sizeof(T); ++i) {
                uint8_t byte = 0;
                std::memcpy(&byte, reinterpret_cast<const uint8_t*>(&v) + i, 1);
                bytes.push_back(byte);
            }
        return *this;
    }
    std::string dataUri() const { return "data:application/octet-stream;base64," + base64(bytes); }
};

// `json` with "@BUFFER@" replaced by a buffer object holding `bin` as a data URI.
inline std::string withBuffer(std::string json, const Bin& bin) {
    const std::string buffer =
        "{\"byteLength\":" + std::to_string(bin.bytes.size()) + ",\"uri\":\"" + bin.dataUri() + "\"}";
    const size_t at = json.find("@BUFFER@");
    if (at != std::string::npos) json.replace(at, 8, buffer);
    return json;
}

// A .glb of `json` and `bin` (chunks padded to 4 bytes: the JSON with spaces, the BIN with zeros).
inline std::vector<uint8_t> glb(std::string json, std::vector<uint8_t> bin) {
    while (json.size() % 4) json += ' ';
    while (bin.size() % 4) bin.push_back(0);
    const uint32_t total = uint32_t(12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size()));
    std::vector<uint8_t> out;
    out.reserve(total);
    auto u32 = [&](uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
    };
    for (char c : std::string("glTF")) out.push_back(uint8_t(c));
    u32(2);
    u32(total);
    u32(uint32_t(json.size()));
    u32(0x4E4F534A);
    for (char c : json) out.push_back(uint8_t(c));
    if (!bin.empty()) {
        u32(uint32_t(bin.size()));
        u32(0x004E4942);
        for (uint8_t c : bin) out.push_back(c);
    }
    return out;
}

inline LoadResult loadBytes(const std::vector<uint8_t>& bytes, const std::string& name, bool check = true) {
    LoadOptions options;
    options.collectAll = check;
    return loadSceneMemory(std::make_shared<const std::vector<uint8_t>>(bytes), name, options);
}

inline LoadResult loadText(const std::string& json, bool check = true) {
    return loadBytes(std::vector<uint8_t>(json.begin(), json.end()), "fixture.gltf", check);
}

// Every problem's formatted line, joined by newlines (what `esview check` prints).
inline std::string problemText(const LoadResult& r) {
    std::string out;
    for (const Problem& p : r.problems) out += (out.empty() ? "" : "\n") + p.format();
    return out;
}

}  // namespace esv::test
