# Cross toolchain for Booth's aarch64 build on an x86_64 Debian host.
#
#   cmake -G Ninja -S . -B .build-arm -DCMAKE_TOOLCHAIN_FILE=cross-toolchain.cmake
#
# C and C++ go through Debian's cross compilers (crossbuild-essential-arm64) against the
# aarch64 glibc in /usr/aarch64-linux-gnu. The Foundation-free Swift cores are compiled by the
# host swiftc as Embedded Swift for aarch64-none-none-elf (see CMakeLists.txt) and linked into
# PIE executables by the same cross gcc. Tests run under user-mode qemu.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(BOOTH_CROSS_TRIPLE aarch64-linux-gnu)
set(BOOTH_CROSS_SYSROOT /usr/${BOOTH_CROSS_TRIPLE})

set(CMAKE_C_COMPILER ${BOOTH_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${BOOTH_CROSS_TRIPLE}-g++)

# Libraries and headers only from the aarch64 tree; programs (swiftc, python3) from the host.
set(CMAKE_FIND_ROOT_PATH ${BOOTH_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# add_test() commands on built executables run through this (qemu-user-static).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L ${BOOTH_CROSS_SYSROOT})

# Embedded Swift target for the cores: bare-metal triple, whose code needs only a handful of
# libc symbols (posix_memalign, free, memset, putchar, __stack_chk_*) that glibc provides.
set(BOOTH_SWIFT_TARGET aarch64-none-none-elf CACHE STRING "Embedded Swift target triple")
set(BOOTH_OBJDUMP ${BOOTH_CROSS_TRIPLE}-objdump CACHE STRING "objdump for the target")
