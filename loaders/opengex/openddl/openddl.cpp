// OpenDDL parser (OpenGEX 3.0 spec, Appendix A).
//
// One forward pass with a raw pointer over the text. Every scanning function takes the current
// position and returns the position after what it read, or null after recording the first error.
// Structures nest without recursion: the open structure is the parser's only stack (its parent
// pointers lead back to the top level), so depth costs nothing but a counter.
//
// Leniencies beyond the grammar of A.10, all unambiguous: whitespace (and comments) may follow a
// sign; a decimal float may end in a bare '.' ("1." and "1.e5"), as C and many exporters write it.
#include "loaders/opengex/openddl/openddl.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <iterator>
#include <mutex>
#include <limits>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace esv::ddl {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "PrimitiveData::bytes holds elements in host order, which is little-endian only");

namespace {

// ---------------------------------------------------------------------------------------------
// Character classes

enum CharClass : uint8_t {
    kSpace = 1,     // [1, 32] (A.9)
    kIdStart = 2,   // [A-Za-z_]
    kIdChar = 4,    // [0-9A-Za-z_]
    kDigit = 8,     // [0-9]
    kHexDigit = 16,
    kPlainString = 32,  // printable ASCII that a string holds as is: [0x20-0x7E] minus " and backslash
    kPlainChar = 64,    // the same for a character literal: minus ' and backslash
    kCountStop = 128,   // what Parser::countElements looks at: , { } ' /
};

struct CharTable {
    uint8_t cls[256];
    int8_t base64[256];  // value of a base64 character, or -1
    int8_t hex[256];     // value of a hexadecimal digit, or -1

    constexpr CharTable() : cls(), base64(), hex() {
        for (int c = 0; c < 256; ++c) {
            uint8_t k = 0;
            bool digit = c >= '0' && c <= '9';
            bool upper = c >= 'A' && c <= 'Z';
            bool lower = c >= 'a' && c <= 'z';
            if (c >= 1 && c <= 32) k |= kSpace;
            if (upper || lower || c == '_') k |= kIdStart | kIdChar;
            if (digit) k |= kIdChar | kDigit | kHexDigit;
            if ((c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f')) k |= kHexDigit;
            if (c >= 0x20 && c <= 0x7E && c != '"' && c != '\\') k |= kPlainString;
            if (c >= 0x20 && c <= 0x7E && c != '\'' && c != '\\') k |= kPlainChar;
            if (c == ',' || c == '{' || c == '}' || c == '\'' || c == '/') k |= kCountStop;
            cls[c] = k;
            base64[c] = upper ? int8_t(c - 'A')
                        : lower ? int8_t(c - 'a' + 26)
                        : digit ? int8_t(c - '0' + 52)
                        : c == '+' ? int8_t(62)
                        : c == '/' ? int8_t(63)
                                   : int8_t(-1);
            hex[c] = digit ? int8_t(c - '0')
                     : (c >= 'A' && c <= 'F') ? int8_t(c - 'A' + 10)
                     : (c >= 'a' && c <= 'f') ? int8_t(c - 'a' + 10)
                                              : int8_t(-1);
        }
    }
};

constexpr CharTable kChars;

inline bool isClass(char c, uint8_t k) { return (kChars.cls[uint8_t(c)] & k) != 0; }
inline bool isSpace(char c) { return isClass(c, kSpace); }
inline bool isIdStart(char c) { return isClass(c, kIdStart); }
inline bool isIdChar(char c) { return isClass(c, kIdChar); }
inline bool isDigit(char c) { return uint8_t(c - '0') < 10; }
inline int hexValue(char c) { return kChars.hex[uint8_t(c)]; }
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

inline bool isRadixLetter(char c) {
    char l = char(c | 0x20);
    return l == 'x' || l == 'o' || l == 'b';
}

// ---------------------------------------------------------------------------------------------
// Type names (Table A.1, Figure A.2, plus the OpenDDL 1 and 2 spellings still found in files)

struct TypeSpelling {
    std::string_view name;
    DataType type;
};

constexpr TypeSpelling kTypeSpellings[] = {
    {"float", DataType::Float},    {"f", DataType::Float},          {"float32", DataType::Float},
    {"f32", DataType::Float},      {"uint32", DataType::UInt32},    {"u32", DataType::UInt32},
    {"unsigned_int32", DataType::UInt32},
    {"uint16", DataType::UInt16},  {"u16", DataType::UInt16},       {"unsigned_int16", DataType::UInt16},
    {"string", DataType::String},  {"s", DataType::String},         {"ref", DataType::Ref},
    {"r", DataType::Ref},          {"double", DataType::Double},    {"d", DataType::Double},
    {"float64", DataType::Double}, {"f64", DataType::Double},       {"int32", DataType::Int32},
    {"i32", DataType::Int32},      {"uint8", DataType::UInt8},      {"u8", DataType::UInt8},
    {"unsigned_int8", DataType::UInt8},
    {"bool", DataType::Bool},      {"b", DataType::Bool},           {"int8", DataType::Int8},
    {"i8", DataType::Int8},        {"int16", DataType::Int16},      {"i16", DataType::Int16},
    {"int64", DataType::Int64},    {"i64", DataType::Int64},        {"uint64", DataType::UInt64},
    {"u64", DataType::UInt64},     {"unsigned_int64", DataType::UInt64},
    {"half", DataType::Half},      {"h", DataType::Half},           {"float16", DataType::Half},
    {"f16", DataType::Half},       {"type", DataType::Type},        {"t", DataType::Type},
    {"base64", DataType::Base64},  {"z", DataType::Base64},
};

constexpr const char* kTypeNames[] = {"bool",   "int8",   "int16",  "int32", "int64", "uint8",
                                      "uint16", "uint32", "uint64", "half",  "float", "double",
                                      "string", "ref",    "type",   "base64"};
static_assert(sizeof(kTypeNames) / sizeof(kTypeNames[0]) == size_t(DataType::Count));

constexpr uint8_t kElementSizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 0, 0, 0, 0};
static_assert(sizeof(kElementSizes) == size_t(DataType::Count));

// ---------------------------------------------------------------------------------------------
// Numbers

// Nearest binary16 to a double, ties to even. Sets `overflow` when the value rounds past the
// largest finite half (65504).
uint16_t doubleToHalf(double value, bool& overflow) {
    uint64_t b;
    std::memcpy(&b, &value, sizeof b);
    uint16_t sign = uint16_t((b >> 48) & 0x8000);
    int exponent = int((b >> 52) & 0x7FF);
    uint64_t mantissa = b & ((uint64_t(1) << 52) - 1);
    overflow = false;
    if (exponent == 0x7FF) {  // not produced by a decimal literal; kept for completeness
        overflow = mantissa == 0;
        return uint16_t(sign | 0x7C00 | (mantissa ? 0x200 : 0));
    }
    if (exponent == 0) return sign;  // double subnormals are far below half's smallest subnormal
    int e = exponent - 1023 + 15;
    uint64_t m = mantissa | (uint64_t(1) << 52);
    int shift = 42;  // 52 - 10 mantissa bits
    if (e < 1) {
        shift += 1 - e;
        e = 0;
        if (shift > 62) return sign;
    }
    uint64_t h = m >> shift;
    uint64_t rest = m & ((uint64_t(1) << shift) - 1);
    uint64_t halfway = uint64_t(1) << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1))) ++h;
    if (e == 0) return uint16_t(sign | h);  // h == 0x400 is the smallest normal, as encoded
    if (h == 0x800) {
        h = 0x400;
        ++e;
    }
    if (e >= 31) {
        overflow = true;
        return uint16_t(sign | 0x7C00);
    }
    return uint16_t(sign | (e << 10) | (h & 0x3FF));
}

enum class IntForm : uint8_t { Decimal, Radix, Char };

