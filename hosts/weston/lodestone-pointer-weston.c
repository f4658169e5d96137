/*
 * lodestone-pointer.so: the adaptive pointer of liblodestone-pointer in weston 10, as a module.
 *
 *     weston --use-pixman --modules=lodestone-pointer.so
 *     (or [core] modules=lodestone-pointer.so in weston.ini)
 *
 * What it does, in the order wet_module_init sets it up:
 *   - one engine for the pointer, its settings from Lodestone's config.toml
 *     (lodestone_pointer_engine_load_settings: $XDG_CONFIG_HOME/lodestone/config.toml);
 *   - the server helper offers adaptive_pointer_manager_v1 on weston's display; every
 *     surface's commit_signal reports commits, and a change in weston's view list (a window
 *     mapped, moved, restacked) reports a layout change;
 *   - every seat's pointer gets a default grab that feeds motion and buttons to the engine and
 *     sends clients wl_pointer.motion at the engine's logical position (after magnetism);
 *     moves by other grabs (a shell's window move) and by the backend (the X11 backend's
 *     pointer entering the window) warp the engine; keys that type hide the pointer;
 *   - weston's cursor layer is masked away and the pointer is drawn by the library over the
 *     composed frame (see "Drawing" below), with the effects on the element's pixels;
 *   - frames: the engine steps when an output repaints; while it animates, or until its next
 *     deadline (a timer), the module schedules repaints.
 *
 * Drawing (pixman renderer): the renderer's repaint_output is wrapped. The wrapper first lets
 * the renderer compose the output with the module's overlay view held off the primary plane,
 * reads the composed pixels under the pointer back (renderer->read_pixels), draws the pointer
 * over them with lodestone_pointer_engine_draw into the overlay's buffer (a wl_shm_buffer of an
 * internal client: weston 10 has no other way to give a weston_surface pixels), and composes
 * the pointer's rectangle again with the overlay on top. frame_signal (weston-screenshooter,
 * the recorder) fires only for that second pass, so screenshots show the pointer. The GL
 * renderer swaps buffers inside repaint_output, so the read-back cannot work there: under GL
 * the module keeps weston's own cursor (see docs/weston.md).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/input-event-codes.h>
#include <lodestone-pointer.h>
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	uint32_t *pixels;
	int32_t width, height, stride;
	/* The rectangle (global) holding the last pointer drawn, to clear next frame. */
	pixman_box32_t drawn;
	struct weston_animation after_frame;
	struct wl_listener destroy;
};

/* A listener on one surface's commit and destruction. */
struct surface_hook {
	struct module *module;
	struct weston_surface *surface;
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
	uint32_t source; /* enum lodestone_pointer_source */
	struct wl_event_source *adapter_poll;
	double poll_until;
};

struct seat_hook {
	struct wl_list link;
	struct module *module;
	struct weston_seat *seat;
	struct weston_pointer *pointer; /* whose motion_signal we follow */
	struct weston_keyboard *keyboard; /* whose default grab we wrap */
	struct wl_listener caps, motion, pointer_destroy, keyboard_focus, destroy;
};

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void module_destroy(struct wl_listener *listener, void *data);

/* The module of a compositor: our listener on its destroy signal (no global state). */
static struct module *module_of(struct weston_compositor *compositor) {
	struct wl_listener *l = wl_signal_get(&compositor->destroy_signal, module_destroy);
	return l ? wl_container_of(l, (struct module *)NULL, destroy) : NULL;
}

static void schedule_repaint(struct module *m) {
	weston_compositor_schedule_repaint(m->compositor);
}

/* ---- The helper's callbacks: where a surface is, and a subsurface's parent ---- */

/* A surface's first mapped view. */
static struct weston_view *mapped_view(struct weston_surface *surface) {
	struct weston_view *view;
	wl_list_for_each(view, &surface->views, surface_link)
		if (weston_view_is_mapped(view)) return view;
	return NULL;
}

static bool surface_position(void *data, struct wl_resource *resource, double *x, double *y, int32_t *layer) {
	struct module *m = data;
	struct weston_surface *surface = wl_resource_get_user_data(resource);
	struct weston_view *view = surface ? mapped_view(surface) : NULL;
	if (!view) return false;
	float gx, gy;
	weston_view_to_global_float(view, 0, 0, &gx, &gy);
	*x = gx;
	*y = gy;
	/* The view list is topmost first: the top view gets the highest layer. */
	int32_t index = 0, count = 0, found = -1;
	struct weston_view *v;
	wl_list_for_each(v, &m->compositor->view_list, link) {
		if (v == view) found = index;
		index++;
		count++;
	}
	*layer = found < 0 ? 0 : count - found;
	return true;
}

static struct wl_resource *subsurface_parent(void *data, struct wl_resource *resource) {
	(void)data;
	struct weston_surface *surface = wl_resource_get_user_data(resource);
	const char *role = surface ? weston_surface_get_role(surface) : NULL;
	if (!role || strcmp(role, "wl_subsurface") != 0) return NULL;
	/* weston keeps a subsurface's weston_subsurface as its surface's committed_private. */
	struct weston_subsurface *sub = surface->committed_private;
	return sub && sub->parent ? sub->parent->resource : NULL;
}

/* ---- Every surface's commit reaches the helper ---- */

