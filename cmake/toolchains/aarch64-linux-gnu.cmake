# 64-bit ARM (Debian arm64): see debian-cross.cmake.
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(ESVIEW_CROSS_TRIPLE aarch64-linux-gnu)
set(ESVIEW_QEMU qemu-aarch64-static)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
