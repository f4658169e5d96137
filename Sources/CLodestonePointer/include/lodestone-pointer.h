/*
 * lodestone-pointer.h: the iPadOS-style adaptive pointer of the Lodestone compositor, as a C
 * library for other compositors (liblodestone-pointer).
 *
 * The engine is a pure model. It knows nothing of Wayland: the host feeds it device input and
 * time, tells it where the interactive regions of its clients are, steps it once per frame and
 * reads back a presentation (the pointer's shape, the targeted region's effect, the damage).
 * The library can also draw that presentation over the host's composed frame.
 *
 *     struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, 1920, 1080);
 *     struct lodestone_pointer_region r;
 *     lodestone_pointer_region_init(&r, sizeof r);
 *     r.surface = 7; r.identifier = 42;
 *     r.x = 100; r.y = 20; r.width = 44; r.height = 30;
 *     r.effect = LODESTONE_POINTER_EFFECT_HIGHLIGHT;
 *     lodestone_pointer_engine_set_region(e, 1, &r);
 *     lodestone_pointer_engine_motion(e, now, 110, 30);          // from the host's motion path
 *     struct lodestone_pointer_presentation p = { .size = sizeof p };
 *     lodestone_pointer_engine_step(e, now, &p);                 // once per frame
 *     lodestone_pointer_engine_draw(e, pixels, w, h, stride, 1.0, // into the composed frame,
 *                                   dx, dy, dw, dh);               // within p's damage
 *     lodestone_pointer_engine_destroy(e);
 *
 * Coordinates are the host's global logical coordinates (doubles). Times are seconds on any
 * monotonic clock the host likes, as doubles; they must not go backwards. The engine reads no
 * clock of its own: the same inputs at the same times give the same presentations.
 *
 * Threading: none. Every call on one engine must come from the same thread, normally the
 * host's event loop, and never concurrently. Different engines are independent.
 *
 * Ownership: lodestone_pointer_engine_create returns an engine the caller owns and frees with
 * lodestone_pointer_engine_destroy, exactly once. Every other pointer passed in (regions,
 * strings, presentations, pixel buffers) is borrowed for the duration of the call only: the
 * library copies what it keeps and never frees or retains caller memory.
 *
 * Versioning: semantic. Within one major version, symbols are never removed and their
 * signatures never change; structs only grow at their end, which is why each struct the caller
 * passes begins with its own `size` (set it to sizeof the struct as the caller knows it: the
 * library reads and writes only that much). Enums only gain values.
 */
#ifndef LODESTONE_POINTER_H
#define LODESTONE_POINTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LODESTONE_POINTER_VERSION_MAJOR 0
#define LODESTONE_POINTER_VERSION_MINOR 3
#define LODESTONE_POINTER_VERSION_PATCH 0

/** The version this header describes, as one number: (major << 16) | (minor << 8) | patch. */
#define LODESTONE_POINTER_VERSION \
	((LODESTONE_POINTER_VERSION_MAJOR << 16) | (LODESTONE_POINTER_VERSION_MINOR << 8) | LODESTONE_POINTER_VERSION_PATCH)

/**
 * The version of the library actually loaded, encoded as LODESTONE_POINTER_VERSION. A host
 * built against this header works with any library of the same major version and an equal or
 * higher minor version.
 */
uint32_t lodestone_pointer_version(void);

/** pixman's image (pixman_image_t), for lodestone_pointer_engine_draw_pixman. */
union pixman_image;

/** An engine: the pointer of one seat over a set of outputs. Opaque. */
struct lodestone_pointer_engine;

/** The content effect a region asks for (adaptive_pointer_v1 effect). */
enum lodestone_pointer_effect {
	/** Small and transparent: highlight; small and opaque: lift; large: hover. */
	LODESTONE_POINTER_EFFECT_AUTOMATIC = 0,
	LODESTONE_POINTER_EFFECT_NONE = 1,
	/** The pointer becomes a translucent platter behind the element. */
	LODESTONE_POINTER_EFFECT_HIGHLIGHT = 2,
	/** The element scales up with a shadow; the pointer fades beneath it. */
	LODESTONE_POINTER_EFFECT_LIFT = 3,
	/** Tint, shadow and scale on the element (hover_* fields); the pointer keeps its shape. */
	LODESTONE_POINTER_EFFECT_HOVER = 4,
};

/** Hover's tint (adaptive_pointer_v1 hover tint). */
enum lodestone_pointer_hover_tint {
	LODESTONE_POINTER_HOVER_TINT_NONE = 0,
	LODESTONE_POINTER_HOVER_TINT_OVERLAY = 1,
	LODESTONE_POINTER_HOVER_TINT_UNDERLAY = 2,
};

/** The pointer's shape over a region. */
enum lodestone_pointer_shape {
	/** Whatever the effect implies: platter, the element's outline, or the circle. */
	LODESTONE_POINTER_SHAPE_EFFECT_DEFAULT = 0,
	LODESTONE_POINTER_SHAPE_CIRCLE = 1,
	/** The region's frame with corner radius shape_parameter. */
	LODESTONE_POINTER_SHAPE_ROUNDED_RECT = 2,
	/** An I-beam as tall as the text line, shape_parameter (presented within 24…100). */
	LODESTONE_POINTER_SHAPE_VERTICAL_BEAM = 3,
	/** The I-beam of vertical text, shape_parameter wide. */
	LODESTONE_POINTER_SHAPE_HORIZONTAL_BEAM = 4,
	LODESTONE_POINTER_SHAPE_HIDDEN = 5,
};