static void surface_commit(struct wl_listener *listener, void *data) {
	(void)data;
	struct surface_hook *hook = wl_container_of(listener, hook, commit);
	const char *role = weston_surface_get_role(hook->surface);
	if (role && strcmp(role, "wl_pointer-cursor") == 0) {
		hook->module->cursor_serial++; /* read at the next step (adapter_follow) */
		schedule_repaint(hook->module);
	}
	if (hook->surface->resource)
		lodestone_pointer_server_surface_committed(hook->module->server, hook->surface->resource);
}

static void surface_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct surface_hook *hook = wl_container_of(listener, hook, destroy);
	wl_list_remove(&hook->commit.link);
	wl_list_remove(&hook->destroy.link);
	free(hook);
}

static void create_surface(struct wl_listener *listener, void *data) {
	struct module *m = wl_container_of(listener, m, create_surface);
	struct surface_hook *hook = calloc(1, sizeof *hook);
	if (!hook) return;
	hook->module = m;
	hook->surface = data;
	hook->commit.notify = surface_commit;
	wl_signal_add(&hook->surface->commit_signal, &hook->commit);
	hook->destroy.notify = surface_destroy;
	wl_signal_add(&hook->surface->destroy_signal, &hook->destroy);
}

/* ---- The adapter: apps that declare no regions (cursor images, AT-SPI geometry) ---- */

/* A surface's window id for the adapter: its main surface, when that is a desktop surface
 * (an xdg toplevel or popup, or an Xwayland window), else 0. */
static uint64_t window_of(struct weston_surface *surface) {
	if (!surface) return 0;
	struct weston_surface *main = weston_surface_get_main_surface(surface);
	return main && weston_surface_is_desktop_surface(main) ? (uint64_t)(uintptr_t)main : 0;
}

static void poll_adapter_for(struct module *m, double seconds) {
	if (!m->adapter) return;
	double until = now() + seconds;
	if (until > m->poll_until) m->poll_until = until;
	wl_event_source_timer_update(m->adapter_poll, 100);
}

/* The adapter's replies arrive on weston's loop with no call to us: while the pointer has
 * been used lately (3 s), look every 100 ms whether they changed the regions. */
static int adapter_poll(void *data) {
	struct module *m = data;
	if (lodestone_pointer_adapter_changed(m->adapter)) schedule_repaint(m);
	if (now() < m->poll_until) wl_event_source_timer_update(m->adapter_poll, 100);
	return 0;
}

/* Every window weston shows, in stacking order, to the adapter; the ones gone leave it. */
static void report_windows(struct module *m) {
	if (!m->adapter) return;
	size_t count = 0, capacity = 16;
	uint64_t *seen = malloc(capacity * sizeof *seen);
	if (!seen) return;
	int32_t views = wl_list_length(&m->compositor->view_list), index = 0;
	struct weston_view *v;
	wl_list_for_each(v, &m->compositor->view_list, link) {
		index++;
		struct weston_surface *surface = v->surface;
		if (!surface->resource || !weston_surface_is_desktop_surface(surface) || !weston_view_is_mapped(v)) continue;
		uint64_t id = (uint64_t)(uintptr_t)surface;
		bool again = false;
		for (size_t i = 0; i < count; i++) again |= seen[i] == id;
		if (again) continue;
		if (count == capacity) {
			uint64_t *more = realloc(seen, (capacity *= 2) * sizeof *seen);
			if (!more) break;
			seen = more;
		}
		seen[count++] = id;
		struct weston_desktop_surface *ds = weston_surface_get_desktop_surface(surface);
		struct weston_geometry g = weston_desktop_surface_get_geometry(ds);
		float gx, gy;
		weston_view_to_global_float(v, g.x, g.y, &gx, &gy);
		lodestone_pointer_adapter_window_configured(m->adapter, id, weston_desktop_surface_get_pid(ds),
			gx, gy, g.width, g.height, views - index + 1, surface->resource);
	}
	for (size_t i = 0; i < m->window_count; i++) {
		bool kept = false;
		for (size_t j = 0; j < count; j++) kept |= m->windows[i] == seen[j];
		if (!kept) lodestone_pointer_adapter_window_unmapped(m->adapter, m->windows[i]);
	}
	free(m->windows);
	m->windows = seen;
	m->window_count = count;
	poll_adapter_for(m, 3);
}

/* The window under the pointer and the cursor its client set, when they changed. */
static void adapter_follow(struct module *m, struct weston_pointer *pointer) {
	if (!m->adapter || !pointer) return;
	uint64_t window = window_of(pointer->focus ? pointer->focus->surface : NULL);
	if (window != m->pointer_window) {
		m->pointer_window = window;
		lodestone_pointer_adapter_pointer_over(m->adapter, window);
		m->cursor_surface = NULL;
		m->cursor_buffer = NULL;
		m->cursor_serial_seen = m->cursor_serial - 1; /* the cursor is told again */
	}
	struct weston_surface *cs = pointer->sprite ? pointer->sprite->surface : NULL;
	struct weston_buffer *buffer = cs ? cs->buffer_ref.buffer : NULL;
	if (cs == m->cursor_surface && buffer == m->cursor_buffer && m->cursor_serial == m->cursor_serial_seen) return;
	bool had = m->cursor_surface != NULL;
	m->cursor_surface = cs;
	m->cursor_buffer = buffer;
	m->cursor_serial_seen = m->cursor_serial;
	if (!cs) {
		/* wl_pointer.set_cursor with no surface: the app hid its cursor. */
		if (had) lodestone_pointer_adapter_cursor_hidden(m->adapter);
		return;
	}
	struct wl_shm_buffer *shm = buffer && buffer->resource ? wl_shm_buffer_get(buffer->resource) : NULL;
	if (!shm) return;
	uint32_t format = wl_shm_buffer_get_format(shm);
	if (format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XRGB8888) return;
	int32_t scale = cs->buffer_viewport.buffer.scale > 0 ? cs->buffer_viewport.buffer.scale : 1;
	wl_shm_buffer_begin_access(shm);
	lodestone_pointer_adapter_cursor_image(m->adapter, wl_shm_buffer_get_data(shm), wl_shm_buffer_get_width(shm),
		wl_shm_buffer_get_height(shm), wl_shm_buffer_get_stride(shm), scale,
		pointer->hotspot_x * scale, pointer->hotspot_y * scale);
	wl_shm_buffer_end_access(shm);
}

