#include "renderer/gl_state.h"

#include "renderer/gl_objects.h"

namespace esv::gl {

void StateCache::configure(bool vertexArrays, GLuint attributeLimit) {
    m_vertexArrays = vertexArrays;
    m_attributeLimit = attributeLimit;
    forgetObjects();
    resetContextState();
}

void StateCache::resetContextState() {
    m_program = m_vao = m_arrayBuffer = kUnknown;
    m_unit = -1;
    for (auto& unit : m_textures) unit = {kUnknown, kUnknown};
    m_values.assign(m_attributeLimit, {});
    m_valueKnown.assign(m_attributeLimit, false);
    m_caps.clear();
    m_depthMask = m_colorMask = -1;
    m_depthFunc = m_cullFace = 0;
    m_offset = {-1e30f, -1e30f};
    m_blendFunc = {};
    m_blendEquation = {};
    m_blendColor = {-1.0f, -1.0f, -1.0f, -1.0f};
    // Without vertex arrays the attribute state is the context's, which others change too.
    m_arrays.erase(0);
}

void StateCache::forgetObjects() {
    m_arrays.clear();
    m_uniforms.clear();
    m_program = m_vao = kUnknown;
}

StateCache::ArrayState& StateCache::arrays() {
    ArrayState& a = m_arrays[m_vertexArrays && m_vao != kUnknown ? m_vao : 0];
    if (a.enabled.size() != m_attributeLimit) {
        a.enabled.assign(m_attributeLimit, -1);
        a.pointers.assign(m_attributeLimit, Pointer{});
    }
    return a;
}

void StateCache::useProgram(GLuint program) {
    if (program == m_program) return;
    glUseProgram(program);
    ++m_changes.programs;
    m_program = program;
}

void StateCache::bindVertexArray(GLuint vao) {
    if (!m_vertexArrays || vao == m_vao) return;
    vertexArrayApi().bind(vao);
    ++m_changes.vertexArrays;
    m_vao = vao;
    // Vertex array 0 holds nothing of ours: what it has is unknown whenever it is bound again.
    if (vao == 0) m_arrays.erase(0);
}

void StateCache::bindArrayBuffer(GLuint buffer) {
    if (buffer == m_arrayBuffer) return;
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    ++m_changes.buffers;
    m_arrayBuffer = buffer;
}

void StateCache::bindElementBuffer(GLuint buffer) {
    ArrayState& a = arrays();
    if (a.elementBuffer == buffer) return;
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffer);
    ++m_changes.buffers;
    a.elementBuffer = buffer;
}

void StateCache::enableAttribute(GLuint location, bool on) {
    if (location >= m_attributeLimit) return;
    ArrayState& a = arrays();
    if (a.enabled[location] == (on ? 1 : 0)) return;
    if (on) {
        glEnableVertexAttribArray(location);
    } else {
        glDisableVertexAttribArray(location);
    }
    ++m_changes.attributes;
    a.enabled[location] = on ? 1 : 0;
}

void StateCache::attributePointer(GLuint location, GLint size, GLenum type, bool normalized, GLsizei stride,
                                  uintptr_t offset) {
    if (location >= m_attributeLimit) return;
    ArrayState& a = arrays();
    const Pointer p{m_arrayBuffer, size, type, normalized, stride, offset};
    if (m_arrayBuffer != kUnknown && a.pointers[location] == p) return;
    glVertexAttribPointer(location, size, type, normalized ? GL_TRUE : GL_FALSE, stride,
                          reinterpret_cast<const void*>(offset));
    ++m_changes.attributes;
    a.pointers[location] = p;
}

void StateCache::attributeValue(GLuint location, float x, float y, float z, float w) {
    if (location >= m_attributeLimit) return;
    const std::array<float, 4> v{x, y, z, w};
    if (m_valueKnown[location] && m_values[location] == v) return;
    glVertexAttrib4f(location, x, y, z, w);
    ++m_changes.attributes;
    m_values[location] = v;
    m_valueKnown[location] = true;
}

bool StateCache::attributeEnabled(GLuint location) const {
    const auto it = m_arrays.find(m_vertexArrays && m_vao != kUnknown ? m_vao : 0);
    return it != m_arrays.end() && location < it->second.enabled.size() && it->second.enabled[location] == 1;
}

void StateCache::disableContextAttributes() {
    if (m_vertexArrays) return;
    ArrayState& a = arrays();
    for (GLuint i = 0; i < m_attributeLimit; ++i)
        if (a.enabled[i] != 0) {
            glDisableVertexAttribArray(i);
            ++m_changes.attributes;
            a.enabled[i] = 0;
        }
}

void StateCache::enable(GLenum capability, bool on) {
    const auto it = m_caps.find(capability);
    if (it != m_caps.end() && it->second == (on ? 1 : 0)) return;
    if (on) {
        glEnable(capability);
    } else {
        glDisable(capability);
    }
    ++m_changes.renderState;
    m_caps[capability] = on ? 1 : 0;
}

void StateCache::depthMask(bool write) {
    if (m_depthMask == (write ? 1 : 0)) return;
    glDepthMask(write ? GL_TRUE : GL_FALSE);
    ++m_changes.renderState;
    m_depthMask = write ? 1 : 0;
}

