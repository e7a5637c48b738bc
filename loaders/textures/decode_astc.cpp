// ASTC LDR software decoder for 2D blocks, following the Khronos Data Format Specification's ASTC
// chapter (section names below are the chapter's). Each 128-bit block decodes independently:
// block mode, partitions, colour endpoint modes, integer sequence encoded endpoint and weight
// values, unquantization, weight infill, and the 16-bit endpoint interpolation. Anything the LDR
// profile does not define (HDR endpoint modes, HDR void extents, reserved or illegal encodings)
// decodes to the error colour, opaque magenta.
//
// Output is 8 bits per channel. In sRGB mode that is the top 8 bits of the UNORM16 interpolation
// result, which the chapter passes to the sRGB conversion. In linear mode the chapter returns the
// UNORM16 result C as FP16 (C / 65536 rounded toward zero to 11 significant bits, 65535 as 1.0);
// that value is rounded to the nearest 8-bit step, as a UNORM8 render target would store it and as
// astcenc writes it when it decompresses to an 8-bit image.
#include "loaders/textures/decode.h"

#include <algorithm>
#include <cstring>

namespace esv {

namespace {

constexpr uint8_t kErrorColour[4] = {255, 0, 255, 255};

// The 128 bits of a block, bit 0 being the least significant bit of the first byte.
struct Bits128 {
    uint64_t lo = 0, hi = 0;

    // Bits [start, start + count) for count <= 32; bits at 128 and above read as zero.
    uint32_t get(uint32_t start, uint32_t count) const {
        if (count == 0 || start >= 128) return 0;
        uint64_t v;
        if (start >= 64)
            v = hi >> (start - 64);
        else if (start == 0)
            v = lo;
        else
            v = (lo >> start) | (hi << (64 - start));
        return uint32_t(v & ((uint64_t(1) << count) - 1));
    }