// Exact powers of ten: up to 1e10 in a float and 1e22 in a double (5^10 < 2^24, 5^22 < 2^53).
template <class T>
struct Pow10;
template <>
struct Pow10<float> {
    static constexpr int kMaxExact = 10;
    static constexpr uint64_t kMaxMantissa = uint64_t(1) << 24;
    static constexpr float kTable[] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
};
template <>
struct Pow10<double> {
    static constexpr int kMaxExact = 22;
    static constexpr uint64_t kMaxMantissa = uint64_t(1) << 53;
    static constexpr double kTable[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
};

// The short decimal literals that fill vertex arrays ("-3.25", "0.685881"), read without a
// library call: digits [. digits] with no exponent whose digits, as an integer, are exactly
// representable in T and whose fraction has at most kMaxExact digits. Then value = digits /
// 10^fraction is one correctly rounded IEEE division of two exact values, which is the nearest T
// to the literal (Clinger's fast path, as fast_float takes it; the default round-to-nearest mode
// is assumed). Returns null when the literal is anything else, for fast_float to read.
constexpr uint64_t kPow10U64[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

// The value of eight ASCII digits in a word, the first digit in the lowest byte (bytes that are
// zero count as leading zeros): three multiplications combine them in pairs, fours and eights.
inline uint64_t eightDigits(uint64_t v) {
    v = ((v & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
    return ((v & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

// A run of decimal digits at `q` appended to `m` (m = m * 10^k + digits, modulo 2^64). Eight bytes
// at a time while eight remain: the leading digits of the word are found with a mask, moved to
// the top (the bytes below become zero digits) and combined in three multiplications.
inline const char* digitRun(const char* q, const char* end, uint64_t& m) {
    while (end - q >= 8) {
        uint64_t word;
        std::memcpy(&word, q, 8);
        // Per byte: a digit has high nibble 3 before and after adding 6. A byte above 0xF9 may
        // carry into the next, but only into bytes after the first non-digit, which are unused.
        const uint64_t high = 0xF0F0F0F0F0F0F0F0ull, threes = 0x3030303030303030ull;
        const uint64_t bad = ((word & high) ^ threes) | (((word + 0x0606060606060606ull) & high) ^ threes);
        const unsigned n = bad ? unsigned(__builtin_ctzll(bad)) / 8 : 8;
        if (n == 0) return q;
        m = m * kPow10U64[n] + eightDigits(word << (8 * (8 - n)));
        q += n;
        if (n < 8) return q;
    }
    while (q < end && isDigit(*q)) m = m * 10 + unsigned(*q++ - '0');
    return q;
}

// `value` (not negative) with its sign bit set when `negative`: a bit operation, not a branch,
// whose direction follows the signs of the data (half of them in vertex arrays, at random).
template <class T>
inline T withSign(T value, bool negative) {
    using Bits = typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type;
    Bits bits;
    std::memcpy(&bits, &value, sizeof bits);
    bits |= Bits(negative) << (8 * sizeof(T) - 1);
    std::memcpy(&value, &bits, sizeof bits);
    return value;
}

template <class T>
inline const char* quickDecimal(const char* p, const char* end, T& out) {
    const bool negative = *p == '-';
    const char* q = p + (negative ? 1 : 0);
    const char* digitsStart = q;
    uint64_t m = 0;
    q = digitRun(q, end, m);
    const char* intEnd = q;
    ptrdiff_t fraction = 0;
    if (q < end && *q == '.') {
        const char* f = ++q;
        q = digitRun(q, end, m);
        fraction = q - f;
    }
    ptrdiff_t digits = (intEnd - digitsStart) + fraction;
    if (digits == 0 || digits > 19 || fraction > Pow10<T>::kMaxExact || m > Pow10<T>::kMaxMantissa) return nullptr;
    if (q < end && (*q == 'e' || *q == 'E' || *q == '_')) return nullptr;
    out = withSign(T(m) / Pow10<T>::kTable[fraction], negative);
    return q;
}

// Appends the UTF-8 encoding of a code point (at most 0x10FFFF).
void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

// Growing output for fixed-size elements: a write cursor into `bytes`, which is resized
// geometrically and trimmed to what was written at the end.
struct ByteSink {
    std::vector<uint8_t>& bytes;
    uint8_t* cur;
    uint8_t* lim;

    explicit ByteSink(std::vector<uint8_t>& b) : bytes(b), cur(b.data() + b.size()), lim(cur) {}

    uint8_t* take(size_t n) {
        if (size_t(lim - cur) < n) grow(n);
        uint8_t* at = cur;
        cur += n;
        return at;
    }
    void grow(size_t n) {
        size_t used = size_t(cur - bytes.data());
        size_t want = std::max<size_t>(std::max<size_t>(bytes.size() * 2, 64), used + n);
        bytes.resize(want);
        cur = bytes.data() + used;
        lim = bytes.data() + bytes.size();
    }
    void finish() { bytes.resize(size_t(cur - bytes.data())); }
};

std::string_view view(const char* from, const char* to) { return std::string_view(from, size_t(to - from)); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Free functions and small members

const char* dataTypeName(DataType type) {
    size_t i = size_t(type);
    return i < size_t(DataType::Count) ? kTypeNames[i] : "unknown";
}

bool parseDataType(std::string_view text, DataType& out) {
    for (const TypeSpelling& s : kTypeSpellings) {
        if (s.name == text) {
            out = s.type;
            return true;
        }
    }
    return false;
}

size_t elementSize(DataType type) {
    size_t i = size_t(type);
    return i < size_t(DataType::Count) ? kElementSizes[i] : 0;
}

std::string Reference::toString() const {
    if (names.empty()) return "null";
    std::string s;
    for (const Name& n : names) {
        s.push_back(n.global ? '$' : '%');
        s.append(n.identifier);
    }
    return s;
}

bool PropertyValue::asBool(bool& out) const {
    if (kind == LiteralKind::Bool) {
        out = boolean;
        return true;
    }
    if (kind == LiteralKind::Integer && !negative && magnitude <= 1) {
        out = magnitude == 1;
        return true;
    }
    return false;
}

bool PropertyValue::asUInt64(uint64_t& out) const {
    if (kind != LiteralKind::Integer || (negative && magnitude != 0)) return false;
    out = magnitude;
    return true;
}

bool PropertyValue::asUInt32(uint32_t& out) const {
    uint64_t v;
    if (!asUInt64(v) || v > std::numeric_limits<uint32_t>::max()) return false;
    out = uint32_t(v);
    return true;
}

bool PropertyValue::asDouble(double& out) const {
    if (kind != LiteralKind::Integer && kind != LiteralKind::Float) return false;
    out = number;
    return true;
}

bool PropertyValue::asString(std::string_view& out) const {
    if (kind != LiteralKind::String) return false;
    out = text;
    return true;
}

bool PropertyValue::asRef(const Reference*& out) const {
    if (kind != LiteralKind::Ref) return false;
    out = &ref;
    return true;
}

bool PropertyValue::asType(DataType& out) const {
    if (kind != LiteralKind::Type) return false;
    out = type;
    return true;
}

size_t PrimitiveData::elementCount() const {
    switch (type) {
        case DataType::String: return strings.size();
        case DataType::Ref: return refs.size();
        case DataType::Type: return types.size();
        case DataType::Base64: return blobs.size();
        default: {
            size_t size = elementSize(type);
            return size ? bytes.size() / size : 0;
        }
    }
}

size_t PrimitiveData::subarrayCount() const {
    size_t n = elementCount();
    return arraySize ? n / arraySize : n;
}

namespace {
template <class T>
struct TypeOf;
template <> struct TypeOf<int8_t> { static constexpr DataType a = DataType::Int8, b = a; };
template <> struct TypeOf<int16_t> { static constexpr DataType a = DataType::Int16, b = a; };
template <> struct TypeOf<int32_t> { static constexpr DataType a = DataType::Int32, b = a; };
template <> struct TypeOf<int64_t> { static constexpr DataType a = DataType::Int64, b = a; };
template <> struct TypeOf<uint8_t> { static constexpr DataType a = DataType::UInt8, b = DataType::Bool; };
template <> struct TypeOf<uint16_t> { static constexpr DataType a = DataType::UInt16, b = DataType::Half; };
template <> struct TypeOf<uint32_t> { static constexpr DataType a = DataType::UInt32, b = a; };
template <> struct TypeOf<uint64_t> { static constexpr DataType a = DataType::UInt64, b = a; };
template <> struct TypeOf<float> { static constexpr DataType a = DataType::Float, b = a; };
template <> struct TypeOf<double> { static constexpr DataType a = DataType::Double, b = a; };
}  // namespace

template <class T>
const T* PrimitiveData::as() const {
    if (type != TypeOf<T>::a && type != TypeOf<T>::b) return nullptr;
    // Not null for an empty array of the right type, so that null only ever means a mismatch.
    static const T kNoElements{};
    if (bytes.empty()) return &kNoElements;
    // The vector's storage comes from operator new, aligned for any fundamental type.
    return reinterpret_cast<const T*>(bytes.data());
}

template const int8_t* PrimitiveData::as<int8_t>() const;
template const int16_t* PrimitiveData::as<int16_t>() const;
template const int32_t* PrimitiveData::as<int32_t>() const;
template const int64_t* PrimitiveData::as<int64_t>() const;
template const uint8_t* PrimitiveData::as<uint8_t>() const;
template const uint16_t* PrimitiveData::as<uint16_t>() const;
template const uint32_t* PrimitiveData::as<uint32_t>() const;
template const uint64_t* PrimitiveData::as<uint64_t>() const;
template const float* PrimitiveData::as<float>() const;
template const double* PrimitiveData::as<double>() const;

const Property* Structure::property(std::string_view id) const {
    for (size_t i = properties.size(); i-- > 0;)
        if (properties[i].identifier == id) return &properties[i];
    return nullptr;
}

std::vector<const Structure*> Structure::childrenNamed(std::string_view id) const {
    std::vector<const Structure*> out;
    for (const Structure* c : children)
        if (c->identifier == id) out.push_back(c);
    return out;
}

const Structure* Structure::child(std::string_view id) const {
    for (const Structure* c : children)
        if (c->identifier == id) return c;
    return nullptr;
}

const Structure* Structure::firstPrimitive() const {
    for (const Structure* c : children)
        if (c->primitive) return c;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// The parser

class ConversionPool;

// The numeric data of one primitive structure, from just past its '{' to its closing brace.
struct DeferredData {
    PrimitiveData* data;
    const char* begin;
    const char* close;
    size_t count;  // countElements
};

class Parser {
public:
    Parser(Document& doc, const char* begin, const char* end, const ParseOptions& options)
        : m_doc(doc),
          m_begin(begin),
          m_end(end),
          m_maxDepth(options.maxDepth),
          m_deferBytes(options.deferBytes),
          m_blockScan(options.blockScan),
          m_blockScanAvx2(options.blockScanAvx2) {}

    // Parses the whole text into the document. False with the error's offset and message set.
    // With a pool, long numeric arrays are handed to it and converted beside the parse; run
    // waits for them before it returns.
    bool run(Offset& errorOffset, std::string& errorMessage, ConversionPool* pool = nullptr);

    size_t blockScanned() const { return m_blockScanned; }

    // Converts one array handed to the pool; true when it parsed cleanly and ended at its brace.
    bool convert(const DeferredData& job) {
        const char* e = parseNumbers(job.begin, *job.data, job.count, job.close);
        return e && e == job.close + 1;
    }

private:
    Document& m_doc;
    const char* const m_begin;
    const char* const m_end;
    const uint32_t m_maxDepth;
    const size_t m_deferBytes;
    const bool m_blockScan;
    const bool m_blockScanAvx2;
    ConversionPool* m_pool = nullptr;
    size_t m_blockScanned = 0;  // numeric lists read by scanNumbers

    bool m_failed = false;
    Offset m_errorOffset = 0;
    std::string m_errorMessage;

    std::string m_scratch;  // a number with its underscores removed
    std::vector<std::pair<std::string_view, const Structure*>> m_names;
    // Children of the open structures, innermost last, each structure's from its mark on; and
    // the properties being read. Moved into the structure once complete, at their exact size.
    std::vector<Structure*> m_pending;
    std::vector<size_t> m_marks;
    std::vector<Property> m_properties;

    // --- errors
    std::nullptr_t fail(const char* at, std::string message);
    std::string describe(const char* p) const;
    std::string text(const char* from, const char* to) const;
    Offset offsetOf(const char* p) const { return Offset(p - m_begin); }

    // --- whitespace and comments
    const char* skipSpace(const char* p) {
        for (;;) {
            while (p < m_end && isSpace(*p)) ++p;
            if (p + 1 < m_end && *p == '/' && (p[1] == '/' || p[1] == '*')) {
                p = skipComment(p);
                if (!p) return nullptr;
                continue;
            }
            return p;
        }
    }
    const char* skipWhitespaceOnly(const char* p) const {
        while (p < m_end && isSpace(*p)) ++p;
        return p;
    }
    const char* skipComment(const char* p);

    // --- tokens
    const char* scanIdentifier(const char* p) const {
        while (p < m_end && isIdChar(*p)) ++p;
        return p;
    }
    const char* readName(const char* p, Name& name);
    // A structure's name when one starts at p (then also the space after it); p otherwise.
    const char* readOptionalName(const char* p, Structure& s);
    const char* readSign(const char* p, bool& negative);
    const char* readUnsigned(const char* p, uint64_t& value, bool& overflow, IntForm& form);
    const char* readRadixDigits(const char* p, unsigned bitsPerDigit, uint64_t& value, bool& overflow);
    const char* readCharLiteral(const char* p, uint64_t& value, bool& overflow);
    const char* readEscape(const char* p, std::string* out, uint8_t& byte);
    template <class T>
    const char* readDecimalFloat(const char* p, T& value, const char* typeName, const char* literalStart);
    template <class T>
    const char* readDecimalWithUnderscores(const char* p, T& value);
    const char* readString(const char* p, std::string& out);
    const char* readReference(const char* p, Reference& ref);
    const char* readBase64(const char* p, std::vector<uint8_t>& out);
    const char* readPropertyValue(const char* p, PropertyValue& value);

    // --- elements of primitive data
    template <class T>
    const char* intElement(const char* p, ByteSink& sink, DataType type);
    template <class T>
    __attribute__((noinline)) const char* intElementSlow(const char* p, ByteSink& sink, DataType type);
    template <class T, class Bits>
    const char* floatElement(const char* p, ByteSink& sink, DataType type);
    template <class T, class Bits>
    __attribute__((noinline)) const char* floatElementSlow(const char* p, ByteSink& sink, DataType type);
    const char* halfElement(const char* p, ByteSink& sink);
    const char* boolElement(const char* p, ByteSink& sink);
    const char* bitPattern(const char* p, const char* literalStart, bool negative, unsigned bits,
                           DataType type, uint64_t& pattern);

    // --- structures
    const char* parseHeader(const char* p, Structure& s);
    const char* parsePrimitive(const char* p, Structure& s, DataType type);
    template <bool kComments, class Elem>
    const char* parseData(const char* p, PrimitiveData& d, Elem&& elem);
    template <class Elem>
    const char* parseFixed(const char* p, PrimitiveData& d, size_t count, Elem&& elem);
    const char* parseNumbers(const char* p, PrimitiveData& d, size_t count, const char* close);
    bool scanNumbers(const char* p, const char* close, PrimitiveData& d, size_t count);
    const char* parseText(const char* p, PrimitiveData& d);
    size_t countElements(const char* p, const char** closing) const;

    bool checkNames();
    void checkLocalNames(const std::vector<Structure*>& siblings, const Structure*& dup,
                         const Structure*& first);
};

// A second thread that converts long numeric arrays while the parser reads on: the text of a
// large file is mostly such arrays, and countElements (which the parser runs anyway to size an
// array) finds where each ends, so the parse can step over it at once. Jobs are taken in file
// order; when the parse is done its own thread takes jobs too. Any failure (a bad element, an
// array ending elsewhere than countElements said, a thrown exception) is only recorded: the
// document is then parsed again without the pool, so that errors are exactly a sequential
// parse's (the first in the file).
class ConversionPool {
public:
    ConversionPool(Document& doc, const char* begin, const char* end, const ParseOptions& options)
        : m_doc(doc), m_begin(begin), m_end(end), m_options(options) {}
    ConversionPool(const ConversionPool&) = delete;
    ConversionPool& operator=(const ConversionPool&) = delete;
    ~ConversionPool() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_closed = true;
            m_failed = true;  // unfinished: whatever is left is not converted
            m_queue.clear();
        }
        m_wake.notify_all();
        if (m_thread.joinable()) m_thread.join();
    }

    void push(const DeferredData& job) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_queue.push_back(job);
            ++m_pushed;
        }
        if (!m_thread.joinable()) {
            try {
                m_thread = std::thread([this] { work(); });
            } catch (const std::system_error&) {
                // No thread to be had: finish() converts everything on the parsing thread.
            }
        }
        m_wake.notify_one();
    }

    // Takes jobs until none is left, then waits for the other thread. True when every job
    // converted cleanly. Rethrows an exception (std::bad_alloc) thrown by a job.
    bool finish() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_closed = true;
        }
        m_wake.notify_all();
        drain();
        if (m_thread.joinable()) m_thread.join();
        if (m_exception) std::rethrow_exception(m_exception);
        return !m_failed;
    }

    bool used() const { return m_pushed > 0; }
    size_t blockScanned() const { return m_blockScanned; }
    // Lists the pool converted (on either thread) and those of them the second thread converted.
    size_t converted() const { return m_converted; }
    size_t convertedOnSecondThread() const { return m_convertedOnWorker; }

private:
    Document& m_doc;
    const char* const m_begin;
    const char* const m_end;
    const ParseOptions m_options;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<DeferredData> m_queue;
    bool m_closed = false;
    bool m_failed = false;
    size_t m_pushed = 0;
    std::atomic<size_t> m_blockScanned{0};  // lists the jobs' block scanner read
    std::atomic<size_t> m_converted{0}, m_convertedOnWorker{0};
    std::exception_ptr m_exception;
    std::thread m_thread;

    bool take(DeferredData& job, bool wait) {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (wait) m_wake.wait(lock, [this] { return m_closed || !m_queue.empty(); });
        if (m_queue.empty()) return false;
        job = m_queue.front();
        m_queue.pop_front();
        return true;
    }
    void run(const DeferredData& job, bool worker) {
        bool ok = false;
        try {
            Parser parser(m_doc, m_begin, m_end, m_options);
            ok = parser.convert(job);
            m_blockScanned += parser.blockScanned();
            if (ok) {
                ++m_converted;
                if (worker) ++m_convertedOnWorker;
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (!m_exception) m_exception = std::current_exception();
        }
        if (!ok) {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_failed = true;
        }
    }
    void work() {
        DeferredData job{};
        while (take(job, true)) run(job, true);
    }
    void drain() {
        DeferredData job{};
        while (take(job, false)) run(job, false);
    }
};

std::nullptr_t Parser::fail(const char* at, std::string message) {
    if (!m_failed) {
        m_failed = true;
        m_errorOffset = offsetOf(std::min(std::max(at, m_begin), m_end));
        m_errorMessage = std::move(message);
    }
    return nullptr;
}

std::string Parser::text(const char* from, const char* to) const {
    constexpr size_t kMax = 40;
    std::string s;
    for (const char* q = from; q < to && q < m_end; ++q) {
        if (s.size() >= kMax) {
            s += "...";
            break;
        }
        s.push_back(*q >= 0x20 && *q < 0x7F ? *q : '?');
    }
    return s;
}

// What is at `p`, for "found ..." in messages: a whole identifier or number, one character, a
// byte value or the end of the file.
std::string Parser::describe(const char* p) const {
    if (p >= m_end) return "end of file";
    char c = *p;
    if (isIdChar(c) || ((c == '-' || c == '+' || c == '.') && p + 1 < m_end && isIdChar(p[1]))) {
        const char* q = p + 1;
        while (q < m_end && (isIdChar(*q) || *q == '.')) ++q;
        return "'" + text(p, q) + "'";
    }
    if (c >= 0x21 && c < 0x7F) return std::string("'") + c + "'";
    static const char kHex[] = "0123456789ABCDEF";
    if (c == ' ') return "a space";
    if (c == '\n' || c == '\r') return "a line break";
    if (c == '\t') return "a tab";
    std::string s = "byte 0x";
    s.push_back(kHex[uint8_t(c) >> 4]);
    s.push_back(kHex[uint8_t(c) & 15]);
    return s;
}

const char* Parser::skipComment(const char* p) {
    if (p[1] == '/') {
        const void* nl = std::memchr(p + 2, '\n', size_t(m_end - (p + 2)));
        return nl ? static_cast<const char*>(nl) + 1 : m_end;
    }
    for (const char* q = p + 2; q + 1 < m_end; ++q) {
        q = static_cast<const char*>(std::memchr(q, '*', size_t(m_end - q)));
        if (!q || q + 1 >= m_end) break;
        if (q[1] == '/') return q + 2;
    }
    return fail(p, "unterminated comment: '/*' without a closing '*/'");
}

const char* Parser::readOptionalName(const char* p, Structure& s) {
    if (p >= m_end || (*p != '$' && *p != '%')) return p;
    p = readName(p, s.name);
    if (!p) return nullptr;
    s.hasName = true;
    return skipSpace(p);
}

const char* Parser::readName(const char* p, Name& name) {
    name.global = *p == '$';
    const char* id = p + 1;
    if (id >= m_end || !isIdStart(*id))
        return fail(id, std::string("expected an identifier right after '") + *p + "', found " + describe(id));
    const char* e = scanIdentifier(id);
    name.identifier = view(id, e);
    return e;
}

const char* Parser::readSign(const char* p, bool& negative) {
    negative = false;
    if (p < m_end && (*p == '-' || *p == '+')) {
        negative = *p == '-';
        return skipSpace(p + 1);
    }
    return p;
}

// Hexadecimal (4 bits per digit), octal (3) or binary (1) digits with single underscores between
// them (A.3.2). At least one digit. On overflow of 64 bits the digits are still consumed.
const char* Parser::readRadixDigits(const char* p, unsigned bitsPerDigit, uint64_t& value, bool& overflow) {
    const unsigned radix = 1u << bitsPerDigit;
    const uint64_t topMask = ~uint64_t(0) << (64 - bitsPerDigit);
    value = 0;
    const char* start = p;
    bool lastWasDigit = false;
    for (; p < m_end; ++p) {
        int d = hexValue(*p);
        if (d >= 0 && unsigned(d) < radix) {
            if (value & topMask) overflow = true;
            value = (value << bitsPerDigit) | unsigned(d);
            lastWasDigit = true;
        } else if (*p == '_' && lastWasDigit && p + 1 < m_end && hexValue(p[1]) >= 0 &&
                   unsigned(hexValue(p[1])) < radix) {
            lastWasDigit = false;
        } else {
            break;
        }
    }
    if (p == start) {
        const char* what = bitsPerDigit == 4 ? "a hexadecimal" : bitsPerDigit == 3 ? "an octal" : "a binary";
        return fail(p, std::string("expected ") + what + " digit after '" + text(p - 2, p) + "', found " +
                           describe(p));
    }
    return p;
}

// One escape sequence at `p` (the backslash). Single-byte escapes give `byte`; with `out` set (a
// string), \u and \U append their UTF-8 encoding there and `byte` is left alone.
const char* Parser::readEscape(const char* p, std::string* out, uint8_t& byte) {
    if (p + 1 >= m_end) return fail(p, "unfinished escape sequence at the end of the file");
    char c = p[1];
    switch (c) {
        case '"': byte = 0x22; return p + 2;
        case '\'': byte = 0x27; return p + 2;
        case '?': byte = 0x3F; return p + 2;
        case '\\': byte = 0x5C; return p + 2;
        case 'a': byte = 0x07; return p + 2;
        case 'b': byte = 0x08; return p + 2;
        case 'f': byte = 0x0C; return p + 2;
        case 'n': byte = 0x0A; return p + 2;
        case 'r': byte = 0x0D; return p + 2;
        case 't': byte = 0x09; return p + 2;
        case 'v': byte = 0x0B; return p + 2;
        case 'x': {
            if (m_end - p < 4 || hexValue(p[2]) < 0 || hexValue(p[3]) < 0)
                return fail(p, "escape sequence '\\x' needs exactly two hexadecimal digits");
            byte = uint8_t(hexValue(p[2]) * 16 + hexValue(p[3]));
            return p + 4;
        }
        case 'u':
        case 'U': {
            if (!out) return fail(p, std::string("escape sequence '\\") + c + "' is allowed in strings only");
            int digits = c == 'u' ? 4 : 6;
            if (m_end - p < 2 + digits)
                return fail(p, std::string("escape sequence '\\") + c + "' needs exactly " +
                                   std::to_string(digits) + " hexadecimal digits");
            uint32_t cp = 0;
            for (int i = 0; i < digits; ++i) {
                int d = hexValue(p[2 + i]);
                if (d < 0)
                    return fail(p, std::string("escape sequence '\\") + c + "' needs exactly " +
                                       std::to_string(digits) + " hexadecimal digits");
                cp = cp * 16 + uint32_t(d);
            }
            if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return fail(p, "escape sequence '" + text(p, p + 2 + digits) + "' is not a Unicode character");
            appendUtf8(*out, cp);
            return p + 2 + digits;
        }
        default:
            return fail(p, "unknown escape sequence '\\" + (c >= 0x20 && c < 0x7F ? std::string(1, c) : "?") +
                               "'");
    }
}

// A character literal (A.3.2) at `p` (the opening quote): one byte per character, the last one
// least significant.
const char* Parser::readCharLiteral(const char* p, uint64_t& value, bool& overflow) {
    const char* open = p++;
    value = 0;
    int count = 0;
    for (;;) {
        if (p >= m_end) return fail(open, "unterminated character literal");
        char c = *p;
        uint8_t byte;
        if (c == '\'') break;
        if (isClass(c, kPlainChar)) {
            byte = uint8_t(c);
            ++p;
        } else if (c == '\\') {
            p = readEscape(p, nullptr, byte);
            if (!p) return nullptr;
        } else if (c == '\n' || c == '\r') {
            return fail(open, "unterminated character literal");
        } else {
            return fail(p, "character literals hold printable ASCII only, found " + describe(p));
        }
        if (count == 8) overflow = true;
        value = (value << 8) | byte;
        ++count;
    }
    if (count == 0) return fail(open, "empty character literal");
    return p + 1;
}

// An unsigned integer literal of any form at `p` (the sign already read). Returns `p` itself when
// no literal starts there (the caller words that error), null after an error in the literal.
// `overflow` is set when the value does not fit in 64 bits; the literal is consumed anyway.
const char* Parser::readUnsigned(const char* p, uint64_t& value, bool& overflow, IntForm& form) {
    overflow = false;
    if (p >= m_end) return p;
    if (*p == '\'') {
        form = IntForm::Char;
        return readCharLiteral(p, value, overflow);
    }
    if (!isDigit(*p)) return p;
    if (*p == '0' && p + 1 < m_end && isRadixLetter(p[1])) {
        form = IntForm::Radix;
        char l = char(p[1] | 0x20);
        return readRadixDigits(p + 2, l == 'x' ? 4 : l == 'o' ? 3 : 1, value, overflow);
    }
    form = IntForm::Decimal;
    uint64_t v = 0;
    for (; p < m_end; ++p) {
        unsigned d = unsigned(uint8_t(*p - '0'));
        if (d < 10) {
            if (__builtin_mul_overflow(v, uint64_t(10), &v) || __builtin_add_overflow(v, uint64_t(d), &v))
                overflow = true;
        } else if (*p == '_' && isDigit(p[-1]) && p + 1 < m_end && isDigit(p[1])) {
            continue;
        } else {
            break;
        }
    }
    value = v;
    return p;
}

// A decimal float at `p` (a digit or '.', sign already read), converted straight to T.
// A minus sign right before the digits is read here too (fast_float takes it).
template <class T>
const char* Parser::readDecimalFloat(const char* p, T& value, const char* typeName, const char* literalStart) {
    const bool minus = p < m_end && *p == '-';
    const char* digits = p + (minus ? 1 : 0);
    if (digits >= m_end || !(isDigit(*digits) || *digits == '.'))
        return fail(literalStart, std::string("expected a ") + typeName + " value, found " + describe(literalStart));
    fast_float::from_chars_result r = fast_float::from_chars(p, m_end, value);
    if (r.ec != std::errc() || (r.ptr < m_end && *r.ptr == '_')) {
        const char* q = readDecimalWithUnderscores(digits, value);
        if (!q) return fail(literalStart, std::string("malformed ") + typeName + " value " + describe(literalStart));
        if (minus) value = -value;
        r.ptr = q;
    }
    if (std::isinf(value))
        return fail(literalStart, "value " + text(literalStart, r.ptr) + " does not fit in " + typeName);
    return r.ptr;
}

// The slow path for decimal floats with digit separators: copies the literal without its
// underscores (each must sit between two digits) and converts the copy. Null when malformed.
template <class T>
const char* Parser::readDecimalWithUnderscores(const char* p, T& value) {
    m_scratch.clear();
    auto digits = [&](const char* q) {
        while (q < m_end) {
            if (isDigit(*q)) {
                m_scratch.push_back(*q++);
            } else if (*q == '_' && !m_scratch.empty() && isDigit(m_scratch.back()) && q + 1 < m_end &&
                       isDigit(q[1])) {
                ++q;
            } else {
                break;
            }
        }
        return q;
    };
    const char* q = digits(p);
    if (q < m_end && *q == '.') {
        m_scratch.push_back('.');
        q = digits(q + 1);
    }
    if (q < m_end && (*q == 'e' || *q == 'E')) {
        const char* e = q + 1;
        if (e < m_end && (*e == '+' || *e == '-')) ++e;
        if (e < m_end && isDigit(*e)) {
            m_scratch.append(q, e);
            q = digits(e);
        }
    }
    const char* b = m_scratch.data();
    const char* e = b + m_scratch.size();
    fast_float::from_chars_result r = fast_float::from_chars(b, e, value);
    if (m_scratch.empty() || r.ec != std::errc() || r.ptr != e) return nullptr;
    return q;
}

// A string literal at `p` (the opening quote), with the adjacent literals that follow it
// (A.3.4), appended to `out`.
const char* Parser::readString(const char* p, std::string& out) {
    for (;;) {
        const char* open = p++;
        for (;;) {
            const char* run = p;
            while (p < m_end && isClass(*p, kPlainString)) ++p;
            out.append(run, p);
            if (p >= m_end) return fail(open, "unterminated string: no closing '\"'");
            uint8_t c = uint8_t(*p);
            if (c == '"') {
                ++p;
                break;
            }
            if (c == '\\') {
                uint8_t byte = 0;
                const char* before = p;
                p = readEscape(p, &out, byte);
                if (!p) return nullptr;
                if (before[1] != 'u' && before[1] != 'U') out.push_back(char(byte));
                continue;
            }
            if (c == '\n' || c == '\r') return fail(open, "unterminated string: line break before the closing '\"'");
            if (c < 0x80) return fail(p, "control character " + describe(p) + " in a string; write it as an escape");
            // UTF-8: the code point must be in a range of A.3.4 and encoded in the fewest bytes.
            int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
            if (n == 0 || m_end - p < n) return fail(p, "invalid UTF-8 in a string");
            uint32_t cp = c & (0x7F >> n);
            for (int i = 1; i < n; ++i) {
                uint8_t cc = uint8_t(p[i]);
                if ((cc & 0xC0) != 0x80) return fail(p, "invalid UTF-8 in a string");
                cp = (cp << 6) | (cc & 0x3F);
            }
            static const uint32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
            if (cp < kMinForLength[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return fail(p, "invalid UTF-8 in a string");
            if (cp < 0xA0) return fail(p, "C1 control character (U+0080 to U+009F) in a string");
            out.append(p, size_t(n));
            p += n;
        }
        const char* q = skipSpace(p);
        if (!q) return nullptr;
        if (q < m_end && *q == '"') {
            p = q;
            continue;
        }
        return p;
    }
}

// A reference (A.6) at `p`: null, or a name followed by local names.
const char* Parser::readReference(const char* p, Reference& ref) {
    ref.names.clear();
    if (p < m_end && (*p == '$' || *p == '%')) {
        Name name;
        p = readName(p, name);
        if (!p) return nullptr;
        ref.names.push_back(name);
        while (p < m_end && *p == '%') {
            p = readName(p, name);
            if (!p) return nullptr;
            ref.names.push_back(name);
        }
        return p;
    }
    if (m_end - p >= 4 && std::memcmp(p, "null", 4) == 0 && !(p + 4 < m_end && isIdChar(p[4]))) return p + 4;
    return fail(p, "expected a reference ($name, %name or null), found " + describe(p));
}

// Base64 data (A.3.5) at `p`: whitespace may appear anywhere inside, comments may not; up to two
// '=' of padding at the end.
const char* Parser::readBase64(const char* p, std::vector<uint8_t>& out) {
    const char* start = p;
    uint32_t acc = 0;
    int bits = 0;
    size_t count = 0;
    for (; p < m_end; ++p) {
        int v = kChars.base64[uint8_t(*p)];
        if (v >= 0) {
            acc = (acc << 6) | uint32_t(v);
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out.push_back(uint8_t(acc >> bits));
            }
            acc &= (1u << bits) - 1;
            ++count;
        } else if (!isSpace(*p)) {
            break;
        }
    }
    for (int pad = 0; pad < 2 && p < m_end && *p == '='; ++pad) p = skipWhitespaceOnly(p + 1);
    if (count % 4 == 1)
        return fail(start, "base64 data has " + std::to_string(count) +
                               " characters; a count of 1 modulo 4 is not valid");
    return p;
}

// A property value (A.8). Properties carry no type in the text, so the literal decides its kind.
const char* Parser::readPropertyValue(const char* p, PropertyValue& value) {
    if (p >= m_end) return fail(p, "expected a property value, found end of file");
    char c = *p;
    if (c == '"') {
        value.kind = LiteralKind::String;
        return readString(p, value.text);
    }
    if (c == '$' || c == '%') {
        value.kind = LiteralKind::Ref;
        return readReference(p, value.ref);
    }
    if (isIdStart(c)) {
        const char* e = scanIdentifier(p);
        std::string_view id = view(p, e);
        if (id == "true" || id == "false") {
            value.kind = LiteralKind::Bool;
            value.boolean = id == "true";
            return e;
        }
        if (id == "null") {
            value.kind = LiteralKind::Ref;
            value.ref.names.clear();
            return e;
        }
        if (parseDataType(id, value.type)) {
            value.kind = LiteralKind::Type;
            return e;
        }
        if (id.find('_') == std::string_view::npos) {
            value.kind = LiteralKind::Base64;
            std::vector<uint8_t> bytes;
            const char* q = readBase64(p, bytes);
            if (q) value.text.assign(bytes.begin(), bytes.end());
            return q;
        }
        return fail(p, "expected a property value (bool, number, string, reference, type or base64), found " +
                           describe(p));
    }
    if (!(isDigit(c) || c == '+' || c == '-' || c == '.' || c == '\''))
        return fail(p, "expected a property value (bool, number, string, reference, type or base64), found " +
                           describe(p));
    const char* start = p;
    p = readSign(p, value.negative);
    if (!p) return nullptr;
    // Decimal digits followed by '.' or an exponent, or a leading '.', make a float.
    const char* q = p;
    while (q < m_end && (isDigit(*q) || *q == '_')) ++q;
    bool radix = p + 1 < m_end && *p == '0' && isRadixLetter(p[1]);
    bool isFloat = !radix && q < m_end && (*q == '.' || *q == 'e' || *q == 'E') && (q > p || *q == '.');
    if (!isFloat) {
        uint64_t magnitude = 0;
        bool overflow = false;
        IntForm form = IntForm::Decimal;
        const char* e = readUnsigned(p, magnitude, overflow, form);
        if (!e) return nullptr;
        if (e == p) return fail(start, "expected a property value after the sign, found " + describe(p));
        if (!overflow) {
            value.kind = LiteralKind::Integer;
            value.magnitude = magnitude;
            value.number = value.negative ? -double(magnitude) : double(magnitude);
            return e;
        }
        if (form != IntForm::Decimal)
            return fail(start, "integer " + text(start, e) + " does not fit in 64 bits");
    }
    // A float, or a decimal integer too large for 64 bits read as one.
    double number = 0;
    const char* e = readDecimalFloat(p, number, "double", start);
    if (!e) return nullptr;
    value.kind = LiteralKind::Float;
    value.number = value.negative ? -number : number;
    return e;
}

// ---------------------------------------------------------------------------------------------
// Elements

// The common case inline: an optional '-' and up to 18 decimal digits.
template <class T>
inline const char* Parser::intElement(const char* p, ByteSink& sink, DataType type) {
    const bool negative = *p == '-';
    const char* q = p + (negative ? 1 : 0);
    const char* digits = q;
    if (q < m_end && isDigit(*q) && !(*q == '0' && q + 1 < m_end && isRadixLetter(q[1]))) {
        uint64_t magnitude = 0;
        while (q < m_end && isDigit(*q) && q - digits < 18) magnitude = magnitude * 10 + unsigned(*q++ - '0');
        constexpr uint64_t kMax = uint64_t(std::numeric_limits<T>::max());
        constexpr uint64_t kMinMagnitude = std::is_signed<T>::value ? kMax + 1 : 0;
        if (!(q < m_end && (isDigit(*q) || *q == '_')) &&
            (negative ? magnitude <= kMinMagnitude : magnitude <= kMax)) {
            uint64_t bits = negative ? ~magnitude + 1 : magnitude;
            std::memcpy(sink.take(sizeof(T)), &bits, sizeof(T));  // the low bytes, little-endian
            return q;
        }
    }
    return intElementSlow<T>(p, sink, type);
}

template <class T>
const char* Parser::intElementSlow(const char* p, ByteSink& sink, DataType type) {
    const char* start = p;
    bool negative = false;
    if (*p == '-' || *p == '+') {
        p = readSign(p, negative);
        if (!p) return nullptr;
    }
    uint64_t magnitude;
    bool overflow;
    IntForm form;
    const char* e = readUnsigned(p, magnitude, overflow, form);
    if (!e) return nullptr;
    if (e == p) {
        return fail(start, std::string("expected an integer value in a ") + dataTypeName(type) + " list, found " +
                               describe(start));
    }
    constexpr uint64_t kMax = uint64_t(std::numeric_limits<T>::max());
    constexpr uint64_t kMinMagnitude = std::is_signed<T>::value ? kMax + 1 : 0;
    if (overflow || (negative ? magnitude > kMinMagnitude : magnitude > kMax))
        return fail(start, "integer " + text(start, e) + " does not fit in " + dataTypeName(type));
    uint64_t bits = negative ? ~magnitude + 1 : magnitude;
    std::memcpy(sink.take(sizeof(T)), &bits, sizeof(T));  // the low bytes, little-endian
    return e;
}

// A hexadecimal, octal or binary literal at `p` giving the bits of a float type's value (A.3.3).
// A minus sign flips the sign bit.
const char* Parser::bitPattern(const char* p, const char* literalStart, bool negative, unsigned bits,
                               DataType type, uint64_t& pattern) {
    bool overflow = false;
    IntForm form;
    const char* e = readUnsigned(p, pattern, overflow, form);
    if (!e) return nullptr;
    if (overflow || (bits < 64 && (pattern >> bits) != 0)) {
        return fail(literalStart, "bit pattern " + text(literalStart, e) + " does not fit in the " +
                                      std::to_string(bits) + " bits of a " + dataTypeName(type));
    }
    if (negative) pattern ^= uint64_t(1) << (bits - 1);
    return e;
}

// The common cases inline: an optional '-' and either a decimal literal read by quickDecimal or
// fast_float, or a hexadecimal bit pattern of at most the type's width in digits, as the
// OpenGEX exporters write them. Everything else (signs with space, '+', octal and binary,
// underscores, errors) goes to floatElementSlow.
template <class T, class Bits>
inline const char* Parser::floatElement(const char* p, ByteSink& sink, DataType type) {
    const bool negative = *p == '-';
    const char* d = p + (negative ? 1 : 0);
    if (d < m_end && (isDigit(*d) || *d == '.')) {
        if (*d == '0' && d + 1 < m_end && isRadixLetter(d[1])) {
            if ((d[1] | 0x20) == 'x') {
                const char* q = d + 2;
                const char* limit = q + std::min<ptrdiff_t>(m_end - q, ptrdiff_t(2 * sizeof(T)));
                uint64_t bits = 0;
                for (int v; q < limit && (v = hexValue(*q)) >= 0; ++q) bits = (bits << 4) | unsigned(v);
                if (q > d + 2 && !(q < m_end && (hexValue(*q) >= 0 || *q == '_'))) {
                    if (negative) bits ^= uint64_t(1) << (8 * sizeof(T) - 1);
                    Bits b = Bits(bits);
                    std::memcpy(sink.take(sizeof(T)), &b, sizeof(T));
                    return q;
                }
            }
        } else {
            T value;
            if (const char* e = quickDecimal(p, m_end, value)) {
                std::memcpy(sink.take(sizeof(T)), &value, sizeof(T));
                return e;
            }
            fast_float::from_chars_result r = fast_float::from_chars(p, m_end, value);
            if (r.ec == std::errc() && !(r.ptr < m_end && *r.ptr == '_') &&
                std::fabs(value) <= std::numeric_limits<T>::max()) {
                std::memcpy(sink.take(sizeof(T)), &value, sizeof(T));
                return r.ptr;
            }
        }
    }
    return floatElementSlow<T, Bits>(p, sink, type);
}

template <class T, class Bits>
const char* Parser::floatElementSlow(const char* p, ByteSink& sink, DataType type) {
    const char* start = p;
    bool negative = false;
    p = readSign(p, negative);
    if (!p) return nullptr;
    if (p + 1 < m_end && *p == '0' && isRadixLetter(p[1])) {
        uint64_t pattern;
        p = bitPattern(p, start, negative, sizeof(T) * 8, type, pattern);
        if (!p) return nullptr;
        Bits b = Bits(pattern);
        std::memcpy(sink.take(sizeof(T)), &b, sizeof(T));
        return p;
    }
    T value;
    p = readDecimalFloat(p, value, dataTypeName(type), start);
    if (!p) return nullptr;
    if (negative) value = -value;
    std::memcpy(sink.take(sizeof(T)), &value, sizeof(T));
    return p;
}

const char* Parser::halfElement(const char* p, ByteSink& sink) {
    const char* start = p;
    bool negative = false;
    p = readSign(p, negative);
    if (!p) return nullptr;
    uint16_t h;
    if (p + 1 < m_end && *p == '0' && isRadixLetter(p[1])) {
        uint64_t pattern;
        p = bitPattern(p, start, negative, 16, DataType::Half, pattern);
        if (!p) return nullptr;
        h = uint16_t(pattern);
    } else {
        double value;
        p = readDecimalFloat(p, value, "half", start);
        if (!p) return nullptr;
        bool overflow;
        h = doubleToHalf(negative ? -value : value, overflow);
        if (overflow) return fail(start, "value " + text(start, p) + " does not fit in half");
    }
    std::memcpy(sink.take(2), &h, 2);
    return p;
}

const char* Parser::boolElement(const char* p, ByteSink& sink) {
    const char* e = p;
    uint8_t value = 0;
    if (isIdStart(*p)) {
        e = scanIdentifier(p);
        std::string_view id = view(p, e);
        if (id == "true") value = 1;
        else if (id != "false") e = p;
    } else if ((*p == '0' || *p == '1') && !(p + 1 < m_end && isIdChar(p[1]))) {
        value = uint8_t(*p - '0');
        e = p + 1;
    }
    if (e == p) return fail(p, "expected true, false, 0 or 1 in a bool list, found " + describe(p));
    *sink.take(1) = value;
    return e;
}

// ---------------------------------------------------------------------------------------------
// Primitive data lists (A.7)

// The braces' contents of a primitive structure at `p` (just past '{'): a flat list, or subarrays
// of d.arraySize elements with optional state identifiers. `elem` reads one element at a position
// that holds something other than whitespace, ',' and '}' and returns the position after it.
// kComments: false inside base64 data, where '/' is a digit.
template <bool kComments, class Elem>
const char* Parser::parseData(const char* p, PrimitiveData& d, Elem&& elem) {
    auto skip = [this](const char* q) { return kComments ? skipSpace(q) : skipWhitespaceOnly(q); };
    const char* typeName = dataTypeName(d.type);
    p = skip(p);
    if (!p) return nullptr;
    if (d.arraySize == 0) {
        if (p < m_end && *p == '}') return p + 1;
        for (;;) {
            if (p >= m_end || *p == '}' || *p == ',')
                return fail(p, std::string("expected a ") + typeName + " value, found " + describe(p));
            p = elem(p);
            if (!p) return nullptr;
            p = skip(p);
            if (!p) return nullptr;
            if (p < m_end) {
                if (*p == ',') {
                    p = skip(p + 1);
                    if (!p) return nullptr;
                    continue;
                }
                if (*p == '}') return p + 1;
            }
            return fail(p, std::string("expected ',' or '}' in a ") + typeName + " list, found " + describe(p));
        }
    }
    // Subarrays: around them comments are always allowed.
    if (p < m_end && *p == '}') return p + 1;
    uint64_t index = 0;
    const std::string arrayName = std::string(typeName) + "[" + std::to_string(d.arraySize) + "]";
    for (;;) {
        if (p < m_end && isIdStart(*p)) {
            const char* e = scanIdentifier(p);
            if (!d.hasStates) {
                return fail(p, "state identifier '" + text(p, e) + "' before a subarray needs '*' after " +
                                   arrayName);
            }
            if (index > std::numeric_limits<uint32_t>::max()) return fail(p, "too many subarrays");
            d.states.emplace_back(uint32_t(index), view(p, e));
            p = skipSpace(e);
            if (!p) return nullptr;
        }
        if (p >= m_end || *p != '{')
            return fail(p, "expected '{' to open a subarray of " + arrayName + ", found " + describe(p));
        p = skip(p + 1);
        if (!p) return nullptr;
        uint32_t count = 0;
        if (p < m_end && *p == '}') {
            ++p;
        } else {
            for (;;) {
                if (count == d.arraySize) {
                    return fail(p, "subarray " + std::to_string(index) + " has more than " +
                                       std::to_string(d.arraySize) + " elements (" + arrayName + ")");
                }
                if (p >= m_end || *p == '}' || *p == ',')
                    return fail(p, std::string("expected a ") + typeName + " value, found " + describe(p));
                p = elem(p);
                if (!p) return nullptr;
                ++count;
                p = skip(p);
                if (!p) return nullptr;
                if (p < m_end) {
                    if (*p == ',') {
                        p = skip(p + 1);
                        if (!p) return nullptr;
                        continue;
                    }
                    if (*p == '}') {
                        ++p;
                        break;
                    }
                }
                return fail(p, std::string("expected ',' or '}' in a ") + arrayName + " subarray, found " +
                                   describe(p));
            }
        }
        if (count != d.arraySize) {
            return fail(p - 1, "subarray " + std::to_string(index) + " has " + std::to_string(count) +
                                   " element" + (count == 1 ? "" : "s") + ", " + arrayName + " needs " +
                                   std::to_string(d.arraySize));
        }
        ++index;
        p = skipSpace(p);
        if (!p) return nullptr;
        if (p < m_end && *p == ',') {
            p = skipSpace(p + 1);
            if (!p) return nullptr;
            continue;
        }
        if (p < m_end && *p == '}') return p + 1;
        return fail(p, "expected ',' or '}' after a subarray of " + arrayName + ", found " + describe(p));
    }
}

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
        unsigned special = unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, slash))));
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

template <class Elem>
const char* Parser::parseFixed(const char* p, PrimitiveData& d, size_t count, Elem&& elem) {
    ByteSink sink(d.bytes);
    sink.grow(count * elementSize(d.type));
    p = parseData<true>(p, d, [&](const char* q) { return elem(q, sink); });
    sink.finish();
    return p;
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

#if defined(__SSE2__)
constexpr bool kBlockScan = true;

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

#else
constexpr bool kBlockScan = false;
#endif

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
    if (r.ec != std::errc() || r.ptr != end || !(std::fabs(value) <= std::numeric_limits<T>::max())) return false;
    std::memcpy(out, &value, sizeof(T));
    return true;
}

}  // namespace

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

