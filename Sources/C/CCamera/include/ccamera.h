// A small C API over libcamera (C++), shaped like libgpiod: opaque handles, _new/_free pairs,
// int results that are negative errno, an fd to poll. No C++ type crosses into Swift.
#ifndef BOOTH_CCAMERA_H
#define BOOTH_CCAMERA_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// The libcamera version string this shim was built against (static storage).
const char *ccamera_libcamera_version(void);

#ifdef __cplusplus
}
#endif
#endif
