#include <algorithm>
#include <cstdio>
#include <cstring>

#include <glad/gles2.h>

#include "renderer/gl_objects.h"
#include "renderer/renderer.h"

namespace esv {

OffscreenTarget::~OffscreenTarget() {
    if (m_fbo) glDeleteFramebuffers(1, &m_fbo);
    if (m_color) glDeleteRenderbuffers(1, &m_color);
    if (m_colorTexture) glDeleteTextures(1, &m_colorTexture);
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
    glGenRenderbuffers(1, &m_depth);
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    // RGBA8 renderbuffers are core in ES3 and OES_rgb8_rgba8 on ES2 (Mesa has both). Without them
    // (WebGL 1) the colour goes to an RGBA texture, which every ES 2.0 context renders to; the
    // texture unit's binding is put back, as the renderer's state cache knows it.
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    if ((version && std::strstr(version, "OpenGL ES 3")) || gl::hasExtension("GL_OES_rgb8_rgba8")) {
        glGenRenderbuffers(1, &m_color);
        glBindRenderbuffer(GL_RENDERBUFFER, m_color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8_OES, width, height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_color);
    } else {
        GLint bound = 0;
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
        glGenTextures(1, &m_colorTexture);
        glBindTexture(GL_TEXTURE_2D, m_colorTexture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glBindTexture(GL_TEXTURE_2D, GLuint(bound));
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_colorTexture, 0);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, m_depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_depth);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        char hex[16];
        std::snprintf(hex, sizeof(hex), "0x%04X", unsigned(status));
        error = std::string("offscreen framebuffer incomplete (status ") + hex + ")";
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
