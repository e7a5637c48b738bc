# The browser (Emscripten): the targets cmake/dependencies.cmake makes from Debian packages on Linux,
# made here from Emscripten's own libraries, from Debian source packages compiled with emcc and from
# the architecture-independent headers of Debian's -dev packages. Included by
# cmake/dependencies.cmake when the Emscripten toolchain file (emcmake) sets EMSCRIPTEN.
#
#   target                         web source                                 where
#   Threads::Threads               Emscripten (no worker threads: loads run on the main thread)
#   PkgConfig::GLESV2, EGL, glfw   Emscripten (WebGL, -sUSE_GLFW=3)
#   PkgConfig::IMGUI, imgui_backends  Dear ImGui 1.86 (`apt-get source imgui`)  ESVIEW_WEB_SOURCES
#   ZLIB::ZLIB                     zlib 1.2.13 (`apt-get source zlib`)         ESVIEW_WEB_SOURCES
#   LibLZMA::LibLZMA               xz-utils 5.4.1 (`apt-get source xz-utils`)  ESVIEW_WEB_SOURCES
#   meshoptimizer::meshoptimizer   meshoptimizer 0.18 (`apt-get source meshoptimizer`)  ESVIEW_WEB_SOURCES
#   glm, stb, fast_float, CLI11, nlohmann-json   headers of libglm-dev, libstb-dev, libfast-float-dev,
#                                  libcli11-dev, nlohmann-json3-dev       /usr/include (ESVIEW_WEB_HEADERS)
#
# setup.sh web fetches the sources into build-web/sources (never committed).

set(ESVIEW_WEB_SOURCES "${CMAKE_BINARY_DIR}/sources" CACHE PATH "Folder holding the unpacked Debian source trees")
set(ESVIEW_WEB_HEADERS "/usr/include" CACHE PATH "Folder holding the header-only libraries' headers")

function(esview_web_source var file pattern)
  file(GLOB candidates LIST_DIRECTORIES true "${ESVIEW_WEB_SOURCES}/${pattern}")
  set(tree "")
  foreach(dir IN LISTS candidates)
    if(tree STREQUAL "" AND EXISTS "${dir}/${file}")
      set(tree "${dir}")
    endif()
  endforeach()
  if(tree STREQUAL "")
    message(FATAL_ERROR "no ${pattern}/${file} in ${ESVIEW_WEB_SOURCES}: run ./setup.sh web")
  endif()
  set(${var} "${tree}" PARENT_SCOPE)
endfunction()
esview_web_source(IMGUI_SRC imgui.h "imgui-1.86*")
esview_web_source(ZLIB_SRC zlib.h "zlib-1.2*")
esview_web_source(XZ_SRC src/liblzma/api/lzma.h "xz-utils-5.4*")
esview_web_source(MESHOPT_SRC src/meshoptimizer.h "meshoptimizer-0.18*")

find_package(Threads REQUIRED)

# The header-only libraries: only their own folders of /usr/include are exposed (linked into the
# build tree), never /usr/include itself, whose C library headers are not Emscripten's.
set(ESVIEW_WEB_INCLUDE ${CMAKE_BINARY_DIR}/web-include)
file(MAKE_DIRECTORY ${ESVIEW_WEB_INCLUDE})
foreach(dir glm stb fast_float CLI nlohmann)
  if(NOT EXISTS ${ESVIEW_WEB_HEADERS}/${dir})
    message(FATAL_ERROR "no ${ESVIEW_WEB_HEADERS}/${dir}: install libglm-dev libstb-dev libfast-float-dev libcli11-dev nlohmann-json3-dev")
  endif()
  if(NOT EXISTS ${ESVIEW_WEB_INCLUDE}/${dir})
    file(CREATE_LINK ${ESVIEW_WEB_HEADERS}/${dir} ${ESVIEW_WEB_INCLUDE}/${dir} SYMBOLIC)
  endif()
