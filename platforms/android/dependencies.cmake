# Android: the targets cmake/dependencies.cmake makes from Debian packages on Linux, made here from the
# NDK's system libraries and from unpacked source trees (README.md in this folder says where each one
# comes from). Included by cmake/dependencies.cmake when the NDK's toolchain file sets ANDROID.
#
#   target                         Android source                         variable
#   Threads::Threads, ZLIB::ZLIB   the NDK (bionic, libz.so)              -
#   PkgConfig::GLESV2, EGL         the NDK (libGLESv3.so, libEGL.so)      -
#   PkgConfig::SDL2                SDL 2.26.5 release tarball             ESVIEW_SDL2_SOURCE
#   PkgConfig::IMGUI, imgui_backends  Dear ImGui 1.86                     ESVIEW_IMGUI_SOURCE
#   glm::glm                       GLM 0.9.9.8                            ESVIEW_GLM_SOURCE
#   PkgConfig::STB                 stb (git 2022-09-08)                   ESVIEW_STB_SOURCE
#   FastFloat::fast_float          fast_float 3.9.0                       ESVIEW_FAST_FLOAT_SOURCE
#   CLI11::CLI11                   CLI11 2.1.2                            ESVIEW_CLI11_SOURCE
#   nlohmann_json::nlohmann_json   nlohmann/json 3.11.2                   ESVIEW_JSON_SOURCE
#   LibLZMA::LibLZMA               xz-utils 5.4.1                         ESVIEW_XZ_SOURCE
#
# Each variable may name its tree; otherwise it is looked for in ESVIEW_ANDROID_SOURCES, the folder
# where `apt-get source` (or the release tarballs) unpacked them. The versions are Debian 12's, which
# the Linux build and its tests use. meshoptimizer and GLFW are not needed on Android (the first only
# by tests, the second is the desktop host).

set(ESVIEW_ANDROID_SOURCES "" CACHE PATH "Folder holding the unpacked source trees of the Android build")

# esview_android_source(VAR FILE PATTERN...): VAR is the tree holding FILE, given or the first folder
# in ESVIEW_ANDROID_SOURCES whose name matches a PATTERN.
function(esview_android_source var file)
  set(tree "${${var}}")
  if(tree STREQUAL "")
    foreach(pattern IN LISTS ARGN)
      file(GLOB candidates LIST_DIRECTORIES true "${ESVIEW_ANDROID_SOURCES}/${pattern}")
      foreach(dir IN LISTS candidates)
        if(tree STREQUAL "" AND EXISTS "${dir}/${file}")
          set(tree "${dir}")
        endif()
      endforeach()
    endforeach()
  endif()
  if(tree STREQUAL "" OR NOT EXISTS "${tree}/${file}")
    message(FATAL_ERROR "no ${file} for the Android build: set ${var} to the unpacked source tree, or "
                        "ESVIEW_ANDROID_SOURCES to the folder holding it (platforms/android/README.md)")
  endif()
  set(${var} "${tree}" CACHE PATH "Source tree for the Android build" FORCE)
  message(STATUS "${var}: ${tree}")
endfunction()

esview_android_source(ESVIEW_SDL2_SOURCE include/SDL.h "SDL2-2.26*" "SDL-release-2.26*")
esview_android_source(ESVIEW_IMGUI_SOURCE imgui.h "imgui-1.86*")
esview_android_source(ESVIEW_GLM_SOURCE glm/glm.hpp "glm-0.9.9.8*" "glm")
esview_android_source(ESVIEW_STB_SOURCE stb_image.h "libstb-*" "stb-*" "stb")
esview_android_source(ESVIEW_FAST_FLOAT_SOURCE include/fast_float/fast_float.h "fast-float-3.9*" "fast_float-3.9*")
esview_android_source(ESVIEW_CLI11_SOURCE include/CLI/CLI.hpp "cli11-2.1*" "CLI11-2.1*")
esview_android_source(ESVIEW_JSON_SOURCE include/nlohmann/json.hpp "nlohmann-json3-3.11*" "json-3.11*")
esview_android_source(ESVIEW_XZ_SOURCE src/liblzma/api/lzma.h "xz-utils-5.4*" "xz-5.4*")

# The NDK's own libraries.
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
add_library(PkgConfig::GLESV2 INTERFACE IMPORTED)
set_target_properties(PkgConfig::GLESV2 PROPERTIES INTERFACE_LINK_LIBRARIES GLESv3)
add_library(PkgConfig::EGL INTERFACE IMPORTED)
set_target_properties(PkgConfig::EGL PROPERTIES INTERFACE_LINK_LIBRARIES EGL)

