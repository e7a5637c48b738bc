// OpenDDL (OpenGEX 3.0 spec, Appendix A): what the users of a parsed tree ask of it (property
// values, typed data, children, references resolved, lines located). The parser is in
// openddl_grammar.cpp, openddl_numbers.cpp, openddl_scan.cpp and openddl_threads.cpp (see
// openddl_internal.h).
#include "loaders/opengex/openddl/openddl.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace esv::ddl {

// ---------------------------------------------------------------------------------------------
// Small members

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
// Document: finding structures and places

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
