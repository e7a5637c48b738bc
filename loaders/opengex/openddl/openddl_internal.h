// What the OpenDDL parser's files share (private to loaders/opengex/openddl): character
// classes, the exact decimal helpers, the growing output of numeric data, the Parser and the
// ConversionPool.
//
// The parser makes one forward pass with a raw pointer over the text. Every scanning function
// takes the current position and returns the position after what it read, or null after
// recording the first error. Structures nest without recursion: the open structure is the
// parser's only stack (its parent pointers lead back to the top level), so depth costs nothing
// but a counter. Its members are defined in:
//   openddl_grammar.cpp  structures, names, properties, references, strings, base64, the checks
//                        of names (A.4 to A.10)
//   openddl_numbers.cpp  integer and float literals and the elements of numeric lists (A.3, A.7)
//   openddl_scan.cpp     the element count and the block scanner of numeric lists, CPU dispatch
//   openddl_threads.cpp  the ConversionPool (lists converted on the caller's worker) and
//                        Document::parse, which parses again on one thread when that fails
#pragma once

#include "loaders/opengex/openddl/openddl.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace esv::ddl {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "PrimitiveData::bytes holds elements in host order, which is little-endian only");

// ---------------------------------------------------------------------------------------------
// Character classes

enum CharClass : uint8_t {
    kSpace = 1,    // [1, 32] (A.9)
    kIdStart = 2,  // [A-Za-z_]
    kIdChar = 4,   // [0-9A-Za-z_]
    kDigit = 8,    // [0-9]
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
            base64[c] = upper      ? int8_t(c - 'A')
                        : lower    ? int8_t(c - 'a' + 26)
                        : digit    ? int8_t(c - '0' + 52)
                        : c == '+' ? int8_t(62)
                        : c == '/' ? int8_t(63)
                                   : int8_t(-1);
            hex[c] = digit                    ? int8_t(c - '0')
                     : (c >= 'A' && c <= 'F') ? int8_t(c - 'A' + 10)
                     : (c >= 'a' && c <= 'f') ? int8_t(c - 'a' + 10)
                                              : int8_t(-1);
        }
    }
};

inline constexpr CharTable kChars;

inline bool isClass(char c, uint8_t k) {
    return (kChars.cls[uint8_t(c)] & k) != 0;
}
inline bool isSpace(char c) {
    return isClass(c, kSpace);
}
inline bool isIdStart(char c) {
    return isClass(c, kIdStart);
}
inline bool isIdChar(char c) {
    return isClass(c, kIdChar);
}
inline bool isDigit(char c) {
    return uint8_t(c - '0') < 10;
}
inline int hexValue(char c) {
    return kChars.hex[uint8_t(c)];
}

inline bool isRadixLetter(char c) {
    char l = char(c | 0x20);
    return l == 'x' || l == 'o' || l == 'b';
}

// ---------------------------------------------------------------------------------------------
// Numbers: literal forms and exact decimals (openddl_numbers.cpp and the block scanner)

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
    static constexpr double kTable[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
};

// 10^0 to 10^8.
inline constexpr uint64_t kPow10U64[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

// The value of eight ASCII digits in a word, the first digit in the lowest byte (bytes that are
// zero count as leading zeros): three multiplications combine them in pairs, fours and eights.
inline uint64_t eightDigits(uint64_t v) {
    v = ((v & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
    return ((v & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
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

// ---------------------------------------------------------------------------------------------
// Output and views

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

inline std::string_view view(const char* from, const char* to) {
    return std::string_view(from, size_t(to - from));
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
          m_blockScanVector(options.blockScanVector),
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
    const bool m_blockScanVector;
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

// A worker's thread that converts long numeric arrays while the parser reads on
// (openddl_threads.cpp): the text of a large file is mostly such arrays, and countElements (which
// the parser runs anyway to size an array) finds where each ends, so the parse can step over it
// at once. Jobs are taken in file order; when the parse is done its own thread takes jobs too.
// Any failure (a bad element, an array ending elsewhere than countElements said, a thrown
// exception) is only recorded: the document is then parsed again without the pool, so that
// errors are exactly a sequential parse's (the first in the file). Held by a shared_ptr, which
// the job lent to the worker holds too: a job that begins after the parse has returned finds the
// pool closed and leaves the document alone.
class ConversionPool : public std::enable_shared_from_this<ConversionPool> {
public:
    // Made on the parsing thread; options.worker is the thread lent to it (not null).
    ConversionPool(Document& doc, const char* begin, const char* end, const ParseOptions& options);
    ConversionPool(const ConversionPool&) = delete;
    ConversionPool& operator=(const ConversionPool&) = delete;

    // Queues an array; asks the worker to run the conversion job until it agrees once.
    void push(const DeferredData& job);
    // Takes jobs until none is left, then waits for the worker's job to return. True when every
    // job converted cleanly. Rethrows an exception (std::bad_alloc) thrown by a job.
    bool finish();
    // On any way out of the parse (finish already done, or an exception): drops what is queued
    // and waits for the worker's job, so that nothing touches the document after it.
    void abandon();

    bool used() const { return m_pushed > 0; }
    size_t blockScanned() const { return m_blockScanned; }
    // Lists the pool converted (on either thread) and those of them the worker's thread converted.
    size_t converted() const { return m_converted; }
    size_t convertedOnSecondThread() const { return m_convertedOnWorker; }

private:
    Document& m_doc;
    const char* const m_begin;
    const char* const m_end;
    const ParseOptions m_options;
    const std::thread::id m_parseThread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<DeferredData> m_queue;
    bool m_lent = false;      // the worker took the job
    bool m_closed = false;    // no more jobs will be queued
    bool m_working = false;   // the worker's job is converting
    bool m_finished = false;  // the parse is done with the pool: a job that begins now returns
    bool m_failed = false;
    size_t m_pushed = 0;
    std::atomic<size_t> m_blockScanned{0};  // lists the jobs' block scanner read
    std::atomic<size_t> m_converted{0}, m_convertedOnWorker{0};
    std::exception_ptr m_exception;

    bool take(DeferredData& job, bool wait);
    void run(const DeferredData& job, bool worker);
    void work();  // the job lent to the worker
    void drain();
    void waitForWorker();
};

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
            return fail(p,
                        std::string("expected ',' or '}' in a ") + typeName + " list, found " + describe(p));
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

}  // namespace esv::ddl
