# Project-wide compile flags: warnings, optional werror and sanitizers.
# Applied through an interface target so third-party sources (glad, ImGui backends) stay quiet.
add_library(esview_warnings INTERFACE)
target_compile_options(esview_warnings INTERFACE -Wall -Wextra -Wshadow -Wno-missing-field-initializers)
if(ESVIEW_WERROR)
  target_compile_options(esview_warnings INTERFACE -Werror)
endif()

if(ESVIEW_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # The runtime's defaults (sanitizer_options.cpp) go into every target made after this point.
  add_library(esview_sanitizer_options OBJECT ${CMAKE_CURRENT_LIST_DIR}/sanitizer_options.cpp)
  link_libraries(esview_sanitizer_options)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports false maybe-uninitialized warnings inside libstdc++ <regex> (pulled in by
    # CLI11) once ASan instruments it; the normal build keeps the warning.
    target_compile_options(esview_warnings INTERFACE -Wno-maybe-uninitialized)
  endif()
endif()