const char* blockScanInstructionSet() {
#if defined(ESV_DDL_AVX2)
    if (haveAvx2()) return "AVX2";
#endif
    return kBlockScan ? "SSE2" : "none";
}

// The block scanner for the types it reads, when the list qualifies; false leaves `d` as it was
// (no elements) for the element-by-element reader.
bool Parser::scanNumbers(const char* p, const char* close, PrimitiveData& d, size_t count) {
    if (!kBlockScan || !m_blockScan || d.hasStates || count == 0) return false;
    bool ok = false;
#if defined(__SSE2__)
#if defined(ESV_DDL_AVX2)
    if (m_blockScanAvx2 && haveAvx2()) ok = avx2::scanList(p, close, d, count);
    else
#endif
        ok = sse2::scanList(p, close, d, count);
#else
    (void)p, (void)close;
#endif
    if (!ok) d.bytes.clear();
    m_blockScanned += ok ? 1 : 0;
    return ok;
}

const char* Parser::parsePrimitive(const char* p, Structure& s, DataType type) {
    PrimitiveData& d = s.data;
    d.type = type;
    p = skipSpace(p);
    if (!p) return nullptr;
    if (p < m_end && *p == '[') {
        const char* open = p;
        p = skipSpace(p + 1);
        if (!p) return nullptr;
        const char* literal = p;
        uint64_t size = 0;
        bool overflow = false;
        IntForm form;
        const char* e = readUnsigned(p, size, overflow, form);
        if (!e) return nullptr;
        if (e == p) return fail(p, "expected an array size after '[', found " + describe(p));
        if (overflow || size == 0 || size > std::numeric_limits<uint32_t>::max())
            return fail(literal, "array size " + text(literal, e) + " is not in [1, 4294967295]");
        d.arraySize = uint32_t(size);
        p = skipSpace(e);
        if (!p) return nullptr;
        if (p >= m_end || *p != ']')
            return fail(p, "expected ']' after the array size of '" + text(open, p) + "', found " + describe(p));
        p = skipSpace(p + 1);
        if (!p) return nullptr;
        if (p < m_end && *p == '*') {
            d.hasStates = true;
            p = skipSpace(p + 1);
            if (!p) return nullptr;
        }
    }
    p = readOptionalName(p, s);
    if (!p) return nullptr;
    if (p < m_end && *p == '(') return fail(p, "a primitive structure cannot have properties (A.8)");
    if (p >= m_end || *p != '{') {
        return fail(p, std::string("expected '{' to open the data of ") + dataTypeName(type) +
                           (d.arraySize ? "[" + std::to_string(d.arraySize) + "]" : "") + ", found " +
                           describe(p));
    }
    ++p;
    if (type != DataType::String && type != DataType::Ref && type != DataType::Type && type != DataType::Base64) {
        const char* close = nullptr;
        const size_t count = countElements(p, &close);
        // Long arrays of a large file are converted by the pool, beside this parse, which goes on
        // after the closing brace that countElements found.
        if (m_pool && close && size_t(close - p) >= m_deferBytes) {
            m_pool->push({&d, p, close, count});
            return close + 1;
        }
        return parseNumbers(p, d, count, close);
    }
    return parseText(p, d);
}

