# 32-bit ARM, hard float (Debian armhf): see debian-cross.cmake.
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(ESVIEW_CROSS_TRIPLE arm-linux-gnueabihf)
set(ESVIEW_QEMU qemu-arm-static)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