void StateCache::colorMask(bool write) {
    if (m_colorMask == (write ? 1 : 0)) return;
    const GLboolean w = write ? GL_TRUE : GL_FALSE;
    glColorMask(w, w, w, w);
    ++m_changes.renderState;
    m_colorMask = write ? 1 : 0;
}

void StateCache::depthFunc(GLenum func) {
    if (m_depthFunc == func) return;
    glDepthFunc(func);
    ++m_changes.renderState;
    m_depthFunc = func;
}

void StateCache::cullFace(GLenum face) {
    if (m_cullFace == face) return;
    glCullFace(face);
    ++m_changes.renderState;
    m_cullFace = face;
}

void StateCache::polygonOffset(float factor, float units) {
    if (m_offset[0] == factor && m_offset[1] == units) return;
    glPolygonOffset(factor, units);
    ++m_changes.renderState;
    m_offset = {factor, units};
}

void StateCache::blendFuncSeparate(GLenum srcRgb, GLenum dstRgb, GLenum srcAlpha, GLenum dstAlpha) {
    const std::array<GLenum, 4> f{srcRgb, dstRgb, srcAlpha, dstAlpha};
    if (m_blendFunc == f) return;
    glBlendFuncSeparate(srcRgb, dstRgb, srcAlpha, dstAlpha);
    ++m_changes.renderState;
    m_blendFunc = f;
}

void StateCache::blendEquationSeparate(GLenum rgb, GLenum alpha) {
    const std::array<GLenum, 2> e{rgb, alpha};
    if (m_blendEquation == e) return;
    glBlendEquationSeparate(rgb, alpha);
    ++m_changes.renderState;
    m_blendEquation = e;
}

void StateCache::blendColor(float r, float g, float b, float a) {
    const std::array<float, 4> c{r, g, b, a};
    if (m_blendColor == c) return;
    glBlendColor(r, g, b, a);
    ++m_changes.renderState;
    m_blendColor = c;
}

void StateCache::activeTexture(int unit) {
    if (unit == m_unit) return;
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    ++m_changes.textures;
    m_unit = unit;
}

void StateCache::bindTexture(int unit, GLenum target, GLuint texture) {
    const int slot = target == GL_TEXTURE_CUBE_MAP ? 1 : 0;
    if (unit >= 0 && unit < kMaxUnits && m_textures[size_t(unit)][size_t(slot)] == texture) return;
    activeTexture(unit);
    glBindTexture(target, texture);
    ++m_changes.textures;
    if (unit >= 0 && unit < kMaxUnits) m_textures[size_t(unit)][size_t(slot)] = texture;
}

bool StateCache::sameUniform(GLint location, const void* values, size_t bytes) {
    const uint64_t key = (uint64_t(m_program) << 32) | uint32_t(location);
    std::vector<uint8_t>& stored = m_uniforms[key];
    if (stored.size() == bytes && std::memcmp(stored.data(), values, bytes) == 0) return true;
    stored.assign(static_cast<const uint8_t*>(values), static_cast<const uint8_t*>(values) + bytes);
    ++m_changes.uniforms;
    m_changes.uniformBytes += bytes;
    return false;
}

void StateCache::uniform1i(GLint location, GLint value) {
    if (location < 0 || sameUniform(location, &value, sizeof(value))) return;
    glUniform1i(location, value);
}

void StateCache::uniform1f(GLint location, float value) {
    if (location < 0 || sameUniform(location, &value, sizeof(value))) return;
    glUniform1f(location, value);
}

void StateCache::uniform2fv(GLint location, GLsizei count, const float* values) {
    if (location < 0 || count <= 0 || sameUniform(location, values, size_t(count) * 2 * sizeof(float)))
        return;
    glUniform2fv(location, count, values);
}

void StateCache::uniform3fv(GLint location, GLsizei count, const float* values) {
    if (location < 0 || count <= 0 || sameUniform(location, values, size_t(count) * 3 * sizeof(float)))
        return;
    glUniform3fv(location, count, values);
}

void StateCache::uniform4fv(GLint location, GLsizei count, const float* values) {
    if (location < 0 || count <= 0 || sameUniform(location, values, size_t(count) * 4 * sizeof(float)))
        return;
    glUniform4fv(location, count, values);
}

void StateCache::uniform4f(GLint location, float x, float y, float z, float w) {
    const float v[4] = {x, y, z, w};
    uniform4fv(location, 1, v);
}

void StateCache::uniform4i(GLint location, GLint x, GLint y, GLint z, GLint w) {
    const GLint v[4] = {x, y, z, w};
    if (location < 0 || sameUniform(location, v, sizeof(v))) return;
    glUniform4i(location, x, y, z, w);
}

void StateCache::uniformMatrix4fv(GLint location, GLsizei count, const float* values) {
    if (location < 0 || count <= 0 || sameUniform(location, values, size_t(count) * 16 * sizeof(float)))
        return;
    glUniformMatrix4fv(location, count, GL_FALSE, values);
}

}  // namespace esv::gl
