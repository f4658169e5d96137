/*
 * tinywl-adaptive: a small wlroots 0.15 compositor, on tinywl's shape, that serves
 * adaptive-pointer-v1 with liblodestone-pointer and draws the adaptive pointer into its output.
 *
 * What it has: xdg-shell toplevels stacked at (0, 0), one seat with a pointer, outputs
 * rendered by the wlroots renderer (pixman with WLR_RENDERER=pixman), wlr_screencopy (grim
 * captures it) and wlr_virtual_pointer (a client moves the pointer). What it leaves out:
 * keyboards, popups, moving windows. The adaptive pointer's parts, marked "lodestone:", are
 * the calls any wlroots compositor makes:
 *   - create an engine and the server helper (main);
 *   - report every surface commit (surface_commit) and window map/unmap (layout_changed);
 *   - feed device motion and buttons to the engine, send clients the logical position;
 *   - each frame: step, draw over the composed frame (draw_pixman), send the region events.
 *
 *     tinywl-adaptive [-s startup command]     (prints "socket NAME" once it listens)
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <lodestone-pointer.h>
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct server {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_output_layout *layout;
	struct wlr_cursor *cursor;
	struct wlr_seat *seat;
	struct wl_list views; /* struct view.link, topmost first */
	struct wl_list outputs;

	/* lodestone: the pointer's model, and the protocol helper that feeds it regions. */
	struct lodestone_pointer_engine *engine;
	struct lodestone_pointer_server *pointer_server;
	struct lodestone_pointer_presentation frame;

	struct wl_listener new_output, new_xdg_surface, new_surface, new_virtual_pointer;
	struct wl_listener cursor_motion, cursor_motion_absolute, cursor_button, cursor_frame;
};

struct output {
	struct wl_list link;
	struct server *server;
	struct wlr_output *wlr_output;
	struct wl_listener frame, destroy;
};

struct view {
	struct wl_list link;
	struct server *server;
	struct wlr_xdg_surface *xdg;
	bool mapped;
	double x, y;
	struct wl_listener map, unmap, destroy;
};

/* A listener on one wlr_surface's commit, for the helper. */
struct surface_hook {
	struct server *server;
	struct wlr_surface *surface;
	struct wl_listener commit, destroy;
};

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- lodestone: the helper's callbacks ---- */

/* The xdg toplevel whose tree holds `surface`, and the surface's offset inside it. */
static struct view *view_of(struct server *server, struct wlr_surface *surface, double *dx, double *dy) {
	*dx = *dy = 0;
	while (wlr_surface_is_subsurface(surface)) {
		struct wlr_subsurface *sub = wlr_subsurface_from_wlr_surface(surface);
		if (!sub || !sub->parent) return NULL;
		*dx += sub->current.x;
		*dy += sub->current.y;
		surface = sub->parent;
	}
	struct view *view;
	wl_list_for_each(view, &server->views, link)
		if (view->xdg->surface == surface) return view;
	return NULL;
}

static bool surface_position(void *data, struct wl_resource *resource, double *x, double *y, int32_t *layer) {
	struct server *server = data;
	double dx, dy;
	struct view *view = view_of(server, wlr_surface_from_resource(resource), &dx, &dy);
	if (!view || !view->mapped) return false;
	*x = view->x + dx;
	*y = view->y + dy;
	/* The topmost view has the highest layer. */
	int32_t below = 0;
	struct view *v;
	wl_list_for_each(v, &server->views, link) {
		if (v == view) break;
		below++;
	}
	*layer = (int32_t)wl_list_length(&server->views) - below;
	return true;
}

static struct wl_resource *subsurface_parent(void *data, struct wl_resource *resource) {
	(void)data;
	struct wlr_surface *surface = wlr_surface_from_resource(resource);
	if (!wlr_surface_is_subsurface(surface)) return NULL;
	struct wlr_subsurface *sub = wlr_subsurface_from_wlr_surface(surface);
	return sub && sub->parent ? sub->parent->resource : NULL;
}

/* ---- lodestone: every surface's commit reaches the helper ---- */

static void surface_commit(struct wl_listener *listener, void *data) {
	(void)data;
	struct surface_hook *hook = wl_container_of(listener, hook, commit);
	lodestone_pointer_server_surface_committed(hook->server->pointer_server, hook->surface->resource);
}

