/* The device side of a USB webcam for scripts/vm/camera. The configfs UVC gadget (usb_f_uvc
 * on usbip-vudc) only connects to the bus once a program subscribes to its setup events; this is
 * that program. It answers the UVC class requests of the host's uvcvideo driver (streaming
 * probe/commit get the one format, 640x480 I420 at 30 fps; every other request is stalled) and,
 * while the host streams, feeds frames: frame n carries n in the stamp SyntheticSource uses
 * (32 blocks of 8x8 luma along the top, 235 = bit set, 16 = clear, least significant first) and
 * a pattern of n everywhere else, which booth-vmcheck camera recomputes pixel for pixel.
 *
 * The UDC is usbip-vudc (Debian's dummy_hcd has no isochronous endpoints, and the 6.1 UVC
 * function needs one). With --usbip-loop, once the gadget is connected, this program also plugs
 * the virtual UDC into vhci_hcd (the usbip host controller) over a local socket pair, the job
 * the usbip tools do over TCP: one end goes to vudc's usbip_sockfd, the other to vhci's attach.
 *
 *   uvc-gadget /dev/videoN [--usbip-loop]   runs until killed; prints what happens
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/g_uvc.h>
#include <linux/usb/video.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

enum { W = 640, H = 480, FRAME_BYTES = W * H * 3 / 2, MAX_PAYLOAD = 3072, NBUF = 4 };

/* The frame pattern; booth-vmcheck's cameraFrameMismatches computes the same. */
static void draw_frame(uint8_t *f, uint32_t n)
{
	uint8_t *y = f, *u = f + W * H, *v = u + W * H / 4;
	for (int r = 0; r < H; r++)
		for (int x = 0; x < W; x++)
			y[r * W + x] = (r < 8 && x < 256) ? (((n >> (x / 8)) & 1) ? 235 : 16)
							 : 16 + (x + 2 * r + 3 * n) % 220;
	for (int r = 0; r < H / 2; r++)
		for (int x = 0; x < W / 2; x++) {
			u[r * W / 2 + x] = 16 + (2 * x + r + n) % 224;
			v[r * W / 2 + x] = 16 + (x + 3 * r + 5 * n) % 224;
		}
}

static void fill_streaming(struct uvc_streaming_control *c)
{
	memset(c, 0, sizeof(*c));
	c->bmHint = 1;
	c->bFormatIndex = 1;
	c->bFrameIndex = 1;
	c->dwFrameInterval = 333333;
	c->dwMaxVideoFrameSize = FRAME_BYTES;
	c->dwMaxPayloadTransferSize = MAX_PAYLOAD;
	c->bmFramingInfo = 3;
	c->bPreferedVersion = 1;
	c->bMaxVersion = 1;
}

static void answer(const struct usb_ctrlrequest *req, struct uvc_request_data *resp)
{
	unsigned selector = req->wValue >> 8, interface = req->wIndex & 0xff;
	resp->length = -EL2HLT; /* stall */
	if ((req->bRequestType & USB_TYPE_MASK) != USB_TYPE_CLASS)
		return;
	if (interface == 0 || (selector != UVC_VS_PROBE_CONTROL && selector != UVC_VS_COMMIT_CONTROL))
		return;
	switch (req->bRequest) {
	case UVC_SET_CUR:
		resp->length = req->wLength; /* accept the data; it arrives as UVC_EVENT_DATA */
		break;
	case UVC_GET_CUR:
	case UVC_GET_DEF:
	case UVC_GET_MIN:
	case UVC_GET_MAX:
		fill_streaming((struct uvc_streaming_control *)resp->data);
		resp->length = req->wLength < sizeof(struct uvc_streaming_control) ? req->wLength
									      : sizeof(struct uvc_streaming_control);
		break;
	case UVC_GET_RES:
		memset(resp->data, 0, sizeof(struct uvc_streaming_control));
		resp->length = req->wLength < sizeof(struct uvc_streaming_control) ? req->wLength
									      : sizeof(struct uvc_streaming_control);
		break;
	case UVC_GET_LEN:
		resp->data[0] = sizeof(struct uvc_streaming_control);
		resp->data[1] = 0;
		resp->length = 2;
		break;
	case UVC_GET_INFO:
		resp->data[0] = 0x03;
		resp->length = 1;
		break;
	}
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) < 0) {
		fprintf(stderr, "uvc-gadget: %s <- %s: %s\n", path, text, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* vudc's end first (it must see a bound, pulled-up gadget), then vhci's: port 0, high speed. */
static int usbip_loop(void)
{
	int sv[2];
	char text[64];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		perror("socketpair");
		return -1;
	}
	snprintf(text, sizeof(text), "%d", sv[0]);
	if (write_text("/sys/devices/platform/usbip-vudc.0/usbip_sockfd", text) < 0)
		return -1;
	snprintf(text, sizeof(text), "0 %d %u %d", sv[1], (1u << 16) | 2u, USB_SPEED_HIGH);
	if (write_text("/sys/devices/platform/vhci_hcd.0/attach", text) < 0)
		return -1;
	printf("uvc-gadget: usbip-vudc.0 attached to vhci_hcd port 0\n");
	fflush(stdout);
	return 0;
}

struct feeder {
	int fd;
	void *mem[NBUF];
	size_t len[NBUF];
	unsigned count;
	uint32_t next;
	int streaming;
};

static int queue(struct feeder *f, unsigned index)
{
	struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP, .index = index};
	draw_frame(f->mem[index], f->next++);
	b.bytesused = FRAME_BYTES;
	if (ioctl(f->fd, VIDIOC_QBUF, &b) < 0) {
		perror("VIDIOC_QBUF");
		return -1;
	}
	return 0;
}

