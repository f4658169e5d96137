#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/dma-buf.h>
#include "CWaylandServer.h"

void cws_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
	wl_resource_post_error(resource, code, "%s", message);
}

static void cws_error_logger(void *user_data, enum wl_protocol_logger_type direction,
                             const struct wl_protocol_logger_message *m) {
	if (direction != WL_PROTOCOL_LOGGER_EVENT || m->message != &wl_display_interface.events[WL_DISPLAY_ERROR]
	    || m->arguments_count < 3) return;
	cws_error_report report = (cws_error_report)user_data;
	struct wl_resource *object = (struct wl_resource *)m->arguments[0].o;
	report(wl_resource_get_client(m->resource), object ? wl_resource_get_class(object) : "?",
	       object ? wl_resource_get_id(object) : 0, m->arguments[1].u, m->arguments[2].s ? m->arguments[2].s : "");
}

struct wl_protocol_logger *cws_display_add_error_reporter(struct wl_display *display, cws_error_report report) {
	return wl_display_add_protocol_logger(display, cws_error_logger, (void *)report);
}

static void cws_listener_notify(struct wl_listener *listener, void *data) {
	struct cws_listener *l = wl_container_of(listener, l, listener);
	l->notify(l->owner, data);
}

struct cws_listener *cws_listener_create(void *owner, void (*notify)(void *owner, void *data)) {
	struct cws_listener *l = calloc(1, sizeof(*l));
	if (!l) return NULL;
	l->listener.notify = cws_listener_notify;
	wl_list_init(&l->listener.link);
	l->owner = owner;
	l->notify = notify;
	return l;
}

void cws_listener_add(struct cws_listener *listener, struct wl_signal *signal) {
	wl_list_remove(&listener->listener.link);
	wl_signal_add(signal, &listener->listener);
}

void cws_client_add_destroy_listener(struct wl_client *client, struct cws_listener *listener) {
	wl_list_remove(&listener->listener.link);
	wl_client_add_destroy_listener(client, &listener->listener);
}

void cws_listener_destroy(struct cws_listener *listener) {
	if (!listener) return;
	wl_list_remove(&listener->listener.link);
	wl_list_init(&listener->listener.link);
	free(listener);
}

int cws_sealed_memfd(const char *name, const void *data, size_t size) {
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) return -1;
	if (ftruncate(fd, (off_t)size) < 0) goto fail;
	void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) goto fail;
	memcpy(map, data, size);
	munmap(map, size);
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	return fd;
fail:
	close(fd);
	return -1;
}

int cws_dmabuf_sync_read(int fd, bool start) {
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_READ | (start ? DMA_BUF_SYNC_START : DMA_BUF_SYNC_END) };
	return ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync);
}
