// OpenDDL (Open Data Description Language, OpenGEX 3.0 spec Appendix A): a parser that builds a
// tree of structures from text, usable on its own. It knows nothing of OpenGEX: derived
// structures of any identifier are kept with their names, properties and substructures, and a
// derivative format (loaders/opengex) interprets them.
//
// Speed: the text is read once by a hand-written scanner that does not allocate per token;
// numbers are converted with fast_float straight into typed arrays (one growing vector per
// primitive structure), identifiers and names are views into the source buffer. The parser
// starts no thread: a caller may lend one (ParseOptions::worker), on which the long numeric
// arrays of a large text are converted while the parse reads on.
//
// Safety: every structure and element comes from at least one byte of text, so memory is bounded
// by a small multiple of the input size; nesting deeper than ParseOptions::maxDepth is an error;
// the scanner never reads outside the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace esv::ddl {

// The 16 primitive data types (Table A.1).
enum class DataType : uint8_t {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Half,    // stored as IEEE binary16 bit patterns (uint16_t)
    Float,   // float32
    Double,  // float64
    String,
    Ref,
    Type,
    Base64,
    Count
};

// Canonical (OpenDDL 3) long name: "bool", "int8", ..., "uint8", ..., "half", "float", "double",
// "string", "ref", "type", "base64".
const char* dataTypeName(DataType type);
// Parses any accepted spelling of a type identifier: long names, short names ("i32", "u8", "f",
// "f16", "h", "d", "s", "r", "t", "z", "b", ...) and older names ("unsigned_int32", "float32",
// "float64", "float16", ...). Returns false when `text` names no primitive type.
bool parseDataType(std::string_view text, DataType& out);
// The instruction set the block scanner (ParseOptions::blockScan) uses on this processor with the
// default options: "AVX2", "SSE2", "NEON", or "portable" (plain C++: other processors, or
// `vector` false as with ParseOptions::blockScanVector false).
const char* blockScanInstructionSet(bool vector = true);
// Bytes per element in PrimitiveData::bytes for numeric, bool and half types (bool: 1 byte, 0/1);
// 0 for string, ref, type and base64.
size_t elementSize(DataType type);

// A structure name: an identifier with its scope. Views into the source text.
struct Name {
    std::string_view identifier;
    bool global = false;  // '$' (true) or '%' (false)
};

// A reference (A.6): a path of names, the first possibly global, the rest local. Empty = null.
struct Reference {
    std::vector<Name> names;
    bool isNull() const { return names.empty(); }
    std::string toString() const;  // "$a%b%c" or "null"
};

// Where something is in the source: byte offset. Line and column are computed on demand by
// Document::locate (they are not tracked per token).
using Offset = uint64_t;

// The value of a property (A.8). Properties carry no declared type in the text; the literal's
// lexical kind is kept and the derivative format asks for the type it expects with the as*()
// helpers, which report a mismatch by returning false.
enum class LiteralKind : uint8_t {
    Bool,     // true / false
    Integer,  // decimal, hex, octal, binary or character literal, optionally signed
    Float,    // decimal float with a fraction or exponent
    String,
    Ref,      // a name path or null
    Type,     // a primitive type identifier
    Base64,   // base64 data (A.8 allows it; only when it starts with a letter and is no keyword or
              // type name); the decoded bytes are in `text`
    Count
};

struct PropertyValue {
    LiteralKind kind = LiteralKind::Integer;
    bool boolean = false;
    bool negative = false;     // Integer: a leading minus sign
    uint64_t magnitude = 0;    // Integer: absolute value (or the bit pattern of a hex literal)
    double number = 0.0;       // Float (and Integer converted)
    std::string text;          // String, with escapes resolved (UTF-8); Base64: the decoded bytes
    Reference ref;
    DataType type = DataType::Bool;

    // true/false, or the integers 0 and 1 (A.3.1).
    bool asBool(bool& out) const;
    // A non-negative integer that fits.
    bool asUInt64(uint64_t& out) const;
    bool asUInt32(uint32_t& out) const;
    // Integer or float literal.
    bool asDouble(double& out) const;
    bool asString(std::string_view& out) const;
    bool asRef(const Reference*& out) const;
    bool asType(DataType& out) const;
};

struct Property {
    std::string_view identifier;
    PropertyValue value;
    Offset offset = 0;  // of the property identifier
};