/** How far around the frame the pointer is captured. */
enum lodestone_pointer_hit_area {
	/** 12 points of padding (a button with a bezel). */
	LODESTONE_POINTER_HIT_AREA_BEZELLED = 0,
	/** 24 points of padding. */
	LODESTONE_POINTER_HIT_AREA_BEZELLESS = 1,
	/** hit_padding points of padding. */
	LODESTONE_POINTER_HIT_AREA_PADDING = 2,
	/** Exactly the rectangle hit_x, hit_y, hit_width, hit_height. */
	LODESTONE_POINTER_HIT_AREA_EXPLICIT = 3,
};

enum lodestone_pointer_magnetism {
	/** On for highlight, lift and text; off for hover and none. */
	LODESTONE_POINTER_MAGNETISM_AUTOMATIC = 0,
	LODESTONE_POINTER_MAGNETISM_ON = 1,
	LODESTONE_POINTER_MAGNETISM_OFF = 2,
};

/** Bits of latching_axes and constrained_axes. */
enum lodestone_pointer_axes {
	LODESTONE_POINTER_AXIS_HORIZONTAL = 1,
	LODESTONE_POINTER_AXIS_VERTICAL = 2,
};

/** Why lodestone_pointer_engine_set_region refused a region (0 is success). */
enum lodestone_pointer_error {
	LODESTONE_POINTER_OK = 0,
	LODESTONE_POINTER_ERROR_INVALID_ARGUMENT = -1,
	LODESTONE_POINTER_ERROR_NON_FINITE_GEOMETRY = -2,
	LODESTONE_POINTER_ERROR_NEGATIVE_SIZE = -3,
	LODESTONE_POINTER_ERROR_NEGATIVE_CORNER_RADIUS = -4,
	LODESTONE_POINTER_ERROR_NEGATIVE_PADDING = -5,
	LODESTONE_POINTER_ERROR_INVALID_BEAM_LENGTH = -6,
	LODESTONE_POINTER_ERROR_ANNOTATION_TOO_LONG = -7,
	LODESTONE_POINTER_ERROR_INVALID_SHAPE = -8,
	/** Since 0.2: drawing_diameter is not a number, negative, or above 512. */
	LODESTONE_POINTER_ERROR_INVALID_DRAWING_TOOL = -9,
};

/**
 * One interactive element, in global coordinates (the host converts from the surface-local
 * coordinates its client used). Fill it with lodestone_pointer_region_init, then set fields.
 */
struct lodestone_pointer_region {
	/** sizeof(struct lodestone_pointer_region) as the caller was built with. */
	uint32_t size;
	/** The client's identifier, echoed as the presentation's target_identifier. */
	uint32_t identifier;
	/** The host's id of the surface the region belongs to (see remove_surface_regions). */
	uint64_t surface;
	/** The element's visible rectangle. */
	double x, y, width, height;
	/** The element's corner radius (default 8). */
	double corner_radius;
	/** Higher wins among overlapping regions. */
	int32_t stacking_order;
	/** enum lodestone_pointer_effect. */
	uint32_t effect;
	/** enum lodestone_pointer_hover_tint, for LODESTONE_POINTER_EFFECT_HOVER (default overlay). */
	uint32_t hover_tint;
	/** For LODESTONE_POINTER_EFFECT_HOVER: a shadow (default false), scaling up (default true). */
	bool hover_shadow, hover_scale;
	/** The element's background is opaque (decides lift over highlight under AUTOMATIC). */
	bool opaque_background;
	/** A drag starting here becomes a band (rubber-band) selection. */
	bool band_selection;
	/** enum lodestone_pointer_shape, and its parameter (radius or beam length). */
	uint32_t shape;
	double shape_parameter;
	/** enum lodestone_pointer_hit_area, with hit_padding or the explicit rectangle. */
	uint32_t hit_area;
	double hit_padding;
	double hit_x, hit_y, hit_width, hit_height;
	/** enum lodestone_pointer_magnetism. */
	uint32_t magnetism;
	/** enum lodestone_pointer_axes bits: stays engaged along these while the button is held. */
	uint32_t latching_axes;
	/** enum lodestone_pointer_axes bits: the pointer stays centred along these. */
	uint32_t constrained_axes;
	/** UTF-8 text shown beside the pointer over the region (at most 64 characters), or NULL. Copied. */
	const char *annotation;
	/**
	 * Since 0.2 (adaptive_pointer_region_v1.set_drawing_preview): a drawing surface's tool.
	 * 0 (the default) is no tool; otherwise the stroke's width in points, above 0 and at most
	 * 512. Over the frame the pointer becomes a circle this wide in drawing_color (see
	 * pointer_color in the presentation), without magnetism or a content effect.
	 */
	double drawing_diameter;
	/** The tool's ink, ARGB8888 with straight alpha (0xAARRGGBB). */
	uint32_t drawing_color;
};

