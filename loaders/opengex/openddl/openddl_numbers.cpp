// OpenDDL parser: number conversion. Integer literals of every form (decimal, hexadecimal, octal,
// binary, character; A.3.2), floats as decimals or bit patterns (A.3.3), half, bool, and the
// elements of numeric data lists: the common forms inline (short decimals by one exact division,
// the rest by fast_float), everything else on a slow path that words the errors. The block
// scanner that reads plain lists 64 bytes at a time is in openddl_scan.cpp.
#include "loaders/opengex/openddl/openddl_internal.h"

#include <fast_float/fast_float.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>
#include <type_traits>

namespace esv::ddl {

namespace {

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

// The short decimal literals that fill vertex arrays ("-3.25", "0.685881"), read without a
// library call: digits [. digits] with no exponent whose digits, as an integer, are exactly
// representable in T and whose fraction has at most kMaxExact digits. Then value = digits /
// 10^fraction is one correctly rounded IEEE division of two exact values, which is the nearest T
// to the literal (Clinger's fast path, as fast_float takes it; the default round-to-nearest mode
// is assumed). Returns null when the literal is anything else, for fast_float to read.
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
    if (digits == 0 || digits > 19 || fraction > Pow10<T>::kMaxExact || m > Pow10<T>::kMaxMantissa)
        return nullptr;
    if (q < end && (*q == 'e' || *q == 'E' || *q == '_')) return nullptr;
    out = withSign(T(m) / Pow10<T>::kTable[fraction], negative);
    return q;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Literals

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
const char* Parser::readDecimalFloat(const char* p, T& value, const char* typeName,
                                     const char* literalStart) {
    const bool minus = p < m_end && *p == '-';
    const char* digits = p + (minus ? 1 : 0);
    if (digits >= m_end || !(isDigit(*digits) || *digits == '.'))
        return fail(literalStart,
                    std::string("expected a ") + typeName + " value, found " + describe(literalStart));
    fast_float::from_chars_result r = fast_float::from_chars(p, m_end, value);
    if (r.ec != std::errc() || (r.ptr < m_end && *r.ptr == '_')) {
        const char* q = readDecimalWithUnderscores(digits, value);
        if (!q)
            return fail(literalStart,
                        std::string("malformed ") + typeName + " value " + describe(literalStart));
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

template const char* Parser::readDecimalFloat<float>(const char*, float&, const char*, const char*);
template const char* Parser::readDecimalFloat<double>(const char*, double&, const char*, const char*);

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
        return fail(start, std::string("expected an integer value in a ") + dataTypeName(type) +
                               " list, found " + describe(start));
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
        if (id == "true")
            value = 1;
        else if (id != "false")
            e = p;
    } else if ((*p == '0' || *p == '1') && !(p + 1 < m_end && isIdChar(p[1]))) {
        value = uint8_t(*p - '0');
        e = p + 1;
    }
    if (e == p) return fail(p, "expected true, false, 0 or 1 in a bool list, found " + describe(p));
    *sink.take(1) = value;
    return e;
}

template <class Elem>
const char* Parser::parseFixed(const char* p, PrimitiveData& d, size_t count, Elem&& elem) {
    ByteSink sink(d.bytes);
    sink.grow(count * elementSize(d.type));
    p = parseData<true>(p, d, [&](const char* q) { return elem(q, sink); });
    sink.finish();
    return p;
}

// `close`: the closing brace that countElements found, or null.
const char* Parser::parseNumbers(const char* p, PrimitiveData& d, size_t count, const char* close) {
    if (close && scanNumbers(p, close, d, count)) return close + 1;
    switch (d.type) {
        case DataType::Bool:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return boolElement(q, k); });
        case DataType::Int8:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<int8_t>(q, k, DataType::Int8);
            });
        case DataType::Int16:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<int16_t>(q, k, DataType::Int16);
            });
        case DataType::Int32:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<int32_t>(q, k, DataType::Int32);
            });
        case DataType::Int64:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<int64_t>(q, k, DataType::Int64);
            });
        case DataType::UInt8:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<uint8_t>(q, k, DataType::UInt8);
            });
        case DataType::UInt16:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<uint16_t>(q, k, DataType::UInt16);
            });
        case DataType::UInt32:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<uint32_t>(q, k, DataType::UInt32);
            });
        case DataType::UInt64:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return intElement<uint64_t>(q, k, DataType::UInt64);
            });
        case DataType::Half:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) { return halfElement(q, k); });
        case DataType::Float:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return floatElement<float, uint32_t>(q, k, DataType::Float);
            });
        case DataType::Double:
            return parseFixed(p, d, count, [this](const char* q, ByteSink& k) {
                return floatElement<double, uint64_t>(q, k, DataType::Double);
            });
        default:
            break;
    }
    return fail(p, "unknown primitive type");
}

}  // namespace esv::ddl
