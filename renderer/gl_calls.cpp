#include "renderer/gl_calls.h"

#include <glad/gles2.h>

namespace esv::gl {
namespace {

uint64_t g_calls = 0;  // GL calls come from the thread that owns the context
bool g_record = false;
std::vector<std::string> g_names;

void beforeCall(const char* name, GLADapiproc, int, ...) {
    ++g_calls;
    if (g_record) g_names.emplace_back(name);
}

void afterCall(void*, const char*, GLADapiproc, int, ...) {}

}  // namespace

void installCallCounter() {
    gladSetGLES2PreCallback(beforeCall);
    gladSetGLES2PostCallback(afterCall);
}

uint64_t callCount() {
    return g_calls;
}

void recordCallNames(bool on) {
    g_record = on;
}

const std::vector<std::string>& recordedCallNames() {
    return g_names;
}

void clearRecordedCallNames() {
    g_names.clear();
}

}  // namespace esv::gl