/** The device that produces the following motion (lodestone_pointer_engine_device). */
enum lodestone_pointer_device {
	LODESTONE_POINTER_DEVICE_MOUSE = 0,
	/** Touchpads: recentering and a shorter auto-hide. */
	LODESTONE_POINTER_DEVICE_TRACKPAD = 1,
};

/** What the presented pointer looks like (the same terms as lodestone_test_v1.pointer_shape). */
enum lodestone_pointer_shape_kind {
	LODESTONE_POINTER_SHAPE_KIND_CIRCLE = 0,
	LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM = 1,
	LODESTONE_POINTER_SHAPE_KIND_HORIZONTAL_BEAM = 2,
	LODESTONE_POINTER_SHAPE_KIND_ROUNDED_RECT = 3,
	LODESTONE_POINTER_SHAPE_KIND_CUSTOM = 4,
	LODESTONE_POINTER_SHAPE_KIND_HIDDEN = 5,
	LODESTONE_POINTER_SHAPE_KIND_BAND = 6,
	/* 7 is lodestone_test_v1's client cursor, which only a compositor has. */
	/** The arrow style's arrow (Lodestone's settings; not yet selectable here). */
	LODESTONE_POINTER_SHAPE_KIND_ARROW = 8,
};

/** The targeted element's effect as presented. */
enum lodestone_pointer_effect_kind {
	LODESTONE_POINTER_EFFECT_KIND_NONE = 0,
	LODESTONE_POINTER_EFFECT_KIND_HIGHLIGHT = 1,
	LODESTONE_POINTER_EFFECT_KIND_LIFT = 2,
	LODESTONE_POINTER_EFFECT_KIND_HOVER = 3,
};

/** One frame of the pointer, written by lodestone_pointer_engine_step. */
struct lodestone_pointer_presentation {
	/** Set by the caller: sizeof(struct lodestone_pointer_presentation). */
	uint32_t size;
	/** enum lodestone_pointer_shape_kind. */
	uint32_t shape_kind;
	/** The time stepped to. */
	double time;
	/** Where clients see the pointer (after magnetism): send this in wl_pointer.motion. */
	double logical_x, logical_y;
	/** Where the device put the pointer, before magnetism. */
	double device_x, device_y;
	/** The pointer's outline (pressed scale included) and its corner radius. */
	double x, y, width, height, corner_radius;
	/** The pointer's opacity (visibility, lift fade and cross-fades included). */
	double alpha;
	/** enum lodestone_pointer_effect_kind of the targeted element's effect. */
	uint32_t effect_kind;
	/** A region targets the pointer: target_region and target_identifier are valid. */
	bool targeted;
	/** The pointer is meant to be shown (auto-hide, typing). */
	bool visible;
	/** Step again next frame while true. */
	bool animating;
	/** The effect's progress, 0…1, and the element's scale. */
	double effect_progress, effect_scale;
	/** The region id passed to set_region, and the region's identifier. */
	uint64_t target_region;
	uint32_t target_identifier;
	/** How many accessories (arrows, plus, …) are shown. */
	uint32_t accessory_count;
	/** To repaint: this frame's bounds united with the previous frame's (global). */
	double damage_x, damage_y, damage_width, damage_height;
	/** A band selection is in progress: the pointer has become this rectangle. */
	bool band;
	double band_x, band_y, band_width, band_height;
	/** An annotation is shown (its text: lodestone_pointer_engine_annotation), at this opacity. */
	bool annotation;
	double annotation_alpha;
	/** Since 0.2: the pointer's fill, ARGB8888 straight alpha (a drawing tool's ink over its region). */
	uint32_t pointer_color;
};

/** The user's pointer settings (accessibility). Fill with lodestone_pointer_settings_init. */
struct lodestone_pointer_settings {
	/** sizeof(struct lodestone_pointer_settings) as the caller was built with. */
	uint32_t size;
	/** Scales the circle, beam width and accessories, 1…4 (default 1). */
	double size_multiplier;
	/** The pointer's colour, not premultiplied, 0…1 (default a translucent grey). */
	double red, green, blue, alpha;
	/** A border around the pointer (default false). */
	bool show_border;
	/** An opaque pointer and always a border (default false). */
	bool increase_contrast;
	/** No overshoot, parallax or slip; fades instead of morphs (default false). */
	bool reduce_motion;
	/** Pull into regions, flick capture, text snapping (default true). */
	bool magnetism;
	/** Hide after inactivity and while typing (default true). */
	bool auto_hide;
};

/** What a client must hear about (adaptive_pointer_v1 events). */
enum lodestone_pointer_event_type {
	/** The pointer engaged the region: send its entered event. */
	LODESTONE_POINTER_EVENT_ENTERED = 0,
	/** The pointer left the region. */
	LODESTONE_POINTER_EVENT_LEFT = 1,
	/** A band selection started in the region; the rectangle is the band. */
	LODESTONE_POINTER_EVENT_BAND_BEGAN = 2,
	LODESTONE_POINTER_EVENT_BAND_CHANGED = 3,
	LODESTONE_POINTER_EVENT_BAND_ENDED = 4,
};