// `close`: the closing brace that countElements found, or null.
const char* Parser::parseNumbers(const char* p, PrimitiveData& d, size_t count, const char* close) {
    if (close && scanNumbers(p, close, d, count)) return close + 1;
    switch (d.type) {
        case DataType::Bool: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return boolElement(q, k); });
        case DataType::Int8: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<int8_t>(q, k, DataType::Int8); });
        case DataType::Int16: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<int16_t>(q, k, DataType::Int16); });
        case DataType::Int32: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<int32_t>(q, k, DataType::Int32); });
        case DataType::Int64: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<int64_t>(q, k, DataType::Int64); });
        case DataType::UInt8: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<uint8_t>(q, k, DataType::UInt8); });
        case DataType::UInt16: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<uint16_t>(q, k, DataType::UInt16); });
        case DataType::UInt32: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<uint32_t>(q, k, DataType::UInt32); });
        case DataType::UInt64: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return intElement<uint64_t>(q, k, DataType::UInt64); });
        case DataType::Half: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return halfElement(q, k); });
        case DataType::Float: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return floatElement<float, uint32_t>(q, k, DataType::Float); });
        case DataType::Double: return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return floatElement<double, uint64_t>(q, k, DataType::Double); });
        default: break;
    }
    return fail(p, "unknown primitive type");
}

