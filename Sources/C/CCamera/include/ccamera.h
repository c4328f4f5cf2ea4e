// A small C API over libcamera (C++), shaped like libgpiod: opaque handles, _new/_free pairs,
// int results that are negative errno, an fd to poll. No C++ type crosses into Swift.
//
// Threading: libcamera completes requests on its own thread. The shim's completion handler only
// hands off — it pushes the request onto a lock-protected queue and writes the eventfd — and the
// Swift capture loop polls that fd, takes frames with ccamera_next_frame and re-queues them with
// ccamera_requeue. Buffers are allocated once (FrameBufferAllocator); the shim reports each
// plane's dmabuf fd/offset/length so the caller can mmap every dmabuf once.
#ifndef BOOTH_CCAMERA_H
#define BOOTH_CCAMERA_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// The libcamera version string this shim was built against (static storage).
const char *ccamera_libcamera_version(void);

typedef struct ccamera_manager ccamera_manager;
typedef struct ccamera ccamera;

/// Starts libcamera's CameraManager (only one may exist per process: -EBUSY otherwise).
int ccamera_manager_new(ccamera_manager **out);
void ccamera_manager_free(ccamera_manager *manager);
/// Number of cameras found.
int ccamera_manager_count(const ccamera_manager *manager);
/// Id and model (the "Model" property, or "" when absent) of camera `index`, NUL-terminated
/// and truncated to the given capacities.
int ccamera_manager_info(const ccamera_manager *manager, int index, char *id, size_t id_capacity,
                         char *model, size_t model_capacity);

/// Gets and acquires the camera with `id` (or the first one when id is NULL or empty).
/// -ENODEV when there is none, -EBUSY when another process holds it.
int ccamera_open(ccamera_manager *manager, const char *id, ccamera **out);
/// Stops, frees buffers, releases the camera.
void ccamera_free(ccamera *camera);

enum { CCAMERA_STREAM_VIEWFINDER = 0, CCAMERA_STREAM_STILL = 1 };

struct ccamera_stream_info {
    uint32_t width;
    uint32_t height;
    uint32_t stride;        ///< bytes per row of the first plane
    uint32_t frame_size;    ///< bytes of one whole frame
    uint32_t buffer_count;  ///< buffers allocated for the stream
    uint32_t fourcc;        ///< DRM fourcc of the pixel format (YUV420 = 'YU12', NV12 = 'NV12')
};

/// Configures roles Viewfinder (YUV420 at width×height) and, when want_still, StillCapture
/// (YUV420 at the sensor's full PixelArraySize), validates, configures, allocates buffers once
/// and creates one request per viewfinder buffer. Fills the infos as libcamera adjusted them.
int ccamera_configure(ccamera *camera, uint32_t width, uint32_t height, int want_still,
                      struct ccamera_stream_info *viewfinder, struct ccamera_stream_info *still);

struct ccamera_plane {
    int fd;           ///< dmabuf fd (shared by the planes of one buffer, usually)
    uint32_t offset;  ///< plane offset inside the dmabuf
    uint32_t length;  ///< plane length in bytes
};

/// The planes of buffer `index` of `stream`. Returns the plane count (≤ 3) or negative errno.
int ccamera_buffer_planes(const ccamera *camera, int stream, uint32_t index, struct ccamera_plane planes[3]);

/// Starts capture and queues every request.
int ccamera_start(ccamera *camera);
/// Stops capture (pending requests are cancelled and dropped).
int ccamera_stop(ccamera *camera);
/// An eventfd that becomes readable when a request completed or the camera was disconnected.
int ccamera_event_fd(const ccamera *camera);

enum {
    CCAMERA_FRAME_OK = 0,
    CCAMERA_FRAME_ERROR = 1,      ///< the request completed but the buffer holds no valid frame
    CCAMERA_FRAME_CANCELLED = 2,  ///< the request was cancelled (stop, or the camera failing)
};

struct ccamera_frame {
    uint32_t request;          ///< pass to ccamera_requeue
    int32_t status;            ///< CCAMERA_FRAME_*
    uint32_t viewfinder_buffer;
    int32_t still_buffer;      ///< -1 when the request carried no still
    uint64_t sequence;
    uint64_t timestamp_ns;     ///< sensor timestamp (CLOCK_BOOTTIME on most pipelines)
    int64_t exposure_us;       ///< ExposureTime metadata, or -1 when absent
};

/// Takes the oldest completed request: 1 when `frame` was filled, 0 when none is waiting,
/// -ENODEV once the camera was disconnected. Clears the eventfd when the queue is empty.
int ccamera_next_frame(ccamera *camera, struct ccamera_frame *frame);
/// Re-queues request `index` with its viewfinder buffer (and a still buffer when a still was
/// asked for). Returns 0 or negative errno (-ENODEV when the camera is gone).
int ccamera_requeue(ccamera *camera, uint32_t request);
/// Asks for the next re-queued request to also fill a still buffer. -EINVAL without a still stream.
int ccamera_request_still(ccamera *camera);

#ifdef __cplusplus
}
#endif
#endif