    // Bits [start, start + count) moved down to bit 0, everything above them zero: an integer
    // sequence reads its missing trailing bits as zero ("Integer Sequence Encoding").
    Bits128 slice(uint32_t start, uint32_t count) const {
        Bits128 r;
        if (start >= 128) return r;
        if (start == 0) {
            r = *this;
        } else if (start < 64) {
            r.lo = (lo >> start) | (hi << (64 - start));
            r.hi = hi >> start;
        } else {
            r.lo = hi >> (start - 64);
        }
        if (count < 64) {
            r.lo &= (uint64_t(1) << count) - 1;
            r.hi = 0;
        } else if (count < 128) {
            r.hi &= (uint64_t(1) << (count - 64)) - 1;
        }
        return r;
    }
};

uint64_t reverse64(uint64_t v) {
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    v = ((v >> 8) & 0x00FF00FF00FF00FFull) | ((v & 0x00FF00FF00FF00FFull) << 8);
    v = ((v >> 16) & 0x0000FFFF0000FFFFull) | ((v & 0x0000FFFF0000FFFFull) << 16);
    return (v >> 32) | (v << 32);
}

// The integer sequence ranges, in increasing number of levels: n bits plus an optional trit or quint.
struct IseRange {
    uint8_t bits, trits, quints;
    uint16_t levels;
};
constexpr int kRangeCount = 21;
constexpr IseRange kRanges[kRangeCount] = {
    {1, 0, 0, 2},   {0, 1, 0, 3},   {2, 0, 0, 4},   {0, 0, 1, 5},  {1, 1, 0, 6},  {3, 0, 0, 8},
    {1, 0, 1, 10},  {2, 1, 0, 12},  {4, 0, 0, 16},  {2, 0, 1, 20}, {3, 1, 0, 24}, {5, 0, 0, 32},
    {3, 0, 1, 40},  {4, 1, 0, 48},  {6, 0, 0, 64},  {4, 0, 1, 80}, {5, 1, 0, 96}, {7, 0, 0, 128},
    {5, 0, 1, 160}, {6, 1, 0, 192}, {8, 0, 0, 256},
};
// The smallest range colour endpoints may use (0..5); fewer bits than that is an illegal block.
constexpr int kMinColourRange = 4;
// Weight ranges are the first 12 entries: index (R - 2) + 6 * H of the block mode.
constexpr int kWeightRangeCount = 12;

uint32_t iseBitCount(uint32_t count, const IseRange& range) {
    return count * range.bits + (range.trits ? (8 * count + 4) / 5 : 0) +
           (range.quints ? (7 * count + 2) / 3 : 0);
}

inline uint32_t bit(uint32_t v, uint32_t i) {
    return (v >> i) & 1;
}

// Five trits from the 8 bits T, per the chapter's bit manipulation.
void unpackTrits(uint32_t T, uint32_t t[5]) {
    uint32_t C;
    if (((T >> 2) & 7) == 7) {
        C = ((T >> 5) & 7) << 2 | (T & 3);
        t[4] = t[3] = 2;
    } else {
        C = T & 31;
        if (((T >> 5) & 3) == 3) {
            t[4] = 2;
            t[3] = bit(T, 7);
        } else {
            t[4] = bit(T, 7);
            t[3] = (T >> 5) & 3;
        }
    }
    if ((C & 3) == 3) {
        t[2] = 2;
        t[1] = bit(C, 4);
        t[0] = bit(C, 3) << 1 | (bit(C, 2) & ~bit(C, 3) & 1);
    } else if (((C >> 2) & 3) == 3) {
        t[2] = 2;
        t[1] = 2;
        t[0] = C & 3;
    } else {
        t[2] = bit(C, 4);
        t[1] = (C >> 2) & 3;
        t[0] = bit(C, 1) << 1 | (bit(C, 0) & ~bit(C, 1) & 1);
    }
}

// Three quints from the 7 bits Q.
void unpackQuints(uint32_t Q, uint32_t q[3]) {
    if (((Q >> 1) & 3) == 3 && ((Q >> 5) & 3) == 0) {
        const uint32_t q0bit = bit(Q, 0);
        q[2] = q0bit << 2 | (bit(Q, 4) & ~q0bit & 1) << 1 | (bit(Q, 3) & ~q0bit & 1);
        q[1] = q[0] = 4;
        return;
    }
    uint32_t C;
    if (((Q >> 1) & 3) == 3) {
        q[2] = 4;
        C = ((Q >> 3) & 3) << 3 | (~(Q >> 5) & 3) << 1 | bit(Q, 0);
    } else {
        q[2] = (Q >> 5) & 3;
        C = Q & 31;
    }
    if ((C & 7) == 5) {
        q[1] = 4;
        q[0] = (C >> 3) & 3;
    } else {
        q[1] = (C >> 3) & 3;
        q[0] = C & 7;
    }
}

// Decodes `count` values of `range` from `seq` (already sliced to its own length, starting at bit 0).
void decodeIse(const Bits128& seq, uint32_t count, const IseRange& range, uint8_t* out) {
    const uint32_t n = range.bits;
    uint32_t pos = 0;
    auto take = [&](uint32_t bits) {
        const uint32_t v = seq.get(pos, bits);
        pos += bits;
        return v;
    };
    if (range.trits) {
        for (uint32_t i = 0; i < count; i += 5) {
            uint32_t m[5], T = 0, t[5];
            m[0] = take(n);
            T |= take(2);
            m[1] = take(n);
            T |= take(2) << 2;
            m[2] = take(n);
            T |= take(1) << 4;
            m[3] = take(n);
            T |= take(2) << 5;
            m[4] = take(n);
            T |= take(1) << 7;
            unpackTrits(T, t);
            for (uint32_t j = 0; j < 5 && i + j < count; ++j) out[i + j] = uint8_t(t[j] << n | m[j]);
        }
    } else if (range.quints) {
        for (uint32_t i = 0; i < count; i += 3) {
            uint32_t m[3], Q = 0, q[3];
            m[0] = take(n);
            Q |= take(3);
            m[1] = take(n);
            Q |= take(2) << 3;
            m[2] = take(n);
            Q |= take(2) << 5;
            unpackQuints(Q, q);
            for (uint32_t j = 0; j < 3 && i + j < count; ++j) out[i + j] = uint8_t(q[j] << n | m[j]);
        }
    } else {
        for (uint32_t i = 0; i < count; ++i) out[i] = uint8_t(take(n));
    }
}

// B of the unquantization procedures, written as in the chapter's tables: most significant bit
// first, each letter a bit of the value's low part ('a' = bit 0), '0' a zero bit.
uint32_t patternBits(const char* pattern, uint32_t m) {
    uint32_t v = 0;
    for (const char* p = pattern; *p; ++p) v = v << 1 | (*p == '0' ? 0 : bit(m, uint32_t(*p - 'a')));
    return v;
}

// Bit replication of an n-bit value to `bits` bits.
uint32_t replicate(uint32_t v, uint32_t n, uint32_t bits) {
    uint32_t out = 0;
    int shift = int(bits);
    while (shift > 0) {
        shift -= int(n);
        out |= shift >= 0 ? v << shift : v >> -shift;
    }
    return out & ((1u << bits) - 1);
}

struct UnquantTables {
    uint8_t colour[kRangeCount][256] = {};       // "Endpoint Unquantization": to 0..255
    uint8_t weight[kWeightRangeCount][32] = {};  // "Weight Unquantization": to 0..64
};

struct UnquantParams {
    const char* pattern;
    uint32_t c;
};

UnquantTables buildUnquantTables() {
    UnquantTables t;
    for (int r = 0; r < kRangeCount; ++r) {
        const IseRange& range = kRanges[r];
        for (uint32_t v = 0; v < range.levels; ++v) {
            if (!range.trits && !range.quints) {
                t.colour[r][v] = uint8_t(replicate(v, range.bits, 8));
                continue;
            }
            const uint32_t n = range.bits, d = v >> n, m = v & ((1u << n) - 1);
            UnquantParams p{"000000000", 0};
            if (range.trits) {
                static const UnquantParams kTrit[7] = {
                    {"", 0},           {"000000000", 204}, {"b000b0bb0", 93}, {"cb000cbcb", 44},
                    {"dcb000dcb", 22}, {"edcb000ed", 11},  {"fedcb000f", 5}};
                p = kTrit[n];
            } else {
                static const UnquantParams kQuint[6] = {{"", 0},           {"000000000", 113},
                                                        {"b0000bb00", 54}, {"cb0000cbc", 26},
                                                        {"dcb0000dc", 13}, {"edcb0000e", 6}};
                p = kQuint[n];
            }
            const uint32_t A = (m & 1) ? 0x1FF : 0;
            uint32_t T = d * p.c + patternBits(p.pattern, m);
            T ^= A;
            t.colour[r][v] = uint8_t((A & 0x80) | (T >> 2));
        }
    }
    for (int r = 0; r < kWeightRangeCount; ++r) {
        const IseRange& range = kRanges[r];
        for (uint32_t v = 0; v < range.levels; ++v) {
            const uint32_t n = range.bits, d = v >> n, m = v & ((1u << n) - 1);
            uint32_t T;
            if (!range.trits && !range.quints) {
                T = replicate(v, n, 6);
            } else if (n == 0) {
                static const uint8_t kTrit0[3] = {0, 32, 63}, kQuint0[5] = {0, 16, 32, 47, 63};
                T = range.trits ? kTrit0[v] : kQuint0[v];
            } else {
                UnquantParams p;
                if (range.trits) {
                    static const UnquantParams kTrit[4] = {
                        {"", 0}, {"0000000", 50}, {"b000b0b", 23}, {"cb000cb", 11}};
                    p = kTrit[n];
                } else {
                    static const UnquantParams kQuint[3] = {{"", 0}, {"0000000", 28}, {"b0000b0", 13}};
                    p = kQuint[n];
                }
                const uint32_t A = (m & 1) ? 0x7F : 0;
                T = d * p.c + patternBits(p.pattern, m);
                T ^= A;
                T = (A & 0x20) | (T >> 2);
            }
            t.weight[r][v] = uint8_t(T > 32 ? T + 1 : T);
        }
    }
    return t;
}

const UnquantTables& unquantTables() {
    static const UnquantTables tables = buildUnquantTables();
    return tables;
}

struct BlockMode {
    uint32_t gridW = 0, gridH = 0;
    bool dualPlane = false;
    int weightRange = 0;
};

// "Block Mode", 2D layout. Returns false for reserved modes (void extent is handled before).
bool decodeBlockMode(uint32_t mode, BlockMode& bm) {
    const uint32_t a = (mode >> 5) & 3;
    uint32_t r, h = (mode >> 9) & 1, d = (mode >> 10) & 1;
    if (mode & 3) {
        r = bit(mode, 4) | (mode & 3) << 1;
        const uint32_t b = (mode >> 7) & 3;
        switch ((mode >> 2) & 3) {
            case 0:
                bm.gridW = b + 4, bm.gridH = a + 2;
                break;
            case 1:
                bm.gridW = b + 8, bm.gridH = a + 2;
                break;
            case 2:
                bm.gridW = a + 2, bm.gridH = b + 8;
                break;
            default:
                if (bit(mode, 8))
                    bm.gridW = (b & 1) + 2, bm.gridH = a + 2;
                else
                    bm.gridW = a + 2, bm.gridH = (b & 1) + 6;
                break;
        }
    } else {
        r = bit(mode, 4) | ((mode >> 2) & 3) << 1;
        if (r < 2) return false;  // bits [3:0] all zero
        switch ((mode >> 7) & 3) {
            case 0:
                bm.gridW = 12, bm.gridH = a + 2;
                break;
            case 1:
                bm.gridW = a + 2, bm.gridH = 12;
                break;
            case 2:
                bm.gridW = a + 6, bm.gridH = ((mode >> 9) & 3) + 6;
                h = d = 0;  // bits 9 and 10 are B here
                break;
            default:
                if (a == 0)
                    bm.gridW = 6, bm.gridH = 10;
                else if (a == 1)
                    bm.gridW = 10, bm.gridH = 6;
                else
                    return false;
                break;
        }
    }
    if (r < 2) return false;
    bm.dualPlane = d != 0;
    bm.weightRange = int(r - 2 + 6 * h);
    return true;
}

// "bit_transfer_signed": moves the top bit of a into b; a becomes a signed 6-bit offset.
inline void bitTransferSigned(int& a, int& b) {
    b >>= 1;
    b |= a & 0x80;
    a >>= 1;
    a &= 0x3F;
    if (a & 0x20) a -= 0x40;
}

inline void setColour(int* e, int r, int g, int b, int a) {
    e[0] = r, e[1] = g, e[2] = b, e[3] = a;
}

inline void blueContract(int* e, int r, int g, int b, int a) {
    setColour(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

inline void clampUnorm8(int* e) {
    for (int i = 0; i < 4; ++i) e[i] = std::clamp(e[i], 0, 255);
}

// "LDR Endpoint Decoding". Returns false for the HDR modes (2, 3, 7, 11, 14, 15).
bool decodeEndpoints(uint32_t cem, const uint8_t* values, int* e0, int* e1) {
    int v[8];
    for (uint32_t i = 0; i < 2 * ((cem >> 2) + 1); ++i) v[i] = values[i];
    switch (cem) {
        case 0:
            setColour(e0, v[0], v[0], v[0], 255);
            setColour(e1, v[1], v[1], v[1], 255);
            return true;
        case 1: {
            const int l0 = (v[0] >> 2) | (v[1] & 0xC0);
            const int l1 = std::min(l0 + (v[1] & 0x3F), 255);
            setColour(e0, l0, l0, l0, 255);
            setColour(e1, l1, l1, l1, 255);
            return true;
        }
        case 4:
            setColour(e0, v[0], v[0], v[0], v[2]);
            setColour(e1, v[1], v[1], v[1], v[3]);
            return true;
        case 5:
            bitTransferSigned(v[1], v[0]);
            bitTransferSigned(v[3], v[2]);
            setColour(e0, v[0], v[0], v[0], v[2]);
            setColour(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
            clampUnorm8(e0);
            clampUnorm8(e1);
            return true;
        case 6:
            setColour(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 255);
            setColour(e1, v[0], v[1], v[2], 255);
            return true;
        case 8:
        case 12: {
            const bool alpha = cem == 12;
            const int a0 = alpha ? v[6] : 255, a1 = alpha ? v[7] : 255;
            if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
                setColour(e0, v[0], v[2], v[4], a0);
                setColour(e1, v[1], v[3], v[5], a1);
            } else {
                blueContract(e0, v[1], v[3], v[5], a1);
                blueContract(e1, v[0], v[2], v[4], a0);
            }
            return true;
        }
        case 9:
        case 13: {
            const bool alpha = cem == 13;
            bitTransferSigned(v[1], v[0]);
            bitTransferSigned(v[3], v[2]);
            bitTransferSigned(v[5], v[4]);
            if (alpha) bitTransferSigned(v[7], v[6]);
            const int a0 = alpha ? v[6] : 255, a1 = alpha ? v[6] + v[7] : 255;
            if (v[1] + v[3] + v[5] >= 0) {
                setColour(e0, v[0], v[2], v[4], a0);
                setColour(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
            } else {
                blueContract(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
                blueContract(e1, v[0], v[2], v[4], a0);
            }
            clampUnorm8(e0);
            clampUnorm8(e1);
            return true;
        }
        case 10:
            setColour(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]);
            setColour(e1, v[0], v[1], v[2], v[5]);
            return true;
        default:
            return false;
    }
}

uint32_t hash52(uint32_t p) {
    p ^= p >> 15;
    p -= p << 17;
    p += p << 7;
    p += p << 4;
    p ^= p >> 5;
    p += p << 16;
    p ^= p >> 7;
    p ^= p >> 3;
    p ^= p << 6;
    p ^= p >> 17;
    return p;
}

// "Partition Pattern Generation" for one block: the seed-derived multipliers are computed once,
// then select() gives the partition of texel (x, y) (z = 0 in 2D).
struct PartitionSelector {
    uint32_t count = 1;
    bool smallBlock = false;
    uint32_t rnum = 0;
    uint32_t mul[8] = {};  // seed1..seed8 after squaring and shifting

    PartitionSelector(uint32_t seed, uint32_t partitionCount, bool small)
        : count(partitionCount), smallBlock(small) {
        seed += (partitionCount - 1) * 1024;
        rnum = hash52(seed);
        uint32_t s[8];
        for (int i = 0; i < 8; ++i) s[i] = (rnum >> (4 * i)) & 0xF;
        for (uint32_t& v : s) v *= v;
        uint32_t sh1, sh2;
        if (seed & 1) {
            sh1 = (seed & 2) ? 4 : 5;
            sh2 = partitionCount == 3 ? 6 : 5;
        } else {
            sh1 = partitionCount == 3 ? 6 : 5;
            sh2 = (seed & 2) ? 4 : 5;
        }
        // seed9..seed12 only multiply z, which is 0 in 2D.
        for (int i = 0; i < 8; ++i) mul[i] = s[i] >> ((i & 1) ? sh2 : sh1);
    }

    uint32_t select(uint32_t x, uint32_t y) const {
        if (smallBlock) x <<= 1, y <<= 1;
        const uint32_t a = (mul[0] * x + mul[1] * y + (rnum >> 14)) & 0x3F;
        const uint32_t b = (mul[2] * x + mul[3] * y + (rnum >> 10)) & 0x3F;
        uint32_t c = (mul[4] * x + mul[5] * y + (rnum >> 6)) & 0x3F;
        uint32_t d = (mul[6] * x + mul[7] * y + (rnum >> 2)) & 0x3F;
        if (count < 4) d = 0;
        if (count < 3) c = 0;
        if (a >= b && a >= c && a >= d) return 0;
        if (b >= c && b >= d) return 1;
        if (c >= d) return 2;
        return 3;
    }
};

void fillBlock(uint8_t* out, uint32_t texels, const uint8_t* colour) {
    for (uint32_t i = 0; i < texels; ++i) std::memcpy(out + i * 4, colour, 4);
}

// UNORM16 interpolation result to the 8-bit output (see the file comment). Linear: the chapter's
// FP16 value (C / 65536 keeping 11 significant bits, rounding toward zero; 65535 is exactly 1.0),
// then rounded to the nearest of 255 steps as a UNORM8 target stores it.
inline uint8_t toUnorm8(uint32_t c, bool srgb) {
    if (srgb) return uint8_t(c >> 8);
    if (c >= 65535) return 255;
    uint32_t dropped = 0;
    while ((c >> dropped) >= 2048) ++dropped;
    const uint32_t fp16 = (c >> dropped) << dropped;
    return uint8_t((fp16 * 255 + 32768) >> 16);
}

// "Void-Extent Blocks", 2D. The extent coordinates only need checking for legality.
void decodeVoidExtent(const Bits128& bits, uint32_t texels, bool srgb, uint8_t* out) {
    // Bit 9 set means FP16 (HDR) colour, an error in the LDR profile; bits 10 and 11 are reserved 1s.
    if (bit(bits.get(0, 12), 9) || bits.get(10, 2) != 3) return fillBlock(out, texels, kErrorColour);
    const uint32_t minS = bits.get(12, 13), maxS = bits.get(25, 13);
    const uint32_t minT = bits.get(38, 13), maxT = bits.get(51, 13);
    const bool allOnes = minS == 0x1FFF && maxS == 0x1FFF && minT == 0x1FFF && maxT == 0x1FFF;
    if (!allOnes && (minS >= maxS || minT >= maxT)) return fillBlock(out, texels, kErrorColour);
    uint8_t colour[4];
    for (uint32_t i = 0; i < 4; ++i) colour[i] = toUnorm8(bits.get(64 + 16 * i, 16), srgb);
    fillBlock(out, texels, colour);
}

// Decodes one block of bw x bh texels into `out` (bw * bh * 4 bytes, row-major).
void decodeBlock(const uint8_t* src, uint32_t bw, uint32_t bh, bool srgb, uint8_t* out) {
    const uint32_t texels = bw * bh;
    Bits128 bits;
    for (int i = 0; i < 8; ++i) {
        bits.lo |= uint64_t(src[i]) << (8 * i);
        bits.hi |= uint64_t(src[8 + i]) << (8 * i);
    }
    const uint32_t mode = bits.get(0, 11);
    if ((mode & 0x1FF) == 0x1FC) return decodeVoidExtent(bits, texels, srgb, out);

    BlockMode bm;
    if (!decodeBlockMode(mode, bm)) return fillBlock(out, texels, kErrorColour);
    const uint32_t planes = bm.dualPlane ? 2 : 1;
    const uint32_t weightCount = bm.gridW * bm.gridH * planes;
    if (bm.gridW > bw || bm.gridH > bh || weightCount > 64) return fillBlock(out, texels, kErrorColour);
    const IseRange& weightRange = kRanges[bm.weightRange];
    const uint32_t weightBits = iseBitCount(weightCount, weightRange);
    if (weightBits < 24 || weightBits > 96) return fillBlock(out, texels, kErrorColour);

    const uint32_t partitions = bits.get(11, 2) + 1;
    if (bm.dualPlane && partitions == 4) return fillBlock(out, texels, kErrorColour);

    // "Color Endpoint Mode" and "Data Size Determination".
    uint32_t cem[4] = {};
    uint32_t configBits, colourStart, extraCemBits = 0;
    if (partitions == 1) {
        cem[0] = bits.get(13, 4);
        configBits = colourStart = 17;
    } else {
        colourStart = 29;
        const uint32_t selector = bits.get(23, 2);
        if (selector == 0) {
            for (uint32_t p = 0; p < partitions; ++p) cem[p] = bits.get(25, 4);
            configBits = 29;
        } else {
            // Class bits C0..C(n-1) then 2-bit M fields; the first 4 bits are at 25..28, the rest
            // sit directly below the weights.
            extraCemBits = 3 * partitions - 4;
            const uint32_t encoded = bits.get(25, 4) | bits.get(128 - weightBits - extraCemBits, extraCemBits)
                                                           << 4;
            const uint32_t base = selector - 1;
            for (uint32_t p = 0; p < partitions; ++p) {
                const uint32_t cls = base + bit(encoded, p);
                cem[p] = cls << 2 | ((encoded >> (partitions + 2 * p)) & 3);
            }
            configBits = 25 + 3 * partitions;
        }
    }
    uint32_t ccs = 0;
    if (bm.dualPlane) {
        configBits += 2;
        ccs = bits.get(128 - weightBits - extraCemBits - 2, 2);
    }

    uint32_t colourValueCount = 0;
    for (uint32_t p = 0; p < partitions; ++p) colourValueCount += 2 * ((cem[p] >> 2) + 1);
    if (colourValueCount > 18 || configBits + weightBits > 128) return fillBlock(out, texels, kErrorColour);
    const uint32_t remainingBits = 128 - configBits - weightBits;
    int colourRange = kRangeCount - 1;
    while (colourRange >= 0 && iseBitCount(colourValueCount, kRanges[colourRange]) > remainingBits)
        --colourRange;
    if (colourRange < kMinColourRange) return fillBlock(out, texels, kErrorColour);

    const UnquantTables& tables = unquantTables();
    uint8_t colourValues[18];
    decodeIse(bits.slice(colourStart, iseBitCount(colourValueCount, kRanges[colourRange])), colourValueCount,
              kRanges[colourRange], colourValues);
    for (uint32_t i = 0; i < colourValueCount; ++i)
        colourValues[i] = tables.colour[colourRange][colourValues[i]];

    int endpoints[4][2][4];
    bool partitionValid[4] = {};
    for (uint32_t p = 0, offset = 0; p < partitions; ++p) {
        partitionValid[p] = decodeEndpoints(cem[p], colourValues + offset, endpoints[p][0], endpoints[p][1]);
        offset += 2 * ((cem[p] >> 2) + 1);
    }

    // "Weight Decoding": the weight stream grows down from bit 127.
    Bits128 reversed;
    reversed.lo = reverse64(bits.hi);
    reversed.hi = reverse64(bits.lo);
    uint8_t weightValues[64];
    decodeIse(reversed.slice(0, weightBits), weightCount, weightRange, weightValues);
    // Unquantized per plane, with room for the infill's reads one past the grid (weighted by 0).
    uint8_t grid[2][64 + 16] = {};
    const uint32_t gridCount = bm.gridW * bm.gridH;
    for (uint32_t i = 0; i < gridCount; ++i) {
        for (uint32_t p = 0; p < planes; ++p)
            grid[p][i] = tables.weight[bm.weightRange][weightValues[i * planes + p]];
    }

    const PartitionSelector selector(bits.get(13, 10), partitions, texels < 31);
    const bool infill = bm.gridW != bw || bm.gridH != bh;
    const uint32_t ds = (1024 + bw / 2) / (bw - 1), dt = (1024 + bh / 2) / (bh - 1);
    for (uint32_t y = 0; y < bh; ++y) {
        for (uint32_t x = 0; x < bw; ++x) {
            uint8_t* texel = out + (y * bw + x) * 4;
            const uint32_t p = partitions > 1 ? selector.select(x, y) : 0;
            if (!partitionValid[p]) {
                std::memcpy(texel, kErrorColour, 4);
                continue;
            }
            uint32_t weight[2] = {0, 0};
            if (!infill) {
                for (uint32_t plane = 0; plane < planes; ++plane) weight[plane] = grid[plane][y * bw + x];
            } else {
                // "Weight Infill", 2D bilinear.
                const uint32_t gs = (ds * x * (bm.gridW - 1) + 32) >> 6,
                               gt = (dt * y * (bm.gridH - 1) + 32) >> 6;
                const uint32_t js = gs >> 4, fs = gs & 15, jt = gt >> 4, ft = gt & 15;
                const uint32_t v0 = js + jt * bm.gridW;
                const uint32_t w11 = (fs * ft + 8) >> 4, w10 = ft - w11, w01 = fs - w11,
                               w00 = 16 - fs - ft + w11;
                for (uint32_t plane = 0; plane < planes; ++plane) {
                    const uint8_t* g = grid[plane];
                    weight[plane] = (g[v0] * w00 + g[v0 + 1] * w01 + g[v0 + bm.gridW] * w10 +
                                     g[v0 + bm.gridW + 1] * w11 + 8) >>
                                    4;
                }
            }
            // "Weight Application" with "Dual-Plane Decoding".
            for (uint32_t ch = 0; ch < 4; ++ch) {
                const uint32_t w = (bm.dualPlane && ch == ccs) ? weight[1] : weight[0];
                const uint32_t e0 = uint32_t(endpoints[p][0][ch]), e1 = uint32_t(endpoints[p][1][ch]);
                const uint32_t c0 = srgb ? (e0 << 8 | 0x80) : (e0 << 8 | e0);
                const uint32_t c1 = srgb ? (e1 << 8 | 0x80) : (e1 << 8 | e1);
                texel[ch] = toUnorm8((c0 * (64 - w) + c1 * w + 32) >> 6, srgb);
            }
        }
    }
}

}  // namespace

void decodeAstc(const uint8_t* blocks, uint32_t width, uint32_t height, uint32_t blockWidth,
                uint32_t blockHeight, bool srgb, uint8_t* rgba) {
    if (blockWidth < 4 || blockWidth > 12 || blockHeight < 4 || blockHeight > 12) {
        // Not a 2D ASTC footprint: the error colour everywhere (the bytes are not read).
        for (size_t i = 0; i < size_t(width) * height; ++i) std::memcpy(rgba + i * 4, kErrorColour, 4);
        return;
    }
    const uint32_t blocksX = (width + blockWidth - 1) / blockWidth;
    const uint32_t blocksY = (height + blockHeight - 1) / blockHeight;
    uint8_t texels[12 * 12 * 4];
    for (uint32_t by = 0; by < blocksY; ++by) {
        for (uint32_t bx = 0; bx < blocksX; ++bx) {
            decodeBlock(blocks + (size_t(by) * blocksX + bx) * 16, blockWidth, blockHeight, srgb, texels);
            // Edge blocks write only the texels inside the image.
            const uint32_t w = std::min(blockWidth, width - bx * blockWidth);
            const uint32_t h = std::min(blockHeight, height - by * blockHeight);
            for (uint32_t y = 0; y < h; ++y) {
                std::memcpy(rgba + ((size_t(by) * blockHeight + y) * width + size_t(bx) * blockWidth) * 4,
                            texels + y * blockWidth * 4, w * 4);
            }
        }
    }
}

}  // namespace esv
