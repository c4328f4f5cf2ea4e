// The libcamera shim. Kept to API present in Debian bookworm's libcamera 0.0.3 and in the newer
// libcamera of Raspberry Pi OS (0.3–0.5): generateConfiguration takes a std::vector of roles
// (0.0.3: StreamRoles; newer: Span<const StreamRole>, which a vector converts to), ControlList::get
// returns std::optional in both, Request::reuse(), FrameBuffer::setCookie(), SharedFD planes.
// No #if on the libcamera version is needed.
#include "ccamera.h"

#include <libcamera/camera.h>
#include <libcamera/camera_manager.h>
#include <libcamera/control_ids.h>
#include <libcamera/formats.h>
#include <libcamera/framebuffer_allocator.h>
#include <libcamera/property_ids.h>
#include <libcamera/request.h>
#include <libcamera/stream.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sys/eventfd.h>
#include <unistd.h>

using namespace libcamera;

struct ccamera_manager {
    std::unique_ptr<CameraManager> manager;
};

struct ccamera {
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> config;
    std::unique_ptr<FrameBufferAllocator> allocator;
    Stream *viewfinder = nullptr;
    Stream *still = nullptr;
    std::vector<std::unique_ptr<Request>> requests;
    int event_fd = -1;
    bool acquired = false;
    bool running = false;
    std::atomic<bool> disconnected{false};

    // Completed requests, a ring sized once to the request count (no allocation in the callback).
    std::mutex lock;
    std::vector<Request *> completed;
    size_t head = 0, count = 0;

    unsigned still_pending = 0;
    unsigned still_next = 0;

    void signal() {
        uint64_t one = 1;
        ssize_t r;
        do { r = ::write(event_fd, &one, sizeof one); } while (r < 0 && errno == EINTR);
    }

    // libcamera's thread: only hand off.
    void onRequestCompleted(Request *request) {
        {
            std::lock_guard<std::mutex> guard(lock);
            if (count < completed.size()) {
                completed[(head + count) % completed.size()] = request;
                count++;
            }
        }
        signal();
    }

    void onDisconnected() {
        disconnected.store(true);
        signal();
    }
};

extern "C" const char *ccamera_libcamera_version(void) {
    static const std::string version = CameraManager::version();
    return version.c_str();
}

// libcamera aborts (FATAL) when a second CameraManager is constructed while one lives; the shim
// turns that into -EBUSY.
static std::atomic<bool> manager_alive{false};

extern "C" int ccamera_manager_new(ccamera_manager **out) {
    *out = nullptr;
    if (manager_alive.exchange(true)) return -EBUSY;
    // Keep libcamera's INFO chatter off the kiosk's log unless the operator asks for it.
    setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0);
    auto m = std::make_unique<ccamera_manager>();
    m->manager = std::make_unique<CameraManager>();
    int r = m->manager->start();
    if (r < 0) {
        m.reset();
        manager_alive.store(false);
        return r;
    }
    *out = m.release();
    return 0;
}

extern "C" void ccamera_manager_free(ccamera_manager *m) {
    if (!m) return;
    m->manager->stop();
    delete m;
    manager_alive.store(false);
}

extern "C" int ccamera_manager_count(const ccamera_manager *m) {
    return (int)m->manager->cameras().size();
}

static void copy_string(const std::string &s, char *out, size_t capacity) {
    if (!out || capacity == 0) return;
    size_t n = s.size() < capacity - 1 ? s.size() : capacity - 1;
    memcpy(out, s.data(), n);
    out[n] = 0;
}

extern "C" int ccamera_manager_info(const ccamera_manager *m, int index, char *id, size_t id_capacity,
                                    char *model, size_t model_capacity) {
    auto cameras = m->manager->cameras();
    if (index < 0 || (size_t)index >= cameras.size()) return -EINVAL;
    const auto &cam = cameras[index];
    copy_string(cam->id(), id, id_capacity);
    auto name = cam->properties().get(properties::Model);
    copy_string(name ? *name : std::string(), model, model_capacity);
    return 0;
}