/* After a step: the adapter reads where the pointer rests. */
static void adapter_stepped(struct module *m, double t) {
	if (m->adapter) lodestone_pointer_adapter_stepped(m->adapter, t);
}

/* The client's own image or the theme's cursor (an image, or a name with no adaptive form):
 * weston's sprite shows, not the adaptive pointer. Outside composing (after a frame). */
static void apply_source(struct module *m) {
	uint32_t source = m->adapter ? lodestone_pointer_adapter_pointer_source(m->adapter) : LODESTONE_POINTER_SOURCE_ADAPTIVE;
	if (source == m->source) return;
	m->source = source;
	if (source == LODESTONE_POINTER_SOURCE_ADAPTIVE) weston_layer_set_mask(&m->compositor->cursor_layer, 0, 0, 0, 0);
	else weston_layer_set_mask_infinite(&m->compositor->cursor_layer);
	schedule_repaint(m);
}

static void keyboard_focus(struct wl_listener *listener, void *data) {
	struct seat_hook *s = wl_container_of(listener, s, keyboard_focus);
	struct weston_keyboard *keyboard = data;
	uint64_t window = window_of(keyboard->focus);
	if (s->module->adapter && window) {
		lodestone_pointer_adapter_window_activated(s->module->adapter, window);
		poll_adapter_for(s->module, 3);
	}
}

/* Windows mapped, moved or restacked: the view list differs from the last frame's. */
static void check_layout(struct module *m) {
	uint64_t digest = 1469598103934665603ull;
	struct weston_view *v;
	wl_list_for_each(v, &m->compositor->view_list, link) {
		uint64_t parts[4] = {(uintptr_t)v, (uint64_t)(int64_t)v->geometry.x, (uint64_t)(int64_t)v->geometry.y,
			(uint64_t)v->surface->width << 32 | (uint32_t)v->surface->height};
		for (int i = 0; i < 4; i++) digest = (digest ^ parts[i]) * 1099511628211ull;
	}
	if (digest == m->layout) return;
	m->layout = digest;
	lodestone_pointer_server_layout_changed(m->server);
	report_windows(m);
}

/* ---- Outputs: the engine's bounds, one overlay each ---- */

static void update_bounds(struct module *m) {
	struct weston_output *o;
	bool any = false;
	int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
	wl_list_for_each(o, &m->compositor->output_list, link) {
		if (!any || o->x < x0) x0 = o->x;
		if (!any || o->y < y0) y0 = o->y;
		if (!any || o->x + o->width > x1) x1 = o->x + o->width;
		if (!any || o->y + o->height > y1) y1 = o->y + o->height;
		any = true;
	}
	if (!any) return;
	lodestone_pointer_engine_set_output_bounds(m->engine, x0, y0, x1 - x0, y1 - y0);
	m->x0 = x0;
	m->y0 = y0;
	m->x1 = x1;
	m->y1 = y1;
}

static struct overlay *overlay_of(struct module *m, struct weston_output *output) {
	struct overlay *o;
	wl_list_for_each(o, &m->overlays, link)
		if (o->output == output) return o;
	return NULL;
}

static void overlay_destroy(struct overlay *o) {
	wl_list_remove(&o->link);
	wl_list_remove(&o->destroy.link);
	if (o->attached) {
		wl_list_remove(&o->after_frame.link);
		weston_view_destroy(o->view);
		weston_surface_destroy(o->surface);
	}
	overlay_client_buffer_destroy(o->module->peer, o->memory);
	free(o);
}

static void overlay_output_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct overlay *o = wl_container_of(listener, o, destroy);
	overlay_destroy(o);
}

static void after_frame(struct weston_animation *animation, struct weston_output *output, const struct timespec *time);

/* weston made an overlay's buffer: a surface and a view show it, in the module's layer. */
static void overlay_made(void *data, uint32_t id) {
	struct overlay *o = data;
	struct module *m = o->module;
	o->buffer = wl_client_get_object(m->client, id);
	o->surface = o->buffer ? weston_surface_create(m->compositor) : NULL;
	o->view = o->surface ? weston_view_create(o->surface) : NULL;
	if (!o->view) {
		weston_log("lodestone-pointer: cannot show the overlay of output %s\n", o->output->name);
		if (o->surface) weston_surface_destroy(o->surface);
		o->surface = NULL;
		return;
	}
	weston_surface_set_size(o->surface, o->width, o->height);
	pixman_region32_clear(&o->surface->input); /* clicks go through */
	pixman_region32_clear(&o->surface->opaque);
	m->compositor->renderer->attach(o->surface, weston_buffer_from_resource(o->buffer));
	weston_view_set_position(o->view, o->output->x, o->output->y);
	o->surface->is_mapped = true;
	o->view->is_mapped = true;
	weston_layer_entry_insert(&m->layer.view_list, &o->view->layer_link);
	o->after_frame.frame = after_frame;
	wl_list_insert(&o->output->animation_list, &o->after_frame.link);
	o->attached = true;
	weston_output_schedule_repaint(o->output);
}

