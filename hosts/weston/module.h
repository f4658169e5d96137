/* module.h: the weston module's state, shared by its files (module.c sets it up). */
#ifndef LODESTONE_WESTON_MODULE_H
#define LODESTONE_WESTON_MODULE_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/input-event-codes.h>
#include <lodestone-pointer.h>
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server.h>
#include <libweston/libweston.h>
#include <libweston-desktop/libweston-desktop.h>
#include "overlay-client.h"

/* One output's overlay: a surface as large as the output, transparent but for the pointer. */
struct overlay {
	struct wl_list link; /* module.overlays */
	struct module *module;
	struct weston_output *output;
	struct weston_surface *surface;
	struct weston_view *view;
	struct overlay_client_buffer *memory; /* the buffer, as the internal client made it */
	struct wl_resource *buffer; /* the same, as weston has it */
	bool attached; /* weston made the buffer: the view shows it */
	bool hooked; /* after_frame is on the output's animation list */
	uint32_t *pixels;
	/* The buffer in output pixels: the output's size times its scale. */
	int32_t width, height, stride, scale;
	/* Shrinks the view by the scale, so the buffer's pixels are the output's. */
	struct weston_transform shrink;
	/* The rectangle (global) holding the last pointer drawn, to clear next frame. */
	pixman_box32_t drawn;
	struct weston_animation after_frame;
	struct wl_listener destroy;
};

/* A listener on one surface's commit and destruction. */
struct surface_hook {
	struct module *module;
	struct weston_surface *surface;
	uint64_t commits; /* its commits so far (the adapter's window pixels) */
	struct wl_listener commit, destroy;
};

struct module {
	struct weston_compositor *compositor;
	struct wl_display *display;
	struct lodestone_pointer_engine *engine;
	struct lodestone_pointer_server *server;
	struct lodestone_pointer_presentation frame;
	bool pixman; /* the read-back drawing works (not the GL renderer) */

	/* weston's own default grabs, which ours forward to. */
	const struct weston_pointer_grab_interface *pointer_default;
	const struct weston_keyboard_grab_interface *keyboard_default;
	bool moving; /* our grab is moving the pointer: its motion_signal is no warp */
	bool pressed; /* the engine holds the primary button */
	/* Where the device put the pointer (before magnetism; weston's pointer->x is after). */
	double device_x, device_y;
	/* The outputs' bounding box, which the device position stays inside. */
	double x0, y0, x1, y1;

	/* Drawing: the layer above everything but the fade, the overlays, the wrapped renderer. */
	struct weston_layer layer;
	struct wl_list overlays;
	struct weston_plane off_plane; /* an overlay's plane during the first pass */
	void (*repaint_output)(struct weston_output *output, pixman_region32_t *damage);
	struct wl_client *client; /* weston's side of the internal client, */
	struct overlay_client *peer; /* and the client itself */
	bool peer_ready;
	struct wl_event_source *peer_source;
	uint32_t *scratch; /* outputs not at (0, 0): a canvas whose (0, 0) is global (0, 0) */
	size_t scratch_size;

	struct wl_event_source *deadline;
	uint64_t layout; /* a digest of the view list, to see it change */

	struct wl_listener destroy, create_surface, seat_created, output_created, output_destroyed,
		output_moved, output_resized;
	struct wl_list seats; /* seat_hook.link */

	/* Apps that declare no regions (the library's adapter): the windows it was told of, the
	 * window under the pointer, the cursor image last given, what to show. */
	struct lodestone_pointer_adapter *adapter;
	uint64_t *windows;
	size_t window_count;
	uint64_t pointer_window;
	struct weston_surface *cursor_surface;
	struct weston_buffer *cursor_buffer;
	uint32_t cursor_serial, cursor_serial_seen; /* commits of cursor surfaces */
	int32_t cursor_hotspot_x, cursor_hotspot_y;
	uint32_t source; /* enum lodestone_pointer_source */
	struct wl_event_source *adapter_poll;
	double poll_until;
	/* The copy of a window's pixels last handed to the adapter, and whose it was. */
	uint32_t *window_copy;
	size_t window_copy_size;
	uint64_t window_copy_id, window_copy_commits;

	/* config.toml, and the watch on its folder that reloads it when saved. */
	char config[PATH_MAX];
	int config_watch;
	struct wl_event_source *config_source;
};

struct seat_hook {
	struct wl_list link;
	struct module *module;
	struct weston_seat *seat;
	struct weston_pointer *pointer; /* whose motion_signal we follow */
	struct weston_keyboard *keyboard; /* whose default grab we wrap */
	struct wl_listener caps, motion, pointer_destroy, keyboard_focus, destroy;
};

/* module.c */
double now(void);
struct module *module_of(struct weston_compositor *compositor);
void schedule_repaint(struct module *m);
void check_layout(struct module *m);
void update_bounds(struct module *m);

/* overlay.c */
struct overlay *overlay_of(struct module *m, struct weston_output *output);
void overlay_create(struct module *m, struct weston_output *output);
void overlay_destroy(struct overlay *o);
void repaint_output(struct weston_output *output, pixman_region32_t *damage);
int deadline_due(void *data);
bool create_peer(struct module *m);
bool renderer_is_pixman(struct weston_compositor *compositor);

/* input.c */
void seat_add(struct module *m, struct weston_seat *seat);
void seat_hook_destroy(struct seat_hook *s);
void send_logical_motion(struct module *m);
void seat_created(struct wl_listener *listener, void *data);

/* adapter.c */
uint64_t window_of(struct weston_surface *surface);
void poll_adapter_for(struct module *m, double seconds);
int adapter_poll(void *data);
void report_windows(struct module *m);
void adapter_follow(struct module *m, struct weston_pointer *pointer);
void adapter_stepped(struct module *m, double t);
void apply_source(struct module *m);
void keyboard_focus(struct wl_listener *listener, void *data);
bool window_pixels(void *data, uint64_t window, struct lodestone_pointer_window_pixels *pixels);

/* module.c */
uint64_t surface_commits(struct weston_surface *surface);

#endif
