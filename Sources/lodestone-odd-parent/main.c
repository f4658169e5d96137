// lodestone-odd-parent: a tiny Wayland compositor that is a bad parent for nested Lodestone
// (issue 24). It offers just what the nested backend binds (wl_compositor, wl_shm, xdg_wm_base,
// wl_seat, wl_output, and wp_fractional_scale_manager_v1 + wp_viewporter when asked) and says
// odd things: configures of any size, wl_output scales of any value, fractional scales of any
// value, keymaps that do not compile or whose fd or size is wrong. NestedOddParentTests starts
// it, nests Lodestone in it and checks that Lodestone survives.
//
//   lodestone-odd-parent SOCKET [--configure W H] [--scale N] [--fractional V120]
//                               [--keymap garbage|oversize|huge|pipe|empty] [--input] [--subcompositor]
//                               [--text-input] [--dmabuf MAJ:MIN [--dmabuf-changing]]
//
// --input: every 300 ms the pointer enters, moves and scrolls at the ends of wl_fixed's range
// (±8388607.996), presses odd buttons, and the keyboard enters holding keys and sends key
// codes and modifier masks of 0xffffffff.
// --random SEED: every 100 ms a configure, a wl_output scale, a fractional scale (offered)
// and a round of --input, each value drawn from the ends of its range and around them
// (rand_r from SEED, printed, so a run that fails can be told again).
// --subcompositor: offers wl_subcompositor (so Lodestone draws its own title bar), and every
// 300 ms the pointer enters that bar: Lodestone shows its Xcursor theme's arrow there.
// --text-input: offers zwp_text_input_manager_v3 (issue 39), and every 300 ms its input method
// says odd things to Lodestone's text input: done before enter, enter on the title bar,
// preedits and commits over the protocol's 4000 bytes or not UTF-8, cursors and deletions at
// the ends of their ranges, serials that match nothing, leave.
// --dmabuf MAJ:MIN: offers zwp_linux_dmabuf_v1 version 4 whose feedback names device MAJ:MIN
// (one that need not exist) and a table of XRGB8888 and ARGB8888 linear, XRGB8888 Y-tiled,
// NV12 linear and a duplicate, in two tranches (a scan-out one on MAJ:MIN+1, with an index past
// the table's end); every buffer import `failed`. --dmabuf-changing: every 300 ms the feedback
// is sent again with the main device's minor number one up or back.
//
// Every request is handled by one generic dispatcher (wl_resource_set_dispatcher): new objects
// are created with the same dispatcher, destructors destroy, fds are closed, and only the few
// requests a parent must answer (commit, frame, get_fractional_scale, get_keyboard) do more.
// C rather than the WaylandServer module: no compositor logic is wanted, only raw events.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "CWaylandServer.h"
#include "CWaylandProtocols.h"

static struct {
    int32_t width, height;
    int32_t scale;
    int fractional;
    uint32_t v120;
    const char *keymap;
    struct wl_display *display;
    struct wl_resource *output;
    /// Lodestone's window: its wl_surface and xdg_toplevel (one window is all a parent here knows).
    struct wl_resource *surface, *toplevel;
    int configured;
    int input, subcompositor, random;
    unsigned seed;
    struct wl_resource *fractional_scale;
    /// The last subsurface's wl_surface: Lodestone's title bar.
    struct wl_resource *bar;
    struct wl_resource *pointer, *keyboard;
    int text_input;
    /// Lodestone's zwp_text_input_v3.
    struct wl_resource *ti;
    unsigned dmabuf_major, dmabuf_minor;
    int dmabuf, dmabuf_changing, dmabuf_round;
    struct wl_list dmabuf_feedbacks;
} odd = { .width = 0, .height = 0, .scale = 1, .fractional = 0, .v120 = 120, .keymap = NULL };

static int dispatch(const void *implementation, void *target, uint32_t opcode, const struct wl_message *message, union wl_argument *args);