/** One event, read with lodestone_pointer_engine_next_event. */
struct lodestone_pointer_event {
	/** Set by the caller: sizeof(struct lodestone_pointer_event). */
	uint32_t size;
	/** enum lodestone_pointer_event_type. */
	uint32_t type;
	/** The region id passed to set_region, and the region's identifier. */
	uint64_t region;
	uint32_t identifier;
	/** The band's rectangle (global) for the band events; zero otherwise. */
	double x, y, width, height;
};

/**
 * A new engine whose pointer stays inside the output rectangle (the union of the host's
 * outputs); the pointer starts at its centre. Returns NULL if the rectangle is not finite or
 * is empty. Free with lodestone_pointer_engine_destroy.
 */
struct lodestone_pointer_engine *lodestone_pointer_engine_create(double x, double y, double width, double height);

/** Frees the engine and everything it holds. NULL is allowed and does nothing. */
void lodestone_pointer_engine_destroy(struct lodestone_pointer_engine *engine);

/** Outputs were added, removed or resized. Returns false (and changes nothing) for an empty or non-finite rectangle. */
bool lodestone_pointer_engine_set_output_bounds(struct lodestone_pointer_engine *engine,
	double x, double y, double width, double height);

/**
 * Fills `settings` with the defaults and sets settings->size to `size`, which must be
 * sizeof *settings: the library writes no more than that.
 */
void lodestone_pointer_settings_init(struct lodestone_pointer_settings *settings, uint32_t size);

/**
 * Applies new settings from the next step on. Returns false, changing nothing, when a number
 * is not finite or a colour component is outside 0…1.
 */
bool lodestone_pointer_engine_set_settings(struct lodestone_pointer_engine *engine,
	const struct lodestone_pointer_settings *settings);

/**
 * Fills `region` with the defaults (what adaptive_pointer_v1 assumes) and sets region->size to
 * `size`, which must be sizeof *region: the library writes no more than that.
 */
void lodestone_pointer_region_init(struct lodestone_pointer_region *region, uint32_t size);

/**
 * Adds the region with the host's id `region_id`, or replaces the one with that id. Returns
 * LODESTONE_POINTER_OK or a negative enum lodestone_pointer_error; a refused region leaves the
 * engine unchanged.
 */
int32_t lodestone_pointer_engine_set_region(struct lodestone_pointer_engine *engine, uint64_t region_id,
	const struct lodestone_pointer_region *region);

/** Removes one region; false if there was none with that id. */
bool lodestone_pointer_engine_remove_region(struct lodestone_pointer_engine *engine, uint64_t region_id);

/** Removes every region of a surface (the surface was destroyed); returns how many. */
uint32_t lodestone_pointer_engine_remove_surface_regions(struct lodestone_pointer_engine *engine, uint64_t surface);

/** The device moved to an absolute position (nested hosts, tablets, tests). */
void lodestone_pointer_engine_motion(struct lodestone_pointer_engine *engine, double time, double x, double y);

/** The device moved by a relative amount (libinput). */
void lodestone_pointer_engine_relative_motion(struct lodestone_pointer_engine *engine, double time, double dx, double dy);

/** The primary button was pressed (true) or released (false). */
void lodestone_pointer_engine_button(struct lodestone_pointer_engine *engine, double time, bool pressed);

/** A key that types was pressed (not a modifier alone): the pointer hides while typing. */
void lodestone_pointer_engine_key_typed(struct lodestone_pointer_engine *engine, double time);

/** The device that produces the following motion: enum lodestone_pointer_device. Unknown values are ignored. */
void lodestone_pointer_engine_device(struct lodestone_pointer_engine *engine, double time, uint32_t device);

/** Puts the pointer at a point whatever holds it (a teleport, not motion). */
void lodestone_pointer_engine_warp(struct lodestone_pointer_engine *engine, double time, double x, double y);

/** The pointer left every output (true; it hides) or came back (false): a nested host lost its parent's pointer. */
void lodestone_pointer_engine_outside_outputs(struct lodestone_pointer_engine *engine, double time, bool outside);

/** A client locked the pointer (true; hidden, motion stops) or released it. */
void lodestone_pointer_engine_pointer_lock(struct lodestone_pointer_engine *engine, double time, bool locked);

/** Fingers rest on the touchpad (a hold gesture: shown pressed) or lifted. */
void lodestone_pointer_engine_gesture_hold(struct lodestone_pointer_engine *engine, double time, bool held);

/** A pinch's scale relative to its start; 0 (or any value not above 0) when it ended. */
void lodestone_pointer_engine_pinch(struct lodestone_pointer_engine *engine, double time, double scale);

/**
 * When something will change without input (a region's exit delay, auto-hide): writes the
 * time to step at into `time` and returns true, or returns false when nothing is due. Step
 * then even if the last step was not animating.
 */
bool lodestone_pointer_engine_next_deadline(struct lodestone_pointer_engine *engine, double *time);

/**
 * Advances the animations to `time` and writes the frame into `out` (its `size` set by the
 * caller; NULL only steps). Returns whether to step again next frame (out->animating).
 */
bool lodestone_pointer_engine_step(struct lodestone_pointer_engine *engine, double time,
	struct lodestone_pointer_presentation *out);

/**
 * The text of the annotation in the last stepped frame (UTF-8, NUL-terminated), or NULL when
 * none is shown. The string belongs to the engine and stays valid until the next step or the
 * engine's destruction; copy it to keep it.
 */