/* The overlay for an output: an ARGB buffer as large as the output, all transparent, that
 * takes no input; shown once weston has made the buffer (overlay_made). */
static void overlay_create(struct module *m, struct weston_output *output) {
	if (!m->pixman || !m->peer_ready || overlay_of(m, output)) return;
	struct overlay *o = calloc(1, sizeof *o);
	if (!o) return;
	o->module = m;
	o->output = output;
	o->width = output->width;
	o->height = output->height;
	o->stride = o->width * 4;
	o->memory = overlay_client_buffer_create(m->peer, o->width, o->height, overlay_made, o);
	if (!o->memory) {
		weston_log("lodestone-pointer: no memory for the overlay of output %s\n", output->name);
		free(o);
		return;
	}
	o->pixels = overlay_client_buffer_pixels(o->memory);
	o->destroy.notify = overlay_output_destroyed;
	wl_signal_add(&output->destroy_signal, &o->destroy);
	wl_list_insert(&m->overlays, &o->link);
}

static void output_created(struct wl_listener *listener, void *data) {
	struct module *m = wl_container_of(listener, m, output_created);
	overlay_create(m, data);
	update_bounds(m);
}

static void output_changed(struct module *m, struct weston_output *output) {
	/* A resized or moved output gets a new overlay of its new size, at its new place. */
	struct overlay *o = overlay_of(m, output);
	if (o) overlay_destroy(o);
	overlay_create(m, output);
	update_bounds(m);
	schedule_repaint(m);
}

static void output_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct module *m = wl_container_of(listener, m, output_destroyed);
	update_bounds(m);
}

static void output_moved(struct wl_listener *listener, void *data) {
	struct module *m = wl_container_of(listener, m, output_moved);
	output_changed(m, data);
}

static void output_resized(struct wl_listener *listener, void *data) {
	struct module *m = wl_container_of(listener, m, output_resized);
	output_changed(m, data);
}

/* ---- Frames: step, draw over the composed pixels, send the region events ---- */

static void arm_deadline(struct module *m) {
	double at;
	if (!lodestone_pointer_engine_next_deadline(m->engine, &at)) {
		wl_event_source_timer_update(m->deadline, 0);
		return;
	}
	double ms = (at - now()) * 1000.0;
	wl_event_source_timer_update(m->deadline, ms < 1 ? 1 : ms > 60000 ? 60000 : (int)ms + 1);
}

static int deadline_due(void *data) {
	schedule_repaint(data);
	return 0;
}

/* The rectangle (global, whole pixels, within the output) to draw the stepped frame in. */
static pixman_box32_t frame_box(const struct lodestone_pointer_presentation *p, struct weston_output *output) {
	pixman_box32_t b = {
		(int32_t)p->damage_x - 2, (int32_t)p->damage_y - 2,
		(int32_t)(p->damage_x + p->damage_width) + 3, (int32_t)(p->damage_y + p->damage_height) + 3,
	};
	if (b.x1 < output->x) b.x1 = output->x;
	if (b.y1 < output->y) b.y1 = output->y;
	if (b.x2 > output->x + output->width) b.x2 = output->x + output->width;
	if (b.y2 > output->y + output->height) b.y2 = output->y + output->height;
	if (b.x2 <= b.x1 || b.y2 <= b.y1) b = (pixman_box32_t){0, 0, 0, 0};
	return b;
}

static bool box_empty(pixman_box32_t b) { return b.x2 <= b.x1 || b.y2 <= b.y1; }

static void clear_box(struct overlay *o, pixman_box32_t b) {
	for (int32_t y = b.y1; y < b.y2; y++)
		memset(o->pixels + (size_t)(y - o->output->y) * (o->stride / 4) + (b.x1 - o->output->x), 0,
			(size_t)(b.x2 - b.x1) * 4);
}

/* Reads the composed pixels of `b` into the overlay, then draws the pointer over them. */
static void draw_pointer(struct module *m, struct overlay *o, pixman_box32_t b) {
	struct weston_output *output = o->output;
	int32_t w = b.x2 - b.x1, h = b.y2 - b.y1;
	uint32_t *row0 = o->pixels + (size_t)(b.y1 - output->y) * (o->stride / 4) + (b.x1 - output->x);
	/* read_pixels writes w×h tightly packed: read into the box's first rows, then spread
	 * them out from the bottom up to the overlay's stride. */
	uint32_t *packed = malloc((size_t)w * h * 4);
	if (!packed) return;
	if (m->compositor->renderer->read_pixels(output, PIXMAN_a8r8g8b8, packed,
			b.x1 - output->x, b.y1 - output->y, w, h) < 0) {
		free(packed);
		return;
	}
	for (int32_t y = 0; y < h; y++) memcpy(row0 + (size_t)y * (o->stride / 4), packed + (size_t)y * w, (size_t)w * 4);
	free(packed);
	if (output->x == 0 && output->y == 0) {
		lodestone_pointer_engine_draw(m->engine, o->pixels, o->width, o->height, o->stride, 1.0, b.x1, b.y1, w, h);
		return;
	}
	/* An output elsewhere: the library draws in global coordinates, so through a canvas whose
	 * (0, 0) is global (0, 0), as large as the box's far corner. */
	if (b.x1 < 0 || b.y1 < 0) return;
	size_t need = (size_t)b.x2 * b.y2;
	if (need > m->scratch_size) {
		uint32_t *s = realloc(m->scratch, need * 4);
		if (!s) return;
		m->scratch = s;
		m->scratch_size = need;
	}
	for (int32_t y = 0; y < h; y++)
		memcpy(m->scratch + (size_t)(b.y1 + y) * b.x2 + b.x1, row0 + (size_t)y * (o->stride / 4), (size_t)w * 4);
	lodestone_pointer_engine_draw(m->engine, m->scratch, b.x2, b.y2, b.x2 * 4, 1.0, b.x1, b.y1, w, h);
	for (int32_t y = 0; y < h; y++)
		memcpy(row0 + (size_t)y * (o->stride / 4), m->scratch + (size_t)(b.y1 + y) * b.x2 + b.x1, (size_t)w * 4);
}