static void surface_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct surface_hook *hook = wl_container_of(listener, hook, destroy);
	wl_list_remove(&hook->commit.link);
	wl_list_remove(&hook->destroy.link);
	free(hook);
}

static void new_surface(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_surface);
	struct surface_hook *hook = calloc(1, sizeof *hook);
	if (!hook) return;
	hook->server = server;
	hook->surface = data;
	hook->commit.notify = surface_commit;
	wl_signal_add(&hook->surface->events.commit, &hook->commit);
	hook->destroy.notify = surface_destroy;
	wl_signal_add(&hook->surface->events.destroy, &hook->destroy);
}

/* ---- Input: the engine owns the pointer's position ---- */

/* Clients get the engine's logical position (after magnetism), so a click lands on the element. */
static void pointer_moved(struct server *server, uint32_t time_msec) {
	lodestone_pointer_engine_motion(server->engine, now(), server->cursor->x, server->cursor->y);
	lodestone_pointer_engine_step(server->engine, now(), &server->frame);
	double lx = server->frame.logical_x, ly = server->frame.logical_y;
	struct view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped) continue;
		double sx, sy;
		struct wlr_surface *surface = wlr_xdg_surface_surface_at(view->xdg, lx - view->x, ly - view->y, &sx, &sy);
		if (surface) {
			wlr_seat_pointer_notify_enter(server->seat, surface, sx, sy);
			wlr_seat_pointer_notify_motion(server->seat, time_msec, sx, sy);
			return;
		}
	}
	wlr_seat_pointer_clear_focus(server->seat);
}

static void cursor_motion(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_motion);
	struct wlr_event_pointer_motion *e = data;
	wlr_cursor_move(server->cursor, e->device, e->delta_x, e->delta_y);
	pointer_moved(server, e->time_msec);
}

static void cursor_motion_absolute(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_motion_absolute);
	struct wlr_event_pointer_motion_absolute *e = data;
	wlr_cursor_warp_absolute(server->cursor, e->device, e->x, e->y);
	pointer_moved(server, e->time_msec);
}

static void cursor_button(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_button);
	struct wlr_event_pointer_button *e = data;
	lodestone_pointer_engine_button(server->engine, now(), e->state == WLR_BUTTON_PRESSED);
	wlr_seat_pointer_notify_button(server->seat, e->time_msec, e->button, e->state);
}

static void cursor_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct server *server = wl_container_of(listener, server, cursor_frame);
	wlr_seat_pointer_notify_frame(server->seat);
}

static void new_virtual_pointer(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_virtual_pointer);
	struct wlr_virtual_pointer_v1_new_pointer_event *e = data;
	wlr_cursor_attach_input_device(server->cursor, &e->new_pointer->input_device);
}

/* ---- Outputs: compose the views, then the adaptive pointer over them ---- */

struct render_data {
	struct wlr_output *output;
	struct view *view;
	struct timespec *when;
};

static void render_surface(struct wlr_surface *surface, int sx, int sy, void *data) {
	struct render_data *rdata = data;
	struct wlr_texture *texture = wlr_surface_get_texture(surface);
	if (texture) {
		double ox = 0, oy = 0;
		wlr_output_layout_output_coords(rdata->view->server->layout, rdata->output, &ox, &oy);
		wlr_render_texture(rdata->view->server->renderer, texture, rdata->output->transform_matrix,
			(int)(ox + rdata->view->x + sx), (int)(oy + rdata->view->y + sy), 1.0f);
	}
	wlr_surface_send_frame_done(surface, rdata->when);
}

