/* input.c: the engine owns the pointer's position: weston's default grabs, wrapped (see module.c). */
#include "module.h"

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

void send_logical_motion(struct module *m) {
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

void seat_hook_destroy(struct seat_hook *s) {
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

void seat_add(struct module *m, struct weston_seat *seat) {
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

void seat_created(struct wl_listener *listener, void *data) {
	struct module *m = wl_container_of(listener, m, seat_created);
	seat_add(m, data);
}