// The data of a primitive structure (A.7).
struct PrimitiveData {
    DataType type = DataType::Float;
    uint32_t arraySize = 0;  // 0 = flat list; N = subarrays of N elements each
    bool hasStates = false;  // '*' after the array size

    // Numeric, bool and half elements, packed little-endian in the declared type (int8 one byte,
    // float four, half the binary16 bits). A hex/octal/binary literal given for a float type is
    // the bit pattern of the value (A.3.3). elementCount() = bytes.size() / elementSize(type).
    std::vector<uint8_t> bytes;
    std::vector<std::string> strings;          // String (escapes resolved, concatenations joined)
    std::vector<Reference> refs;               // Ref
    std::vector<DataType> types;               // Type
    std::vector<std::vector<uint8_t>> blobs;   // Base64, decoded
    // Data states: (subarray index, state identifier) where a state identifier precedes a
    // subarray. The state before the first entry is the derivative format's initial state.
    std::vector<std::pair<uint32_t, std::string_view>> states;

    size_t elementCount() const;
    // Number of subarrays (elementCount() / arraySize), or elementCount() for flat data.
    size_t subarrayCount() const;

    // Typed view of the elements when `type` matches T's DataType exactly (bool -> uint8_t,
    // half -> uint16_t); null otherwise, never null for a match (even with no elements). Defined
    // for int8_t ... uint64_t, float and double.
    template <class T>
    const T* as() const;
};

struct Structure {
    // As written: a derived structure's identifier ("GeometryNode"), or a primitive type's
    // spelling ("float", "unsigned_int32", "f32").
    std::string_view identifier;
    bool primitive = false;
    bool hasName = false;
    Name name;
    std::vector<Property> properties;   // derived structures only
    std::vector<Structure*> children;   // derived structures only, in file order
    Structure* parent = nullptr;        // null at the top level
    PrimitiveData data;                 // primitive structures only
    Offset offset = 0;                  // of the structure identifier
    Offset endOffset = 0;               // just past the closing brace

    // The property with this identifier; when it is given more than once, the last one, since A.8
    // says all but the final value are ignored (duplicates are kept in `properties` in order).
    const Property* property(std::string_view id) const;
    // Children whose identifier is `id`, in order (derived structures only).
    std::vector<const Structure*> childrenNamed(std::string_view id) const;
    // The first child with identifier `id`, or null.
    const Structure* child(std::string_view id) const;
    // The first primitive child, or null.
    const Structure* firstPrimitive() const;
};

// A thread the caller lends to a parse (ParseOptions::worker), on which long numeric arrays are
// converted while the parse reads on. The parser starts no thread of its own: the caller decides
// where the work runs (a thread of its own, a pool's) and owns it.
class Worker {
public:
    virtual ~Worker() = default;
    // Runs `job` once on a thread other than the caller's and returns true, or returns false
    // without running it (no thread to be had; throwing std::system_error counts as false). The
    // parse calls it from its own thread at the first array it hands over, again at each later one
    // while it gets false, and not again after a true. The job throws nothing; it converts arrays
    // until the parse has read its text and none is left, then returns. The parse waits for a job
    // that has begun before it returns; a job begun only after that, or run on the parsing thread
    // itself, returns at once and the parsing thread converts the arrays: so the worker may run the
    // job late, inline or never, and the document is the same.
    virtual bool run(std::function<void()> job) = 0;
};

// A Worker with one thread of its own: each job gets a new thread, which is joined before the
// next one starts and when the worker is destroyed. For one parse at a time; the thread lives
// as long as the job (the length of the parse), and the owner joins it by destroying the worker.
class ThreadWorker final : public Worker {
public:
    ThreadWorker() = default;
    ThreadWorker(const ThreadWorker&) = delete;
    ThreadWorker& operator=(const ThreadWorker&) = delete;
    ~ThreadWorker() override;
    bool run(std::function<void()> job) override;

private:
    std::thread m_thread;
};

