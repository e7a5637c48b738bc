// OpenDDL parser: scanning numeric lists. The element count that sizes each list before it is
// read (SSE2, 64 bytes at a time while braces nest at most one level), and the block scanner
// that reads lists in the plain form exporters write (openddl_blocks.inc): built for SSE2 and for
// AVX2 with BMI on x86-64 (chosen at run time), for Advanced SIMD on 64-bit ARM, and in plain C++
// for every processor, all giving the same bits.
#include "loaders/opengex/openddl/openddl_internal.h"

#include <fast_float/fast_float.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace esv::ddl {

namespace {

// Bits set in a 16-bit mask (without relying on a popcount instruction or a libgcc call).
inline unsigned popcount16(unsigned x) {
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0F0Fu;
    return (x + (x >> 8)) & 0x1Fu;
}

inline size_t popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return size_t((x * 0x0101010101010101ull) >> 56);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Element count

// Elements in numeric or bool data that starts at `p` (just past its '{'): one more than the
// commas before the matching '}'. Comments and character literals are stepped over as the parser
// does, so on valid text this scan ends where the parse will, and no part of a file is scanned
// twice; on invalid text the parse stops at the error anyway. Sizing the output once avoids the
// copies, zero-filling and page faults of geometric growth, which cost more than the parsing.
size_t Parser::countElements(const char* p, const char** closing) const {
    *closing = nullptr;
    size_t commas = 0;
    size_t depth = 0;
    // One byte of , { } ' / at `p`; false when it is the closing brace.
    auto step = [&]() {
        char c = *p;
        if (c == ',') {
            ++commas;
            ++p;
        } else if (c == '{') {
            ++depth;
            ++p;
        } else if (c == '}') {
            if (depth == 0) return false;
            --depth;
            ++p;
        } else if (c == '\'') {
            for (++p; p < m_end && *p != '\''; ++p)
                if (*p == '\\' && p + 1 < m_end) ++p;
            if (p < m_end) ++p;
        } else if (p + 1 < m_end && p[1] == '/') {
            const void* nl = std::memchr(p, '\n', size_t(m_end - p));
            p = nl ? static_cast<const char*>(nl) + 1 : m_end;
        } else if (p + 1 < m_end && p[1] == '*') {
            const char* q = p + 2;
            while (q + 1 < m_end && !(q[0] == '*' && q[1] == '/')) ++q;
            p = q + 1 < m_end ? q + 2 : m_end;
        } else {
            ++p;
        }
        return true;
    };
#if defined(__SSE2__)
    // 64 bytes at a time while braces nest at most one level (subarrays, as in valid data): they
    // alternate then, so the depth after each brace is the parity of the braces up to it, and
    // the list ends at the first '}' found at depth 0. A quote or slash, or a second level of
    // braces, hands the block over to the 16-byte loop below.
    const __m128i comma64 = _mm_set1_epi8(','), open64 = _mm_set1_epi8('{'), close64 = _mm_set1_epi8('}');
    const __m128i quote64 = _mm_set1_epi8('\''), slash64 = _mm_set1_epi8('/');
    while (depth <= 1 && m_end - p >= 64) {
        uint64_t commaBits = 0, openBits = 0, closeBits = 0, special = 0;
        for (unsigned i = 0; i < 4; ++i) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
            const unsigned shift = 16 * i;
            commaBits |= uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma64)))) << shift;
            openBits |= uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, open64)))) << shift;
            closeBits |= uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, close64)))) << shift;
            special |= uint64_t(unsigned(_mm_movemask_epi8(
                           _mm_or_si128(_mm_cmpeq_epi8(v, quote64), _mm_cmpeq_epi8(v, slash64)))))
                       << shift;
        }
        if (special) break;
        uint64_t after = openBits | closeBits;  // depth after each brace, if they alternate
        after ^= after << 1;
        after ^= after << 2;
        after ^= after << 4;
        after ^= after << 8;
        after ^= after << 16;
        after ^= after << 32;
        if (depth) after = ~after;
        const uint64_t odd = (openBits & ~after) | (closeBits & after);  // a second level, or the end
        if (odd) {
            const unsigned i = unsigned(__builtin_ctzll(odd));
            if (!((closeBits >> i) & 1)) break;
            *closing = p + i;
            return commas + popcount64(commaBits & ((uint64_t(1) << i) - 1)) + 1;
        }
        commas += popcount64(commaBits);
        depth = size_t(after >> 63);
        p += 64;
    }
    // 16 bytes at a time: commas are counted by mask, braces walked in order; a quote or slash
    // hands over to step() at that byte.
    const __m128i comma = _mm_set1_epi8(','), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    const __m128i quote = _mm_set1_epi8('\''), slash = _mm_set1_epi8('/');
    while (m_end - p >= 16) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        unsigned commaBits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)));
        unsigned openBits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, open)));
        unsigned closeBits = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, close)));
        unsigned special =
            unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, slash))));
        unsigned n = special ? unsigned(__builtin_ctz(special)) : 16;
        unsigned keep = n == 16 ? 0xFFFFu : (1u << n) - 1;
        for (unsigned braces = (openBits | closeBits) & keep; braces; braces &= braces - 1) {
            unsigned i = unsigned(__builtin_ctz(braces));
            if (closeBits & (1u << i)) {
                if (depth == 0) {
                    *closing = p + i;
                    return commas + size_t(popcount16(commaBits & ((1u << i) - 1))) + 1;
                }
                --depth;
            } else {
                ++depth;
            }
        }
        commas += size_t(popcount16(commaBits & keep));
        p += n;
        if (n < 16 && !step()) {
            *closing = p;
            return commas + 1;
        }
    }