const char* Parser::parseText(const char* p, PrimitiveData& d) {
    switch (d.type) {
        case DataType::String:
            return parseData<true>(p, d, [this, &d](const char* q) -> const char* {
                if (*q != '"') return fail(q, "expected a string in a string list, found " + describe(q));
                d.strings.emplace_back();
                return readString(q, d.strings.back());
            });
        case DataType::Ref:
            return parseData<true>(p, d, [this, &d](const char* q) {
                d.refs.emplace_back();
                return readReference(q, d.refs.back());
            });
        case DataType::Type:
            return parseData<true>(p, d, [this, &d](const char* q) -> const char* {
                const char* e = isIdStart(*q) ? scanIdentifier(q) : q;
                DataType t;
                if (e == q || !parseDataType(view(q, e), t))
                    return fail(q, "expected a type name in a type list, found " + describe(q));
                d.types.push_back(t);
                return e;
            });
        case DataType::Base64:
            return parseData<false>(p, d, [this, &d](const char* q) {
                d.blobs.emplace_back();
                return readBase64(q, d.blobs.back());
            });
        default: break;
    }
    return fail(p, "unknown primitive type");
}

// Name and properties of a derived structure, up to and including its '{'.
const char* Parser::parseHeader(const char* p, Structure& s) {
    p = skipSpace(p);
    if (!p) return nullptr;
    p = readOptionalName(p, s);
    if (!p) return nullptr;
    if (p < m_end && *p == '(') {
        p = skipSpace(p + 1);
        if (!p) return nullptr;
        m_properties.clear();
        if (p < m_end && *p == ')') {
            p = skipSpace(p + 1);
        } else {
            for (;;) {
                if (p >= m_end || !isIdStart(*p))
                    return fail(p, "expected a property identifier, found " + describe(p));
                Property& prop = m_properties.emplace_back();
                prop.offset = offsetOf(p);
                const char* e = scanIdentifier(p);
                prop.identifier = view(p, e);
                p = skipSpace(e);
                if (!p) return nullptr;
                if (p < m_end && *p == '=') {
                    p = skipSpace(p + 1);
                    if (!p) return nullptr;
                    p = readPropertyValue(p, prop.value);
                    if (!p) return nullptr;
                    p = skipSpace(p);
                    if (!p) return nullptr;
                } else {
                    // A.8: a property without a value is a boolean set to true.
                    prop.value.kind = LiteralKind::Bool;
                    prop.value.boolean = true;
                }
                if (p < m_end && *p == ',') {
                    p = skipSpace(p + 1);
                    if (!p) return nullptr;
                    continue;
                }
                if (p < m_end && *p == ')') {
                    p = skipSpace(p + 1);
                    s.properties.assign(std::make_move_iterator(m_properties.begin()),
                                        std::make_move_iterator(m_properties.end()));
                    break;
                }
                return fail(p, "expected ',' or ')' in the property list of " + std::string(s.identifier) +
                                   ", found " + describe(p));
            }
        }
        if (!p) return nullptr;
    }
    if (p >= m_end || *p != '{')
        return fail(p, "expected '{' to open " + std::string(s.identifier) + ", found " + describe(p));
    return p + 1;
}

