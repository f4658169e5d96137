#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>
#include "CWLCS.h"

/* Implemented in Swift (LodestoneWLCS/Entry.swift). `owner` is the
 * retained Swift object behind each C struct. */
extern void *lodestone_wlcs_create_server(int argc, const char **argv);
extern void lodestone_wlcs_destroy_server(void *owner);
extern void lodestone_wlcs_run(void *owner, struct wl_event_loop *wlcs_loop);
extern void lodestone_wlcs_stop(void *owner);
extern int lodestone_wlcs_create_client_socket(void *owner);
extern void lodestone_wlcs_position_window(void *owner, void *client_display, void *client_surface, int x, int y);
extern void *lodestone_wlcs_create_pointer(void *owner);
extern void *lodestone_wlcs_create_touch(void *owner);
extern void lodestone_wlcs_pointer_move(void *owner, double x, double y, bool relative);
extern void lodestone_wlcs_pointer_button(void *owner, int button, bool pressed);
extern void lodestone_wlcs_pointer_destroy(void *owner);
extern void lodestone_wlcs_touch_down(void *owner, double x, double y);
extern void lodestone_wlcs_touch_move(void *owner, double x, double y);
extern void lodestone_wlcs_touch_up(void *owner);
extern void lodestone_wlcs_touch_destroy(void *owner);

struct cwlcs_server {
	WlcsDisplayServer base; /* first: a WlcsDisplayServer* is a cwlcs_server* */
	void *owner;
	WlcsIntegrationDescriptor descriptor;
	WlcsExtensionDescriptor *extensions;
};

struct cwlcs_pointer {
	WlcsPointer base;
	void *owner;
};

struct cwlcs_touch {
	WlcsTouch base;
	void *owner;
};

static void *owner_of(const WlcsDisplayServer *server) {
	return ((const struct cwlcs_server *)server)->owner;
}

static void server_stop(WlcsDisplayServer *server) { lodestone_wlcs_stop(owner_of(server)); }

static void server_start_on_this_thread(WlcsDisplayServer *server, struct wl_event_loop *loop) {
	lodestone_wlcs_run(owner_of(server), loop);
}

static int server_create_client_socket(WlcsDisplayServer *server) {
	return lodestone_wlcs_create_client_socket(owner_of(server));
}

static void server_position_window_absolute(WlcsDisplayServer *server, struct wl_display *client,
                                            struct wl_surface *surface, int x, int y) {
	lodestone_wlcs_position_window(owner_of(server), client, surface, x, y);
}

static WlcsPointer *server_create_pointer(WlcsDisplayServer *server) {
	return lodestone_wlcs_create_pointer(owner_of(server));
}

static WlcsTouch *server_create_touch(WlcsDisplayServer *server) {
	return lodestone_wlcs_create_touch(owner_of(server));
}

static const WlcsIntegrationDescriptor *server_get_descriptor(const WlcsDisplayServer *server) {
	return &((const struct cwlcs_server *)server)->descriptor;
}

void *cwlcs_server_create(void *owner) {
	struct cwlcs_server *s = calloc(1, sizeof(*s));
	if (!s) return NULL;
	s->base.version = 3;
	s->base.start = NULL; /* start_on_this_thread instead: wlcs proxies every call onto our loop */
	s->base.stop = server_stop;
	s->base.create_client_socket = server_create_client_socket;
	s->base.position_window_absolute = server_position_window_absolute;
	s->base.create_pointer = server_create_pointer;
	s->base.create_touch = server_create_touch;
	s->base.get_descriptor = server_get_descriptor;
	s->base.start_on_this_thread = server_start_on_this_thread;
	s->owner = owner;
	s->descriptor.version = 1;
	return s;
}

void cwlcs_server_free(void *server) {
	struct cwlcs_server *s = server;
	if (!s) return;
	for (size_t i = 0; i < s->descriptor.num_extensions; i++) free((char *)s->extensions[i].name);
	free(s->extensions);
	free(s);
}

void *cwlcs_server_owner(const void *server) { return owner_of(server); }