/* The wrapped renderer->repaint_output (see the top of the file). */
static void repaint_output(struct weston_output *output, pixman_region32_t *damage) {
	struct module *m = module_of(output->compositor);
	struct overlay *o = m ? overlay_of(m, output) : NULL;
	if (!o || !o->attached) {
		if (m) m->repaint_output(output, damage);
		return;
	}
	check_layout(m);
	struct seat_hook *s;
	wl_list_for_each(s, &m->seats, link) adapter_follow(m, s->pointer);
	double t = now();
	lodestone_pointer_engine_step(m->engine, t, &m->frame);
	adapter_stepped(m, t);
	pixman_box32_t b = frame_box(&m->frame, output);
	/* A hidden pointer draws nothing, but a lifted element (alpha 0) still shows its lift. */
	if (!m->frame.visible && m->frame.effect_kind == LODESTONE_POINTER_EFFECT_KIND_NONE && !m->frame.band)
		b = (pixman_box32_t){0, 0, 0, 0};
	/* The client's own cursor shows instead (apply_source unmasked weston's cursor layer). */
	if (m->source != LODESTONE_POINTER_SOURCE_ADAPTIVE) b = (pixman_box32_t){0, 0, 0, 0};

	/* What changes: the last pointer's box and this one's. */
	pixman_region32_t pointer;
	pixman_region32_init_rect(&pointer, b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1);
	if (!box_empty(o->drawn))
		pixman_region32_union_rect(&pointer, &pointer, o->drawn.x1, o->drawn.y1,
			o->drawn.x2 - o->drawn.x1, o->drawn.y2 - o->drawn.y1);
	pixman_region32_union(damage, damage, &pointer);

	/* First pass: the content alone, without frame_signal's listeners. */
	struct wl_list listeners;
	wl_list_init(&listeners);
	wl_list_insert_list(&listeners, &output->frame_signal.listener_list);
	wl_list_init(&output->frame_signal.listener_list);
	struct weston_plane *plane = o->view->plane;
	o->view->plane = &m->off_plane;
	m->repaint_output(output, damage);
	o->view->plane = plane;
	wl_list_insert_list(&output->frame_signal.listener_list, &listeners);

	/* The pointer over the content's pixels, into the overlay. */
	if (!box_empty(o->drawn)) clear_box(o, o->drawn);
	if (!box_empty(b)) draw_pointer(m, o, b);
	o->drawn = b;

	/* Second pass: the pointer's boxes again, the overlay on top. */
	m->repaint_output(output, &pointer);
	pixman_region32_fini(&pointer);
	lodestone_pointer_server_send_events(m->server);
}

/* After an output's frame: repaint again while the engine animates; clients hear the
 * logical position when magnetism moved it without input. */
static void send_logical_motion(struct module *m);

static void after_frame(struct weston_animation *animation, struct weston_output *output, const struct timespec *time) {
	(void)time;
	struct overlay *o = wl_container_of(animation, o, after_frame);
	struct module *m = o->module;
	send_logical_motion(m);
	apply_source(m);
	if (m->adapter && lodestone_pointer_adapter_changed(m->adapter)) weston_output_schedule_repaint(output);
	if (m->frame.animating) weston_output_schedule_repaint(output);
	arm_deadline(m);
}

/* ---- Input: the engine owns the pointer's position ---- */

/* Moves a pointer to the engine's logical position through weston's motion path. */
static void move_to_logical(struct module *m, struct weston_pointer *pointer, const struct timespec *time,
		const struct weston_pointer_motion_event *device) {
	struct weston_pointer_motion_event e = {0};
	if (device) e = *device; /* its relative parts feed zwp_relative_pointer */
	e.mask |= WESTON_POINTER_MOTION_ABS;
	e.x = m->frame.logical_x;
	e.y = m->frame.logical_y;
	m->moving = true;
	weston_pointer_send_motion(pointer, time, &e);
	m->moving = false;
}

static void send_logical_motion(struct module *m) {
	struct seat_hook *s;
	wl_list_for_each(s, &m->seats, link) {
		struct weston_pointer *p = s->pointer;
		if (!p || p->grab != &p->default_grab) continue;
		if (wl_fixed_from_double(m->frame.logical_x) == p->x && wl_fixed_from_double(m->frame.logical_y) == p->y) continue;
		struct timespec time;
		weston_compositor_get_time(&time);
		move_to_logical(m, p, &time, NULL);
	}
}

static void grab_focus(struct weston_pointer_grab *grab) {
	module_of(grab->pointer->seat->compositor)->pointer_default->focus(grab);
}