bool Parser::run(Offset& errorOffset, std::string& errorMessage, ConversionPool* pool) {
    m_pool = pool;
    Structure* open = nullptr;  // the derived structure whose substructures are being read
    uint32_t depth = 0;
    const char* p = m_begin;
    // A UTF-8 byte order mark, which some editors and exporters put first, is read as whitespace.
    if (m_end - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    for (;;) {
        p = skipSpace(p);
        if (!p) break;
        if (p >= m_end) {
            if (open) {
                int line, column;
                m_doc.locate(open->offset, line, column);
                fail(p, "expected '}' to close " + std::string(open->identifier) + " (opened at line " +
                            std::to_string(line) + "), found end of file");
            }
            break;
        }
        if (*p == '}') {
            if (!open) {
                fail(p, "unexpected '}' at the top level");
                break;
            }
            open->endOffset = offsetOf(p + 1);
            open->children.assign(m_pending.begin() + std::ptrdiff_t(m_marks.back()), m_pending.end());
            m_pending.resize(m_marks.back());
            m_marks.pop_back();
            open = open->parent;
            --depth;
            ++p;
            continue;
        }
        if (!isIdStart(*p)) {
            fail(p, std::string("expected a structure identifier") + (open ? " or '}'" : "") + ", found " +
                        describe(p));
            break;
        }
        if (depth >= m_maxDepth) {
            fail(p, "nesting deeper than " + std::to_string(m_maxDepth) + " structures");
            break;
        }
        const char* e = scanIdentifier(p);
        Structure& s = m_doc.m_arena.emplace_back();
        s.identifier = view(p, e);
        s.offset = offsetOf(p);
        s.parent = open;
        (open ? m_pending : m_doc.m_roots).push_back(&s);
        DataType type;
        if (parseDataType(s.identifier, type)) {
            s.primitive = true;
            p = parsePrimitive(e, s, type);
            if (!p) break;
            s.endOffset = offsetOf(p);
        } else {
            p = parseHeader(e, s);
            if (!p) break;
            open = &s;
            m_marks.push_back(m_pending.size());
            ++depth;
        }
        if (s.hasName && s.name.global) m_doc.m_globals.emplace_back(s.name.identifier, &s);
    }
    // The pool's arrays come before anything checkNames could find; a failure there is the
    // caller's to resolve (it parses again without a pool).
    if (m_pool && !m_pool->finish()) {
        m_failed = true;
        errorOffset = 0;
        errorMessage.clear();
        return false;
    }
    if (!m_failed) checkNames();
    m_doc.m_blockScanned = m_blockScanned + (m_pool ? m_pool->blockScanned() : 0);
    m_doc.m_deferredLists = m_pool ? m_pool->converted() : 0;
    m_doc.m_secondThreadLists = m_pool ? m_pool->convertedOnSecondThread() : 0;
    if (m_failed) {
        errorOffset = m_errorOffset;
        errorMessage = std::move(m_errorMessage);
        return false;
    }
    return true;
}

void Parser::checkLocalNames(const std::vector<Structure*>& siblings, const Structure*& dup,
                             const Structure*& first) {
    m_names.clear();
    for (const Structure* c : siblings)
        if (c->hasName && !c->name.global) m_names.emplace_back(c->name.identifier, c);
    if (m_names.size() < 2) return;
    std::sort(m_names.begin(), m_names.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second->offset < b.second->offset;
    });
    for (size_t i = 1; i < m_names.size(); ++i) {
        if (m_names[i].first == m_names[i - 1].first && (!dup || m_names[i].second->offset < dup->offset)) {
            dup = m_names[i].second;
            first = m_names[i - 1].second;
        }
    }
}