struct ParseOptions {
    uint32_t maxDepth = 128;  // nesting of structures (derived or primitive) beyond this is an error
    // With a worker, a text of at least `parallelBytes` converts its numeric arrays of at least
    // `deferBytes` of text on the worker's thread while the parse reads on (SIZE_MAX: never). The
    // document is the same either way, errors included: on any failure the text is parsed again on
    // one thread.
    size_t parallelBytes = size_t(1) << 20;
    size_t deferBytes = 32 * 1024;
    // The thread for that (see Worker), owned by the caller and used by one parse at a time. Null:
    // the text is parsed on the calling thread alone, whatever its size.
    Worker* worker = nullptr;
    // Numeric lists in the plain form exporters write (decimal literals, one comma between
    // elements, braces around subarrays, no comments) are read 64 bytes at a time by a block
    // scanner; anything else in a list sends that list to the element-by-element reader, which
    // gives the same values and words the errors. False: always element by element (for
    // comparing the two).
    bool blockScan = true;
    // The block scanner's vector build: SSE2 on x86-64 (or AVX2, below), Advanced SIMD (NEON) on
    // 64-bit ARM. False: its plain C++ build, which every processor runs and which elsewhere is
    // the only one (for comparing them: all give the same bits).
    bool blockScanVector = true;
    // On x86-64 processors with AVX2 and BMI2 (checked at run time), the block scanner's build for
    // them: 32 bytes per comparison, one instruction per bit operation. False: the SSE2 build.
    bool blockScanAvx2 = true;
};

struct ParseError {
    Offset offset = 0;
    int line = 0;    // 1-based
    int column = 0;  // 1-based, in bytes
    std::string message;  // what was found and what was expected, e.g. "expected '}' or ',' after a float value, found 'x'"
};

class Document {
public:
    Document() = default;
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;
    Document(Document&&) = default;
    Document& operator=(Document&&) = default;

    // Parses the whole text. On failure returns false, sets `error` (the first error; parsing
    // stops there) and leaves the document without structures. `source` is kept alive by the
    // document: names and identifiers view into it. A null source parses as empty text.
    bool parse(std::shared_ptr<const std::vector<uint8_t>> source, ParseError& error,
               const ParseOptions& options = {});
    // The same for text owned by anything (a mapped file, say): `owner` keeps `text` alive.
    bool parse(std::shared_ptr<const void> owner, std::string_view text, ParseError& error,
               const ParseOptions& options = {});

    // Top-level structures in file order.
    const std::vector<Structure*>& roots() const { return m_roots; }
    std::vector<Structure*>& roots() { return m_roots; }

    // Structure with global name `$identifier`, or null.
    const Structure* findGlobal(std::string_view identifier) const;

    // Resolves a reference found in `context` (the structure holding the property, or the
    // primitive structure holding the ref data). A path starting with a global name starts at
    // that structure; one starting with a local name is looked up among the siblings of
    // `context`, then among the siblings of each of its ancestors in turn, up to the top level.
    // Each further local name selects a child of the structure found so far. Null when unresolved
    // or when the reference is null.
    const Structure* resolve(const Reference& ref, const Structure* context) const;

    // 1-based line and column of a byte offset in the source (a line index is built on first use,
    // so the first call is not safe to make from two threads at once). Offsets past the end are
    // clamped to the end.
    void locate(Offset offset, int& line, int& column) const;

    size_t structureCount() const { return m_arena.size(); }
    // Numeric lists of the last parse read by the block scanner (ParseOptions::blockScan); the
    // others went element by element.
    size_t blockScannedLists() const { return m_blockScanned; }
    // Numeric lists of the last parse converted apart from the parse (ParseOptions::parallelBytes
    // and worker), and how many of those the worker's thread converted (the rest the parsing
    // thread took once it had read the text, all of them when the worker refused the job). Both 0
    // without a worker and when the text was parsed again on one thread.
    size_t deferredLists() const { return m_deferredLists; }
    size_t secondThreadLists() const { return m_secondThreadLists; }
    // True when the parse with a worker failed and the text was parsed again on one thread (which
    // finds the first error, or succeeds where the two-thread parse did not).
    bool reparsedOnOneThread() const { return m_reparsed; }

private:
    std::shared_ptr<const void> m_owner;  // keeps m_text alive
    std::string_view m_text;
    std::deque<Structure> m_arena;
    std::vector<Structure*> m_roots;
    // Global names, sorted for binary search after parsing.
    std::vector<std::pair<std::string_view, Structure*>> m_globals;
    mutable std::vector<Offset> m_lineStarts;
    size_t m_blockScanned = 0;
    size_t m_deferredLists = 0, m_secondThreadLists = 0;
    bool m_reparsed = false;

    friend class Parser;
};

}  // namespace esv::ddl