const char *lodestone_pointer_engine_annotation(struct lodestone_pointer_engine *engine);

/**
 * Takes the oldest event the engine has for clients into `out` (its `size` set by the caller)
 * and returns true; false when there is none. Input and steps queue events: call this until it
 * returns false after each batch of input or each step, and send them to the region's client.
 */
bool lodestone_pointer_engine_next_event(struct lodestone_pointer_engine *engine, struct lodestone_pointer_event *out);

/**
 * Draws the last stepped frame (pointer, effects, accessories, annotation, band) over the
 * host's composed frame in `pixels`: premultiplied ARGB8888 in native byte order (pixman's
 * a8r8g8b8, DRM's ARGB8888), `width` × `height` pixels, `stride` bytes a row, whose pixel
 * (0, 0) is global (0, 0) and which is `scale` pixels a logical point. Only the clip rectangle
 * (buffer pixels) is touched; pass the presentation's damage, scaled. The effects read the
 * element's pixels from the buffer, so draw into the frame after the content is composed.
 * Returns false, drawing nothing, for a bad buffer or a clip outside it.
 */
bool lodestone_pointer_engine_draw(struct lodestone_pointer_engine *engine, uint32_t *pixels,
	int32_t width, int32_t height, int32_t stride, double scale,
	int32_t clip_x, int32_t clip_y, int32_t clip_width, int32_t clip_height);

/**
 * The same into a pixman bits image of format PIXMAN_a8r8g8b8 or PIXMAN_x8r8g8b8 (a wlroots
 * pixman renderer's buffer, say), whose pixel (0, 0) is global (0, 0). The image is borrowed:
 * not referenced past the call. Returns false, drawing nothing, for another format or a clip
 * outside the image.
 */
bool lodestone_pointer_engine_draw_pixman(struct lodestone_pointer_engine *engine, union pixman_image *image,
	double scale, int32_t clip_x, int32_t clip_y, int32_t clip_width, int32_t clip_height);

/*
 * The server side of adaptive-pointer-v1 (since 0.2), in the spirit of wlroots'
 * wlr_cursor_shape_v1: the helper offers the adaptive_pointer_manager_v1 global on the host's
 * wl_display, handles every request of its clients with the checks and protocol errors
 * Lodestone itself uses (a bad request disconnects only that client), keeps the engine's
 * regions in step with what each surface committed, and sends the regions' entered, left and
 * band_selection events.
 *
 * The host tells it three things: where a surface is (a callback), when a surface committed
 * (lodestone_pointer_server_surface_committed, from the host's own commit path) and when
 * windows moved or restacked (lodestone_pointer_server_layout_changed). After each step of
 * the engine it calls lodestone_pointer_server_send_events. The helper watches each surface's
 * wl_resource itself: a destroyed surface's regions leave the engine at once.
 *
 * Region state is double-buffered: requests take effect with the surface's next commit as the
 * host reports it. A host that applies synchronized subsurfaces' state late reports the commit
 * when it applies it (wlroots' wlr_surface.events.commit does).
 *
 * The helper puts its regions into the engine with region ids and surface ids whose top bit
 * is set; a host that also sets regions of its own uses ids below 2^63. A surface holds at
 * most 512 regions (too_many_regions); a preview subsurface is checked (invalid_preview) but
 * the effects are drawn from the host's composed pixels. Regions of a surface that another
 * window covers still capture the pointer: surface_position's layer only orders regions.
 *
 * Threading: the host's event loop only, like everything in this library.
 * Ownership: the server keeps a reference to the engine, which stays valid (though the host
 * may already have called lodestone_pointer_engine_destroy) until the server is destroyed.
 * Destroy the server before the wl_display.
 */

struct wl_display;
struct wl_resource;

/** The server side of adaptive-pointer-v1 on one wl_display. Opaque. */
struct lodestone_pointer_server;

/** What the helper asks the host. Fill with zeros, set size, then the callbacks. */
struct lodestone_pointer_server_callbacks {
	/** sizeof(struct lodestone_pointer_server_callbacks) as the caller was built with. */
	uint32_t size;
	/**
	 * Required. Where the wl_surface's top-left corner is in global logical coordinates, and
	 * its layer: regions of a surface in a higher layer win over regions of lower ones,
	 * whatever their clients' own stacking orders (use the window's position in the stack).
	 * Return false for a surface that is not shown: its regions leave the engine until a
	 * later commit or layout change finds it shown.
	 */
	bool (*surface_position)(void *data, struct wl_resource *surface, double *x, double *y, int32_t *layer);
	/**
	 * The parent wl_surface of a subsurface, or NULL for any other surface: set_preview
	 * accepts only the client's own subsurfaces below the region's surface. When NULL (the
	 * callback), every preview is refused with the invalid_preview error.
	 */
	struct wl_resource *(*subsurface_parent)(void *data, struct wl_resource *surface);
};

/**
 * Offers adaptive_pointer_manager_v1 on `display` for `engine`'s regions; `data` is passed
 * to every callback. `callbacks` is copied. Returns NULL when an argument is NULL, the
 * surface_position callback is missing or the global cannot be created. Free with
 * lodestone_pointer_server_destroy.
 */