static int stream_on(struct feeder *f)
{
	/* Kernels whose gadget maps the configfs formats take the format as announced; older ones
	 * know only YUYV and MJPEG, so ask for the YUYV size of the same byte count. */
	struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
	fmt.fmt.pix.width = W;
	fmt.fmt.pix.height = H;
	fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	fmt.fmt.pix.sizeimage = FRAME_BYTES;
	if (ioctl(f->fd, VIDIOC_S_FMT, &fmt) < 0) {
		fmt.fmt.pix.height = FRAME_BYTES / (W * 2);
		fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
		if (ioctl(f->fd, VIDIOC_S_FMT, &fmt) < 0) {
			perror("VIDIOC_S_FMT");
			return -1;
		}
	}
	printf("uvc-gadget: format %.4s %ux%u, %u bytes\n", (char *)&fmt.fmt.pix.pixelformat, fmt.fmt.pix.width,
	       fmt.fmt.pix.height, fmt.fmt.pix.sizeimage);
	struct v4l2_requestbuffers rb = {.count = NBUF, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
	if (ioctl(f->fd, VIDIOC_REQBUFS, &rb) < 0) {
		perror("VIDIOC_REQBUFS");
		return -1;
	}
	f->count = rb.count < NBUF ? rb.count : NBUF;
	for (unsigned i = 0; i < f->count; i++) {
		struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP, .index = i};
		if (ioctl(f->fd, VIDIOC_QUERYBUF, &b) < 0) {
			perror("VIDIOC_QUERYBUF");
			return -1;
		}
		f->len[i] = b.length;
		f->mem[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, b.m.offset);
		if (f->mem[i] == MAP_FAILED || b.length < FRAME_BYTES) {
			fprintf(stderr, "uvc-gadget: buffer %u: %u bytes, mmap %s\n", i, b.length,
				f->mem[i] == MAP_FAILED ? strerror(errno) : "ok");
			return -1;
		}
		if (queue(f, i) < 0)
			return -1;
	}
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	if (ioctl(f->fd, VIDIOC_STREAMON, &type) < 0) {
		perror("VIDIOC_STREAMON");
		return -1;
	}
	f->streaming = 1;
	printf("uvc-gadget: streaming, %u buffers\n", f->count);
	fflush(stdout);
	return 0;
}

static void stream_off(struct feeder *f)
{
	if (!f->streaming)
		return;
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	ioctl(f->fd, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < f->count; i++)
		munmap(f->mem[i], f->len[i]);
	struct v4l2_requestbuffers rb = {.count = 0, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
	ioctl(f->fd, VIDIOC_REQBUFS, &rb);
	f->streaming = 0;
	printf("uvc-gadget: stream off after %u frames queued\n", f->next);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--usbip-loop") != 0)) {
		fprintf(stderr, "usage: uvc-gadget /dev/videoN [--usbip-loop]\n");
		return 2;
	}
	struct feeder f = {0};
	f.fd = open(argv[1], O_RDWR | O_NONBLOCK);
	if (f.fd < 0) {
		perror(argv[1]);
		return 1;
	}
	static const unsigned events[] = {UVC_EVENT_CONNECT, UVC_EVENT_DISCONNECT, UVC_EVENT_STREAMON,
					  UVC_EVENT_STREAMOFF, UVC_EVENT_DATA, UVC_EVENT_SETUP};
	for (unsigned i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct v4l2_event_subscription sub = {.type = events[i]};
		if (ioctl(f.fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0) {
			perror("VIDIOC_SUBSCRIBE_EVENT");
			return 1;
		}
	}
	printf("uvc-gadget: %s subscribed, gadget connected\n", argv[1]);
	fflush(stdout);
	if (argc == 3 && usbip_loop() < 0)
		return 1;
	for (;;) {
		struct pollfd p = {.fd = f.fd, .events = POLLPRI | (f.streaming ? POLLOUT : 0)};
		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("poll");
			return 1;
		}
		if (p.revents & POLLOUT) {
			struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
			if (ioctl(f.fd, VIDIOC_DQBUF, &b) == 0) {
				if (queue(&f, b.index) < 0)
					stream_off(&f);
			} else if (errno != EAGAIN) {
				perror("VIDIOC_DQBUF");
				stream_off(&f);
			}
		}
		if (!(p.revents & POLLPRI))
			continue;
		struct v4l2_event ev;
		memset(&ev, 0, sizeof(ev));
		if (ioctl(f.fd, VIDIOC_DQEVENT, &ev) < 0)
			continue;
		struct uvc_event *uev = (struct uvc_event *)&ev.u.data;
		switch (ev.type) {
		case UVC_EVENT_SETUP: {
			struct uvc_request_data resp;
			memset(&resp, 0, sizeof(resp));
			answer(&uev->req, &resp);
			printf("uvc-gadget: setup type %02x req %02x value %04x index %04x len %u -> %d\n",
			       uev->req.bRequestType, uev->req.bRequest, uev->req.wValue, uev->req.wIndex,
			       uev->req.wLength, resp.length);
			fflush(stdout);
			if (ioctl(f.fd, UVCIOC_SEND_RESPONSE, &resp) < 0)
				perror("UVCIOC_SEND_RESPONSE");
			break;
		}
		case UVC_EVENT_STREAMON:
			if (stream_on(&f) < 0)
				stream_off(&f);
			break;
		case UVC_EVENT_STREAMOFF:
		case UVC_EVENT_DISCONNECT:
			stream_off(&f);
			break;
		default:
			printf("uvc-gadget: event %u\n", ev.type - V4L2_EVENT_PRIVATE_START);
			fflush(stdout);
		}
	}
}