static struct wl_resource *make(struct wl_client *client, const struct wl_interface *interface, int version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, interface, version, id);
    if (!r) { wl_client_post_no_memory(client); return NULL; }
    wl_resource_set_dispatcher(r, dispatch, NULL, NULL, NULL);
    return r;
}

static int is(struct wl_resource *r, const char *interface) { return strcmp(wl_resource_get_class(r), interface) == 0; }

static void send_configure(struct wl_resource *toplevel) {
    struct wl_array states;
    wl_array_init(&states);
    uint32_t *activated = wl_array_add(&states, sizeof *activated);
    *activated = XDG_TOPLEVEL_STATE_ACTIVATED;
    xdg_toplevel_send_configure(toplevel, odd.width, odd.height, &states);
    wl_array_release(&states);
    struct wl_resource *xdg_surface = wl_resource_get_user_data(toplevel);
    xdg_surface_send_configure(xdg_surface, wl_display_next_serial(odd.display));
}

// The keymap fd and size the --keymap kind asks for.
static void send_keymap(struct wl_resource *keyboard) {
    const char *kind = odd.keymap;
    if (strcmp(kind, "pipe") == 0) {  // not mappable
        int p[2];
        if (pipe(p) != 0) return;
        if (write(p[1], "xkb_keymap {", 12) < 0) {}
        wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, p[0], 4096);
        close(p[0]);
        close(p[1]);
        return;
    }
    int fd = memfd_create("odd-keymap", MFD_CLOEXEC);
    if (fd < 0) return;
    uint32_t size;
    if (strcmp(kind, "garbage") == 0) {  // maps, does not compile
        const char text[] = "xkb_keymap { xkb_keycodes { <<<<garbage";
        if (write(fd, text, sizeof text) < 0) {}
        size = sizeof text;
    } else if (strcmp(kind, "oversize") == 0 || strcmp(kind, "huge") == 0) {
        // A page of text without its NUL, and a size past the end of the file: reading the
        // mapping beyond the file's last page is SIGBUS.
        char page[4096];
        memset(page, 'x', sizeof page);
        if (write(fd, page, sizeof page) < 0) {}
        size = strcmp(kind, "huge") == 0 ? 0xffffffffu : 1u << 20;
    } else {  // empty: a zero size
        size = 0;
    }
    wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
    close(fd);
}

struct surface { struct wl_resource *buffer; struct wl_list frames; };

static void surface_destroyed(struct wl_resource *r) {
    if (odd.surface == r) odd.surface = NULL;
    if (odd.bar == r) odd.bar = NULL;
    struct surface *s = wl_resource_get_user_data(r);
    struct wl_resource *frame, *next;
    wl_resource_for_each_safe(frame, next, &s->frames) wl_resource_destroy(frame);
    free(s);
}

static void toplevel_destroyed(struct wl_resource *r) { if (odd.toplevel == r) odd.toplevel = NULL; }
static void output_destroyed(struct wl_resource *r) { if (odd.output == r) odd.output = NULL; }

static void pointer_destroyed(struct wl_resource *r) { if (odd.pointer == r) odd.pointer = NULL; }
static void keyboard_destroyed(struct wl_resource *r) { if (odd.keyboard == r) odd.keyboard = NULL; }

