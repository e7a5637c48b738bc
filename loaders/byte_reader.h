// A bounds-checked little-endian reader over an untrusted byte range.
//
// Every read checks what remains by subtraction (never by adding offsets that could overflow).
// Lengths and offsets are taken as 64-bit values, so a length read from a file is checked whole
// where size_t has 32 bits (armhf) instead of being cut to its low half first.
// A failed read sets the reader's failed flag, returns zero and leaves the position unchanged, so
// a caller may read a whole header and test ok() once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace esv {

// Bytes from a file as they can be printed in a message: printable ASCII as it is, every other
// byte as \xNN (names, chunk ids and magic numbers of untrusted files).
inline std::string printableBytes(const uint8_t* data, size_t size) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (size_t i = 0; i < size; ++i) {
        const uint8_t c = data[i];
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

// A number in hexadecimal as messages print offsets and flags: 0x1A4.
inline std::string hexNumber(uint64_t v) {
    static const char kHex[] = "0123456789ABCDEF";
    char buf[19];
    int n = 0;
    do {
        buf[18 - n++] = kHex[v & 15];
        v >>= 4;
    } while (v);
    return "0x" + std::string(buf + 19 - n, size_t(n));
}

class ByteReader {
public:
    ByteReader() = default;
    ByteReader(const uint8_t* data, size_t size, uint64_t base = 0)
        : m_data(data), m_size(size), m_base(base) {}

    // Absolute file offset of the current position (base + position), for error messages.
    uint64_t offset() const { return m_base + m_pos; }
    size_t position() const { return m_pos; }
    size_t remaining() const { return m_size - m_pos; }
    size_t size() const { return m_size; }
    bool ok() const { return !m_failed; }
    bool atEnd() const { return m_pos == m_size; }
    const uint8_t* current() const { return m_data + m_pos; }
    const uint8_t* data() const { return m_data; }

    bool canRead(uint64_t n) const { return !m_failed && n <= remaining(); }
    // True when `count` items of `itemSize` bytes fit in what remains (no overflow).
    bool canReadArray(uint64_t count, size_t itemSize) const {
        return !m_failed && itemSize != 0 && count <= remaining() / itemSize;
    }

    bool skip(uint64_t n) {
        if (!canRead(n)) return fail();
        m_pos += static_cast<size_t>(n);
        return true;
    }
    bool seek(uint64_t pos) {
        if (m_failed || pos > m_size) return fail();
        m_pos = static_cast<size_t>(pos);
        return true;
    }

    uint8_t u8() { return readLE<uint8_t>(); }
    uint16_t u16() { return readLE<uint16_t>(); }
    uint32_t u32() { return readLE<uint32_t>(); }
    uint64_t u64() { return readLE<uint64_t>(); }
    int8_t i8() { return static_cast<int8_t>(u8()); }
    int16_t i16() { return static_cast<int16_t>(u16()); }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    float f32() {
        uint32_t bits = u32();
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    double f64() {
        uint64_t bits = u64();
        double d;
        std::memcpy(&d, &bits, 8);
        return d;
    }
    uint16_t u16be() { return readBE<uint16_t>(); }
    uint32_t u32be() { return readBE<uint32_t>(); }

    // Copies n bytes out; false (and failed) when fewer remain.
    bool bytes(void* out, uint64_t n) {
        if (!canRead(n)) return fail();
        std::memcpy(out, m_data + m_pos, static_cast<size_t>(n));
        m_pos += static_cast<size_t>(n);
        return true;
    }
    // A sub-reader over the next n bytes (positions continue the absolute offsets); advances past them.
    ByteReader sub(uint64_t n) {
        if (!canRead(n)) {
            fail();
            return ByteReader(m_data + m_pos, 0, offset());
        }
        ByteReader r(m_data + m_pos, static_cast<size_t>(n), offset());
        m_pos += static_cast<size_t>(n);
        return r;
    }
    // Reads n bytes as a string, stopping at the first NUL.
    std::string string(uint64_t n) {
        if (!canRead(n)) {
            fail();
            return {};
        }
        const char* p = reinterpret_cast<const char*>(m_data + m_pos);
        m_pos += static_cast<size_t>(n);
        return std::string(p, strnlen(p, static_cast<size_t>(n)));
    }

    bool fail() {
        m_failed = true;
        return false;
    }

private:
    template <typename T>
    T readLE() {
        if (!canRead(sizeof(T))) {
            fail();
            return 0;
        }
        T v = 0;
        for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(m_data[m_pos + i]) << (8 * i));
        m_pos += sizeof(T);
        return v;
    }
    template <typename T>
    T readBE() {
        if (!canRead(sizeof(T))) {
            fail();
            return 0;
        }
        T v = 0;
        for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8) | m_data[m_pos + i]);
        m_pos += sizeof(T);
        return v;
    }

    const uint8_t* m_data = nullptr;
    size_t m_size = 0;
    size_t m_pos = 0;
    uint64_t m_base = 0;
    bool m_failed = false;
};

}  // namespace esv
