// The overdraw views (ViewMode::Overdraw, OverdrawAll): the frame's surfaces drawn into a count
// target of the viewport's size, one unit of its red channel added per fragment, read back for
// FrameStats, and resolved onto the frame as a heat scale (shaders/overdraw.*).
#include <algorithm>

#include "renderer/gl_renderer_impl.h"

namespace esv::detail {

bool GlRenderer::beginOverdraw(int width, int height, FrameStats& stats) {
    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    m_overdrawPrevious = GLuint(previous);
    if (!m_overdrawFramebuffer || m_overdrawWidth != width || m_overdrawHeight != height) {
        m_overdrawFramebuffer.reset();
        m_overdrawColor.reset();
        m_overdrawDepth.reset();
        GLuint name = 0;
        glGenTextures(1, &name);
        m_overdrawColor = gl::Texture(name);
        m_state.bindTexture(0, GL_TEXTURE_2D, name);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glGenRenderbuffers(1, &name);
        m_overdrawDepth = gl::Renderbuffer(name);
        glBindRenderbuffer(GL_RENDERBUFFER, name);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, width, height);
        glGenFramebuffers(1, &name);
        m_overdrawFramebuffer = gl::Framebuffer(name);
        glBindFramebuffer(GL_FRAMEBUFFER, name);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_overdrawColor.get(), 0);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_overdrawDepth.get());
        m_overdrawWidth = width;
        m_overdrawHeight = height;
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            glBindFramebuffer(GL_FRAMEBUFFER, m_overdrawPrevious);
            m_overdrawFramebuffer.reset();
            if (m_reported.insert(0x2000000000000000ull).second)
                stats.notes.push_back("the overdraw view's count target is not complete on this context");
            return false;
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, m_overdrawFramebuffer.get());
    glViewport(0, 0, width, height);
    // A caller's scissor (the viewer's 3D view) is in the frame's coordinates, not the target's.
    m_overdrawScissor = glIsEnabled(GL_SCISSOR_TEST) == GL_TRUE;
    if (m_overdrawScissor) glDisable(GL_SCISSOR_TEST);
    m_state.colorMask(true);
    m_state.depthMask(true);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    return true;
}

void GlRenderer::endOverdraw(int width, int height, int x, int y, FrameStats& stats) {
    // The counts, read back: the frame's figures.
    m_counts.resize(size_t(width) * size_t(height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, m_counts.data());
    for (size_t i = 0; i < m_counts.size(); i += 4) {
        const uint32_t n = m_counts[i];
        stats.overdrawCovered += n > 0 ? 1 : 0;
        stats.overdrawShaded += n;
        stats.overdrawMax = std::max(stats.overdrawMax, n);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, m_overdrawPrevious);
    glViewport(x, y, width, height);
    if (m_overdrawScissor) glEnable(GL_SCISSOR_TEST);
    if (!m_overdrawProgram.program) {
        std::string error;
        m_state.programChanged();
        if (!buildOverdrawProgram(m_caps.es3 ? GlslVersion::Es300 : GlslVersion::Es100, m_overdrawProgram, error)) {
            if (m_reported.insert(0x1000000000000000ull).second) stats.notes.push_back(error);
            return;
        }
        const float triangle[6] = {-1.0f, -1.0f, 3.0f, -1.0f, -1.0f, 3.0f};
        m_overdrawTriangle = gl::makeBuffer();
        m_state.bindArrayBuffer(m_overdrawTriangle.get());
        glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
    }
    m_state.useProgram(m_overdrawProgram.program.get());
    m_state.uniform1i(m_overdrawProgram.counts, 0);
    m_state.bindTexture(0, GL_TEXTURE_2D, m_overdrawColor.get());
    if (m_caps.vao) {
        if (!m_overdrawVao) {
            m_overdrawVao = gl::makeVertexArray();
            m_state.bindVertexArray(m_overdrawVao.get());
            for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
        }
        m_state.bindVertexArray(m_overdrawVao.get());
    } else {
        for (GLuint i = 0; i < attributeLimit(); ++i) m_state.enableAttribute(i, false);
    }
    m_state.bindArrayBuffer(m_overdrawTriangle.get());
    m_state.enableAttribute(kLocPosition, true);
    m_state.attributePointer(kLocPosition, 2, GL_FLOAT, false, 0, 0);
    m_state.enable(GL_DEPTH_TEST, false);
    m_state.enable(GL_BLEND, false);
    m_state.enable(GL_CULL_FACE, false);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    ++stats.drawCalls;
    checkGl("overdraw resolve", stats.glErrors);
    m_state.enable(GL_DEPTH_TEST, true);
}

}  // namespace esv::detail