// Input at the ends of every range, on Lodestone's window.
static void send_odd_input(void) {
    static int round;
    round++;
    const wl_fixed_t extremes[] = { INT32_MAX, INT32_MIN, 0, -1, wl_fixed_from_int(1 << 22) };
    wl_fixed_t x = extremes[round % 5], y = extremes[(round + 2) % 5];
    struct wl_display *d = odd.display;
    if (odd.pointer && odd.surface) {
        struct wl_resource *p = odd.pointer;
        int v = wl_resource_get_version(p);
        wl_pointer_send_enter(p, wl_display_next_serial(d), odd.surface, x, y);
        wl_pointer_send_motion(p, UINT32_MAX, y, x);
        wl_pointer_send_button(p, wl_display_next_serial(d), 0, round % 2 ? 0x110 : UINT32_MAX, WL_POINTER_BUTTON_STATE_PRESSED);
        if (v >= 5) {
            wl_pointer_send_axis_source(p, round % 4);
            wl_pointer_send_axis_discrete(p, WL_POINTER_AXIS_VERTICAL_SCROLL, round % 2 ? INT32_MAX : INT32_MIN);
        }
        if (v >= 8) wl_pointer_send_axis_value120(p, WL_POINTER_AXIS_HORIZONTAL_SCROLL, round % 2 ? INT32_MIN : INT32_MAX);
        wl_pointer_send_axis(p, 0, round % 2, x);
        if (v >= 5) wl_pointer_send_axis_stop(p, 0, 7);
        if (v >= 5) wl_pointer_send_frame(p);
        wl_pointer_send_button(p, wl_display_next_serial(d), 1, 0x110, 7);
        if (round % 3 == 0) wl_pointer_send_leave(p, wl_display_next_serial(d), odd.surface);
        if (v >= 5) wl_pointer_send_frame(p);
    }
    if (odd.keyboard && odd.surface) {
        struct wl_resource *k = odd.keyboard;
        struct wl_array keys;
        wl_array_init(&keys);
        uint32_t held[] = { 30, UINT32_MAX, 0, 30 };
        for (unsigned i = 0; i < 4; i++) *(uint32_t *)wl_array_add(&keys, sizeof(uint32_t)) = held[i];
        wl_keyboard_send_enter(k, wl_display_next_serial(d), odd.surface, &keys);
        wl_array_release(&keys);
        wl_keyboard_send_modifiers(k, wl_display_next_serial(d), UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX);
        wl_keyboard_send_key(k, wl_display_next_serial(d), 0, UINT32_MAX - 8, WL_KEYBOARD_KEY_STATE_PRESSED);
        wl_keyboard_send_key(k, wl_display_next_serial(d), 0, 30, 7);
        wl_keyboard_send_key(k, wl_display_next_serial(d), 0, 30, WL_KEYBOARD_KEY_STATE_RELEASED);
        if (wl_resource_get_version(k) >= 4) wl_keyboard_send_repeat_info(k, round % 2 ? INT32_MAX : -1, round % 2 ? -1 : INT32_MAX);
        wl_keyboard_send_modifiers(k, wl_display_next_serial(d), 0, 0, 0, 0);
        if (round % 2) wl_keyboard_send_leave(k, wl_display_next_serial(d), odd.surface);
    }
}

static void text_input_destroyed(struct wl_resource *r) { if (odd.ti == r) odd.ti = NULL; }

// An input method's events at the ends of every range, to Lodestone's text input.
static void send_odd_text_input(void) {
    static int round;
    static char long_text[4050];
    round++;
    memset(long_text, 'x', sizeof long_text - 1);
    struct wl_resource *t = odd.ti;
    zwp_text_input_v3_send_done(t, UINT32_MAX);
    if (odd.bar) zwp_text_input_v3_send_enter(t, odd.bar);
    if (odd.surface) zwp_text_input_v3_send_enter(t, odd.surface);
    zwp_text_input_v3_send_preedit_string(t, round % 2 ? long_text : NULL, INT32_MIN, INT32_MAX);
    zwp_text_input_v3_send_delete_surrounding_text(t, UINT32_MAX, UINT32_MAX);
    zwp_text_input_v3_send_commit_string(t, round % 3 ? long_text : "\xff\xfe not UTF-8");
    zwp_text_input_v3_send_done(t, (uint32_t)round * 0x9e3779b9u);
    zwp_text_input_v3_send_preedit_string(t, "odd", -1, 99);
    zwp_text_input_v3_send_done(t, 0);
    if (round % 2 && odd.surface) zwp_text_input_v3_send_leave(t, odd.surface);
}

static void fractional_destroyed(struct wl_resource *r) { if (odd.fractional_scale == r) odd.fractional_scale = NULL; }