endforeach()
function(esview_header_library name include)
  add_library(${name} INTERFACE IMPORTED)
  set_target_properties(${name} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${include}")
endfunction()
esview_header_library(glm::glm ${ESVIEW_WEB_INCLUDE})
esview_header_library(FastFloat::fast_float ${ESVIEW_WEB_INCLUDE})
esview_header_library(CLI11::CLI11 ${ESVIEW_WEB_INCLUDE})
esview_header_library(nlohmann_json::nlohmann_json ${ESVIEW_WEB_INCLUDE})

# stb: the two implementations esview calls, as Debian's libstb builds them (-fwrapv).
set(ESVIEW_STB_IMPL ${CMAKE_BINARY_DIR}/third_party/stb/stb_impl.c)
file(WRITE ${ESVIEW_STB_IMPL}.in "#define STB_IMAGE_IMPLEMENTATION\n#include <stb_image.h>\n"
                                 "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n")
configure_file(${ESVIEW_STB_IMPL}.in ${ESVIEW_STB_IMPL} COPYONLY)
add_library(esview_stb STATIC ${ESVIEW_STB_IMPL})
target_include_directories(esview_stb SYSTEM PUBLIC ${ESVIEW_WEB_INCLUDE}/stb)
target_compile_options(esview_stb PRIVATE -fwrapv)
add_library(PkgConfig::STB INTERFACE IMPORTED)
set_target_properties(PkgConfig::STB PROPERTIES INTERFACE_LINK_LIBRARIES esview_stb)

# zlib: its library sources, compiled as they are.
set(ZLIB_FILES adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees
               trees uncompr zutil)
list(TRANSFORM ZLIB_FILES PREPEND ${ZLIB_SRC}/)
list(TRANSFORM ZLIB_FILES APPEND .c)
add_library(esview_zlib STATIC ${ZLIB_FILES})
target_include_directories(esview_zlib SYSTEM PUBLIC ${ZLIB_SRC})
target_compile_definitions(esview_zlib PRIVATE HAVE_UNISTD_H)
add_library(ZLIB::ZLIB INTERFACE IMPORTED)
set_target_properties(ZLIB::ZLIB PROPERTIES INTERFACE_LINK_LIBRARIES esview_zlib)

# liblzma from xz-utils' own CMake build, static, without its programs and tests.
set(BUILD_TESTING OFF CACHE BOOL "" FORCE)
add_subdirectory(${XZ_SRC} ${CMAKE_BINARY_DIR}/third_party/xz EXCLUDE_FROM_ALL)
add_library(LibLZMA::LibLZMA INTERFACE IMPORTED)
set_target_properties(LibLZMA::LibLZMA PROPERTIES INTERFACE_LINK_LIBRARIES liblzma
                      INTERFACE_INCLUDE_DIRECTORIES ${XZ_SRC}/src/liblzma/api)

# meshoptimizer: its library sources, compiled as they are (glTF's EXT_meshopt_compression, the cost report).
file(GLOB MESHOPT_FILES ${MESHOPT_SRC}/src/*.cpp)
add_library(esview_meshopt STATIC ${MESHOPT_FILES})
target_include_directories(esview_meshopt SYSTEM PUBLIC ${MESHOPT_SRC}/src)
add_library(meshoptimizer::meshoptimizer INTERFACE IMPORTED)
set_target_properties(meshoptimizer::meshoptimizer PROPERTIES INTERFACE_LINK_LIBRARIES esview_meshopt)
# WebGL through Emscripten's GLES and GLFW emulation: link flags only.
add_library(PkgConfig::GLESV2 INTERFACE IMPORTED)
add_library(PkgConfig::EGL INTERFACE IMPORTED)
add_library(glfw INTERFACE IMPORTED)
set_target_properties(glfw PROPERTIES INTERFACE_LINK_OPTIONS "-sUSE_GLFW=3")
add_library(PkgConfig::SDL2 INTERFACE IMPORTED)  # no SDL host in the browser

# Dear ImGui: the core and the GLFW and OpenGL3 backends. The OpenGL3 backend is built for ES 2.0,
# which WebGL 2 runs as well: built for ES 3 it sets ES 3 pixel-store state that WebGL 1 rejects.
add_library(esview_imgui STATIC ${IMGUI_SRC}/imgui.cpp ${IMGUI_SRC}/imgui_draw.cpp ${IMGUI_SRC}/imgui_tables.cpp
                                ${IMGUI_SRC}/imgui_widgets.cpp)
target_include_directories(esview_imgui SYSTEM PUBLIC ${IMGUI_SRC})
add_library(PkgConfig::IMGUI INTERFACE IMPORTED)
set_target_properties(PkgConfig::IMGUI PROPERTIES INTERFACE_LINK_LIBRARIES esview_imgui)
add_library(imgui_backends STATIC ${IMGUI_SRC}/backends/imgui_impl_glfw.cpp ${IMGUI_SRC}/backends/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends SYSTEM PUBLIC ${IMGUI_SRC}/backends)
target_compile_definitions(imgui_backends PRIVATE IMGUI_IMPL_OPENGL_ES2)
target_compile_options(imgui_backends PRIVATE -sUSE_GLFW=3)
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI glfw)

# C++ exceptions are caught as on the desktop (parsers report bad input by throwing).
add_compile_options(-fexceptions)
add_link_options(-fexceptions)
