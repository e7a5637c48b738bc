// GL state changes a frame made, by kind: what reached GL through the state cache
// (renderer/gl_state.h), so a value or binding that was already current is not counted. The cost of
// a frame on a tile-based GPU is mostly in these and in the draws (FrameStats, renderer.h).
#pragma once

#include <cstdint>

namespace esv {

struct StateChanges {
    uint32_t programs = 0;      // glUseProgram
    uint32_t textures = 0;      // glBindTexture (and the glActiveTexture that selects a unit)
    uint32_t vertexArrays = 0;  // vertex array object binds
    uint32_t buffers = 0;       // array and element buffer binds
    uint32_t attributes = 0;    // attribute arrays enabled, disabled or pointed, and current values
    uint32_t renderState = 0;   // capabilities, depth, cull, polygon offset and blend settings
    uint32_t uniforms = 0;      // glUniform* calls
    uint64_t uniformBytes = 0;  // the bytes those calls sent
    uint64_t paletteBytes = 0;  // of which bone palettes (FrameStats)

    StateChanges operator-(const StateChanges& o) const {
        StateChanges d;
        d.programs = programs - o.programs;
        d.textures = textures - o.textures;
        d.vertexArrays = vertexArrays - o.vertexArrays;
        d.buffers = buffers - o.buffers;
        d.attributes = attributes - o.attributes;
        d.renderState = renderState - o.renderState;
        d.uniforms = uniforms - o.uniforms;
        d.uniformBytes = uniformBytes - o.uniformBytes;
        d.paletteBytes = paletteBytes - o.paletteBytes;
        return d;
    }
    // Every change of every kind (the uniform bytes and palette bytes are sizes, not changes).
    uint32_t total() const { return programs + textures + vertexArrays + buffers + attributes + renderState + uniforms; }
};

}  // namespace esv
