// The CCamera API (ccamera.h) for the product, without linking libcamera: each ccamera_* call
// goes through a pointer resolved from the shim library (libBoothCamera.so, the CCamera target
// built as a dynamic library, which links libcamera) loaded with dlopen on the first call that
// needs it. A board whose camera is not libcamera never loads it, so libcamera's code, data and
// static initialisers stay out of the kiosk's memory.
//
// Where the shim is looked for, in order: $BOOTH_CAMERA_LIBRARY; libBoothCamera.so beside the
// running executable; ../lib/booth/libBoothCamera.so from it (the installed layout); the
// dynamic loader's own search path. When it cannot be loaded, ccamera_manager_new returns
// -ELIBACC and ccamera_load_error() says what was tried.
#ifndef BOOTH_CCAMERA_LOADER_H
#define BOOTH_CCAMERA_LOADER_H
#include "../../CCamera/include/ccamera.h"
#ifdef __cplusplus
extern "C" {
#endif

/// Loads the shim now if it is not loaded yet: 0, or -ELIBACC with the reason in ccamera_load_error().
int ccamera_load(void);
/// Why the last load failed ("" when it did not fail or was not tried). Static storage.
const char *ccamera_load_error(void);
/// 1 once the shim is loaded (libcamera is in the process), else 0.
int ccamera_loaded(void);

#ifdef __cplusplus
}
#endif
#endif
