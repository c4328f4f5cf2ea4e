// See ccamera_loader.h: the ccamera_* API forwarded to libBoothCamera.so, loaded on first use.
#define _GNU_SOURCE
#include "ccamera_loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHIM_NAME "libBoothCamera.so"

/// Every shim entry point, resolved once by name.
static struct {
    const char *(*libcamera_version)(void);
    int (*manager_new)(ccamera_manager **);
    void (*manager_free)(ccamera_manager *);
    int (*manager_count)(const ccamera_manager *);
    int (*manager_info)(const ccamera_manager *, int, char *, size_t, char *, size_t);
    int (*open)(ccamera_manager *, const char *, ccamera **);
    void (*free)(ccamera *);
    int (*configure)(ccamera *, uint32_t, uint32_t, int, struct ccamera_stream_info *, struct ccamera_stream_info *);
    int (*buffer_planes)(const ccamera *, int, uint32_t, struct ccamera_plane[3]);
    int (*start)(ccamera *);
    int (*stop)(ccamera *);
    int (*event_fd)(const ccamera *);
    int (*next_frame)(ccamera *, struct ccamera_frame *);
    int (*requeue)(ccamera *, uint32_t);
    int (*request_still)(ccamera *);
} shim;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_result = -ELIBACC;
static char load_error[1024];

static void note(const char *path, const char *why) {
    size_t used = strlen(load_error);
    if (used + 1 < sizeof load_error) {
        snprintf(load_error + used, sizeof load_error - used, "%s%s: %s", used ? "; " : "", path, why ? why : "not found");
    }
}

static void *try_open(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) note(path, dlerror());
    return h;
}

/// The shim from the places listed in the header, or NULL.
static void *open_shim(void) {
    const char *env = getenv("BOOTH_CAMERA_LIBRARY");
    if (env && *env) return try_open(env);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            char path[PATH_MAX + 64];
            snprintf(path, sizeof path, "%s/" SHIM_NAME, exe);
            if (access(path, F_OK) == 0) return try_open(path);
            snprintf(path, sizeof path, "%s/../lib/booth/" SHIM_NAME, exe);
            if (access(path, F_OK) == 0) return try_open(path);
            note(exe, "no " SHIM_NAME " beside the executable or in ../lib/booth");
        }
    }
    return try_open(SHIM_NAME);
}

#define RESOLVE(field, name)                                        \
    do {                                                            \
        *(void **)(&shim.field) = dlsym(handle, name);              \
        if (!shim.field) { note(name, dlerror()); return; }         \
    } while (0)

static void load_once(void) {
    void *handle = open_shim();
    if (!handle) return;
    RESOLVE(libcamera_version, "ccamera_libcamera_version");
    RESOLVE(manager_new, "ccamera_manager_new");
    RESOLVE(manager_free, "ccamera_manager_free");
    RESOLVE(manager_count, "ccamera_manager_count");
    RESOLVE(manager_info, "ccamera_manager_info");
    RESOLVE(open, "ccamera_open");
    RESOLVE(free, "ccamera_free");
    RESOLVE(configure, "ccamera_configure");
    RESOLVE(buffer_planes, "ccamera_buffer_planes");
    RESOLVE(start, "ccamera_start");
    RESOLVE(stop, "ccamera_stop");
    RESOLVE(event_fd, "ccamera_event_fd");
    RESOLVE(next_frame, "ccamera_next_frame");
    RESOLVE(requeue, "ccamera_requeue");
    RESOLVE(request_still, "ccamera_request_still");
    load_error[0] = 0;
    load_result = 0;
}

int ccamera_load(void) {
    pthread_once(&once, load_once);
    return load_result;
}

const char *ccamera_load_error(void) { return load_error; }

int ccamera_loaded(void) { return load_result == 0; }

const char *ccamera_libcamera_version(void) {
    return ccamera_load() == 0 ? shim.libcamera_version() : "(not loaded)";
}

int ccamera_manager_new(ccamera_manager **out) {
    int r = ccamera_load();
    return r ? r : shim.manager_new(out);
}

// The calls below take a manager or camera, which only exists once the shim is loaded.
void ccamera_manager_free(ccamera_manager *manager) { shim.manager_free(manager); }
int ccamera_manager_count(const ccamera_manager *manager) { return shim.manager_count(manager); }
int ccamera_manager_info(const ccamera_manager *manager, int index, char *id, size_t id_capacity, char *model,
                         size_t model_capacity) {
    return shim.manager_info(manager, index, id, id_capacity, model, model_capacity);
}
int ccamera_open(ccamera_manager *manager, const char *id, ccamera **out) { return shim.open(manager, id, out); }
void ccamera_free(ccamera *camera) { shim.free(camera); }
int ccamera_configure(ccamera *camera, uint32_t width, uint32_t height, int want_still, struct ccamera_stream_info *viewfinder,
                      struct ccamera_stream_info *still) {
    return shim.configure(camera, width, height, want_still, viewfinder, still);
}
int ccamera_buffer_planes(const ccamera *camera, int stream, uint32_t index, struct ccamera_plane planes[3]) {
    return shim.buffer_planes(camera, stream, index, planes);
}
int ccamera_start(ccamera *camera) { return shim.start(camera); }
int ccamera_stop(ccamera *camera) { return shim.stop(camera); }
int ccamera_event_fd(const ccamera *camera) { return shim.event_fd(camera); }
int ccamera_next_frame(ccamera *camera, struct ccamera_frame *frame) { return shim.next_frame(camera, frame); }
int ccamera_requeue(ccamera *camera, uint32_t request) { return shim.requeue(camera, request); }
int ccamera_request_still(ccamera *camera) { return shim.request_still(camera); }