static void output_frame(struct wl_listener *listener, void *data) {
	(void)data;
	struct output *output = wl_container_of(listener, output, frame);
	struct server *server = output->server;
	struct wlr_output *o = output->wlr_output;
	struct timespec when;
	clock_gettime(CLOCK_MONOTONIC, &when);
	if (!wlr_output_attach_render(o, NULL)) return;
	wlr_renderer_begin(server->renderer, o->width, o->height);
	wlr_renderer_clear(server->renderer, (float[]){0.3f, 0.3f, 0.3f, 1.0f});
	struct view *view;
	wl_list_for_each_reverse(view, &server->views, link) {
		if (!view->mapped) continue;
		struct render_data rdata = {.output = o, .view = view, .when = &when};
		wlr_xdg_surface_for_each_surface(view->xdg, render_surface, &rdata);
	}

	/* lodestone: step to now, draw over the composed pixels (the effects read them), within the
	 * damage; then the region events of this step go to their clients. */
	lodestone_pointer_engine_step(server->engine, now(), &server->frame);
	pixman_image_t *image = wlr_pixman_renderer_get_current_image(server->renderer);
	double ox = 0, oy = 0;
	wlr_output_layout_output_coords(server->layout, o, &ox, &oy);
	if (image && ox == 0 && oy == 0) {
		int x0 = (int)server->frame.damage_x - 1, y0 = (int)server->frame.damage_y - 1;
		int x1 = (int)(server->frame.damage_x + server->frame.damage_width) + 2;
		int y1 = (int)(server->frame.damage_y + server->frame.damage_height) + 2;
		x0 = x0 < 0 ? 0 : x0;
		y0 = y0 < 0 ? 0 : y0;
		x1 = x1 > o->width ? o->width : x1;
		y1 = y1 > o->height ? o->height : y1;
		if (x1 > x0 && y1 > y0)
			lodestone_pointer_engine_draw_pixman(server->engine, (union pixman_image *)image, 1.0, x0, y0, x1 - x0, y1 - y0);
	}
	lodestone_pointer_server_send_events(server->pointer_server);

	wlr_renderer_end(server->renderer);
	wlr_output_commit(o);
}

static void output_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct output *output = wl_container_of(listener, output, destroy);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	wl_list_remove(&output->link);
	free(output);
}

static void new_output(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;
	wlr_output_init_render(wlr_output, server->allocator, server->renderer);
	/* The headless backend's outputs take any size: the demo's 1280×800. */
	if (wl_list_empty(&wlr_output->modes)) wlr_output_set_custom_mode(wlr_output, 1280, 800, 0);
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) return;

	struct output *output = calloc(1, sizeof *output);
	if (!output) return;
	output->server = server;
	output->wlr_output = wlr_output;
	output->frame.notify = output_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	output->destroy.notify = output_destroy;
	wl_signal_add(&wlr_output->events.destroy, &output->destroy);
	wl_list_insert(&server->outputs, &output->link);
	wlr_output_layout_add_auto(server->layout, wlr_output);
	wlr_output_create_global(wlr_output);

	/* lodestone: the pointer stays within the outputs. */
	struct wlr_box *box = wlr_output_layout_get_box(server->layout, NULL);
	lodestone_pointer_engine_set_output_bounds(server->engine, box->x, box->y, box->width, box->height);
}

/* ---- Views ---- */

static void view_map(struct wl_listener *listener, void *data) {
	(void)data;
	struct view *view = wl_container_of(listener, view, map);
	view->mapped = true;
	wlr_xdg_toplevel_set_activated(view->xdg, true);
	/* lodestone: a window appeared; its regions take their places. */
	lodestone_pointer_server_layout_changed(view->server->pointer_server);
}

static void view_unmap(struct wl_listener *listener, void *data) {
	(void)data;
	struct view *view = wl_container_of(listener, view, unmap);
	view->mapped = false;
	lodestone_pointer_server_layout_changed(view->server->pointer_server);
}

static void view_destroy(struct wl_listener *listener, void *data) {
	(void)data;
	struct view *view = wl_container_of(listener, view, destroy);
	wl_list_remove(&view->map.link);
	wl_list_remove(&view->unmap.link);
	wl_list_remove(&view->destroy.link);
	wl_list_remove(&view->link);
	free(view);
}