// A value at or near the ends of the int32 range, or a plain small one.
static int32_t odd_value(void) {
    const int32_t table[] = { 0, 1, -1, 2, 3, 4, 5, 120, 479, 480, 481, 8192, 8193, 16384, 65535, 1 << 24,
                              INT32_MAX, INT32_MAX - 1, INT32_MIN, INT32_MIN + 1, -120 };
    unsigned r = (unsigned)rand_r(&odd.seed);
    if (r % 3 == 0) return (int32_t)((unsigned)rand_r(&odd.seed) % 3000);
    if (r % 7 == 0) return (int32_t)(((unsigned)rand_r(&odd.seed) << 16) ^ (unsigned)rand_r(&odd.seed));
    return table[r % (sizeof table / sizeof table[0])];
}


static void random_round(void) {
    odd.width = odd_value();
    odd.height = odd_value();
    if (odd.toplevel && odd.configured) send_configure(odd.toplevel);
    if (rand_r(&odd.seed) % 2 && odd.output && wl_resource_get_version(odd.output) >= 2) {
        wl_output_send_scale(odd.output, odd_value());
        wl_output_send_done(odd.output);
    }
    if (rand_r(&odd.seed) % 2 && odd.fractional_scale) wp_fractional_scale_v1_send_preferred_scale(odd.fractional_scale, (uint32_t)odd_value());
    if (rand_r(&odd.seed) % 2 && odd.surface && odd.output) {
        if (rand_r(&odd.seed) % 2) wl_surface_send_leave(odd.surface, odd.output); else wl_surface_send_enter(odd.surface, odd.output);
    }
    if (rand_r(&odd.seed) % 2) send_odd_input();
}

static void frame_unlinked(struct wl_resource *r) { wl_list_remove(wl_resource_get_link(r)); }

static void surface_commit(struct wl_resource *r) {
    struct surface *s = wl_resource_get_user_data(r);
    if (s->buffer) { wl_buffer_send_release(s->buffer); s->buffer = NULL; }
    struct wl_resource *frame, *next;
    wl_resource_for_each_safe(frame, next, &s->frames) {
        wl_callback_send_done(frame, 0);
        wl_resource_destroy(frame);
    }
    if (r == odd.surface && odd.toplevel && !odd.configured) {
        odd.configured = 1;
        if (odd.output) wl_surface_send_enter(r, odd.output);
        send_configure(odd.toplevel);
    }
}

static void send_device(struct wl_resource *feedback, int which, unsigned minor) {
    dev_t device = makedev(odd.dmabuf_major, minor);
    struct wl_array array;
    wl_array_init(&array);
    memcpy(wl_array_add(&array, sizeof device), &device, sizeof device);
    if (which == 0) zwp_linux_dmabuf_feedback_v1_send_main_device(feedback, &array);
    else zwp_linux_dmabuf_feedback_v1_send_tranche_target_device(feedback, &array);
    wl_array_release(&array);
}

static void send_indices(struct wl_resource *feedback, const uint16_t *indices, size_t n) {
    struct wl_array array;
    wl_array_init(&array);
    memcpy(wl_array_add(&array, n * sizeof *indices), indices, n * sizeof *indices);
    zwp_linux_dmabuf_feedback_v1_send_tranche_formats(feedback, &array);
    wl_array_release(&array);
}