struct lodestone_pointer_server *lodestone_pointer_server_create(struct wl_display *display,
	struct lodestone_pointer_engine *engine, const struct lodestone_pointer_server_callbacks *callbacks, void *data);

/**
 * Removes the global and the helper's regions from the engine; the clients' objects stay
 * alive but inert until the clients destroy them. NULL is allowed and does nothing.
 */
void lodestone_pointer_server_destroy(struct lodestone_pointer_server *server);

/**
 * The host applied a commit of this wl_surface: its pending region state becomes current
 * and is placed in the engine (surface_position is asked). Any surface may be passed; one
 * without an adaptive_pointer_surface_v1 costs a table lookup.
 */
void lodestone_pointer_server_surface_committed(struct lodestone_pointer_server *server, struct wl_resource *surface);

/**
 * Surfaces moved, were shown, hidden or restacked (a window moved, mapped or unmapped, or a
 * parent's commit moved a subsurface): every surface's regions are placed again, asking
 * surface_position for each surface that has regions.
 */
void lodestone_pointer_server_layout_changed(struct lodestone_pointer_server *server);

/**
 * Takes the engine's events for the helper's regions (see lodestone_pointer_engine_next_event)
 * and sends them to their clients, band rectangles in surface-local coordinates; events of
 * the host's own regions stay queued for lodestone_pointer_engine_next_event. Call after
 * each step. Returns how many events were sent.
 */
uint32_t lodestone_pointer_server_send_events(struct lodestone_pointer_server *server);

/**
 * Since 0.3: whether the wl_surface, or any subsurface below it (as the subsurface_parent
 * callback tells), has committed adaptive_pointer_v1 regions. A window whose surface tree
 * declares regions is left to them: the adapter reads no cursor name or accessibility there.
 */
bool lodestone_pointer_server_surface_has_regions(struct lodestone_pointer_server *server, struct wl_resource *surface);

/*
 * The adaptation of apps that declare no adaptive_pointer_v1 regions (since 0.3): what
 * Lodestone itself does for them, in the same code.
 *
 * - Cursor names: the cursor a client asks for (a wp_cursor_shape_v1 shape name, or a
 *   wl_pointer.set_cursor image recognised as an installed Xcursor theme's cursor by its
 *   fingerprint) becomes the pointer's form where no region targets it: "text" the beam,
 *   "pointer" and "default" the circle, "col-resize" the circle with arrows left and right,
 *   "wait" a turning dot (docs/accessibility.md, "Cursor names").
 * - Accessibility geometry: the apps' AT-SPI trees, read over the accessibility bus (found
 *   through AT_SPI_BUS_ADDRESS or the session bus's org.a11y.Bus), matched to windows by the
 *   pid the host gives, become regions in the engine: buttons highlight, icons lift, text
 *   fields give the beam (docs/accessibility.md). Walks start when a window maps or is
 *   activated, so the elements are ready when the pointer comes; what the pointer rests on is
 *   confirmed with the app before it takes its form; hostile apps are bounded (call timeouts,
 *   walk budgets, signal floods coalesced) exactly as in Lodestone.
 *
 * The host tells the adapter what only it knows: its windows (an id of its own, the client's
 * pid, the window's rectangle in global logical coordinates, its wl_surface), which window the
 * pointer is over, which window has the keyboard, the cursor the client under the pointer
 * asked for, keys and scrolls. The adapter puts its regions (region and surface ids with the
 * top two bits set: 0b11 << 62) and the pointer's untargeted form into the engine itself, and
 * says whether the adaptive pointer is drawn or the client's own image is
 * (lodestone_pointer_adapter_pointer_source).
 *
 * Order of calls: create the engine, the server (optional) and the adapter; report windows as
 * they map, move, resize, restack and unmap; report the pointer's window and the client's
 * cursor when they change; after each lodestone_pointer_engine_step call
 * lodestone_pointer_adapter_stepped (it reads where the pointer rests, for confirmation and
 * point queries); then draw what lodestone_pointer_adapter_pointer_source says.
 *
 * Event loop: the adapter adds its D-Bus connections' fds and its timers to the host's
 * wl_event_loop and removes them when destroyed; replies come while the host's loop
 * dispatches, never inside a call. Regions may therefore change between two steps without a
 * call from the host: step the engine when lodestone_pointer_adapter_changed says so, or every
 * frame.
 *
 * Threading: the thread of the host's wl_event_loop only.
 * Ownership: the adapter keeps references to the engine and the server; both stay valid
 * (though the host may already have destroyed them) until the adapter is destroyed. Destroy
 * the adapter before the wl_event_loop. Strings and images are borrowed for the call.
 */

struct wl_event_loop;

/** The legacy-app adaptation on one engine. Opaque. */
struct lodestone_pointer_adapter;

/** What shows as the pointer over the window under it (lodestone_pointer_adapter_pointer_source). */
enum lodestone_pointer_source {
	/** The adaptive pointer: draw the engine's presentation. */
	LODESTONE_POINTER_SOURCE_ADAPTIVE = 0,
	/** The client's own cursor image, as the client set it (an image that is no theme cursor). */
	LODESTONE_POINTER_SOURCE_CLIENT_IMAGE = 1,
	/**
	 * The theme's image for the cursor name the client gave, which has no adaptive form
	 * ("help", "context-menu", "cell"): draw the host's theme cursor of that name.
	 */
	LODESTONE_POINTER_SOURCE_THEME_CURSOR = 2,
};

