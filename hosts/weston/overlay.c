/* overlay.c: drawing the pointer into weston's frames (see module.c), and the frames' timing. */
#include "module.h"

static void after_frame(struct weston_animation *animation, struct weston_output *output, const struct timespec *time);

struct overlay *overlay_of(struct module *m, struct weston_output *output) {
	struct overlay *o;
	wl_list_for_each(o, &m->overlays, link)
		if (o->output == output) return o;
	return NULL;
}

void overlay_destroy(struct overlay *o) {
	wl_list_remove(&o->link);
	wl_list_remove(&o->destroy.link);
	if (o->hooked) wl_list_remove(&o->after_frame.link);
	if (o->attached) {
		if (o->scale > 1) wl_list_remove(&o->shrink.link);
		weston_view_destroy(o->view);
		weston_surface_destroy(o->surface);
	}
	if (o->memory) overlay_client_buffer_destroy(o->module->peer, o->memory);
	free(o);
}

static void overlay_output_destroyed(struct wl_listener *listener, void *data) {
	(void)data;
	struct overlay *o = wl_container_of(listener, o, destroy);
	overlay_destroy(o);
}

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
	if (o->scale > 1) {
		/* The transform applies before the position (the position's transform is the
		 * list's first until this one goes in front of it). */
		weston_matrix_init(&o->shrink.matrix);
		weston_matrix_scale(&o->shrink.matrix, 1.0f / o->scale, 1.0f / o->scale, 1);
		wl_list_insert(&o->view->geometry.transformation_list, &o->shrink.link);
		weston_view_geometry_dirty(o->view);
	}
	pixman_region32_clear(&o->surface->input); /* clicks go through */
	pixman_region32_clear(&o->surface->opaque);
	m->compositor->renderer->attach(o->surface, weston_buffer_from_resource(o->buffer));
	weston_view_set_position(o->view, o->output->x, o->output->y);
	o->surface->is_mapped = true;
	o->view->is_mapped = true;
	weston_layer_entry_insert(&m->layer.view_list, &o->view->layer_link);
	o->after_frame.frame = after_frame;
	wl_list_insert(&o->output->animation_list, &o->after_frame.link);
	o->hooked = true;
	o->attached = true;
	weston_output_schedule_repaint(o->output);
}

/* The overlay for an output: an ARGB buffer as large as the output, all transparent, that
 * takes no input; shown once weston has made the buffer (overlay_made). */
