// Binding plans: how each stored vertex attribute is handed to glVertexAttribPointer, computed from
// the stream layout alone (no GL calls), so the decisions are testable without a context.
#pragma once

#include <cstdint>
#include <vector>

#include "scene/scene.h"

namespace esv {

// What the context can read directly.
struct VertexCaps {
    bool es3 = false;        // ES 3.0 vertex types: half float, int/uint, 2_10_10_10
    bool fixedPoint = true;  // GL_FIXED (16.16) attributes: every ES context, no WebGL one
};

struct AttributeBinding {
    Semantic semantic = Semantic::Position;
    uint8_t set = 0;
    uint32_t glType = 0;  // GL enum
    int32_t size = 0;     // components given to glVertexAttribPointer
    bool normalized = false;
    uint32_t offset = 0;
    // The stored type cannot be read by this context: the stream is converted to float32 once.
    bool needsConversion = false;
    // The GPU reads the channels in another order: the shader swizzles (colours only).
    Swizzle swizzle = Swizzle::Identity;
};

struct BindingPlan {
    uint32_t stride = 0;
    std::vector<AttributeBinding> attributes;
    bool needsConversion = false;  // any attribute needs it
};

// GL enum for a component type (0 for types GLES never reads, such as Float64).
uint32_t glComponentType(ComponentType type);

// Plans the bindings of `stream` for a context with `caps`. Unaligned multi-byte attributes
// (offset or stride not a multiple of the component size) are planned for conversion too,
// because WebGL and several GLES drivers reject or slow down such reads.
BindingPlan planBindings(const VertexStream& stream, const VertexCaps& caps);

// Converts `stream` to tightly packed float32 attributes (what planBindings falls back to).
VertexStream convertToFloat(const VertexStream& stream);

// Uniform vectors the mesh program's vertex stage needs besides the palette. The most an ES2
// program holds: u_model, u_viewProjection, u_positionUnpack (12), u_morphWeights and
// u_morphAbsolute (2), then the floats u_morphBaseScale, u_weightBone and u_pointSize packed in one
// vector, or u_morphBaseScale and the outline's vec2 u_outline (OUTLINE never comes with the other
// two) in one vector, or two unpacked: 15 or 16. `esview convert` to POD sizes its bone batches
// for ES2 with it too.
constexpr int kReservedVertexVectors = 16;

// Palette size (mat4 count) a skinning program may use: what `maxVertexUniformVectors` leaves
// after `reservedVectors` for the other uniforms, four vectors per matrix.
int paletteCapacity(int maxVertexUniformVectors, int reservedVectors);

}  // namespace esv
