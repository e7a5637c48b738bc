# The browser viewer: esview.js + esview.wasm from the viewer core and the web host, and the page
# (esview.html) beside them. Emscripten's own HTML output is not used (its minifier fails at -O2 in
# Debian's 3.1.6); the page is the project's. Included by app/CMakeLists.txt under Emscripten.
add_executable(esview_web hosts/web_main.cpp)
target_link_libraries(esview_web PRIVATE app_core glad esview_warnings)
set_target_properties(esview_web PROPERTIES OUTPUT_NAME esview SUFFIX ".js")
target_link_options(esview_web PRIVATE
  -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=1 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sMAXIMUM_MEMORY=4GB
  -sFORCE_FILESYSTEM=1 -sEXPORTED_RUNTIME_METHODS=FS,ccall,callMain,UTF8ToString
  -sEXPORTED_FUNCTIONS=_main,_esview_run,_esview_drop,_esview_texture_lookup)
# The page is copied whenever it changes, whether or not the program was linked again.
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/esview.html
  COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/platforms/web/esview.html ${CMAKE_BINARY_DIR}/esview.html
  DEPENDS ${PROJECT_SOURCE_DIR}/platforms/web/esview.html
  VERBATIM)
add_custom_target(esview_web_page ALL DEPENDS ${CMAKE_BINARY_DIR}/esview.html)
add_dependencies(esview_web esview_web_page)
# The desktop's interface font (fonts-dejavu-core, which setup.sh installs), at the path the viewer
# looks for it (app/viewer/ui_font.cpp), so that the panels look and measure as on the desktop; without it
# Dear ImGui's built-in bitmap font is used, as on a desktop without the package.
set(ESVIEW_WEB_FONT /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
if(EXISTS ${ESVIEW_WEB_FONT})
  target_link_options(esview_web PRIVATE "SHELL:--embed-file ${ESVIEW_WEB_FONT}@${ESVIEW_WEB_FONT}")
  set_property(TARGET esview_web APPEND PROPERTY LINK_DEPENDS ${ESVIEW_WEB_FONT})
else()
  message(STATUS "esview web: no ${ESVIEW_WEB_FONT}: the page uses Dear ImGui's built-in font")
endif()
