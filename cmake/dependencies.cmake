# Every dependency comes from a Debian package; nothing is downloaded or vendored. The Android build
# (the NDK's toolchain, platforms/android) makes the same targets from the NDK's libraries and from
# unpacked source trees instead, ImGui's backends included.
if(ANDROID)
  include(${PROJECT_SOURCE_DIR}/platforms/android/dependencies.cmake)
elseif(EMSCRIPTEN)
  include(${PROJECT_SOURCE_DIR}/platforms/web/dependencies.cmake)
else()
  find_package(PkgConfig REQUIRED)
  find_package(Threads REQUIRED)
  find_package(glm REQUIRED)
  find_package(ZLIB REQUIRED)
  find_package(LibLZMA REQUIRED)
  find_package(FastFloat REQUIRED)
  find_package(meshoptimizer REQUIRED)
  find_package(CLI11 REQUIRED)
  find_package(nlohmann_json 3 REQUIRED)
  find_package(glfw3 3.3 REQUIRED)
  pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
  pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
  pkg_check_modules(GLESV2 REQUIRED IMPORTED_TARGET glesv2)
  pkg_check_modules(EGL REQUIRED IMPORTED_TARGET egl)
  pkg_check_modules(SDL2 REQUIRED IMPORTED_TARGET sdl2)
  pkg_check_modules(DRACO QUIET IMPORTED_TARGET draco)  # optional: glTF KHR_draco_mesh_compression
endif()

# glad 2: one GLES 2.0..3.2 loader plus EGL 1.5, generated offline from the bundled XML, with its
# debug wrappers: a hook runs before each GLES call, which renderer/gl_calls.cpp makes a counter
# (GL call budgets are tested; the stats overlay shows the calls of a frame).
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
set(GLAD_FILES ${GLAD_OUT}/src/gles2.c ${GLAD_OUT}/src/egl.c
               ${GLAD_OUT}/include/glad/gles2.h ${GLAD_OUT}/include/glad/egl.h)
add_custom_command(OUTPUT ${GLAD_FILES}
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gles2=3.2,egl=1.5 --out-path ${GLAD_OUT} c --loader --debug
  COMMENT "Generating the glad GLES/EGL loader"
  VERBATIM)
add_library(glad STATIC ${GLAD_FILES})
target_include_directories(glad SYSTEM PUBLIC ${GLAD_OUT}/include)
target_link_libraries(glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glad PROPERTIES POSITION_INDEPENDENT_CODE ON)

# Dear ImGui: core from libimgui.a, GLFW, SDL2 and OpenGL3 backends compiled from the shipped sources for GLES 3.
# (Under CMAKE_SYSROOT in a cross build: the target's own copy of the package.)
if(NOT ANDROID AND NOT EMSCRIPTEN)
  set(IMGUI_BACKEND_SRC ${CMAKE_SYSROOT}/usr/share/doc/libimgui-dev/examples/backends)
  add_library(imgui_backends STATIC ${IMGUI_BACKEND_SRC}/imgui_impl_glfw.cpp ${IMGUI_BACKEND_SRC}/imgui_impl_sdl.cpp
                                    ${IMGUI_BACKEND_SRC}/imgui_impl_opengl3.cpp)
  target_include_directories(imgui_backends SYSTEM PUBLIC ${CMAKE_SYSROOT}/usr/include/imgui/backends ${CMAKE_SYSROOT}/usr/include/imgui)
  target_compile_definitions(imgui_backends PRIVATE IMGUI_IMPL_OPENGL_ES3)
  target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI glfw PkgConfig::SDL2 PkgConfig::GLESV2)
endif()
