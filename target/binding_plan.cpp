#include "target/binding_plan.h"

#include <cstring>

#include "scene/cpu_reference.h"

namespace esv {
namespace {

// GL enums written out so this file needs no GL header (tested without a context).
constexpr uint32_t kGlByte = 0x1400, kGlUnsignedByte = 0x1401, kGlShort = 0x1402, kGlUnsignedShort = 0x1403,
                   kGlInt = 0x1404, kGlUnsignedInt = 0x1405, kGlFloat = 0x1406, kGlFixed = 0x140C,
                   kGlHalfFloat = 0x140B, kGlInt2101010Rev = 0x8D9F, kGlUnsignedInt2101010Rev = 0x8368;

struct TypeInfo {
    uint32_t glType;
    bool es2;  // readable as a vertex attribute by every ES 2.0 context
};

constexpr TypeInfo kTypes[] = {
    {kGlFloat, true},                   // Float32
    {kGlHalfFloat, false},              // Float16 (ES3; OES_vertex_half_float uses another enum)
    {0, false},                         // Float64: never readable
    {kGlFixed, true},                   // Fixed16_16
    {kGlByte, true},                    // Int8
    {kGlUnsignedByte, true},            // UInt8
    {kGlShort, true},                   // Int16
    {kGlUnsignedShort, true},           // UInt16
    {kGlInt, false},                    // Int32 (ES3)
    {kGlUnsignedInt, false},            // UInt32 (ES3)
    {kGlInt2101010Rev, false},          // Int2_10_10_10 (ES3)
    {kGlUnsignedInt2101010Rev, false},  // UInt2_10_10_10 (ES3)
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == static_cast<size_t>(ComponentType::Count));

}  // namespace

uint32_t glComponentType(ComponentType type) { return kTypes[static_cast<size_t>(type)].glType; }

BindingPlan planBindings(const VertexStream& stream, const VertexCaps& caps) {
    BindingPlan plan;
    plan.stride = stream.stride;
    for (const VertexAttribute& a : stream.attributes) {
        AttributeBinding b;
        b.semantic = a.semantic;
        b.set = a.set;
        b.offset = a.offset;
        b.normalized = a.normalized;
        b.swizzle = a.swizzle;
        const TypeInfo& info = kTypes[static_cast<size_t>(a.type)];
        b.glType = info.glType;
        // Packed 10/10/10/2 words always bind four components; the shader ignores the unused ones.
        b.size = isPacked(a.type) ? 4 : a.components;
        const size_t alignment = isPacked(a.type) ? 4 : componentSize(a.type);
        const bool aligned = alignment <= 1 || (a.offset % alignment == 0 && stream.stride % alignment == 0);
        b.needsConversion = info.glType == 0 || (!info.es2 && !caps.es3) || !aligned ||
                            (a.type == ComponentType::Fixed16_16 && !caps.fixedPoint);
        plan.needsConversion |= b.needsConversion;
        plan.attributes.push_back(b);
    }
    return plan;
}

VertexStream convertToFloat(const VertexStream& stream) {
    VertexStream out;
    out.count = stream.count;
    uint32_t offset = 0;
    for (const VertexAttribute& a : stream.attributes) {
        VertexAttribute converted = a;
        converted.type = ComponentType::Float32;
        converted.normalized = false;
        converted.swizzle = Swizzle::Identity;  // readAttribute applies it
        // Swizzled colours carry alpha in the fourth channel.
        converted.components = a.swizzle != Swizzle::Identity ? 4 : a.components;
        converted.offset = offset;
        offset += 4u * converted.components;
        out.attributes.push_back(converted);
    }
    out.stride = offset;
    std::vector<uint8_t> bytes(size_t(out.stride) * stream.count);
    float value[4];
    for (uint32_t v = 0; v < stream.count; ++v)
        for (size_t i = 0; i < stream.attributes.size(); ++i) {
            readAttribute(stream, stream.attributes[i], v, value);
            std::memcpy(bytes.data() + size_t(v) * out.stride + out.attributes[i].offset, value,
                        4u * out.attributes[i].components);
        }
    out.bytes = makeOwnedBytes(std::move(bytes));
    return out;
}

int paletteCapacity(int maxVertexUniformVectors, int reservedVectors) {
    const int available = maxVertexUniformVectors - reservedVectors;
    return available > 0 ? available / 4 : 0;
}

}  // namespace esv
