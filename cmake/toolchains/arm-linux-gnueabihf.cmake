# 32-bit ARM, hard float (Debian armhf): see debian-cross.cmake.
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(ESVIEW_CROSS_TRIPLE arm-linux-gnueabihf)
set(ESVIEW_QEMU qemu-arm-static)
# Under qemu-user, Debian's armhf llvmpipe draws wrong pictures: with the emulated processor's
# Advanced SIMD every texture coordinate reads as zero, without it highlights blow out to white.
# The same esview binary draws through softpipe (Mesa's interpreter, no generated code) the very
# picture softpipe draws on x86, and within the golden rule of llvmpipe's: the armhf tests draw
# with softpipe (-E sets the variable for the emulated program only).
set(ESVIEW_QEMU_OPTIONS -E GALLIUM_DRIVER=softpipe)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