// A.5: global names are unique in the file, local names among siblings. Reports the duplicate
// that comes first in the file. Sorts the global name table for Document::findGlobal.
bool Parser::checkNames() {
    auto& globals = m_doc.m_globals;
    std::sort(globals.begin(), globals.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second->offset < b.second->offset;
    });
    const Structure* dup = nullptr;
    const Structure* first = nullptr;
    for (size_t i = 1; i < globals.size(); ++i) {
        if (globals[i].first == globals[i - 1].first && (!dup || globals[i].second->offset < dup->offset)) {
            dup = globals[i].second;
            first = globals[i - 1].second;
        }
    }
    checkLocalNames(m_doc.m_roots, dup, first);
    for (const Structure& s : m_doc.m_arena)
        if (s.children.size() > 1) checkLocalNames(s.children, dup, first);
    if (!dup) return true;
    int line, column;
    m_doc.locate(first->offset, line, column);
    const char* at = dup->name.identifier.data() - 1;  // the '$' or '%'
    fail(at, std::string("duplicate ") + (dup->name.global ? "global name '$" : "local name '%") +
                 std::string(dup->name.identifier) + "' (first given at line " + std::to_string(line) +
                 (dup->name.global ? ")" : "; local names must differ among siblings)"));
    return false;
}

// ---------------------------------------------------------------------------------------------
// Document