/** How apps without regions are read (Lodestone's --legacy-apps; config.toml legacy-apps). */
enum lodestone_pointer_legacy_apps {
	/** Cursor names and accessibility geometry (the default). */
	LODESTONE_POINTER_LEGACY_APPS_ADAPTIVE = 0,
	/** Cursor names only. */
	LODESTONE_POINTER_LEGACY_APPS_SHAPES = 1,
	/** Nothing: the circle over every app, whatever its cursor. */
	LODESTONE_POINTER_LEGACY_APPS_OFF = 2,
};

/**
 * A new adapter over `engine`, its D-Bus fds and timers on `loop`. `server` may be NULL: then
 * no window is taken to declare regions of its own. The accessibility bus is looked for at
 * once (connections are asynchronous: the call does not block). Returns NULL when engine or
 * loop is NULL. Free with lodestone_pointer_adapter_destroy.
 */
struct lodestone_pointer_adapter *lodestone_pointer_adapter_create(struct lodestone_pointer_engine *engine,
	struct wl_event_loop *loop, struct lodestone_pointer_server *server);

/**
 * Closes the buses, removes the adapter's fds, timers and regions, and puts the circle back
 * as the untargeted form. NULL is allowed and does nothing.
 */
void lodestone_pointer_adapter_destroy(struct lodestone_pointer_adapter *adapter);

/** enum lodestone_pointer_legacy_apps; returns false (changing nothing) for an unknown value. */
bool lodestone_pointer_adapter_set_legacy_apps(struct lodestone_pointer_adapter *adapter, uint32_t mode);

/**
 * A window mapped, moved, resized or restacked. `window` is the host's id (not 0), `pid` the
 * process of its client (for an X11 window, _NET_WM_PID; 0 or less when unknown: no
 * accessibility geometry), x, y, width, height its content in global logical coordinates
 * (what the app calls its window, without server-side decorations), `layer` its place in the
 * stack (higher is above: an element another window covers does not capture the pointer), and
 * `surface` its wl_surface resource or NULL (with a server: tells whether it declares
 * regions). A window seen for the first time is walked now, before the pointer comes.
 * Returns false for window 0 or a non-finite or empty rectangle.
 */
bool lodestone_pointer_adapter_window_configured(struct lodestone_pointer_adapter *adapter, uint64_t window, int32_t pid,
	double x, double y, double width, double height, int32_t layer, struct wl_resource *surface);

/** The window unmapped or was destroyed: what was known of it goes, and its regions leave the engine. */
void lodestone_pointer_adapter_window_unmapped(struct lodestone_pointer_adapter *adapter, uint64_t window);

/** The window gained the keyboard: its elements are read again now if they may be stale. */
void lodestone_pointer_adapter_window_activated(struct lodestone_pointer_adapter *adapter, uint64_t window);

/**
 * The pointer is over this window (0: over none, or over the host's own surfaces). Its
 * accessible elements become the engine's regions; the previous window's leave.
 */
void lodestone_pointer_adapter_pointer_over(struct lodestone_pointer_adapter *adapter, uint64_t window);

/**
 * The client under the pointer asked for a cursor by name (wp_cursor_shape_v1's names, CSS
 * cursor names, or theme file names such as "left_ptr", "xterm", "hand2"). NULL: the client
 * set no cursor (the circle). Returns false for a name the adapter does not know (then the
 * circle, and lodestone_pointer_adapter_pointer_source says ADAPTIVE).
 */
bool lodestone_pointer_adapter_cursor_name(struct lodestone_pointer_adapter *adapter, const char *name);

/**
 * The client under the pointer set a cursor image: `pixels` premultiplied ARGB8888 in native
 * byte order, width × height pixels, `stride` bytes a row, `scale` buffer pixels a point, the
 * hotspot in buffer pixels. An image recognised as an installed Xcursor theme's cursor (any
 * theme under XCURSOR_PATH or the usual icon folders, at the sizes they hold) takes that
 * name's form; any other image is the client's own (SOURCE_CLIENT_IMAGE). Returns whether it
 * was recognised; false also for a bad buffer.
 */
bool lodestone_pointer_adapter_cursor_image(struct lodestone_pointer_adapter *adapter, const uint32_t *pixels,
	int32_t width, int32_t height, int32_t stride, int32_t scale, int32_t hotspot_x, int32_t hotspot_y);

/** The client under the pointer hid its cursor (a NULL wl_pointer.set_cursor): the pointer hides too. */
void lodestone_pointer_adapter_cursor_hidden(struct lodestone_pointer_adapter *adapter);

/** A key went to the focused app: what it scrolls may move, so elements are confirmed again. */
void lodestone_pointer_adapter_key_pressed(struct lodestone_pointer_adapter *adapter);

/** The pointer scrolled this window: its elements are dropped and read again once scrolling pauses. */
void lodestone_pointer_adapter_scrolled(struct lodestone_pointer_adapter *adapter, uint64_t window);

/**
 * Call after each lodestone_pointer_engine_step: the adapter reads where the pointer rests
 * (to confirm the element under it with its app, or ask the app what is there), turns a busy
 * cursor's accessory, and updates its regions.
 */