#endif
    while (p < m_end) {
        if (!isClass(*p, kCountStop)) {
            ++p;
            continue;
        }
        if (!step()) {
            *closing = p;
            break;
        }
    }
    return commas + 1;
}

// ---------------------------------------------------------------------------------------------
// The block scanner for numeric lists (ParseOptions::blockScan)
//
// The element-by-element reader finds where each literal ends by reading it, so every element
// waits for the one before. Here 64 bytes at a time are classified into bit masks (whitespace,
// ',', '{', '}', digits, '.'): every run of other bytes is one literal, whose start and end come
// from the masks, so literals convert independently of each other, and the order of literals,
// commas and braces is checked on the masks as a whole.
//
// Only the plain form is accepted: one comma between elements, "}, {" between subarrays (any
// whitespace around), every literal a decimal number of the type. Anything else (comments, data
// states, character, hexadecimal or binary literals, '+' signs, digit separators, an error) makes
// it return false before the document sees anything, and the element-by-element reader reads the
// list instead. Decimal literals are converted exactly (short ones as one correctly rounded
// division, the others by fast_float), so either reader gives the same bits.

namespace {

// Classes of 64 bytes of text, one bit per byte.
struct BlockBits {
    uint64_t space;  // [1, 32] (A.9)
    uint64_t comma;
    uint64_t open;
    uint64_t close;
    uint64_t digit;
    uint64_t dot;
    uint64_t minus;
};

// What came last in the list so far, which decides what may come next.
enum class ListEvent : uint8_t {
    Start,       // next: a literal (flat list) or '{'
    Literal,     // next: ','
    LastInSub,   // a subarray's last literal; next: '}'
    Comma,       // next: a literal
    CloseComma,  // ',' after '}'; next: '{'
    Open,        // next: a literal
    Close,       // next: ',' (or the end)
};

// Longer mantissas and exponents: fast_float, which must take the whole literal [begin, end).
// Out of line, so that the loops calling it keep their registers.
template <class T>
__attribute__((noinline)) bool convertLongLiteral(const char* begin, const char* end, uint8_t* out) {
    T value;
    fast_float::from_chars_result r = fast_float::from_chars(begin, end, value);
    if (r.ec != std::errc() || r.ptr != end || !(std::fabs(value) <= std::numeric_limits<T>::max()))
        return false;
    std::memcpy(out, &value, sizeof(T));
    return true;
}

}  // namespace

namespace {
namespace portable {
#define ESV_DDL_BLOCKS_PORTABLE 1
#include "loaders/opengex/openddl/openddl_blocks.inc"
#undef ESV_DDL_BLOCKS_PORTABLE
}  // namespace portable
}  // namespace

#if defined(__aarch64__)
// Advanced SIMD is part of every 64-bit ARM processor Linux and Android run on.
#define ESV_DDL_NEON 1
namespace {
namespace neon {
#define ESV_DDL_BLOCKS_NEON 1
#include "loaders/opengex/openddl/openddl_blocks.inc"
#undef ESV_DDL_BLOCKS_NEON
}  // namespace neon
}  // namespace
#endif

#if defined(__SSE2__)
namespace {
namespace sse2 {
#include "loaders/opengex/openddl/openddl_blocks.inc"
}  // namespace sse2
}  // namespace

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ESV_DDL_AVX2 1
// The same compiled for processors with AVX2 and BMI (chosen at run time, see scanNumbers).
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,popcnt")
#endif
#define ESV_DDL_BLOCKS_AVX2 1
namespace {
namespace avx2 {
#include "loaders/opengex/openddl/openddl_blocks.inc"
}  // namespace avx2
}  // namespace
#undef ESV_DDL_BLOCKS_AVX2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

namespace {
bool haveAvx2() {
    static const bool have = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                             __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    return have;
}
}  // namespace
#endif
#endif

const char* blockScanInstructionSet(bool vector) {
    if (!vector) return "portable";
#if defined(ESV_DDL_AVX2)
    if (haveAvx2()) return "AVX2";
#endif
#if defined(__SSE2__)
    return "SSE2";
#elif defined(ESV_DDL_NEON)
    return "NEON";
#else
    return "portable";
#endif
}

// The block scanner for the types it reads, when the list qualifies; false leaves `d` as it was
// (no elements) for the element-by-element reader.
bool Parser::scanNumbers(const char* p, const char* close, PrimitiveData& d, size_t count) {
    if (!m_blockScan || d.hasStates || count == 0) return false;
    bool ok = false;
    if (!m_blockScanVector) {
        ok = portable::scanList(p, close, d, count);
    } else {
#if defined(__SSE2__)
#if defined(ESV_DDL_AVX2)
        if (m_blockScanAvx2 && haveAvx2())
            ok = avx2::scanList(p, close, d, count);
        else
#endif
            ok = sse2::scanList(p, close, d, count);
#elif defined(ESV_DDL_NEON)
        ok = neon::scanList(p, close, d, count);
#else
        ok = portable::scanList(p, close, d, count);
#endif
    }
    if (!ok) d.bytes.clear();
    m_blockScanned += ok ? 1 : 0;
    return ok;
}

}  // namespace esv::ddl
