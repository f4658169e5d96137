/*
 * overlay-client.c: the module's own Wayland client of weston, on one end of a socketpair,
 * whose only job is to make wl_shm buffers for the overlays.
 * libwayland 1.21 gives a server no buffer of its own (wl_shm_buffer_create is deprecated
 * and returns NULL), so the buffers are made the way any client makes them: a memfd, a
 * wl_shm_pool, wl_shm_pool.create_buffer. The memory is mapped here as well, so the module
 * writes the pixels the renderer reads (overlay.c). Kept apart from the server code: wayland-client.h
 * and wayland-server.h declare different things under the same names.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "overlay-client.h"

struct overlay_client {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_shm *shm;
	void (*ready)(void *data);
	void *data;
};

struct overlay_client_buffer {
	struct wl_buffer *buffer;
	struct wl_callback *sync;
	void *pixels;
	size_t size;
	void (*made)(void *data, uint32_t id);
	void *data;
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	(void)version;
	struct overlay_client *c = data;
	if (c->shm || strcmp(interface, wl_shm_interface.name) != 0) return;
	c->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	c->ready(c->data);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

struct overlay_client *overlay_client_create(int fd, void (*ready)(void *data), void *data) {
	struct overlay_client *c = calloc(1, sizeof *c);
	if (!c) return NULL;
	c->display = wl_display_connect_to_fd(fd);
	if (!c->display) {
		free(c);
		return NULL;
	}
	c->ready = ready;
	c->data = data;
	c->registry = wl_display_get_registry(c->display);
	wl_registry_add_listener(c->registry, &registry_listener, c);
	wl_display_flush(c->display);
	return c;
}

int overlay_client_fd(struct overlay_client *c) {
	return wl_display_get_fd(c->display);
}

bool overlay_client_dispatch(struct overlay_client *c) {
	if (wl_display_dispatch(c->display) < 0) return false;
	wl_display_flush(c->display);
	return true;
}

void overlay_client_destroy(struct overlay_client *c) {
	if (!c) return;
	if (c->shm) wl_shm_destroy(c->shm);
	wl_registry_destroy(c->registry);
	wl_display_disconnect(c->display);
	free(c);
}

static void synced(void *data, struct wl_callback *callback, uint32_t time) {
	(void)time;
	struct overlay_client_buffer *b = data;
	wl_callback_destroy(callback);
	b->sync = NULL;
	b->made(b->data, wl_proxy_get_id((struct wl_proxy *)b->buffer));
}

static const struct wl_callback_listener sync_listener = {synced};

struct overlay_client_buffer *overlay_client_buffer_create(struct overlay_client *c, int32_t width, int32_t height,
		void (*made)(void *data, uint32_t id), void *data) {
	if (!c->shm || width <= 0 || height <= 0) return NULL;
	struct overlay_client_buffer *b = calloc(1, sizeof *b);
	if (!b) return NULL;
	b->size = (size_t)width * height * 4;
	int fd = memfd_create("lodestone-pointer-overlay", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)b->size) < 0) {
		if (fd >= 0) close(fd);
		free(b);
		return NULL;
	}
	b->pixels = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b->pixels == MAP_FAILED) {
		close(fd);
		free(b);
		return NULL;
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, (int32_t)b->size);
	b->buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	b->made = made;
	b->data = data;
	/* The server has made the buffer once it answers a sync sent after it. */
	b->sync = wl_display_sync(c->display);
	wl_callback_add_listener(b->sync, &sync_listener, b);
	wl_display_flush(c->display);
	return b;
}

uint32_t *overlay_client_buffer_pixels(struct overlay_client_buffer *b) {
	return b->pixels;
}

void overlay_client_buffer_destroy(struct overlay_client *c, struct overlay_client_buffer *b) {
	if (!b) return;
	if (b->sync) wl_callback_destroy(b->sync);
	wl_buffer_destroy(b->buffer);
	wl_display_flush(c->display);
	munmap(b->pixels, b->size);
	free(b);
}