static void grab_motion(struct weston_pointer_grab *grab, const struct timespec *time,
		struct weston_pointer_motion_event *event) {
	struct weston_pointer *pointer = grab->pointer;
	struct module *m = module_of(pointer->seat->compositor);
	double t = now();
	if (m->pressed && pointer->button_count == 0) { /* released inside another grab */
		m->pressed = false;
		lodestone_pointer_engine_button(m->engine, t, false);
	}
	/* The device's own position: absolute, or the last one moved by the (accelerated) delta,
	 * kept inside the outputs as weston keeps its pointer. The engine gets it absolute. */
	double x = m->device_x, y = m->device_y;
	if (event->mask & WESTON_POINTER_MOTION_ABS) {
		x = event->x;
		y = event->y;
	} else if (event->mask & WESTON_POINTER_MOTION_REL) {
		x += event->dx;
		y += event->dy;
	}
	m->device_x = x < m->x0 ? m->x0 : x > m->x1 - 1 ? m->x1 - 1 : x;
	m->device_y = y < m->y0 ? m->y0 : y > m->y1 - 1 ? m->y1 - 1 : y;
	lodestone_pointer_engine_motion(m->engine, t, m->device_x, m->device_y);
	lodestone_pointer_engine_step(m->engine, t, &m->frame);
	adapter_stepped(m, t);
	move_to_logical(m, pointer, time, event);
	adapter_follow(m, pointer);
	poll_adapter_for(m, 3);
	schedule_repaint(m);
}

static void grab_button(struct weston_pointer_grab *grab, const struct timespec *time, uint32_t button, uint32_t state) {
	struct module *m = module_of(grab->pointer->seat->compositor);
	if (button == BTN_LEFT) {
		m->pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;
		lodestone_pointer_engine_button(m->engine, now(), m->pressed);
		schedule_repaint(m);
	}
	m->pointer_default->button(grab, time, button, state);
}

static void grab_axis(struct weston_pointer_grab *grab, const struct timespec *time, struct weston_pointer_axis_event *event) {
	struct module *m = module_of(grab->pointer->seat->compositor);
	uint64_t window = window_of(grab->pointer->focus ? grab->pointer->focus->surface : NULL);
	if (m->adapter && window) {
		lodestone_pointer_adapter_scrolled(m->adapter, window);
		poll_adapter_for(m, 3);
	}
	m->pointer_default->axis(grab, time, event);
}

static void grab_axis_source(struct weston_pointer_grab *grab, uint32_t source) {
	module_of(grab->pointer->seat->compositor)->pointer_default->axis_source(grab, source);
}

static void grab_frame(struct weston_pointer_grab *grab) {
	module_of(grab->pointer->seat->compositor)->pointer_default->frame(grab);
}

static void grab_cancel(struct weston_pointer_grab *grab) {
	module_of(grab->pointer->seat->compositor)->pointer_default->cancel(grab);
}

static const struct weston_pointer_grab_interface pointer_grab = {
	grab_focus, grab_motion, grab_button, grab_axis, grab_axis_source, grab_frame, grab_cancel,
};

static bool is_modifier(uint32_t key) {
	switch (key) {
	case KEY_LEFTSHIFT: case KEY_RIGHTSHIFT: case KEY_LEFTCTRL: case KEY_RIGHTCTRL:
	case KEY_LEFTALT: case KEY_RIGHTALT: case KEY_LEFTMETA: case KEY_RIGHTMETA:
	case KEY_CAPSLOCK: case KEY_NUMLOCK: case KEY_COMPOSE:
		return true;
	default:
		return false;
	}
}

static void keyboard_key(struct weston_keyboard_grab *grab, const struct timespec *time, uint32_t key, uint32_t state) {
	struct module *m = module_of(grab->keyboard->seat->compositor);
	if (state == WL_KEYBOARD_KEY_STATE_PRESSED && !is_modifier(key)) {
		lodestone_pointer_engine_key_typed(m->engine, now());
		schedule_repaint(m);
	}
	if (state == WL_KEYBOARD_KEY_STATE_PRESSED && m->adapter) {
		lodestone_pointer_adapter_key_pressed(m->adapter);
		poll_adapter_for(m, 3);
	}
	m->keyboard_default->key(grab, time, key, state);
}

static void keyboard_modifiers(struct weston_keyboard_grab *grab, uint32_t serial, uint32_t depressed,
		uint32_t latched, uint32_t locked, uint32_t group) {
	module_of(grab->keyboard->seat->compositor)->keyboard_default->modifiers(grab, serial, depressed, latched, locked, group);
}

static void keyboard_cancel(struct weston_keyboard_grab *grab) {
	module_of(grab->keyboard->seat->compositor)->keyboard_default->cancel(grab);
}

static const struct weston_keyboard_grab_interface keyboard_grab = {keyboard_key, keyboard_modifiers, keyboard_cancel};

/* A move that did not come through our grab (the backend's, a shell's grab): a warp. */
static void pointer_motion_signal(struct wl_listener *listener, void *data) {
	struct seat_hook *s = wl_container_of(listener, s, motion);
	struct weston_pointer *pointer = data;
	struct module *m = s->module;
	if (m->moving) return;
	double t = now();
	m->device_x = wl_fixed_to_double(pointer->x);
	m->device_y = wl_fixed_to_double(pointer->y);
	lodestone_pointer_engine_warp(m->engine, t, m->device_x, m->device_y);
	lodestone_pointer_engine_step(m->engine, t, &m->frame);
	schedule_repaint(m);
}

static void seat_forget_pointer(struct seat_hook *s) {
	if (!s->pointer) return;
	wl_list_remove(&s->motion.link);
	wl_list_remove(&s->pointer_destroy.link);
	s->pointer = NULL;
}