void lodestone_pointer_adapter_stepped(struct lodestone_pointer_adapter *adapter, double time);

/**
 * Whether the adapter changed the engine's regions or form since the last call (a walk's
 * reply, a timer): step the engine and repaint. Clears the flag.
 */
bool lodestone_pointer_adapter_changed(struct lodestone_pointer_adapter *adapter);

/** enum lodestone_pointer_source: what to draw as the pointer now. */
uint32_t lodestone_pointer_adapter_pointer_source(struct lodestone_pointer_adapter *adapter);

/**
 * How many accessibility elements of `window` are known now (walked or found by a point
 * query); for tests and diagnostics.
 */
uint32_t lodestone_pointer_adapter_element_count(struct lodestone_pointer_adapter *adapter, uint64_t window);

/**
 * A window's pixels, as a host hands them when the adapter asks (lodestone_pointer_window_pixels_fn).
 * With them a host gets Lodestone's own results: a control's highlight grown from the extents
 * its toolkit publishes to the outline it draws (GTK 4 publishes a button's content box), and
 * a terminal that publishes nothing measured for its line height (the beam's length).
 */
struct lodestone_pointer_window_pixels {
	/** sizeof(struct lodestone_pointer_window_pixels), set by the adapter before it asks. */
	uint32_t size;
	/**
	 * The window's root surface buffer: premultiplied ARGB8888 (or XRGB8888) in native byte
	 * order, as wl_shm gives it, row 0 at the top. The host's memory: read during the call only.
	 */
	const uint32_t *argb;
	/** Its size in buffer pixels, and the bytes from one row to the next. */
	int32_t width, height, stride;
	/** Buffer pixels a logical point (wl_surface.set_buffer_scale; 1 for an X11 window). */
	int32_t scale;
	/**
	 * Where the window's rectangle (lodestone_pointer_adapter_window_configured's x, y) starts
	 * inside the surface, in points: the xdg_surface window geometry's x, y (its shadow's width);
	 * 0, 0 for a window without client-side decorations.
	 */
	int32_t geometry_x, geometry_y;
	/**
	 * The host's count of buffers committed to the surface: when it equals the count of the last
	 * answer for this window, the adapter keeps its copy and does not read `argb`.
	 */
	uint64_t commit;
};

/**
 * Fills `pixels` for `window` and returns true, or returns false when the host has none now
 * (the window has no buffer, or it is not in memory the host can read). Called from inside
 * lodestone_pointer_adapter_* calls and the adapter's D-Bus replies on the host's loop: it
 * must not call the adapter.
 */
typedef bool (*lodestone_pointer_window_pixels_fn)(void *data, uint64_t window, struct lodestone_pointer_window_pixels *pixels);

/**
 * Since 0.3, optional: how the adapter reads a window's pixels when it needs them: once per
 * walk, to grow its elements to their drawn outlines; and twice a second while the pointer is
 * over a window that publishes no elements and whose cursor says text (a terminal), to measure
 * its rows (asked again at the next step while the host has none). The adapter copies a buffer
 * only when its `commit` count changed. `pixels` NULL (the default): the adapter asks for
 * none, controls keep their published extents and a terminal without accessibility keeps the
 * 24-point beam.
 */
void lodestone_pointer_adapter_set_window_pixels(struct lodestone_pointer_adapter *adapter,
	lodestone_pointer_window_pixels_fn pixels, void *data);

/**
 * Since 0.3, for hosts without an adapter: the pointer's form where no region targets it, from
 * a cursor name as lodestone_pointer_adapter_cursor_name takes it (NULL: the circle). Returns
 * false, setting the circle, for an unknown name.
 */
bool lodestone_pointer_engine_set_cursor_name(struct lodestone_pointer_engine *engine, double time, const char *name);

/*
 * Lodestone's config.toml for the host's engine (hosts/weston reads it at start).
 */

/**
 * Applies the pointer settings of Lodestone's config.toml at `path` (NULL:
 * $XDG_CONFIG_HOME/lodestone/config.toml, else ~/.config/lodestone/config.toml) to the
 * engine: every key of its [appearance], [behaviour] and [tuning] tables, checked as
 * Lodestone checks them (docs/configuration.md); the other keys are checked and ignored.
 * Returns 1 when the file was applied, 0 when there is no such file (nothing changes), -1
 * when the file is refused as a whole (nothing changes): then the reason, "file:line: key:
 * reason", is written to `error` (at most error_size bytes, NUL included; NULL or 0 for
 * none). The parser runs in a forked child process for at most 2 s.
 */
int32_t lodestone_pointer_engine_load_settings(struct lodestone_pointer_engine *engine, const char *path,
	char *error, uint32_t error_size);

/**
 * The same file's `legacy-apps` (adaptive, shapes, off) applied to the adapter, as
 * lodestone_pointer_adapter_set_legacy_apps; the same returns and messages. (`pointer =
 * "client"` is checked, not applied: the adapter has no such mode.)
 */
int32_t lodestone_pointer_adapter_load_settings(struct lodestone_pointer_adapter *adapter, const char *path,
	char *error, uint32_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* LODESTONE_POINTER_H */
