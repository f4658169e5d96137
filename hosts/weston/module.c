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
 *
 * The files: module.c (this: setup, the helper's callbacks, commits, layout, outputs),
 * overlay.c (drawing and frame timing), input.c (the grabs), adapter.c (apps without
 * regions), overlay-client.c (the client that makes the overlays' buffers), module.h.
 */
#include "module.h"

double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void module_destroy(struct wl_listener *listener, void *data);

/* The module of a compositor: our listener on its destroy signal (no global state). */
struct module *module_of(struct weston_compositor *compositor) {
	struct wl_listener *l = wl_signal_get(&compositor->destroy_signal, module_destroy);
	return l ? wl_container_of(l, (struct module *)NULL, destroy) : NULL;
}

void schedule_repaint(struct module *m) {
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
	hook->commits++;
	const char *role = weston_surface_get_role(hook->surface);
	if (role && strcmp(role, "wl_pointer-cursor") == 0) {
		hook->module->cursor_serial++; /* read at the next step (adapter_follow) */
		schedule_repaint(hook->module);
	}
	if (hook->surface->resource)
		lodestone_pointer_server_surface_committed(hook->module->server, hook->surface->resource);
}

/* How many times a surface committed (0 for one the module never saw). */
uint64_t surface_commits(struct weston_surface *surface) {
	struct wl_listener *l = wl_signal_get(&surface->commit_signal, surface_commit);
	if (!l) return 0;
	struct surface_hook *hook = wl_container_of(l, hook, commit);
	return hook->commits;
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

/* Windows mapped, moved or restacked: the view list differs from the last frame's. */
void check_layout(struct module *m) {
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

void update_bounds(struct module *m) {
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

/* ---- config.toml: read at start, and again when saved, as Lodestone does ---- */

/* Where Lodestone reads it (ConfigurationFile.defaultPath): $XDG_CONFIG_HOME/lodestone, else
 * ~/.config/lodestone. */
static void config_path(char *path, size_t size) {
	const char *config = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (config && config[0] == '/') snprintf(path, size, "%s/lodestone/config.toml", config);
	else snprintf(path, size, "%s%s.config/lodestone/config.toml", home ? home : "/",
		home && home[0] && home[strlen(home) - 1] == '/' ? "" : "/");
}

/* The engine's settings and the adapter's legacy-apps; a refused file changes nothing and
 * says why in weston's log. Returns what the engine's load returned. */
static int32_t load_config(struct module *m) {
	char error[512];
	int32_t loaded = lodestone_pointer_engine_load_settings(m->engine, m->config, error, sizeof error);
	if (loaded > 0 && m->adapter) loaded = lodestone_pointer_adapter_load_settings(m->adapter, m->config, error, sizeof error);
	if (loaded < 0) weston_log("lodestone-pointer: %s; the settings stay as they were\n", error);
	schedule_repaint(m);
	return loaded;
}

/* Something in config.toml's folder changed (editors save by writing a temporary file and
 * renaming it): read the file again if it was config.toml. */
static int config_changed(int fd, uint32_t mask, void *data) {
	(void)mask;
	struct module *m = data;
	char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool ours = false;
	ssize_t n;
	while ((n = read(fd, buffer, sizeof buffer)) > 0) {
		for (char *p = buffer; p < buffer + n;) {
			struct inotify_event *e = (struct inotify_event *)p;
			if (e->len && strcmp(e->name, "config.toml") == 0) ours = true;
			p += sizeof *e + e->len;
		}
	}
	if (ours && load_config(m) > 0) weston_log("lodestone-pointer: %s applied\n", m->config);
	return 0;
}

/* The watch, when config.toml's folder exists (as in Lodestone, it must at start). */
static void watch_config(struct module *m) {
	char folder[PATH_MAX];
	snprintf(folder, sizeof folder, "%s", m->config);
	char *slash = strrchr(folder, '/');
	if (!slash) return;
	*slash = 0;
	m->config_watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (m->config_watch < 0) return;
	if (inotify_add_watch(m->config_watch, folder, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE) < 0) {
		close(m->config_watch);
		m->config_watch = -1;
		return;
	}
	m->config_source = wl_event_loop_add_fd(wl_display_get_event_loop(m->display), m->config_watch, WL_EVENT_READABLE,
		config_changed, m);
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
	free(m->window_copy);
	if (m->config_source) wl_event_source_remove(m->config_source);
	if (m->config_watch >= 0) close(m->config_watch);
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

	/* The engine (its settings from config.toml below, once the adapter exists). */
	m->engine = lodestone_pointer_engine_create(0, 0, 1024, 768);
	m->config_watch = -1;

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
	else lodestone_pointer_adapter_set_window_pixels(m->adapter, window_pixels, m);

	/* Lodestone's config.toml; a refused file leaves the defaults (Lodestone would exit: a
	 * pointer setting should not keep a desktop from starting). Saving it applies it. */
	config_path(m->config, sizeof m->config);
	int32_t loaded = load_config(m);
	watch_config(m);

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
