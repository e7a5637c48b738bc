// Move-only owners of GL object names. Each deletes its name when destroyed, so the renderer
// never leaks a buffer or program when a scene is replaced. A context must be current.
#pragma once

#include <cstring>
#include <utility>

#include <glad/gles2.h>

namespace esv::gl {

// While true, handles forget their names instead of deleting them: the context that made them is
// gone (lost, or destroyed by the platform while the app was in the background) and its objects
// went with it, so no GL call is made for them (one would reach a dead context, or delete whatever
// a new context gave the same name). Set only around destroying such objects (abandonRenderer).
inline bool& forgetNamesOnRelease() {
    static bool forget = false;  // GL objects live on the thread that owns the context
    return forget;
}

template <void (*Delete)(GLuint)>
class Handle {
public:
    Handle() = default;
    explicit Handle(GLuint name) : m_name(name) {}
    ~Handle() { reset(); }
    Handle(Handle&& other) noexcept : m_name(std::exchange(other.m_name, 0)) {}
    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            reset();
            m_name = std::exchange(other.m_name, 0);
        }
        return *this;
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    GLuint get() const { return m_name; }
    explicit operator bool() const { return m_name != 0; }
    void reset() {
        if (m_name && !forgetNamesOnRelease()) Delete(m_name);
        m_name = 0;
    }

private:
    GLuint m_name = 0;
};

inline void deleteBuffer(GLuint n) { glDeleteBuffers(1, &n); }
inline void deleteTexture(GLuint n) { glDeleteTextures(1, &n); }
inline void deleteFramebuffer(GLuint n) { glDeleteFramebuffers(1, &n); }
inline void deleteRenderbuffer(GLuint n) { glDeleteRenderbuffers(1, &n); }
inline void deleteProgram(GLuint n) { glDeleteProgram(n); }
inline void deleteShader(GLuint n) { glDeleteShader(n); }
// Queries come only from GL_EXT_disjoint_timer_query (also on ES2), so they delete through its entry point.
inline void deleteQuery(GLuint n) {
    if (glad_glDeleteQueriesEXT) glad_glDeleteQueriesEXT(1, &n);
}

// Vertex arrays come from ES 3.0 or from OES_vertex_array_object on ES 2.0; the renderer picks
// the entry points once (see selectVertexArrayApi) and the handle deletes through the same choice.
struct VertexArrayApi {
    PFNGLGENVERTEXARRAYSPROC gen = nullptr;
    PFNGLBINDVERTEXARRAYPROC bind = nullptr;
    PFNGLDELETEVERTEXARRAYSPROC remove = nullptr;
    bool available() const { return gen && bind && remove; }
};
inline VertexArrayApi& vertexArrayApi() {
    static VertexArrayApi api;
    return api;
}
inline void deleteVertexArray(GLuint n) {
    if (vertexArrayApi().remove) vertexArrayApi().remove(1, &n);
}

using Buffer = Handle<deleteBuffer>;
using VertexArray = Handle<deleteVertexArray>;
using Texture = Handle<deleteTexture>;
using Framebuffer = Handle<deleteFramebuffer>;
using Renderbuffer = Handle<deleteRenderbuffer>;
using Program = Handle<deleteProgram>;
using Shader = Handle<deleteShader>;
using Query = Handle<deleteQuery>;

// True when the space-separated extension `list` (null: none) holds `name` as a whole word.
inline bool extensionListed(const char* list, const char* name) {
    if (!list) return false;
    const size_t len = std::strlen(name);
    for (const char* p = std::strstr(list, name); p; p = std::strstr(p + len, name))
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
    return false;
}

// True when the current context lists `name` in GL_EXTENSIONS.
inline bool hasExtension(const char* name) {
    return extensionListed(reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS)), name);
}

inline Buffer makeBuffer() {
    GLuint n = 0;
    glGenBuffers(1, &n);
    return Buffer(n);
}

inline VertexArray makeVertexArray() {
    GLuint n = 0;
    vertexArrayApi().gen(1, &n);
    return VertexArray(n);
}

}  // namespace esv::gl