static void new_xdg_surface(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg = data;
	if (xdg->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;  /* no popups here */
	struct view *view = calloc(1, sizeof *view);
	if (!view) return;
	view->server = server;
	view->xdg = xdg;
	view->map.notify = view_map;
	wl_signal_add(&xdg->events.map, &view->map);
	view->unmap.notify = view_unmap;
	wl_signal_add(&xdg->events.unmap, &view->unmap);
	view->destroy.notify = view_destroy;
	wl_signal_add(&xdg->events.destroy, &view->destroy);
	wl_list_insert(&server->views, &view->link);
}

int main(int argc, char **argv) {
	const char *startup = NULL;
	for (int c; (c = getopt(argc, argv, "s:h")) != -1;) {
		if (c == 's') startup = optarg;
		else {
			fprintf(stderr, "usage: %s [-s startup command]\n", argv[0]);
			return c == 'h' ? 0 : 1;
		}
	}
	wlr_log_init(WLR_ERROR, NULL);
	struct server server = {0};
	wl_list_init(&server.views);
	wl_list_init(&server.outputs);

	/* The display, a backend (WLR_BACKENDS=headless in tests), a renderer and an allocator. */
	server.display = wl_display_create();
	server.backend = wlr_backend_autocreate(server.display);
	if (!server.backend) return 1;
	server.renderer = wlr_renderer_autocreate(server.backend);
	if (!server.renderer) return 1;
	wlr_renderer_init_wl_display(server.renderer, server.display);
	server.allocator = wlr_allocator_autocreate(server.backend, server.renderer);
	if (!server.allocator) return 1;

	/* lodestone: one engine for the seat's pointer; the helper offers adaptive_pointer_manager_v1. */
	server.engine = lodestone_pointer_engine_create(0, 0, 1280, 800);
	struct lodestone_pointer_server_callbacks callbacks = {
		.size = sizeof callbacks,
		.surface_position = surface_position,
		.subsurface_parent = subsurface_parent,
	};
	server.pointer_server = lodestone_pointer_server_create(server.display, server.engine, &callbacks, &server);
	if (!server.engine || !server.pointer_server) {
		fprintf(stderr, "liblodestone-pointer: cannot create the engine or the server helper\n");
		return 1;
	}
	server.frame.size = sizeof server.frame;

	/* Surfaces (wl_compositor, wl_subcompositor), with a commit hook on each for the helper. */
	struct wlr_compositor *compositor = wlr_compositor_create(server.display, server.renderer);
	server.new_surface.notify = new_surface;
	wl_signal_add(&compositor->events.new_surface, &server.new_surface);
	wlr_data_device_manager_create(server.display);

	server.layout = wlr_output_layout_create();
	server.new_output.notify = new_output;
	wl_signal_add(&server.backend->events.new_output, &server.new_output);
	wlr_xdg_output_manager_v1_create(server.display, server.layout);

	struct wlr_xdg_shell *xdg_shell = wlr_xdg_shell_create(server.display);
	server.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&xdg_shell->events.new_surface, &server.new_xdg_surface);

	/* The pointer: wlr_cursor maps devices into the layout; the engine decides the rest. */
	server.cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(server.cursor, server.layout);
	server.cursor_motion.notify = cursor_motion;
	wl_signal_add(&server.cursor->events.motion, &server.cursor_motion);
	server.cursor_motion_absolute.notify = cursor_motion_absolute;
	wl_signal_add(&server.cursor->events.motion_absolute, &server.cursor_motion_absolute);
	server.cursor_button.notify = cursor_button;
	wl_signal_add(&server.cursor->events.button, &server.cursor_button);
	server.cursor_frame.notify = cursor_frame;
	wl_signal_add(&server.cursor->events.frame, &server.cursor_frame);
	server.seat = wlr_seat_create(server.display, "seat0");
	wlr_seat_set_capabilities(server.seat, WL_SEAT_CAPABILITY_POINTER);

	/* For tests and tools: grim captures, a virtual pointer moves. */
	wlr_screencopy_manager_v1_create(server.display);
	struct wlr_virtual_pointer_manager_v1 *virtual_pointers = wlr_virtual_pointer_manager_v1_create(server.display);
	server.new_virtual_pointer.notify = new_virtual_pointer;
	wl_signal_add(&virtual_pointers->events.new_virtual_pointer, &server.new_virtual_pointer);

	const char *socket = wl_display_add_socket_auto(server.display);
	if (!socket || !wlr_backend_start(server.backend)) return 1;
	setenv("WAYLAND_DISPLAY", socket, true);
	printf("socket %s\n", socket);
	fflush(stdout);
	if (startup && fork() == 0) {
		execl("/bin/sh", "/bin/sh", "-c", startup, (char *)NULL);
		_exit(127);
	}
	wl_display_run(server.display);

	/* The helper before the display (its global lives on it); the engine after the helper. */
	wl_display_destroy_clients(server.display);
	lodestone_pointer_server_destroy(server.pointer_server);
	lodestone_pointer_engine_destroy(server.engine);
	wlr_backend_destroy(server.backend);
	wl_display_destroy(server.display);
	return 0;
}
