#include "app/hosts/glfw_input.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/hosts/host_keys.h"

namespace esv {

Key keyFromGlfw(int key) {
    switch (key) {
#define ESV_GLFW_KEY_CASE(viewerKey, glfwKey, sdlKey) \
    case glfwKey:                                     \
        return Key::viewerKey;
        ESV_HOST_KEYS(ESV_GLFW_KEY_CASE)
#undef ESV_GLFW_KEY_CASE
        default:
            return Key::Unknown;
    }
}

unsigned modsFromGlfw(int mods) {
    return (mods & GLFW_MOD_SHIFT ? kModShift : 0u) | (mods & GLFW_MOD_CONTROL ? kModControl : 0u) |
           (mods & GLFW_MOD_ALT ? kModAlt : 0u) | (mods & GLFW_MOD_SUPER ? kModSuper : 0u);
}

std::vector<Event>& glfwEventQueue(GLFWwindow* window) {
    return *static_cast<std::vector<Event>*>(glfwGetWindowUserPointer(window));
}

namespace {

void cursorPos(GLFWwindow* window, double x, double y) {
    glfwEventQueue(window).push_back(Event::mouseMove(x, y));
}

void mouseButton(GLFWwindow* window, int button, int action, int mods) {
    MouseButton b = MouseButton::Count;
    if (button == GLFW_MOUSE_BUTTON_LEFT) b = MouseButton::Left;
    if (button == GLFW_MOUSE_BUTTON_RIGHT) b = MouseButton::Right;
    if (button == GLFW_MOUSE_BUTTON_MIDDLE) b = MouseButton::Middle;
    if (b == MouseButton::Count) return;
    // The press happens where the pointer is, even if it has not moved since the window opened.
    double x = 0.0, y = 0.0;
    glfwGetCursorPos(window, &x, &y);
    std::vector<Event>& queue = glfwEventQueue(window);
    queue.push_back(Event::mouseMove(x, y));
    queue.push_back(Event::mouseButton(b, action == GLFW_PRESS, modsFromGlfw(mods)));
}

void scroll(GLFWwindow* window, double x, double y) {
    glfwEventQueue(window).push_back(Event::wheel(x, y));
}

void key(GLFWwindow* window, int key, int, int action, int mods) {
    const Key k = keyFromGlfw(key);
    if (k != Key::Unknown && action != GLFW_REPEAT)
        glfwEventQueue(window).push_back(Event::keyEvent(k, action == GLFW_PRESS, modsFromGlfw(mods)));
}

void character(GLFWwindow* window, unsigned int codepoint) {
    glfwEventQueue(window).push_back(Event::text(codepoint));
}

}  // namespace

void installGlfwInput(GLFWwindow* window, std::vector<Event>* queue) {
    glfwSetWindowUserPointer(window, queue);
    glfwSetCursorPosCallback(window, cursorPos);
    glfwSetMouseButtonCallback(window, mouseButton);
    glfwSetScrollCallback(window, scroll);
    glfwSetKeyCallback(window, key);
    glfwSetCharCallback(window, character);
}

}  // namespace esv