void overlay_create(struct module *m, struct weston_output *output) {
	if ((m->pixman && !m->peer_ready) || overlay_of(m, output)) return;
	struct overlay *o = calloc(1, sizeof *o);
	if (!o) return;
	o->module = m;
	o->output = output;
	if (!m->pixman) {
		/* Under GL nothing is drawn: the output only gets the after-frame hook, where the
		 * engine steps and the layout is checked. */
		o->after_frame.frame = after_frame;
		wl_list_insert(&output->animation_list, &o->after_frame.link);
		o->hooked = true;
		o->destroy.notify = overlay_output_destroyed;
		wl_signal_add(&output->destroy_signal, &o->destroy);
		wl_list_insert(&m->overlays, &o->link);
		return;
	}
	o->scale = output->current_scale > 0 ? output->current_scale : 1;
	o->width = output->width * o->scale;
	o->height = output->height * o->scale;
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

int deadline_due(void *data) {
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

/* A box (global points) in the overlay's buffer (output pixels). */
static pixman_box32_t in_buffer(struct overlay *o, pixman_box32_t b) {
	int32_t s = o->scale;
	return (pixman_box32_t){(b.x1 - o->output->x) * s, (b.y1 - o->output->y) * s,
		(b.x2 - o->output->x) * s, (b.y2 - o->output->y) * s};
}

static void clear_box(struct overlay *o, pixman_box32_t b) {
	pixman_box32_t p = in_buffer(o, b);
	for (int32_t y = p.y1; y < p.y2; y++)
		memset(o->pixels + (size_t)y * (o->stride / 4) + p.x1, 0, (size_t)(p.x2 - p.x1) * 4);
}

/* Reads the composed pixels of `b` into the overlay, then draws the pointer over them. */
static void draw_pointer(struct module *m, struct overlay *o, pixman_box32_t b) {
	struct weston_output *output = o->output;
	pixman_box32_t p = in_buffer(o, b);
	int32_t w = p.x2 - p.x1, h = p.y2 - p.y1, s = o->scale;
	uint32_t *row0 = o->pixels + (size_t)p.y1 * (o->stride / 4) + p.x1;
	/* read_pixels writes w×h tightly packed (output pixels): spread to the overlay's stride. */
	uint32_t *packed = malloc((size_t)w * h * 4);
	if (!packed) return;
	if (m->compositor->renderer->read_pixels(output, PIXMAN_a8r8g8b8, packed, p.x1, p.y1, w, h) < 0) {
		free(packed);
		return;
	}
	for (int32_t y = 0; y < h; y++) memcpy(row0 + (size_t)y * (o->stride / 4), packed + (size_t)y * w, (size_t)w * 4);
	free(packed);
	if (output->x == 0 && output->y == 0) {
		lodestone_pointer_engine_draw(m->engine, o->pixels, o->width, o->height, o->stride, s, p.x1, p.y1, w, h);
		return;
	}
	/* An output elsewhere: the library draws in global coordinates, so through a canvas whose
	 * (0, 0) is global (0, 0), as large as the box's far corner (in output pixels). */
	if (b.x1 < 0 || b.y1 < 0) return;
	int32_t cw = b.x2 * s, ch = b.y2 * s, cx = b.x1 * s, cy = b.y1 * s;
	size_t need = (size_t)cw * ch;
	if (need > m->scratch_size) {
		uint32_t *canvas = realloc(m->scratch, need * 4);
		if (!canvas) return;
		m->scratch = canvas;
		m->scratch_size = need;
	}
	for (int32_t y = 0; y < h; y++)
		memcpy(m->scratch + (size_t)(cy + y) * cw + cx, row0 + (size_t)y * (o->stride / 4), (size_t)w * 4);
	lodestone_pointer_engine_draw(m->engine, m->scratch, cw, ch, cw * 4, s, cx, cy, w, h);
	for (int32_t y = 0; y < h; y++)
		memcpy(row0 + (size_t)y * (o->stride / 4), m->scratch + (size_t)(cy + y) * cw + cx, (size_t)w * 4);
}

/* The wrapped renderer->repaint_output (see the top of the file). */
void repaint_output(struct weston_output *output, pixman_region32_t *damage) {
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
static void after_frame(struct weston_animation *animation, struct weston_output *output, const struct timespec *time) {
	(void)time;
	struct overlay *o = wl_container_of(animation, o, after_frame);
	struct module *m = o->module;
	if (!m->pixman) {
		/* What the repaint wrapper does under pixman, less the drawing. */
		check_layout(m);
		struct seat_hook *s;
		wl_list_for_each(s, &m->seats, link) adapter_follow(m, s->pointer);
		double t = now();
		lodestone_pointer_engine_step(m->engine, t, &m->frame);
		adapter_stepped(m, t);
		lodestone_pointer_server_send_events(m->server);
	}
	send_logical_motion(m);
	apply_source(m);
	if (m->adapter && lodestone_pointer_adapter_changed(m->adapter)) weston_output_schedule_repaint(output);
	if (m->frame.animating) weston_output_schedule_repaint(output);
	arm_deadline(m);
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

bool create_peer(struct module *m) {
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
bool renderer_is_pixman(struct weston_compositor *compositor) {
	Dl_info info;
	if (!dladdr((void *)compositor->renderer->repaint_output, &info) || !info.dli_fname) return false;
	return strstr(info.dli_fname, "gl-renderer") == NULL;
}