bool Document::parse(std::shared_ptr<const std::vector<uint8_t>> source, ParseError& error,
                     const ParseOptions& options) {
    std::string_view text;
    if (source && !source->empty()) text = std::string_view(reinterpret_cast<const char*>(source->data()), source->size());
    return parse(std::shared_ptr<const void>(std::move(source)), text, error, options);
}

bool Document::parse(std::shared_ptr<const void> owner, std::string_view text, ParseError& error,
                     const ParseOptions& options) {
    m_owner = std::move(owner);
    m_text = text;
    m_arena.clear();
    m_roots.clear();
    m_globals.clear();
    m_lineStarts.clear();
    m_blockScanned = m_deferredLists = m_secondThreadLists = 0;
    m_reparsed = false;
    const char* begin = "";
    const char* end = begin;
    if (!m_text.empty()) {
        begin = m_text.data();
        end = begin + m_text.size();
    }
    Offset offset = 0;
    std::string message;
    // Large files convert their long arrays on a second thread. Should anything fail with it, the
    // text is parsed again on this thread alone, which finds the first error in the file.
    if (size_t(end - begin) >= options.parallelBytes) {
        bool used = false;
        {
            ConversionPool pool(*this, begin, end, options);
            Parser parser(*this, begin, end, options);
            if (parser.run(offset, message, &pool)) return true;
            used = pool.used();
        }
        if (used) {
            m_reparsed = true;
            m_deferredLists = m_secondThreadLists = 0;
            m_arena.clear();
            m_roots.clear();
            m_globals.clear();
            m_lineStarts.clear();
            offset = 0;
            message.clear();
            Parser parser(*this, begin, end, options);
            if (parser.run(offset, message)) return true;
        }
    } else {
        Parser parser(*this, begin, end, options);
        if (parser.run(offset, message)) return true;
    }
    error.offset = offset;
    error.message = std::move(message);
    locate(offset, error.line, error.column);
    m_arena.clear();
    m_roots.clear();
    m_globals.clear();
    return false;
}

const Structure* Document::findGlobal(std::string_view identifier) const {
    auto it = std::lower_bound(m_globals.begin(), m_globals.end(), identifier,
                               [](const auto& entry, std::string_view id) { return entry.first < id; });
    return it != m_globals.end() && it->first == identifier ? it->second : nullptr;
}

namespace {
const Structure* findLocal(const std::vector<Structure*>& structures, std::string_view identifier) {
    for (const Structure* s : structures)
        if (s->hasName && !s->name.global && s->name.identifier == identifier) return s;
    return nullptr;
}
}  // namespace

const Structure* Document::resolve(const Reference& ref, const Structure* context) const {
    if (ref.names.empty()) return nullptr;
    const Name& head = ref.names[0];
    const Structure* s = nullptr;
    if (head.global) {
        s = findGlobal(head.identifier);
    } else if (!context) {
        s = findLocal(m_roots, head.identifier);
    } else {
        for (const Structure* c = context; c && !s; c = c->parent)
            s = findLocal(c->parent ? c->parent->children : m_roots, head.identifier);
    }
    for (size_t i = 1; s && i < ref.names.size(); ++i) {
        if (ref.names[i].global) return nullptr;  // A.6: only the first name can be global
        s = findLocal(s->children, ref.names[i].identifier);
    }
    return s;
}

void Document::locate(Offset offset, int& line, int& column) const {
    const size_t size = m_text.size();
    if (m_lineStarts.empty()) {
        m_lineStarts.push_back(0);
        if (size) {
            const char* base = m_text.data();
            const char* p = base;
            const char* end = base + size;
            while (const void* nl = std::memchr(p, '\n', size_t(end - p))) {
                p = static_cast<const char*>(nl) + 1;
                m_lineStarts.push_back(Offset(p - base));
            }
        }
    }
    if (offset > size) offset = size;
    auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    size_t index = size_t(it - m_lineStarts.begin()) - 1;
    line = int(std::min<size_t>(index + 1, size_t(std::numeric_limits<int>::max())));
    column = int(std::min<Offset>(offset - m_lineStarts[index] + 1, Offset(std::numeric_limits<int>::max())));
}

}  // namespace esv::ddl
