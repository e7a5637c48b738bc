// Dropping a renderer whose context is gone (renderer.h, abandonRenderer).
#include "renderer/gl_objects.h"
#include "renderer/renderer.h"

namespace esv {

void abandonRenderer(std::unique_ptr<Renderer>& renderer) {
    bool& forget = gl::forgetNamesOnRelease();
    const bool before = forget;
    forget = true;
    renderer.reset();
    forget = before;
}

}  // namespace esv
