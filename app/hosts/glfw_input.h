// GLFW's input as the viewer's events (host.h), for the two hosts that take input from GLFW: the
// desktop window (glfw_host.cpp) and the browser page (web_host.cpp, through Emscripten's GLFW).
#pragma once

#include <vector>

#include "app/viewer/host.h"

struct GLFWwindow;

namespace esv {

// The viewer's key for a GLFW key code (Key::Unknown for keys the viewer does not read; one table
// for every host, host_keys.h).
Key keyFromGlfw(int key);
// The viewer's modifier bits (kModShift, ...) for GLFW's.
unsigned modsFromGlfw(int mods);

// Makes `queue` the window's user pointer and installs the pointer, button, wheel, key and text
// callbacks, which append the viewer's events to it: a button press comes after a move to where the
// pointer is, key repeats are no events. A host adds its window's own callbacks (drop, size, close)
// with glfwEventQueue. Install before ImGui_ImplGlfw_InitForOpenGL, which chains to these.
void installGlfwInput(GLFWwindow* window, std::vector<Event>* queue);

// The queue installGlfwInput gave `window`.
std::vector<Event>& glfwEventQueue(GLFWwindow* window);

}  // namespace esv