// The whole feedback: the table (a memfd), the main device, two tranches, done.
static void send_dmabuf_feedback(struct wl_resource *feedback) {
    struct { uint32_t format, pad; uint64_t modifier; } table[] = {
        { 0x34325258, 0, 0 }, { 0x34325241, 0, 0 }, { 0x34325258, 0, 0x0100000000000002ull },
        { 0x3231564e, 0, 0 }, { 0x34325258, 0, 0 },
    };
    int fd = memfd_create("odd-dmabuf-table", MFD_CLOEXEC);
    if (fd < 0 || write(fd, table, sizeof table) != (ssize_t)sizeof table) { if (fd >= 0) close(fd); return; }
    zwp_linux_dmabuf_feedback_v1_send_format_table(feedback, fd, sizeof table);
    close(fd);
    unsigned minor = odd.dmabuf_minor + (unsigned)(odd.dmabuf_round & 1);
    send_device(feedback, 0, minor);
    send_device(feedback, 1, minor + 1);
    zwp_linux_dmabuf_feedback_v1_send_tranche_flags(feedback, ZWP_LINUX_DMABUF_FEEDBACK_V1_TRANCHE_FLAGS_SCANOUT);
    send_indices(feedback, (const uint16_t[]){ 2, 0, 99 }, 3);
    zwp_linux_dmabuf_feedback_v1_send_tranche_done(feedback);
    send_device(feedback, 1, minor);
    zwp_linux_dmabuf_feedback_v1_send_tranche_flags(feedback, 0);
    send_indices(feedback, (const uint16_t[]){ 0, 1, 3, 4 }, 4);
    zwp_linux_dmabuf_feedback_v1_send_tranche_done(feedback);
    zwp_linux_dmabuf_feedback_v1_send_done(feedback);
}

static int dispatch(const void *implementation, void *target, uint32_t opcode, const struct wl_message *message, union wl_argument *args) {
    (void)implementation; (void)opcode;
    struct wl_resource *r = target;
    struct wl_client *client = wl_resource_get_client(r);
    int version = wl_resource_get_version(r);
    struct wl_resource *created = NULL;
    // New objects, fds; the signature's letters after the version digits.
    int i = 0;
    for (const char *c = message->signature; *c; c++) {
        if (*c == '?' || (*c >= '0' && *c <= '9')) continue;
        if (*c == 'n') created = make(client, message->types[i], version, args[i].n);
        if (*c == 'h') close(args[i].h);
        i++;
    }
    const char *name = message->name;
    if (is(r, "wl_compositor") && strcmp(name, "create_surface") == 0 && created) {
        struct surface *s = calloc(1, sizeof *s);
        wl_list_init(&s->frames);
        wl_resource_set_dispatcher(created, dispatch, NULL, s, surface_destroyed);
    } else if (is(r, "wl_surface")) {
        struct surface *s = wl_resource_get_user_data(r);
        if (strcmp(name, "attach") == 0) s->buffer = args[0].o ? (struct wl_resource *)args[0].o : NULL;
        else if (strcmp(name, "frame") == 0 && created) {
            wl_list_insert(s->frames.prev, wl_resource_get_link(created));
            wl_resource_set_dispatcher(created, dispatch, NULL, NULL, frame_unlinked);
        } else if (strcmp(name, "commit") == 0) surface_commit(r);
    } else if (is(r, "xdg_wm_base") && strcmp(name, "get_xdg_surface") == 0 && created) {
        wl_resource_set_user_data(created, args[1].o);  // the wl_surface
    } else if (is(r, "xdg_surface") && strcmp(name, "get_toplevel") == 0 && created) {
        wl_resource_set_dispatcher(created, dispatch, NULL, r, toplevel_destroyed);  // the xdg_surface
        odd.surface = wl_resource_get_user_data(r);
        odd.toplevel = created;
    } else if (is(r, "wl_seat") && strcmp(name, "get_keyboard") == 0 && created) {
        wl_resource_set_dispatcher(created, dispatch, NULL, NULL, keyboard_destroyed);
        odd.keyboard = created;
        if (odd.keymap) send_keymap(created);
    } else if (is(r, "wl_seat") && strcmp(name, "get_pointer") == 0 && created) {
        wl_resource_set_dispatcher(created, dispatch, NULL, NULL, pointer_destroyed);
        odd.pointer = created;
    } else if (is(r, "wl_subcompositor") && strcmp(name, "get_subsurface") == 0 && created) {
        odd.bar = (struct wl_resource *)args[1].o;
    } else if (is(r, "zwp_text_input_manager_v3") && strcmp(name, "get_text_input") == 0 && created) {
        wl_resource_set_dispatcher(created, dispatch, NULL, NULL, text_input_destroyed);
        odd.ti = created;
    } else if (is(r, "zwp_linux_dmabuf_v1") && strstr(name, "_feedback") && created) {
        wl_list_insert(&odd.dmabuf_feedbacks, wl_resource_get_link(created));
        wl_resource_set_dispatcher(created, dispatch, NULL, NULL, frame_unlinked);
        send_dmabuf_feedback(created);
    } else if (is(r, "zwp_linux_buffer_params_v1") && strcmp(name, "create") == 0) {
        zwp_linux_buffer_params_v1_send_failed(r);
    } else if (is(r, "wp_fractional_scale_manager_v1") && strcmp(name, "get_fractional_scale") == 0 && created) {
        wl_resource_set_dispatcher(created, dispatch, NULL, NULL, fractional_destroyed);
        odd.fractional_scale = created;
        wp_fractional_scale_v1_send_preferred_scale(created, odd.v120);
    }
    if (strcmp(name, "destroy") == 0 || strcmp(name, "release") == 0) wl_resource_destroy(r);
    return 0;
}

