/* The device side of a USB webcam for scripts/vm/camera: answers the UVC class requests that
 * the host's uvcvideo driver sends while it enumerates the configfs UVC gadget (usb_f_uvc on
 * usbip-vudc). The gadget only connects to the bus once a program subscribes to its setup events,
 * so something must run here. Streaming probe/commit get one 640x480 YUYV format at 30 fps;
 * every other request is stalled. No frames are sent.
 *
 * The UDC is usbip-vudc (Debian's dummy_hcd has no isochronous endpoints, and the 6.1 UVC
 * function needs one). With --usbip-loop, once the gadget is connected, this program also plugs
 * the virtual UDC into vhci_hcd (the usbip host controller) over a local socket pair, the job
 * the usbip tools do over TCP: one end goes to vudc's usbip_sockfd, the other to vhci's attach.
 *
 *   uvc-gadget /dev/videoN [--usbip-loop]   runs until killed; prints one line per request
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/g_uvc.h>
#include <linux/usb/video.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static void fill_streaming(struct uvc_streaming_control *c)
{
	memset(c, 0, sizeof(*c));
	c->bmHint = 1;
	c->bFormatIndex = 1;
	c->bFrameIndex = 1;
	c->dwFrameInterval = 333333;
	c->dwMaxVideoFrameSize = 640 * 480 * 2;
	c->dwMaxPayloadTransferSize = 1024;
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

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--usbip-loop") != 0)) {
		fprintf(stderr, "usage: uvc-gadget /dev/videoN [--usbip-loop]\n");
		return 2;
	}
	int fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	static const unsigned events[] = {UVC_EVENT_CONNECT, UVC_EVENT_DISCONNECT, UVC_EVENT_STREAMON,
					  UVC_EVENT_STREAMOFF, UVC_EVENT_DATA, UVC_EVENT_SETUP};
	for (unsigned i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct v4l2_event_subscription sub = {.type = events[i]};
		if (ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0) {
			perror("VIDIOC_SUBSCRIBE_EVENT");
			return 1;
		}
	}
	printf("uvc-gadget: %s subscribed, gadget connected\n", argv[1]);
	fflush(stdout);
	if (argc == 3 && usbip_loop() < 0)
		return 1;
	for (;;) {
		struct v4l2_event ev;
		memset(&ev, 0, sizeof(ev));
		if (ioctl(fd, VIDIOC_DQEVENT, &ev) < 0) {
			if (errno == ENOENT || errno == EINTR) {
				usleep(2000); /* no event queued: a blocking fd still returns ENOENT */
				continue;
			}
			perror("VIDIOC_DQEVENT");
			return 1;
		}
		struct uvc_event *uev = (struct uvc_event *)&ev.u.data;
		if (ev.type == UVC_EVENT_SETUP) {
			struct uvc_request_data resp;
			memset(&resp, 0, sizeof(resp));
			answer(&uev->req, &resp);
			printf("uvc-gadget: setup type %02x req %02x value %04x index %04x len %u -> %d\n",
			       uev->req.bRequestType, uev->req.bRequest, uev->req.wValue, uev->req.wIndex,
			       uev->req.wLength, resp.length);
			fflush(stdout);
			if (ioctl(fd, UVCIOC_SEND_RESPONSE, &resp) < 0)
				perror("UVCIOC_SEND_RESPONSE");
		} else {
			printf("uvc-gadget: event %u\n", ev.type - V4L2_EVENT_PRIVATE_START);
			fflush(stdout);
		}
	}
}
