#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

// Request numbers that are function-like macros in <drm.h>, for the Swift syscall layer.
static inline unsigned long booth_drm_ioctl_mode_create_dumb(void) { return DRM_IOCTL_MODE_CREATE_DUMB; }
static inline unsigned long booth_drm_ioctl_mode_map_dumb(void) { return DRM_IOCTL_MODE_MAP_DUMB; }
static inline unsigned long booth_drm_ioctl_mode_destroy_dumb(void) { return DRM_IOCTL_MODE_DESTROY_DUMB; }