static void bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    const struct wl_interface *interface = data;
    struct wl_resource *r = make(client, interface, version, id);
    if (!r) return;
    if (interface == cwp_wl_shm_interface()) {
        wl_shm_send_format(r, WL_SHM_FORMAT_ARGB8888);
        wl_shm_send_format(r, WL_SHM_FORMAT_XRGB8888);
    } else if (interface == cwp_wl_seat_interface()) {
        wl_seat_send_capabilities(r, WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD);
    } else if (interface == cwp_wl_output_interface()) {
        odd.output = r;
        wl_resource_set_dispatcher(r, dispatch, NULL, NULL, output_destroyed);
        wl_output_send_geometry(r, 0, 0, 300, 200, WL_OUTPUT_SUBPIXEL_UNKNOWN, "odd", "parent", WL_OUTPUT_TRANSFORM_NORMAL);
        wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT, 1280, 800, 60000);
        if (version >= 2) { wl_output_send_scale(r, odd.scale); wl_output_send_done(r); }
    }
}

// Says the odd configure again while Lodestone runs (not only as the first one).
static int again(void *data) {
    struct wl_event_source **timer = data;  // its own source, to re-arm it
    if (odd.toplevel && odd.configured) send_configure(odd.toplevel);
    if (odd.output && wl_resource_get_version(odd.output) >= 2) { wl_output_send_scale(odd.output, odd.scale); wl_output_send_done(odd.output); }
    if (odd.input) send_odd_input();
    if (odd.random) random_round();
    if (odd.text_input && odd.ti) send_odd_text_input();
    if (odd.subcompositor && odd.bar && odd.pointer) {
        wl_pointer_send_enter(odd.pointer, wl_display_next_serial(odd.display), odd.bar, wl_fixed_from_int(20), wl_fixed_from_int(10));
        if (wl_resource_get_version(odd.pointer) >= 5) wl_pointer_send_frame(odd.pointer);
        wl_pointer_send_leave(odd.pointer, wl_display_next_serial(odd.display), odd.bar);
        if (wl_resource_get_version(odd.pointer) >= 5) wl_pointer_send_frame(odd.pointer);
    }
    if (odd.dmabuf_changing) {
        odd.dmabuf_round++;
        struct wl_resource *feedback;
        wl_resource_for_each(feedback, &odd.dmabuf_feedbacks) send_dmabuf_feedback(feedback);
    }
    wl_event_source_timer_update(*timer, odd.random ? 100 : 300);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s SOCKET [--configure W H] [--scale N] [--fractional V120] [--keymap KIND] [--input] [--subcompositor] [--text-input] [--random SEED] [--dmabuf MAJ:MIN [--dmabuf-changing]]\n", argv[0]); return 2; }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--configure") == 0 && i + 2 < argc) { odd.width = (int32_t)strtoll(argv[i + 1], NULL, 0); odd.height = (int32_t)strtoll(argv[i + 2], NULL, 0); i += 2; }
        else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) odd.scale = (int32_t)strtoll(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--fractional") == 0 && i + 1 < argc) { odd.fractional = 1; odd.v120 = (uint32_t)strtoull(argv[++i], NULL, 0); }
        else if (strcmp(argv[i], "--keymap") == 0 && i + 1 < argc) odd.keymap = argv[++i];
        else if (strcmp(argv[i], "--input") == 0) odd.input = 1;
        else if (strcmp(argv[i], "--subcompositor") == 0) odd.subcompositor = 1;
        else if (strcmp(argv[i], "--text-input") == 0) odd.text_input = 1;
        else if (strcmp(argv[i], "--dmabuf") == 0 && i + 1 < argc && sscanf(argv[i + 1], "%u:%u", &odd.dmabuf_major, &odd.dmabuf_minor) == 2) { odd.dmabuf = 1; i++; }
        else if (strcmp(argv[i], "--dmabuf-changing") == 0) odd.dmabuf_changing = 1;
        else if (strcmp(argv[i], "--random") == 0 && i + 1 < argc) { odd.random = 1; odd.fractional = 1; odd.seed = (unsigned)strtoul(argv[++i], NULL, 0); }
        else { fprintf(stderr, "lodestone-odd-parent: unknown argument %s\n", argv[i]); return 2; }
    }
    wl_list_init(&odd.dmabuf_feedbacks);
    odd.display = wl_display_create();
    if (wl_display_add_socket(odd.display, argv[1]) != 0) { fprintf(stderr, "lodestone-odd-parent: cannot listen on %s: %s\n", argv[1], strerror(errno)); return 1; }
    wl_global_create(odd.display, cwp_wl_compositor_interface(), 4, (void *)cwp_wl_compositor_interface(), bind);
    wl_global_create(odd.display, cwp_wl_shm_interface(), 1, (void *)cwp_wl_shm_interface(), bind);
    wl_global_create(odd.display, cwp_xdg_wm_base_interface(), 2, (void *)cwp_xdg_wm_base_interface(), bind);
    wl_global_create(odd.display, cwp_wl_seat_interface(), 8, (void *)cwp_wl_seat_interface(), bind);
    wl_global_create(odd.display, cwp_wl_output_interface(), 2, (void *)cwp_wl_output_interface(), bind);
    if (odd.subcompositor) wl_global_create(odd.display, cwp_wl_subcompositor_interface(), 1, (void *)cwp_wl_subcompositor_interface(), bind);
    if (odd.fractional) {
        wl_global_create(odd.display, cwp_wp_fractional_scale_manager_v1_interface(), 1, (void *)cwp_wp_fractional_scale_manager_v1_interface(), bind);
        wl_global_create(odd.display, cwp_wp_viewporter_interface(), 1, (void *)cwp_wp_viewporter_interface(), bind);
    }
    if (odd.text_input) wl_global_create(odd.display, cwp_zwp_text_input_manager_v3_interface(), 1, (void *)cwp_zwp_text_input_manager_v3_interface(), bind);
    if (odd.dmabuf) wl_global_create(odd.display, cwp_zwp_linux_dmabuf_v1_interface(), 4, (void *)cwp_zwp_linux_dmabuf_v1_interface(), bind);
    struct wl_event_loop *loop = wl_display_get_event_loop(odd.display);
    static struct wl_event_source *repeat;
    repeat = wl_event_loop_add_timer(loop, again, &repeat);
    wl_event_source_timer_update(repeat, 300);
    fprintf(stderr, "lodestone-odd-parent: listening on %s%s\n", argv[1], odd.random ? " (random)" : "");
    wl_display_run(odd.display);
    wl_display_destroy(odd.display);
    return 0;
}
