/* adapter.c: apps that declare no regions, through liblodestone-pointer's adapter (see module.c). */
#include "module.h"

/* ---- The adapter: apps that declare no regions (cursor images, AT-SPI geometry) ---- */

/* A surface's window id for the adapter: its main surface, when that is a desktop surface
 * (an xdg toplevel or popup, or an Xwayland window), else 0. */
uint64_t window_of(struct weston_surface *surface) {
	if (!surface) return 0;
	struct weston_surface *main = weston_surface_get_main_surface(surface);
	return main && weston_surface_is_desktop_surface(main) ? (uint64_t)(uintptr_t)main : 0;
}

void poll_adapter_for(struct module *m, double seconds) {
	if (!m->adapter) return;
	double until = now() + seconds;
	if (until > m->poll_until) m->poll_until = until;
	wl_event_source_timer_update(m->adapter_poll, 100);
}

/* The adapter's replies arrive on weston's loop with no call to us: while the pointer has
 * been used lately (3 s), look every 100 ms whether they changed the regions. */
int adapter_poll(void *data) {
	struct module *m = data;
	if (lodestone_pointer_adapter_changed(m->adapter)) schedule_repaint(m);
	if (now() < m->poll_until) wl_event_source_timer_update(m->adapter_poll, 100);
	return 0;
}

/* Every window weston shows, in stacking order, to the adapter; the ones gone leave it. */
void report_windows(struct module *m) {
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
void adapter_follow(struct module *m, struct weston_pointer *pointer) {
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
	/* weston keeps the last client's cursor until the new one sets its own: a cursor of
	 * another client than the focused one's is none yet (the panel's arrow is no cursor of
	 * the app under the pointer). */
	struct weston_surface *focus = pointer->focus ? pointer->focus->surface : NULL;
	if (cs && (!cs->resource || !focus || !focus->resource ||
	           wl_resource_get_client(cs->resource) != wl_resource_get_client(focus->resource)))
		cs = NULL;
	struct weston_buffer *buffer = cs ? cs->buffer_ref.buffer : NULL;
	/* The hotspot too: wl_pointer.set_cursor may come after the cursor surface's commit, and
	 * a theme cursor is recognised by its image and its hotspot. */
	if (cs == m->cursor_surface && buffer == m->cursor_buffer && m->cursor_serial == m->cursor_serial_seen &&
	    pointer->hotspot_x == m->cursor_hotspot_x && pointer->hotspot_y == m->cursor_hotspot_y)
		return;
	bool had = m->cursor_surface != NULL;
	m->cursor_surface = cs;
	m->cursor_buffer = buffer;
	m->cursor_serial_seen = m->cursor_serial;
	m->cursor_hotspot_x = pointer->hotspot_x;
	m->cursor_hotspot_y = pointer->hotspot_y;
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
void adapter_stepped(struct module *m, double t) {
	if (m->adapter) lodestone_pointer_adapter_stepped(m->adapter, t);
}

/* The client's own image or the theme's cursor (an image, or a name with no adaptive form):
 * weston's sprite shows, not the adaptive pointer. Outside composing (after a frame). */
void apply_source(struct module *m) {
	if (!m->pixman) return; /* weston's cursor layer is never masked under GL */
	uint32_t source = m->adapter ? lodestone_pointer_adapter_pointer_source(m->adapter) : LODESTONE_POINTER_SOURCE_ADAPTIVE;
	if (source == m->source) return;
	m->source = source;
	/* With LODESTONE_POINTER_DEBUG, as the library's own debug lines: what shows, when it changes. */
	if (getenv("LODESTONE_POINTER_DEBUG"))
		weston_log("lodestone-pointer: the pointer shows %s\n", source == LODESTONE_POINTER_SOURCE_ADAPTIVE ? "the adaptive pointer"
			: source == LODESTONE_POINTER_SOURCE_CLIENT_IMAGE ? "the app's own image" : "the theme's cursor");
	if (source == LODESTONE_POINTER_SOURCE_ADAPTIVE) weston_layer_set_mask(&m->compositor->cursor_layer, 0, 0, 0, 0);
	else weston_layer_set_mask_infinite(&m->compositor->cursor_layer);
	schedule_repaint(m);
}

void keyboard_focus(struct wl_listener *listener, void *data) {
	struct seat_hook *s = wl_container_of(listener, s, keyboard_focus);
	struct weston_keyboard *keyboard = data;
	uint64_t window = window_of(keyboard->focus);
	if (s->module->adapter && window) {
		lodestone_pointer_adapter_window_activated(s->module->adapter, window);
		poll_adapter_for(s->module, 3);
	}
}

/* The adapter asks for a window's pixels (controls grown to their drawn outlines, a
 * terminal's rows): a copy of its buffer, read under wl_shm_buffer_begin_access (a client
 * that shrinks its pool gets weston's SIGBUS handling, not ours), made again only when the
 * surface committed since. */
bool window_pixels(void *data, uint64_t window, struct lodestone_pointer_window_pixels *pixels) {
	struct module *m = data;
	bool known = false;
	for (size_t i = 0; i < m->window_count; i++) known |= m->windows[i] == window;
	if (!known) return false; /* gone since the last layout: its id names no surface now */
	struct weston_surface *surface = (struct weston_surface *)(uintptr_t)window;
	struct weston_buffer *buffer = surface->buffer_ref.buffer;
	struct wl_shm_buffer *shm = buffer && buffer->resource ? wl_shm_buffer_get(buffer->resource) : NULL;
	if (!shm) return false;
	uint32_t format = wl_shm_buffer_get_format(shm);
	if (format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XRGB8888) return false;
	int32_t width = wl_shm_buffer_get_width(shm), height = wl_shm_buffer_get_height(shm);
	int32_t stride = wl_shm_buffer_get_stride(shm);
	if (width <= 0 || height <= 0 || stride < width * 4) return false;
	uint64_t commits = surface_commits(surface);
	if (window != m->window_copy_id || commits != m->window_copy_commits || !m->window_copy) {
		size_t size = (size_t)width * height;
		if (size > m->window_copy_size) {
			uint32_t *copy = realloc(m->window_copy, size * 4);
			if (!copy) return false;
			m->window_copy = copy;
			m->window_copy_size = size;
		}
		wl_shm_buffer_begin_access(shm);
		const uint8_t *rows = wl_shm_buffer_get_data(shm);
		for (int32_t y = 0; y < height; y++) memcpy(m->window_copy + (size_t)y * width, rows + (size_t)y * stride, (size_t)width * 4);
		wl_shm_buffer_end_access(shm);
		m->window_copy_id = window;
		m->window_copy_commits = commits;
	}
	struct weston_geometry g = weston_desktop_surface_get_geometry(weston_surface_get_desktop_surface(surface));
	pixels->argb = m->window_copy;
	pixels->width = width;
	pixels->height = height;
	pixels->stride = width * 4;
	pixels->scale = surface->buffer_viewport.buffer.scale > 0 ? surface->buffer_viewport.buffer.scale : 1;
	pixels->geometry_x = g.x;
	pixels->geometry_y = g.y;
	pixels->commit = commits;
	return true;
}