extern "C" int ccamera_open(ccamera_manager *m, const char *id, ccamera **out) {
    *out = nullptr;
    std::shared_ptr<Camera> cam;
    if (id && *id) {
        cam = m->manager->get(id);
    } else {
        auto cameras = m->manager->cameras();
        if (!cameras.empty()) cam = cameras.front();
    }
    if (!cam) return -ENODEV;
    auto c = std::make_unique<ccamera>();
    c->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (c->event_fd < 0) return -errno;
    int r = cam->acquire();
    if (r < 0) {
        close(c->event_fd);
        return r;
    }
    c->acquired = true;
    c->camera = cam;
    cam->requestCompleted.connect(c.get(), &ccamera::onRequestCompleted);
    cam->disconnected.connect(c.get(), &ccamera::onDisconnected);
    *out = c.release();
    return 0;
}

extern "C" void ccamera_free(ccamera *c) {
    if (!c) return;
    if (c->running) ccamera_stop(c);
    if (c->camera) {
        c->camera->requestCompleted.disconnect(c, &ccamera::onRequestCompleted);
        c->camera->disconnected.disconnect(c, &ccamera::onDisconnected);
    }
    c->requests.clear();
    c->allocator.reset();
    if (c->acquired) c->camera->release();
    c->config.reset();
    c->camera.reset();
    if (c->event_fd >= 0) close(c->event_fd);
    delete c;
}

static void fill_info(const StreamConfiguration &sc, unsigned buffers, ccamera_stream_info *info) {
    if (!info) return;
    info->width = sc.size.width;
    info->height = sc.size.height;
    info->stride = sc.stride;
    info->frame_size = sc.frameSize;
    info->buffer_count = buffers;
    info->fourcc = sc.pixelFormat.fourcc();
}

extern "C" int ccamera_configure(ccamera *c, uint32_t width, uint32_t height, int want_still,
                                 ccamera_stream_info *vf_info, ccamera_stream_info *still_info) {
    if (c->running) return -EBUSY;
    std::vector<StreamRole> roles{StreamRole::Viewfinder};
    if (want_still) roles.push_back(StreamRole::StillCapture);
    auto config = c->camera->generateConfiguration(roles);
    if (!config || config->size() != roles.size()) return -EINVAL;

    StreamConfiguration &vf = config->at(0);
    vf.pixelFormat = formats::YUV420;
    vf.size = Size(width, height);
    if (want_still) {
        StreamConfiguration &st = config->at(1);
        st.pixelFormat = formats::YUV420;
        auto full = c->camera->properties().get(properties::PixelArraySize);
        if (full) st.size = *full;
    }
    if (config->validate() == CameraConfiguration::Invalid) return -EINVAL;
    int r = c->camera->configure(config.get());
    if (r < 0) return r;

    c->requests.clear();
    c->allocator = std::make_unique<FrameBufferAllocator>(c->camera);
    c->viewfinder = config->at(0).stream();
    c->still = want_still ? config->at(1).stream() : nullptr;
    r = c->allocator->allocate(c->viewfinder);
    if (r < 0) return r;
    if (c->still) {
        r = c->allocator->allocate(c->still);
        if (r < 0) return r;
    }
    const auto &vf_buffers = c->allocator->buffers(c->viewfinder);
    for (size_t i = 0; i < vf_buffers.size(); i++) {
        vf_buffers[i]->setCookie(i);
        auto request = c->camera->createRequest(i);
        if (!request) return -ENOMEM;
        c->requests.push_back(std::move(request));
    }
    if (c->still) {
        const auto &st_buffers = c->allocator->buffers(c->still);
        for (size_t i = 0; i < st_buffers.size(); i++) st_buffers[i]->setCookie(i);
    }
    c->completed.assign(c->requests.size(), nullptr);
    c->head = c->count = 0;
    fill_info(config->at(0), (unsigned)vf_buffers.size(), vf_info);
    if (c->still) fill_info(config->at(1), (unsigned)c->allocator->buffers(c->still).size(), still_info);
    else if (still_info) memset(still_info, 0, sizeof *still_info);
    c->config = std::move(config);
    return 0;
}