static void pointer_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct seat_hook *s = wl_container_of(listener, s, pointer_destroy);
	seat_forget_pointer(s);
}

/* A seat gained a pointer or keyboard: take over its default grabs. */
static void seat_caps(struct wl_listener *listener, void *data) {
	(void)data;
	struct seat_hook *s = wl_container_of(listener, s, caps);
	struct module *m = s->module;
	struct weston_pointer *pointer = s->seat->pointer_state;
	if (pointer && pointer != s->pointer) {
		seat_forget_pointer(s);
		if (!m->pointer_default) {
			/* weston's default grab is static in libweston: take it from a pointer. */
			m->pointer_default = pointer->default_grab.interface;
			weston_compositor_set_default_pointer_grab(m->compositor, &pointer_grab);
		}
		s->pointer = pointer;
		/* The engine starts where weston's pointer is. */
		m->device_x = wl_fixed_to_double(pointer->x);
		m->device_y = wl_fixed_to_double(pointer->y);
		lodestone_pointer_engine_warp(m->engine, now(), m->device_x, m->device_y);
		s->motion.notify = pointer_motion_signal;
		wl_signal_add(&pointer->motion_signal, &s->motion);
		s->pointer_destroy.notify = pointer_destroyed;
		wl_signal_add(&pointer->destroy_signal, &s->pointer_destroy);
	}
	struct weston_keyboard *keyboard = s->seat->keyboard_state;
	if (keyboard && keyboard != s->keyboard) {
		if (!m->keyboard_default) m->keyboard_default = keyboard->default_grab.interface;
		if (keyboard->default_grab.interface == m->keyboard_default) keyboard->default_grab.interface = &keyboard_grab;
		if (s->keyboard) wl_list_remove(&s->keyboard_focus.link);
		s->keyboard = keyboard;
		s->keyboard_focus.notify = keyboard_focus;
		wl_signal_add(&keyboard->focus_signal, &s->keyboard_focus);
	}
}

static void seat_hook_destroy(struct seat_hook *s) {
	seat_forget_pointer(s);
	if (s->keyboard) wl_list_remove(&s->keyboard_focus.link);
	if (s->keyboard && s->seat->keyboard_state == s->keyboard && s->keyboard->default_grab.interface == &keyboard_grab)
		s->keyboard->default_grab.interface = s->module->keyboard_default;
	wl_list_remove(&s->caps.link);
	wl_list_remove(&s->destroy.link);
	wl_list_remove(&s->link);
	free(s);
}

static void seat_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct seat_hook *s = wl_container_of(listener, s, destroy);
	if (s->keyboard) wl_list_remove(&s->keyboard_focus.link);
	s->keyboard = NULL; /* going with the seat */
	seat_hook_destroy(s);
}

static void seat_add(struct module *m, struct weston_seat *seat) {
	struct seat_hook *s = calloc(1, sizeof *s);
	if (!s) return;
	s->module = m;
	s->seat = seat;
	s->caps.notify = seat_caps;
	wl_signal_add(&seat->updated_caps_signal, &s->caps);
	s->destroy.notify = seat_destroyed;
	wl_signal_add(&seat->destroy_signal, &s->destroy);
	wl_list_insert(&m->seats, &s->link);
	seat_caps(&s->caps, seat);
}

static void seat_created(struct wl_listener *listener, void *data) {
	struct module *m = wl_container_of(listener, m, seat_created);
	seat_add(m, data);
}

/* ---- The internal client that makes the overlays' buffers (overlay-client.c) ---- */

static void peer_ready(void *data) {
	struct module *m = data;
	m->peer_ready = true;
	struct weston_output *output;
	wl_list_for_each(output, &m->compositor->output_list, link) overlay_create(m, output);
}

static int peer_readable(int fd, uint32_t mask, void *data) {
	(void)fd;
	struct module *m = data;
	if ((mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) || !overlay_client_dispatch(m->peer)) {
		weston_log("lodestone-pointer: the overlay client lost its connection; no more overlays\n");
		wl_event_source_remove(m->peer_source);
		m->peer_source = NULL;
	}
	return 0;
}

static bool create_peer(struct module *m) {
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) return false;
	m->client = wl_client_create(m->display, fds[0]);
	if (!m->client) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	m->peer = overlay_client_create(fds[1], peer_ready, m);
	if (!m->peer) {
		close(fds[1]);
		return false;
	}
	m->peer_source = wl_event_loop_add_fd(wl_display_get_event_loop(m->display), overlay_client_fd(m->peer),
		WL_EVENT_READABLE, peer_readable, m);
	return m->peer_source != NULL;
}

/* The GL renderer lives in gl-renderer.so; the pixman renderer inside libweston. */
static bool renderer_is_pixman(struct weston_compositor *compositor) {
	Dl_info info;
	if (!dladdr((void *)compositor->renderer->repaint_output, &info) || !info.dli_fname) return false;
	return strstr(info.dli_fname, "gl-renderer") == NULL;
}

/* ---- Setup and teardown ---- */