void cwlcs_server_set_extension_count(void *server, size_t count) {
	struct cwlcs_server *s = server;
	s->extensions = calloc(count, sizeof(*s->extensions));
	s->descriptor.num_extensions = s->extensions ? count : 0;
	s->descriptor.supported_extensions = s->extensions;
}

void cwlcs_server_set_extension(void *server, size_t index, const char *name, uint32_t version) {
	struct cwlcs_server *s = server;
	if (index >= s->descriptor.num_extensions) return;
	s->extensions[index].name = strdup(name);
	s->extensions[index].version = version;
}

static void *pointer_owner(WlcsPointer *p) { return ((struct cwlcs_pointer *)p)->owner; }

static void pointer_move_absolute(WlcsPointer *p, wl_fixed_t x, wl_fixed_t y) {
	lodestone_wlcs_pointer_move(pointer_owner(p), wl_fixed_to_double(x), wl_fixed_to_double(y), false);
}

static void pointer_move_relative(WlcsPointer *p, wl_fixed_t dx, wl_fixed_t dy) {
	lodestone_wlcs_pointer_move(pointer_owner(p), wl_fixed_to_double(dx), wl_fixed_to_double(dy), true);
}

static void pointer_button_up(WlcsPointer *p, int button) { lodestone_wlcs_pointer_button(pointer_owner(p), button, false); }
static void pointer_button_down(WlcsPointer *p, int button) { lodestone_wlcs_pointer_button(pointer_owner(p), button, true); }

static void pointer_destroy(WlcsPointer *p) {
	lodestone_wlcs_pointer_destroy(pointer_owner(p));
	free(p);
}

void *cwlcs_pointer_create(void *owner) {
	struct cwlcs_pointer *p = calloc(1, sizeof(*p));
	if (!p) return NULL;
	p->base.version = WLCS_POINTER_VERSION;
	p->base.move_absolute = pointer_move_absolute;
	p->base.move_relative = pointer_move_relative;
	p->base.button_up = pointer_button_up;
	p->base.button_down = pointer_button_down;
	p->base.destroy = pointer_destroy;
	p->owner = owner;
	return p;
}

static void *touch_owner(WlcsTouch *t) { return ((struct cwlcs_touch *)t)->owner; }

/* Despite the wl_fixed_t in touch.h, wlcs passes whole pixels here (its
 * Touch::down_at forwards plain ints; Mir's own integration reads ints). */
static void touch_down(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) {
	lodestone_wlcs_touch_down(touch_owner(t), (double)x, (double)y);
}

static void touch_move(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) {
	lodestone_wlcs_touch_move(touch_owner(t), (double)x, (double)y);
}

static void touch_up(WlcsTouch *t) { lodestone_wlcs_touch_up(touch_owner(t)); }

static void touch_destroy(WlcsTouch *t) {
	lodestone_wlcs_touch_destroy(touch_owner(t));
	free(t);
}

void *cwlcs_touch_create(void *owner) {
	struct cwlcs_touch *t = calloc(1, sizeof(*t));
	if (!t) return NULL;
	t->base.version = WLCS_TOUCH_VERSION;
	t->base.touch_down = touch_down;
	t->base.touch_move = touch_move;
	t->base.touch_up = touch_up;
	t->base.destroy = touch_destroy;
	t->owner = owner;
	return t;
}

int cwlcs_client_display_fd(void *client_display) { return wl_display_get_fd(client_display); }

uint32_t cwlcs_client_proxy_id(void *client_proxy) { return wl_proxy_get_id(client_proxy); }

static WlcsDisplayServer *create_server(int argc, const char **argv) {
	return lodestone_wlcs_create_server(argc, argv);
}

static void destroy_server(WlcsDisplayServer *server) {
	lodestone_wlcs_destroy_server(owner_of(server));
}

/* The one symbol wlcs looks up. Immutable: all state hangs off each server. */
const WlcsServerIntegration wlcs_server_integration = {
	.version = 1,
	.create_server = create_server,
	.destroy_server = destroy_server,
};