extern "C" int ccamera_buffer_planes(const ccamera *c, int stream, uint32_t index, ccamera_plane planes[3]) {
    Stream *s = stream == CCAMERA_STREAM_STILL ? c->still : c->viewfinder;
    if (!s || !c->allocator) return -EINVAL;
    const auto &buffers = c->allocator->buffers(s);
    if (index >= buffers.size()) return -EINVAL;
    const auto &p = buffers[index]->planes();
    size_t n = p.size() < 3 ? p.size() : 3;
    for (size_t i = 0; i < n; i++) {
        planes[i].fd = p[i].fd.get();
        planes[i].offset = p[i].offset;
        planes[i].length = p[i].length;
    }
    return (int)n;
}

static int queue(ccamera *c, uint32_t index) {
    Request *request = c->requests[index].get();
    request->reuse();
    int r = request->addBuffer(c->viewfinder, c->allocator->buffers(c->viewfinder)[index].get());
    if (r < 0) return r;
    if (c->still && c->still_pending > 0) {
        const auto &st = c->allocator->buffers(c->still);
        r = request->addBuffer(c->still, st[c->still_next].get());
        if (r < 0) return r;
        c->still_next = (c->still_next + 1) % st.size();
        c->still_pending--;
    }
    return c->camera->queueRequest(request);
}

extern "C" int ccamera_start(ccamera *c) {
    if (c->requests.empty()) return -EINVAL;
    if (c->running) return 0;
    {
        std::lock_guard<std::mutex> guard(c->lock);
        c->head = c->count = 0;
    }
    int r = c->camera->start();
    if (r < 0) return r;
    c->running = true;
    for (uint32_t i = 0; i < c->requests.size(); i++) {
        r = queue(c, i);
        if (r < 0) {
            ccamera_stop(c);
            return r;
        }
    }
    return 0;
}

extern "C" int ccamera_stop(ccamera *c) {
    if (!c->running) return 0;
    c->running = false;
    int r = c->camera->stop();
    std::lock_guard<std::mutex> guard(c->lock);
    c->head = c->count = 0;
    return r;
}

extern "C" int ccamera_event_fd(const ccamera *c) { return c->event_fd; }

extern "C" int ccamera_next_frame(ccamera *c, ccamera_frame *frame) {
    Request *request = nullptr;
    {
        std::lock_guard<std::mutex> guard(c->lock);
        if (c->count > 0) {
            request = c->completed[c->head];
            c->head = (c->head + 1) % c->completed.size();
            c->count--;
        } else {
            uint64_t value;
            ssize_t r;
            do { r = ::read(c->event_fd, &value, sizeof value); } while (r < 0 && errno == EINTR);
        }
    }
    if (!request) return c->disconnected.load() ? -ENODEV : 0;

    frame->request = (uint32_t)request->cookie();
    frame->still_buffer = -1;
    frame->status = request->status() == Request::RequestCancelled ? CCAMERA_FRAME_CANCELLED : CCAMERA_FRAME_OK;
    FrameBuffer *vf = request->findBuffer(c->viewfinder);
    frame->viewfinder_buffer = vf ? (uint32_t)vf->cookie() : frame->request;
    if (vf) {
        const FrameMetadata &md = vf->metadata();
        frame->sequence = md.sequence;
        frame->timestamp_ns = md.timestamp;
        if (frame->status == CCAMERA_FRAME_OK && md.status != FrameMetadata::FrameSuccess)
            frame->status = md.status == FrameMetadata::FrameCancelled ? CCAMERA_FRAME_CANCELLED : CCAMERA_FRAME_ERROR;
    }
    if (c->still) {
        if (FrameBuffer *st = request->findBuffer(c->still)) frame->still_buffer = (int32_t)st->cookie();
    }
    auto exposure = request->metadata().get(controls::ExposureTime);
    frame->exposure_us = exposure ? (int64_t)*exposure : -1;
    return 1;
}

extern "C" int ccamera_requeue(ccamera *c, uint32_t index) {
    if (c->disconnected.load()) return -ENODEV;
    if (!c->running) return 0;
    if (index >= c->requests.size()) return -EINVAL;
    return queue(c, index);
}

extern "C" int ccamera_request_still(ccamera *c) {
    if (!c->still) return -EINVAL;
    c->still_pending++;
    return 0;
}