static void module_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct module *m = wl_container_of(listener, m, destroy);
	struct seat_hook *s, *stmp;
	wl_list_for_each_safe(s, stmp, &m->seats, link) seat_hook_destroy(s);
	if (m->pointer_default) weston_compositor_set_default_pointer_grab(m->compositor, NULL);
	struct overlay *o, *otmp;
	wl_list_for_each_safe(o, otmp, &m->overlays, link) overlay_destroy(o);
	if (m->repaint_output) m->compositor->renderer->repaint_output = m->repaint_output;
	if (m->pixman) weston_layer_fini(&m->layer);
	wl_list_remove(&m->destroy.link);
	wl_list_remove(&m->create_surface.link);
	wl_list_remove(&m->seat_created.link);
	wl_list_remove(&m->output_created.link);
	wl_list_remove(&m->output_destroyed.link);
	wl_list_remove(&m->output_moved.link);
	wl_list_remove(&m->output_resized.link);
	wl_event_source_remove(m->deadline);
	if (m->adapter_poll) wl_event_source_remove(m->adapter_poll);
	lodestone_pointer_adapter_destroy(m->adapter);
	free(m->windows);
	if (m->peer_source) wl_event_source_remove(m->peer_source);
	overlay_client_destroy(m->peer);
	if (m->client) wl_client_destroy(m->client);
	lodestone_pointer_server_destroy(m->server);
	lodestone_pointer_engine_destroy(m->engine);
	free(m->scratch);
	free(m);
}

WL_EXPORT int wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[]) {
	(void)argc;
	(void)argv;
	if (module_of(compositor)) return 0; /* loaded twice */
	struct module *m = calloc(1, sizeof *m);
	if (!m) return -1;
	m->compositor = compositor;
	m->display = compositor->wl_display;
	m->frame.size = sizeof m->frame;
	wl_list_init(&m->overlays);
	wl_list_init(&m->seats);

	/* The engine, with Lodestone's config.toml; a refused file leaves the defaults. */
	m->engine = lodestone_pointer_engine_create(0, 0, 1024, 768);
	char error[512];
	int32_t loaded = m->engine ? lodestone_pointer_engine_load_settings(m->engine, NULL, error, sizeof error) : 0;
	if (loaded < 0) weston_log("lodestone-pointer: %s; the pointer keeps its default settings\n", error);

	/* The helper offers adaptive_pointer_manager_v1 on weston's display. */
	struct lodestone_pointer_server_callbacks callbacks = {
		.size = sizeof callbacks,
		.surface_position = surface_position,
		.subsurface_parent = subsurface_parent,
	};
	m->server = m->engine ? lodestone_pointer_server_create(m->display, m->engine, &callbacks, m) : NULL;
	m->deadline = wl_event_loop_add_timer(wl_display_get_event_loop(m->display), deadline_due, m);
	if (!m->server || !m->deadline) {
		weston_log("lodestone-pointer: cannot create the engine or adaptive_pointer_manager_v1\n");
		if (m->deadline) wl_event_source_remove(m->deadline);
		lodestone_pointer_server_destroy(m->server);
		lodestone_pointer_engine_destroy(m->engine);
		free(m);
		return -1;
	}
	m->destroy.notify = module_destroy;
	wl_signal_add(&compositor->destroy_signal, &m->destroy);

	/* Apps that declare no regions: their cursor images and AT-SPI geometry (the adapter
	 * adds its D-Bus fds and timers to weston's loop). */
	m->adapter = lodestone_pointer_adapter_create(m->engine, wl_display_get_event_loop(m->display), m->server);
	m->adapter_poll = wl_event_loop_add_timer(wl_display_get_event_loop(m->display), adapter_poll, m);
	if (!m->adapter) weston_log("lodestone-pointer: no adapter: apps without regions get the circle\n");

	/* Drawing: only with the pixman renderer (see the top of the file). */
	m->pixman = renderer_is_pixman(compositor) && create_peer(m);
	if (m->pixman) {
		weston_layer_init(&m->layer, compositor);
		weston_layer_set_position(&m->layer, WESTON_LAYER_POSITION_CURSOR);
		weston_layer_set_mask(&compositor->cursor_layer, 0, 0, 0, 0);
		m->repaint_output = compositor->renderer->repaint_output;
		compositor->renderer->repaint_output = repaint_output;
	} else {
		weston_log("lodestone-pointer: not the pixman renderer; weston draws its own cursor "
			"(run weston with --use-pixman for the adaptive pointer's look)\n");
	}

	/* Surfaces, outputs and seats, now and later. */
	m->create_surface.notify = create_surface;
	wl_signal_add(&compositor->create_surface_signal, &m->create_surface);
	m->output_created.notify = output_created;
	wl_signal_add(&compositor->output_created_signal, &m->output_created);
	m->output_destroyed.notify = output_destroyed;
	wl_signal_add(&compositor->output_destroyed_signal, &m->output_destroyed);
	m->output_moved.notify = output_moved;
	wl_signal_add(&compositor->output_moved_signal, &m->output_moved);
	m->output_resized.notify = output_resized;
	wl_signal_add(&compositor->output_resized_signal, &m->output_resized);
	struct weston_output *output;
	wl_list_for_each(output, &compositor->output_list, link) overlay_create(m, output);
	update_bounds(m);
	m->seat_created.notify = seat_created;
	wl_signal_add(&compositor->seat_created_signal, &m->seat_created);
	struct weston_seat *seat;
	wl_list_for_each(seat, &compositor->seat_list, link) seat_add(m, seat);

	weston_log("lodestone-pointer: liblodestone-pointer %u.%u.%u, adaptive_pointer_manager_v1 offered%s%s\n",
		lodestone_pointer_version() >> 16, (lodestone_pointer_version() >> 8) & 0xff, lodestone_pointer_version() & 0xff,
		loaded > 0 ? ", config.toml applied" : "", m->pixman ? ", drawing the pointer" : "");
	if (m->adapter) weston_log("lodestone-pointer: adapting apps without regions (cursor images, AT-SPI)\n");
	schedule_repaint(m);
	return 0;
}
