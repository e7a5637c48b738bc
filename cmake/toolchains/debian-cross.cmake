# Cross builds for Debian's multiarch targets: the cross compiler from crossbuild-essential, the
# target's libraries from a sysroot of unpacked Debian packages (tools/cross_sysroot.sh), and
# qemu-user to run what was built (tests, test discovery). Included by the per-target files, which
# set ESVIEW_CROSS_TRIPLE, ESVIEW_QEMU and CMAKE_SYSTEM_PROCESSOR first.
#
# The sysroot comes from -DESVIEW_SYSROOT=DIR or the ESVIEW_SYSROOT environment variable.
set(CMAKE_SYSTEM_NAME Linux)
if(NOT ESVIEW_SYSROOT)
  set(ESVIEW_SYSROOT "$ENV{ESVIEW_SYSROOT}")
endif()
if(NOT ESVIEW_SYSROOT OR NOT EXISTS "${ESVIEW_SYSROOT}/usr/include")
  message(FATAL_ERROR "no sysroot for ${ESVIEW_CROSS_TRIPLE}: pass -DESVIEW_SYSROOT=DIR or set ESVIEW_SYSROOT "
                      "(tools/cross_sysroot.sh makes one; ./setup.sh build-arm64 does it all)")
endif()
# try_compile projects read this file again: hand them the sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ESVIEW_SYSROOT)
set(ENV{ESVIEW_SYSROOT} "${ESVIEW_SYSROOT}")

set(CMAKE_C_COMPILER ${ESVIEW_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${ESVIEW_CROSS_TRIPLE}-g++)
set(CMAKE_SYSROOT "${ESVIEW_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH "${ESVIEW_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)  # build tools (glad) and test tools run on the build machine
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE ${ESVIEW_CROSS_TRIPLE})

# pkg-config reads the target's .pc files and prefixes their paths with the sysroot.
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${ESVIEW_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
    "${ESVIEW_SYSROOT}/usr/lib/${ESVIEW_CROSS_TRIPLE}/pkgconfig:${ESVIEW_SYSROOT}/usr/lib/pkgconfig:${ESVIEW_SYSROOT}/usr/share/pkgconfig")

# The unpacked libraries are not in the cross linker's default search path, and some link to
# others by their sonames only.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wl,-rpath-link,${ESVIEW_SYSROOT}/usr/lib/${ESVIEW_CROSS_TRIPLE} -Wl,-rpath-link,${ESVIEW_SYSROOT}/lib/${ESVIEW_CROSS_TRIPLE}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${CMAKE_EXE_LINKER_FLAGS_INIT}")

# ctest and gtest_discover_tests run the target's executables through qemu-user with the sysroot
# as the root for the dynamic loader and libraries (no binfmt_misc needed), with the target's
# ESVIEW_QEMU_OPTIONS, if any.
set(CMAKE_CROSSCOMPILING_EMULATOR ${ESVIEW_QEMU} ${ESVIEW_QEMU_OPTIONS} -L "${ESVIEW_SYSROOT}")