# SDL2 as a shared library (libSDL2.so), which SDL's Java activity loads before libmain.so.
set(SDL_SHARED ON CACHE BOOL "" FORCE)
set(SDL_STATIC OFF CACHE BOOL "" FORCE)
set(SDL_TEST OFF CACHE BOOL "" FORCE)
set(SDL2_DISABLE_SDL2MAIN ON CACHE BOOL "" FORCE)  # SDL's activity calls SDL_main in libmain.so itself
set(SDL2_DISABLE_INSTALL ON CACHE BOOL "" FORCE)
add_subdirectory(${ESVIEW_SDL2_SOURCE} ${CMAKE_BINARY_DIR}/third_party/SDL2 EXCLUDE_FROM_ALL)
add_library(PkgConfig::SDL2 INTERFACE IMPORTED)
set_target_properties(PkgConfig::SDL2 PROPERTIES INTERFACE_LINK_LIBRARIES SDL2::SDL2)

# liblzma from xz-utils' own CMake build, static, without its programs and tests.
set(BUILD_TESTING OFF CACHE BOOL "" FORCE)
add_subdirectory(${ESVIEW_XZ_SOURCE} ${CMAKE_BINARY_DIR}/third_party/xz EXCLUDE_FROM_ALL)
add_library(LibLZMA::LibLZMA INTERFACE IMPORTED)
set_target_properties(LibLZMA::LibLZMA PROPERTIES INTERFACE_LINK_LIBRARIES liblzma
                      INTERFACE_INCLUDE_DIRECTORIES ${ESVIEW_XZ_SOURCE}/src/liblzma/api)

# Header-only libraries.
function(esview_header_library name include)
  add_library(${name} INTERFACE IMPORTED)
  set_target_properties(${name} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${include}")
endfunction()
esview_header_library(glm::glm ${ESVIEW_GLM_SOURCE})
esview_header_library(FastFloat::fast_float ${ESVIEW_FAST_FLOAT_SOURCE}/include)
esview_header_library(CLI11::CLI11 ${ESVIEW_CLI11_SOURCE}/include)
esview_header_library(nlohmann_json::nlohmann_json ${ESVIEW_JSON_SOURCE}/include)

# stb: Debian's libstb holds the implementations (each header built with NAME_IMPLEMENTATION and
# -fwrapv); here the two that esview calls.
set(ESVIEW_STB_IMPL ${CMAKE_BINARY_DIR}/third_party/stb/stb_impl.c)
file(WRITE ${ESVIEW_STB_IMPL}.in "#define STB_IMAGE_IMPLEMENTATION\n#include <stb_image.h>\n"
                                 "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n")
configure_file(${ESVIEW_STB_IMPL}.in ${ESVIEW_STB_IMPL} COPYONLY)  # rewritten only when it changes
add_library(esview_stb STATIC ${ESVIEW_STB_IMPL})
target_include_directories(esview_stb SYSTEM PUBLIC ${ESVIEW_STB_SOURCE})
target_compile_options(esview_stb PRIVATE -fwrapv)
add_library(PkgConfig::STB INTERFACE IMPORTED)
set_target_properties(PkgConfig::STB PROPERTIES INTERFACE_LINK_LIBRARIES esview_stb)

# Dear ImGui: the core and the SDL2 and OpenGL3 (GLES 3) backends, as dependencies.cmake compiles the
# backends on Linux; the core with its own copies of stb_truetype and stb_rect_pack.
set(IMGUI_SRC ${ESVIEW_IMGUI_SOURCE})
add_library(esview_imgui STATIC ${IMGUI_SRC}/imgui.cpp ${IMGUI_SRC}/imgui_draw.cpp ${IMGUI_SRC}/imgui_tables.cpp
                                ${IMGUI_SRC}/imgui_widgets.cpp)
target_include_directories(esview_imgui SYSTEM PUBLIC ${IMGUI_SRC})
add_library(PkgConfig::IMGUI INTERFACE IMPORTED)
set_target_properties(PkgConfig::IMGUI PROPERTIES INTERFACE_LINK_LIBRARIES esview_imgui)
add_library(imgui_backends STATIC ${IMGUI_SRC}/backends/imgui_impl_sdl.cpp ${IMGUI_SRC}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends SYSTEM PUBLIC ${IMGUI_SRC}/backends)
target_compile_definitions(imgui_backends PRIVATE IMGUI_IMPL_OPENGL_ES3)
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI PkgConfig::SDL2 PkgConfig::GLESV2)
