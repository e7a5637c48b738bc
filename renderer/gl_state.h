// The GL state the renderer sets, applied through a cache (as sokol_gfx does): a call reaches GL
// only when it changes something. Context state (program, bound vertex array and buffers, texture
// units, capabilities, depth, cull and blend settings, current attribute values) is forgotten at
// the start of every frame, because the host and the panel change it between frames: its first
// set in a frame always reaches GL. State that belongs to the renderer's own objects is kept
// across frames: what each vertex array object holds (element buffer, enabled arrays, attribute
// pointers) and each program's uniform values. `forgetObjects` drops that when they are deleted.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include <glad/gles2.h>

#include "target/state_changes.h"

namespace esv::gl {

class StateCache {
public:
    // `vertexArrays`: bindVertexArray binds through gl::vertexArrayApi() (ES3 or
    // OES_vertex_array_object); without them the attribute state is the context's.
    void configure(bool vertexArrays, GLuint attributeLimit);

    // Frame start: everything of the context is unknown again.
    void resetContextState();
    // The renderer's vertex arrays or programs were deleted (names may be reused): forget them.
    void forgetObjects();

    void useProgram(GLuint program);
    // Something else bound a program (linking sets a new program's samplers).
    void programChanged() { m_program = kUnknown; }
    void bindVertexArray(GLuint vao);
    void bindArrayBuffer(GLuint buffer);
    void bindElementBuffer(GLuint buffer);  // recorded in the bound vertex array
    void enableAttribute(GLuint location, bool on);
    void attributePointer(GLuint location, GLint size, GLenum type, bool normalized, GLsizei stride,
                          uintptr_t offset);
    void attributeValue(GLuint location, float x, float y, float z, float w);

    void enable(GLenum capability, bool on);  // GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE, GL_POLYGON_OFFSET_FILL
    void depthMask(bool write);
    void colorMask(bool write);  // all four channels
    void depthFunc(GLenum func);
    void cullFace(GLenum face);
    void polygonOffset(float factor, float units);
    void blendFuncSeparate(GLenum srcRgb, GLenum dstRgb, GLenum srcAlpha, GLenum dstAlpha);
    void blendEquationSeparate(GLenum rgb, GLenum alpha);
    void blendColor(float r, float g, float b, float a);

    // Binds `texture` to `target` on `unit`, selecting the unit only when a bind is needed. After
    // it the selected unit is `unit` whenever a bind was made (texture parameters apply to it).
    void bindTexture(int unit, GLenum target, GLuint texture);
    // Selects `unit` (for the texture parameters of what it holds).
    void activeTexture(int unit);

    // Uniforms of the program in use. Location -1 (not in the program) and repeated values never
    // reach GL.
    void uniform1i(GLint location, GLint value);
    void uniform1f(GLint location, float value);
    void uniform2fv(GLint location, GLsizei count, const float* values);
    void uniform3fv(GLint location, GLsizei count, const float* values);
    void uniform4fv(GLint location, GLsizei count, const float* values);
    void uniform4f(GLint location, float x, float y, float z, float w);
    void uniform4i(GLint location, GLint x, GLint y, GLint z, GLint w);
    void uniformMatrix4fv(GLint location, GLsizei count, const float* values);

    // What reached GL so far, by kind (counting only; never reset: frames take differences).
    const StateChanges& changes() const { return m_changes; }
    // Adds `bytes` of uniforms just sent to the palette's share (the renderer knows which are).
    void countPaletteBytes(uint64_t bytes) { m_changes.paletteBytes += bytes; }

    // The attribute locations enabled in the bound vertex array (or the context without them).
    bool attributeEnabled(GLuint location) const;
    // Disables every array enabled outside vertex arrays (frame end without VAOs: ImGui draws next).
    void disableContextAttributes();

private:
    static constexpr GLuint kUnknown = ~0u;
    static constexpr int kMaxUnits = 16;
    struct Pointer {
        GLuint buffer = kUnknown;
        GLint size = 0;
        GLenum type = 0;
        bool normalized = false;
        GLsizei stride = 0;
        uintptr_t offset = 0;
        bool operator==(const Pointer& o) const {
            return buffer == o.buffer && size == o.size && type == o.type && normalized == o.normalized &&
                   stride == o.stride && offset == o.offset;
        }
    };
    // What a vertex array object holds (or the context, for vertex array 0 without VAOs).
    struct ArrayState {
        GLuint elementBuffer = kUnknown;
        std::vector<int8_t> enabled;  // -1 unknown, 0 off, 1 on
        std::vector<Pointer> pointers;
    };
    ArrayState& arrays();
    bool sameUniform(GLint location, const void* values, size_t bytes);

    bool m_vertexArrays = false;
    GLuint m_attributeLimit = 16;
    GLuint m_program = kUnknown, m_vao = kUnknown, m_arrayBuffer = kUnknown;
    int m_unit = -1;
    std::array<std::array<GLuint, 2>, kMaxUnits> m_textures{};  // [unit][2D, cube]
    std::unordered_map<GLuint, ArrayState> m_arrays;            // by vertex array name (0 = context)
    std::vector<std::array<float, 4>> m_values;                 // current attribute values
    std::vector<bool> m_valueKnown;
    std::unordered_map<GLenum, int8_t> m_caps;
    int8_t m_depthMask = -1, m_colorMask = -1;
    GLenum m_depthFunc = 0, m_cullFace = 0;
    std::array<float, 2> m_offset{-1e30f, -1e30f};
    std::array<GLenum, 4> m_blendFunc{};
    std::array<GLenum, 2> m_blendEquation{};
    std::array<float, 4> m_blendColor{-1.0f, -1.0f, -1.0f, -1.0f};
    StateChanges m_changes;
    // Uniform values by (program, location).
    std::unordered_map<uint64_t, std::vector<uint8_t>> m_uniforms;
};

}  // namespace esv::gl
