// OpenDDL parser (OpenGEX 3.0 spec, Appendix A): the grammar. Structures and their headers,
// names, properties, references, strings and base64, the text data lists, the structure loop and
// the checks of names (A.5); errors and their wording. Numbers are in openddl_numbers.cpp, the
// scanning of numeric lists in openddl_scan.cpp, the second thread in openddl_threads.cpp (see
// openddl_internal.h).
//
// Leniencies beyond the grammar of A.10, all unambiguous: whitespace (and comments) may follow a
// sign; a decimal float may end in a bare '.' ("1." and "1.e5"), as C and many exporters write it.
#include "loaders/opengex/openddl/openddl_internal.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>

namespace esv::ddl {

namespace {

// ---------------------------------------------------------------------------------------------
// Type names (Table A.1, Figure A.2, plus the OpenDDL 1 and 2 spellings still found in files)

struct TypeSpelling {
    std::string_view name;
    DataType type;
};

constexpr TypeSpelling kTypeSpellings[] = {
    {"float", DataType::Float},
    {"f", DataType::Float},
    {"float32", DataType::Float},
    {"f32", DataType::Float},
    {"uint32", DataType::UInt32},
    {"u32", DataType::UInt32},
    {"unsigned_int32", DataType::UInt32},
    {"uint16", DataType::UInt16},
    {"u16", DataType::UInt16},
    {"unsigned_int16", DataType::UInt16},
    {"string", DataType::String},
    {"s", DataType::String},
    {"ref", DataType::Ref},
    {"r", DataType::Ref},
    {"double", DataType::Double},
    {"d", DataType::Double},
    {"float64", DataType::Double},
    {"f64", DataType::Double},
    {"int32", DataType::Int32},
    {"i32", DataType::Int32},
    {"uint8", DataType::UInt8},
    {"u8", DataType::UInt8},
    {"unsigned_int8", DataType::UInt8},
    {"bool", DataType::Bool},
    {"b", DataType::Bool},
    {"int8", DataType::Int8},
    {"i8", DataType::Int8},
    {"int16", DataType::Int16},
    {"i16", DataType::Int16},
    {"int64", DataType::Int64},
    {"i64", DataType::Int64},
    {"uint64", DataType::UInt64},
    {"u64", DataType::UInt64},
    {"unsigned_int64", DataType::UInt64},
    {"half", DataType::Half},
    {"h", DataType::Half},
    {"float16", DataType::Half},
    {"f16", DataType::Half},
    {"type", DataType::Type},
    {"t", DataType::Type},
    {"base64", DataType::Base64},
    {"z", DataType::Base64},
};

constexpr const char* kTypeNames[] = {"bool",   "int8",   "int16",  "int32", "int64", "uint8",
                                      "uint16", "uint32", "uint64", "half",  "float", "double",
                                      "string", "ref",    "type",   "base64"};
static_assert(sizeof(kTypeNames) / sizeof(kTypeNames[0]) == size_t(DataType::Count));

constexpr uint8_t kElementSizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 0, 0, 0, 0};
static_assert(sizeof(kElementSizes) == size_t(DataType::Count));

// ---------------------------------------------------------------------------------------------
// Strings

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

}  // namespace

// ---------------------------------------------------------------------------------------------
// Type names: the public functions

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

// ---------------------------------------------------------------------------------------------
// Errors, whitespace, names

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
        return fail(id,
                    std::string("expected an identifier right after '") + *p + "', found " + describe(id));
    const char* e = scanIdentifier(id);
    name.identifier = view(id, e);
    return e;
}

// One escape sequence at `p` (the backslash). Single-byte escapes give `byte`; with `out` set (a
// string), \u and \U append their UTF-8 encoding there and `byte` is left alone.
const char* Parser::readEscape(const char* p, std::string* out, uint8_t& byte) {
    if (p + 1 >= m_end) return fail(p, "unfinished escape sequence at the end of the file");
    char c = p[1];
    switch (c) {
        case '"':
            byte = 0x22;
            return p + 2;
        case '\'':
            byte = 0x27;
            return p + 2;
        case '?':
            byte = 0x3F;
            return p + 2;
        case '\\':
            byte = 0x5C;
            return p + 2;
        case 'a':
            byte = 0x07;
            return p + 2;
        case 'b':
            byte = 0x08;
            return p + 2;
        case 'f':
            byte = 0x0C;
            return p + 2;
        case 'n':
            byte = 0x0A;
            return p + 2;
        case 'r':
            byte = 0x0D;
            return p + 2;
        case 't':
            byte = 0x09;
            return p + 2;
        case 'v':
            byte = 0x0B;
            return p + 2;
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
                return fail(p,
                            "escape sequence '" + text(p, p + 2 + digits) + "' is not a Unicode character");
            appendUtf8(*out, cp);
            return p + 2 + digits;
        }
        default:
            return fail(
                p, "unknown escape sequence '\\" + (c >= 0x20 && c < 0x7F ? std::string(1, c) : "?") + "'");
    }
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
            if (c == '\n' || c == '\r')
                return fail(open, "unterminated string: line break before the closing '\"'");
            if (c < 0x80)
                return fail(p, "control character " + describe(p) + " in a string; write it as an escape");
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
// Structures

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
            return fail(p,
                        "expected ']' after the array size of '" + text(open, p) + "', found " + describe(p));
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
    if (type != DataType::String && type != DataType::Ref && type != DataType::Type &&
        type != DataType::Base64) {
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
        default:
            break;
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

}  // namespace esv::ddl
