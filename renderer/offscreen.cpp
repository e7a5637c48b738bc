#include <algorithm>

#include <glad/gles2.h>

#include "renderer/renderer.h"

namespace esv {

OffscreenTarget::~OffscreenTarget() {
    if (m_fbo) glDeleteFramebuffers(1, &m_fbo);
    if (m_color) glDeleteRenderbuffers(1, &m_color);
    if (m_depth) glDeleteRenderbuffers(1, &m_depth);
}

bool OffscreenTarget::create(int width, int height, std::string& error) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    if (width <= 0 || height <= 0 || width > maxSize || height > maxSize) {
        error = "image size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
                std::to_string(maxSize);
        return false;
    }
    m_width = width;
    m_height = height;
    glGenFramebuffers(1, &m_fbo);
    glGenRenderbuffers(1, &m_color);
    glGenRenderbuffers(1, &m_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, m_color);
    // RGBA8 renderbuffers are core in ES3 and OES_rgb8_rgba8 on ES2 (Mesa has both).
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, m_depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_depth);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        error = "offscreen framebuffer incomplete (status 0x" + std::to_string(status) + ")";
        return false;
    }
    return true;
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, m_fbo); }

void OffscreenTarget::read(std::vector<uint8_t>& rgba) const {
    const size_t row = size_t(m_width) * 4;
    std::vector<uint8_t> bottomUp(row * m_height);
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
    // GL rows run bottom-up; images top-down.
    rgba.resize(bottomUp.size());
    for (int y = 0; y < m_height; ++y)
        std::copy_n(bottomUp.data() + size_t(m_height - 1 - y) * row, row, rgba.data() + size_t(y) * row);
}

}  // namespace esv
