/* pointer-test: liblodestone-pointer from C.
 *
 * Runs one scripted input sequence (the same one PointerLibraryTests feeds the Swift engine)
 * and checks what a C host relies on: the version query, a highlight region that targets the
 * pointer, refused regions, drawing into a raw ARGB8888 buffer only within the damage, and
 * destroying everything (run it under valgrind for the leak check).
 *
 * Every input is printed as it is fed ("motion t x y", "button t 1", ...) and every stepped
 * frame as "frame" then the presentation's numbers in the order of print_frame, all exact
 * (%.17g): the Swift test replays the inputs into its own engine and compares the frames.
 * It exits 0 when every check passed; failures are printed as "FAIL: ...". */
#define _POSIX_C_SOURCE 200809L /* unsetenv, clock_gettime */
#include <lodestone-pointer.h>
#include <X11/Xcursor/Xcursor.h>
#include <wayland-server-core.h>

#include <math.h>
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		failures++; \
		printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

static void print_frame(const struct lodestone_pointer_presentation *p) {
	printf("frame %.17g %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %u %d %.17g %.17g %llu %u %d %d %u "
		"%.17g %.17g %.17g %.17g\n",
		p->time, p->shape_kind, p->logical_x, p->logical_y, p->device_x, p->device_y,
		p->x, p->y, p->width, p->height, p->corner_radius, p->alpha,
		p->effect_kind, p->targeted, p->effect_progress, p->effect_scale,
		(unsigned long long)p->target_region, p->target_identifier, p->visible, p->animating, p->accessory_count,
		p->damage_x, p->damage_y, p->damage_width, p->damage_height);
}

static void motion(struct lodestone_pointer_engine *e, double t, double x, double y) {
	printf("motion %.17g %.17g %.17g\n", t, x, y);
	lodestone_pointer_engine_motion(e, t, x, y);
}

static void relative_motion(struct lodestone_pointer_engine *e, double t, double dx, double dy) {
	printf("relative %.17g %.17g %.17g\n", t, dx, dy);
	lodestone_pointer_engine_relative_motion(e, t, dx, dy);
}

static void press(struct lodestone_pointer_engine *e, double t, bool pressed) {
	printf("button %.17g %d\n", t, pressed);
	lodestone_pointer_engine_button(e, t, pressed);
}

static void key_typed(struct lodestone_pointer_engine *e, double t) {
	printf("key %.17g\n", t);
	lodestone_pointer_engine_key_typed(e, t);
}

/* How many entered and left events the script has seen. */
static int entered, left;

/* Steps, prints the frame, then reads and prints the events queued for clients. */
/* The other inputs, one line each: "<name> t value". */
static void device(struct lodestone_pointer_engine *e, double t, uint32_t kind) {
	printf("device %.17g %u\n", t, kind);
	lodestone_pointer_engine_device(e, t, kind);
}

static void warp(struct lodestone_pointer_engine *e, double t, double x, double y) {
	printf("warp %.17g %.17g %.17g\n", t, x, y);
	lodestone_pointer_engine_warp(e, t, x, y);
}

static void outside(struct lodestone_pointer_engine *e, double t, bool value) {
	printf("outside %.17g %d\n", t, value);
	lodestone_pointer_engine_outside_outputs(e, t, value);
}

static void lock(struct lodestone_pointer_engine *e, double t, bool value) {
	printf("lock %.17g %d\n", t, value);
	lodestone_pointer_engine_pointer_lock(e, t, value);
}

static void hold(struct lodestone_pointer_engine *e, double t, bool value) {
	printf("hold %.17g %d\n", t, value);
	lodestone_pointer_engine_gesture_hold(e, t, value);
}

static void pinch(struct lodestone_pointer_engine *e, double t, double scale) {
	printf("pinch %.17g %.17g\n", t, scale);
	lodestone_pointer_engine_pinch(e, t, scale);
}

static struct lodestone_pointer_presentation step(struct lodestone_pointer_engine *e, double t) {
	struct lodestone_pointer_presentation p = { .size = sizeof p };
	bool animating = lodestone_pointer_engine_step(e, t, &p);
	CHECK(animating == p.animating, "step's result is the presentation's animating");
	CHECK(p.size == sizeof p, "the size is left as the caller set it");
	print_frame(&p);
	struct lodestone_pointer_event ev = { .size = sizeof ev };
	while (lodestone_pointer_engine_next_event(e, &ev)) {
		printf("event %u %llu %u %.17g %.17g %.17g %.17g\n", ev.type, (unsigned long long)ev.region, ev.identifier,
			ev.x, ev.y, ev.width, ev.height);
		if (ev.type == LODESTONE_POINTER_EVENT_ENTERED) entered++;
		if (ev.type == LODESTONE_POINTER_EVENT_LEFT) left++;
		CHECK(ev.region != 0, "an event names its region");
	}
	return p;
}

#define WIDTH 640
#define HEIGHT 480
#define BACKGROUND 0xffe8e8e8u

/* The highlight button of the script: surface 7, identifier 42. */
/* A terminal's window, 400 × 300: dark, with rows of light ink 30 px apart (its font's
 * line; the beam is never shorter than 24), for lodestone_pointer_adapter_set_window_pixels. */
enum { TERMINAL_W = 400, TERMINAL_H = 300, TERMINAL_LINE = 30 };
struct terminal { uint32_t pixels[TERMINAL_W * TERMINAL_H]; unsigned asked; uint64_t commit; };

static bool terminal_pixels(void *data, uint64_t window, struct lodestone_pointer_window_pixels *out) {
	struct terminal *term = data;
	term->asked++;
	if (window != 2 || out->size < sizeof *out) return false;
	out->argb = term->pixels;
	out->width = TERMINAL_W;
	out->height = TERMINAL_H;
	out->stride = TERMINAL_W * 4;
	out->scale = 1;
	out->geometry_x = out->geometry_y = 0;
	out->commit = term->commit;
	return true;
}

static struct lodestone_pointer_region button(void) {
	struct lodestone_pointer_region r;
	lodestone_pointer_region_init(&r, sizeof r);
	r.surface = 7;
	r.identifier = 42;
	r.x = 200; r.y = 100; r.width = 44; r.height = 30;
	r.corner_radius = 6;
	r.effect = LODESTONE_POINTER_EFFECT_HIGHLIGHT;
	return r;
}

int main(void) {
	/* The version: the header's and the library's agree (same major, minor not older). */
	uint32_t version = lodestone_pointer_version();
	printf("version %u.%u.%u\n", version >> 16, (version >> 8) & 0xff, version & 0xff);
	CHECK(version == LODESTONE_POINTER_VERSION, "library %#x, header %#x", version, LODESTONE_POINTER_VERSION);
	CHECK(LODESTONE_POINTER_VERSION_MAJOR == 0 && LODESTONE_POINTER_VERSION_MINOR >= 1, "macros");

	CHECK(lodestone_pointer_engine_create(0, 0, 0, 480) == NULL, "an empty output is refused");
	CHECK(lodestone_pointer_engine_create(0, 0, NAN, 480) == NULL, "a non-finite output is refused");
	lodestone_pointer_engine_destroy(NULL);

	struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, WIDTH, HEIGHT);
	CHECK(e != NULL, "engine");

	/* Defaults are adaptive_pointer_v1's. */
	struct lodestone_pointer_region r = button();
	CHECK(r.size == sizeof r, "init sets the size");
	CHECK(r.hit_area == LODESTONE_POINTER_HIT_AREA_BEZELLED && r.magnetism == LODESTONE_POINTER_MAGNETISM_AUTOMATIC,
		"default hit area and magnetism");
	CHECK(r.annotation == NULL && r.hover_scale && !r.hover_shadow, "default annotation and hover");

	CHECK(lodestone_pointer_engine_set_region(e, 1, &r) == LODESTONE_POINTER_OK, "the button is accepted");

	/* Refused regions leave the engine unchanged. */
	struct lodestone_pointer_region bad = button();
	bad.width = -1;
	CHECK(lodestone_pointer_engine_set_region(e, 1, &bad) == LODESTONE_POINTER_ERROR_NEGATIVE_SIZE, "negative width");
	bad = button();
	bad.corner_radius = INFINITY;
	CHECK(lodestone_pointer_engine_set_region(e, 1, &bad) == LODESTONE_POINTER_ERROR_NON_FINITE_GEOMETRY, "infinite radius");
	bad = button();
	bad.effect = 99;
	CHECK(lodestone_pointer_engine_set_region(e, 1, &bad) == LODESTONE_POINTER_ERROR_INVALID_ARGUMENT, "unknown effect");
	bad = button();
	bad.annotation = "this annotation is far too long for the pointer: a few words, never a sentence like this";
	CHECK(lodestone_pointer_engine_set_region(e, 1, &bad) == LODESTONE_POINTER_ERROR_ANNOTATION_TOO_LONG, "long annotation");
	CHECK(lodestone_pointer_engine_set_region(e, 1, NULL) == LODESTONE_POINTER_ERROR_INVALID_ARGUMENT, "NULL region");

	/* The script (PointerLibraryTests.script): away from the button, then onto it. */
	motion(e, 0, 100, 300);
	struct lodestone_pointer_presentation p = step(e, 0);
	CHECK(!p.targeted, "nothing targeted away from the button");
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE, "the circle, not %u", p.shape_kind);

	for (int i = 1; i <= 10; i++) {
		double t = 0.5 + 0.016 * i;
		motion(e, t, 100 + 10.8 * i, 300 - 18.5 * i);
		p = step(e, t);
	}
	for (int i = 1; i <= 40; i++)
		p = step(e, 0.66 + 0.016 * i);
	CHECK(p.targeted && p.target_region == 1 && p.target_identifier == 42, "the button targets the pointer");
	CHECK(p.effect_kind == LODESTONE_POINTER_EFFECT_KIND_HIGHLIGHT, "highlight, not %u", p.effect_kind);
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_ROUNDED_RECT, "the platter, not %u", p.shape_kind);
	CHECK(fabs(p.effect_progress - 1) < 0.01, "settled: %g", p.effect_progress);
	CHECK(p.width >= 44 && p.height >= 30, "the platter covers the button: %gx%g", p.width, p.height);
	CHECK(p.logical_x >= 200 && p.logical_x <= 244 && p.logical_y >= 100 && p.logical_y <= 130,
		"clients see the pointer on the button: %g, %g", p.logical_x, p.logical_y);
	CHECK(p.damage_width > 0 && p.damage_height > 0, "damage");
	CHECK(entered == 1 && left == 0, "one entered event: %d entered, %d left", entered, left);

	/* Drawing: a grey frame, the platter drawn within the damage and nowhere else. */
	int32_t stride = WIDTH * 4 + 64;
	uint32_t *pixels = malloc((size_t)stride * HEIGHT);
	for (int y = 0; y < HEIGHT; y++)
		for (int x = 0; x < stride / 4; x++)
			pixels[y * (stride / 4) + x] = BACKGROUND;
	int32_t dx = (int32_t)floor(p.damage_x), dy = (int32_t)floor(p.damage_y);
	int32_t dw = (int32_t)ceil(p.damage_x + p.damage_width) - dx, dh = (int32_t)ceil(p.damage_y + p.damage_height) - dy;
	CHECK(lodestone_pointer_engine_draw(e, pixels, WIDTH, HEIGHT, stride, 1.0, dx, dy, dw, dh), "draw");
	int changed_inside = 0, changed_outside = 0;
	for (int y = 0; y < HEIGHT; y++) {
		for (int x = 0; x < stride / 4; x++) {
			bool inside = x >= dx && x < dx + dw && y >= dy && y < dy + dh;
			if (pixels[y * (stride / 4) + x] != BACKGROUND) {
				if (inside) changed_inside++;
				else changed_outside++;
			}
		}
	}
	printf("drawn %d inside %d outside\n", changed_inside, changed_outside);
	CHECK(changed_inside > 100, "the platter is drawn: %d pixels", changed_inside);
	CHECK(changed_outside == 0, "nothing outside the damage: %d pixels", changed_outside);
	CHECK(!lodestone_pointer_engine_draw(e, pixels, WIDTH, HEIGHT, 8, 1.0, dx, dy, dw, dh), "a stride too short is refused");
	CHECK(!lodestone_pointer_engine_draw(e, pixels, WIDTH, HEIGHT, stride, 1.0, WIDTH, 0, 10, 10), "a clip outside is refused");

	/* The same through a pixman image (x8r8g8b8, no stride padding): the same pixels, within
	 * rounding (no alpha channel to keep, so a blend may round one step differently). */
	pixman_image_t *image = pixman_image_create_bits(PIXMAN_x8r8g8b8, WIDTH, HEIGHT, NULL, 0);
	pixman_color_t grey = { 0xe8e8, 0xe8e8, 0xe8e8, 0xffff };
	pixman_image_t *fill = pixman_image_create_solid_fill(&grey);
	pixman_image_composite32(PIXMAN_OP_SRC, fill, NULL, image, 0, 0, 0, 0, 0, 0, WIDTH, HEIGHT);
	pixman_image_unref(fill);
	CHECK(lodestone_pointer_engine_draw_pixman(e, image, 1.0, dx, dy, dw, dh), "draw into a pixman image");
	uint32_t *bits = pixman_image_get_data(image);
	int differing = 0, most = 0;
	for (int y = 0; y < HEIGHT; y++) {
		for (int x = 0; x < WIDTH; x++) {
			uint32_t a = bits[y * WIDTH + x], b = pixels[y * (stride / 4) + x];
			for (int shift = 0; shift < 24; shift += 8) {
				int d = abs((int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff));
				if (d > most) most = d;
				if (d > 2) differing++;
			}
		}
	}
	printf("pixman %d channels differ by more than 2, at most %d\n", differing, most);
	CHECK(differing == 0, "the pixman image and the raw buffer differ: %d channels, at most %d", differing, most);
	pixman_image_unref(image);
	pixman_image_t *a8 = pixman_image_create_bits(PIXMAN_a8, WIDTH, HEIGHT, NULL, 0);
	CHECK(!lodestone_pointer_engine_draw_pixman(e, a8, 1.0, dx, dy, dw, dh), "an a8 image is refused");
	pixman_image_unref(a8);
	free(pixels);

	/* Press and release on the button; then typing hides the pointer. */
	press(e, 1.4, true);
	p = step(e, 1.5);
	CHECK(p.targeted && p.target_identifier == 42, "still on the button while pressed");
	press(e, 1.6, false);
	p = step(e, 1.7);
	key_typed(e, 1.8);
	p = step(e, 2.2);
	CHECK(!p.visible, "typing hides the pointer");

	/* Relative motion away, removing regions (the Swift replay stops here). */
	relative_motion(e, 2.3, 150, 150);
	p = step(e, 2.3);
	CHECK(!p.targeted, "away from the button");
	CHECK(entered == 1 && left == 1, "one left event: %d entered, %d left", entered, left);

	/* The other inputs, replayed too: a trackpad, a hold, a pinch, leaving the outputs, a lock, a warp. */
	device(e, 2.32, LODESTONE_POINTER_DEVICE_TRACKPAD);
	hold(e, 2.33, true);
	p = step(e, 2.34);
	hold(e, 2.35, false);
	pinch(e, 2.35, 1.2);
	p = step(e, 2.36);
	pinch(e, 2.37, 0);
	outside(e, 2.37, true);
	p = step(e, 2.5);
	CHECK(!p.visible, "hidden outside the outputs");
	outside(e, 2.51, false);
	lock(e, 2.52, true);
	p = step(e, 2.6);
	CHECK(!p.visible, "hidden while locked");
	lock(e, 2.61, false);
	warp(e, 2.62, 222, 115);
	device(e, 2.62, LODESTONE_POINTER_DEVICE_MOUSE);
	p = step(e, 2.63);
	double deadline = -1;
	bool due = lodestone_pointer_engine_next_deadline(e, &deadline);
	printf("deadline %d %.17g\n", due, deadline);
	CHECK(!due || deadline > 2.6, "a deadline in the future: %g", deadline);
	for (int i = 1; i <= 20; i++)
		p = step(e, 2.63 + 0.016 * i);
	CHECK(p.targeted && p.target_identifier == 42, "warped back onto the button");
	printf("end\n");
	CHECK(lodestone_pointer_engine_remove_region(e, 1), "removed");
	CHECK(!lodestone_pointer_engine_remove_region(e, 1), "already removed");
	CHECK(lodestone_pointer_engine_annotation(e) == NULL, "no annotation");
	CHECK(!lodestone_pointer_engine_next_deadline(NULL, &deadline), "no engine, no deadline");

	/* An annotation: its text, borrowed from the engine. */
	r = button();
	r.annotation = "42 items";
	CHECK(lodestone_pointer_engine_set_region(e, 2, &r) == LODESTONE_POINTER_OK, "a second region");
	r.surface = 8;
	r.x = 400; r.y = 300;
	r.annotation = NULL;
	CHECK(lodestone_pointer_engine_set_region(e, 3, &r) == LODESTONE_POINTER_OK, "a third, another surface");
	lodestone_pointer_engine_motion(e, 3.4, 215, 112);
	for (int i = 0; i < 40; i++)
		lodestone_pointer_engine_step(e, 3.4 + 0.016 * i, &p);
	const char *text = lodestone_pointer_engine_annotation(e);
	CHECK(p.annotation && p.annotation_alpha > 0.5, "an annotation is shown: %d %g", p.annotation, p.annotation_alpha);
	CHECK(text != NULL && strcmp(text, "42 items") == 0, "its text: %s", text ? text : "(null)");
	CHECK(lodestone_pointer_engine_remove_surface_regions(e, 7) == 1, "the surface's one region");

	/* A band selection: press in a canvas region that allows it and drag. */
	struct lodestone_pointer_region canvas;
	lodestone_pointer_region_init(&canvas, sizeof canvas);
	canvas.surface = 9; canvas.identifier = 5;
	canvas.x = 20; canvas.y = 200; canvas.width = 300; canvas.height = 200;
	canvas.effect = LODESTONE_POINTER_EFFECT_NONE;
	canvas.band_selection = true;
	CHECK(lodestone_pointer_engine_set_region(e, 4, &canvas) == LODESTONE_POINTER_OK, "the canvas");
	lodestone_pointer_engine_motion(e, 4.1, 50, 250);
	lodestone_pointer_engine_step(e, 4.1, &p);
	lodestone_pointer_engine_button(e, 4.2, true);
	for (int i = 1; i <= 10; i++)
		lodestone_pointer_engine_motion(e, 4.2 + 0.016 * i, 50 + 10 * i, 250 + 6 * i);
	lodestone_pointer_engine_step(e, 4.4, &p);
	CHECK(p.band && p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_BAND, "the pointer is the band: %d %u", p.band, p.shape_kind);
	CHECK(p.band_x == 50 && p.band_y == 250 && p.band_width == 100 && p.band_height == 60,
		"the band: %g,%g %gx%g", p.band_x, p.band_y, p.band_width, p.band_height);
	lodestone_pointer_engine_button(e, 4.5, false);
	int began = 0, ended = 0;
	struct lodestone_pointer_event ev = { .size = sizeof ev };
	while (lodestone_pointer_engine_next_event(e, &ev)) {
		if (ev.type == LODESTONE_POINTER_EVENT_BAND_BEGAN) began++;
		if (ev.type == LODESTONE_POINTER_EVENT_BAND_ENDED) {
			ended++;
			CHECK(ev.region == 4 && ev.identifier == 5 && ev.width == 100 && ev.height == 60,
				"band ended: region %llu, %gx%g", (unsigned long long)ev.region, ev.width, ev.height);
		}
	}
	CHECK(began == 1 && ended == 1, "band began %d, ended %d", began, ended);

	/* Settings: twice the size, then a colour out of range is refused. */
	struct lodestone_pointer_settings settings;
	lodestone_pointer_settings_init(&settings, sizeof settings);
	CHECK(settings.size == sizeof settings && settings.size_multiplier == 1 && settings.magnetism && settings.auto_hide,
		"default settings");
	settings.size_multiplier = 2;
	CHECK(lodestone_pointer_engine_set_settings(e, &settings), "twice the size");
	lodestone_pointer_engine_motion(e, 4.6, 600, 60);
	for (int i = 0; i < 40; i++)
		lodestone_pointer_engine_step(e, 4.6 + 0.016 * i, &p);
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE && fabs(p.width - 38) < 0.01, "a 38-point circle: %g", p.width);
	settings.red = 1.5;
	CHECK(!lodestone_pointer_engine_set_settings(e, &settings), "red 1.5 refused");
	settings.red = 0;
	settings.size_multiplier = NAN;
	CHECK(!lodestone_pointer_engine_set_settings(e, &settings), "a NaN size refused");

	CHECK(lodestone_pointer_engine_set_output_bounds(e, 0, 0, 320, 240), "smaller output");
	CHECK(!lodestone_pointer_engine_set_output_bounds(e, 0, 0, -1, 240), "negative output refused");
	p = step(e, 5.4);
	CHECK(p.logical_x <= 320 && p.logical_y <= 240, "the pointer stays on the output");

	/* An older caller whose presentation struct ends early: nothing beyond it is written. */
	_Alignas(8) unsigned char small[64 + 8];
	memset(small, 0xab, sizeof small);
	((struct lodestone_pointer_presentation *)small)->size = 64;
	lodestone_pointer_engine_step(e, 5.5, (struct lodestone_pointer_presentation *)small);
	CHECK(small[64] == 0xab && small[71] == 0xab, "wrote past a short struct");

	lodestone_pointer_engine_destroy(e);

	/* Since 0.2: a drawing region's tool becomes the pointer over its frame. */
	struct lodestone_pointer_engine *pen_engine = lodestone_pointer_engine_create(0, 0, WIDTH, HEIGHT);
	struct lodestone_pointer_region paper;
	lodestone_pointer_region_init(&paper, sizeof paper);
	CHECK(paper.drawing_diameter == 0 && paper.drawing_color == 0, "no tool by default");
	paper.x = 100; paper.y = 100; paper.width = 300; paper.height = 200;
	paper.drawing_diameter = 1000;
	CHECK(lodestone_pointer_engine_set_region(pen_engine, 1, &paper) == LODESTONE_POINTER_ERROR_INVALID_DRAWING_TOOL,
		"a 1000-point tool is refused");
	paper.drawing_diameter = -3;
	CHECK(lodestone_pointer_engine_set_region(pen_engine, 1, &paper) == LODESTONE_POINTER_ERROR_INVALID_DRAWING_TOOL,
		"a negative tool is refused");
	paper.drawing_diameter = 30;
	paper.drawing_color = 0xffd02020;
	CHECK(lodestone_pointer_engine_set_region(pen_engine, 1, &paper) == LODESTONE_POINTER_OK, "a 30-point red pen");
	lodestone_pointer_engine_motion(pen_engine, 0, 250, 200);
	for (int i = 0; i < 40; i++)
		lodestone_pointer_engine_step(pen_engine, 0.016 * i, &p);
	CHECK(fabs(p.width - 30) < 0.01 && p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE, "a 30-point circle: %g", p.width);
	CHECK(p.pointer_color == 0xffd02020, "in the pen's ink: %#x", p.pointer_color);
	CHECK(fabs(p.logical_x - 250) < 0.01 && p.effect_kind == LODESTONE_POINTER_EFFECT_KIND_NONE, "no magnetism, no effect");
	lodestone_pointer_engine_destroy(pen_engine);

	/* Since 0.3: the adapter turns the cursor a client asks for into the pointer's form. No
	 * bus in this test: the accessibility part gives up at once and cursor names remain. */
	unsetenv("DBUS_SESSION_BUS_ADDRESS");
	unsetenv("AT_SPI_BUS_ADDRESS");
	unsetenv("XDG_RUNTIME_DIR");
	struct wl_event_loop *loop = wl_event_loop_create();
	struct lodestone_pointer_engine *ae = lodestone_pointer_engine_create(0, 0, WIDTH, HEIGHT);
	CHECK(lodestone_pointer_adapter_create(NULL, loop, NULL) == NULL, "an adapter needs an engine");
	CHECK(lodestone_pointer_adapter_create(ae, NULL, NULL) == NULL, "an adapter needs a loop");
	struct lodestone_pointer_adapter *a = lodestone_pointer_adapter_create(ae, loop, NULL);
	CHECK(a != NULL, "adapter");
	CHECK(!lodestone_pointer_adapter_window_configured(a, 0, 1, 0, 0, 100, 100, 0, NULL), "window 0 is refused");
	CHECK(!lodestone_pointer_adapter_window_configured(a, 1, 1, 0, 0, NAN, 100, 0, NULL), "a NaN window is refused");
	CHECK(lodestone_pointer_adapter_window_configured(a, 1, 0, 100, 100, 400, 300, 0, NULL), "a window");
	lodestone_pointer_adapter_pointer_over(a, 1);
	lodestone_pointer_engine_motion(ae, 0, 300, 250);
	double t = 0;
	/* Steps until the pointer has settled into its form. */
	#define SETTLE() do { for (int i = 0; i < 40; i++) { t += 0.016; lodestone_pointer_engine_step(ae, t, &p); \
		lodestone_pointer_adapter_stepped(a, t); } } while (0)

	CHECK(lodestone_pointer_adapter_cursor_name(a, "text"), "text is a name");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM, "text gives the beam: kind %u", p.shape_kind);
	CHECK(lodestone_pointer_adapter_pointer_source(a) == LODESTONE_POINTER_SOURCE_ADAPTIVE, "the beam is the adaptive pointer");
	printf("cursor text %u %g %g\n", p.shape_kind, p.width, p.height);

	CHECK(lodestone_pointer_adapter_cursor_name(a, "pointer"), "pointer is a name");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE && p.accessory_count == 0, "pointer gives the circle: kind %u", p.shape_kind);
	CHECK(lodestone_pointer_adapter_cursor_name(a, "default"), "default is a name");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE && p.accessory_count == 0, "default gives the circle");

	CHECK(lodestone_pointer_adapter_cursor_name(a, "col-resize"), "col-resize is a name");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE && p.accessory_count == 2,
		"col-resize: the circle with two arrows (%u accessories)", p.accessory_count);
	CHECK(lodestone_pointer_adapter_cursor_name(a, "xterm"), "a theme file name is a name too");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM, "xterm gives the beam");
	CHECK(!lodestone_pointer_adapter_cursor_name(a, "no-such-cursor"), "an unknown name");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE, "an unknown name gives the circle");
	lodestone_pointer_adapter_cursor_hidden(a);
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_HIDDEN, "a hidden cursor hides the pointer: kind %u", p.shape_kind);

	/* Outside any window: the circle, whatever the last client asked for. */
	lodestone_pointer_adapter_cursor_name(a, "text");
	lodestone_pointer_adapter_pointer_over(a, 0);
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE, "over no window, the circle");
	lodestone_pointer_adapter_pointer_over(a, 1);

	/* An image from an installed theme (Adwaita's xterm, as GTK attaches it) is recognised. */
	XcursorImage *xterm = XcursorLibraryLoadImage("xterm", "Adwaita", 24);
	CHECK(xterm != NULL, "Adwaita's xterm cursor is installed (adwaita-icon-theme)");
	if (xterm) {
		CHECK(lodestone_pointer_adapter_cursor_image(a, xterm->pixels, (int32_t)xterm->width, (int32_t)xterm->height,
			(int32_t)xterm->width * 4, 1, (int32_t)xterm->xhot, (int32_t)xterm->yhot), "Adwaita's xterm is recognised");
		SETTLE();
		CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM, "the recognised image gives the beam: kind %u", p.shape_kind);
		CHECK(lodestone_pointer_adapter_pointer_source(a) == LODESTONE_POINTER_SOURCE_ADAPTIVE, "and the adaptive pointer shows");
		printf("cursor image %ux%u recognised\n", xterm->width, xterm->height);
		/* The same size with other pixels is the client's own image. */
		xterm->pixels[xterm->width * (xterm->height / 2) + xterm->width / 2] ^= 0x00ff00ffu;
		CHECK(!lodestone_pointer_adapter_cursor_image(a, xterm->pixels, (int32_t)xterm->width, (int32_t)xterm->height,
			(int32_t)xterm->width * 4, 1, 0, 0), "a changed image is not recognised");
		SETTLE();
		CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE, "an unknown image leaves the circle");
		CHECK(lodestone_pointer_adapter_pointer_source(a) == LODESTONE_POINTER_SOURCE_CLIENT_IMAGE, "and the client's image shows");
		XcursorImageDestroy(xterm);
	}
	CHECK(!lodestone_pointer_adapter_cursor_image(a, NULL, 24, 24, 96, 1, 0, 0), "no pixels");

	/* "help" has no adaptive form: the theme's own cursor shows. */
	lodestone_pointer_adapter_cursor_name(a, "help");
	CHECK(lodestone_pointer_adapter_pointer_source(a) == LODESTONE_POINTER_SOURCE_THEME_CURSOR, "help: the theme's cursor");

	/* A window's pixels, when the host gives them: a terminal that publishes no accessibility
	 * geometry (no bus here) and whose cursor says text is measured from its pixels, and the
	 * beam takes its line, 30 points, not the 24 of the name alone. */
	static struct terminal term = { .commit = 1 };
	for (int y = 0; y < TERMINAL_H; y++)
		for (int x = 0; x < TERMINAL_W; x++)
			term.pixels[y * TERMINAL_W + x] = (y % TERMINAL_LINE >= 6 && y % TERMINAL_LINE < 24 && x >= 8 && x < 8 + (y / TERMINAL_LINE % 5 + 3) * 40)
				? 0xffe0e0e0u : 0xff202020u;
	CHECK(lodestone_pointer_adapter_window_configured(a, 2, (int32_t)getpid(), 100, 100, TERMINAL_W, TERMINAL_H, 1, NULL), "a terminal's window");
	lodestone_pointer_adapter_pointer_over(a, 2);
	lodestone_pointer_adapter_cursor_name(a, "text");
	/* A hand on the mouse: the pointer does not hide while the test steps on. */
	lodestone_pointer_engine_motion(ae, t, 301, 250);
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM && fabs(p.height - 24) < 0.5,
		"without pixels the name's beam, 24 points: %g", p.height);
	struct timespec wall0, wall1;
	clock_gettime(CLOCK_MONOTONIC, &wall0);
	lodestone_pointer_adapter_set_window_pixels(a, terminal_pixels, &term);
	lodestone_pointer_adapter_pointer_over(a, 2);
	lodestone_pointer_engine_motion(ae, t, 300, 250);
	SETTLE();
	clock_gettime(CLOCK_MONOTONIC, &wall1);
	double wall = (double)(wall1.tv_sec - wall0.tv_sec) + (double)(wall1.tv_nsec - wall0.tv_nsec) / 1e9;
	CHECK(term.asked > 0, "the adapter asked for the terminal's pixels");
	/* Only to measure the rows, twice a second of wall time, not at each of the 40 steps. */
	CHECK(term.asked <= 2 + (unsigned)(wall * 2), "asked %u times in %.2f s", term.asked, wall);
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM && fabs(p.height - TERMINAL_LINE) < 0.5,
		"with pixels the terminal's line, %d points: %g", TERMINAL_LINE, p.height);
	CHECK(p.targeted && (p.target_region >> 62) == 3, "the adapter's region of measured rows targets the pointer");
	printf("terminal beam %g, pixels asked %u in %.2f s\n", p.height, term.asked, wall);
	lodestone_pointer_adapter_set_window_pixels(a, NULL, NULL);
	lodestone_pointer_adapter_window_unmapped(a, 2);
	lodestone_pointer_adapter_pointer_over(a, 1);
	lodestone_pointer_engine_motion(ae, t, 301, 250);
	/* legacy-apps off: the circle over every app. */
	CHECK(!lodestone_pointer_adapter_set_legacy_apps(a, 7), "an unknown mode");
	CHECK(lodestone_pointer_adapter_set_legacy_apps(a, LODESTONE_POINTER_LEGACY_APPS_OFF), "legacy apps off");
	lodestone_pointer_adapter_cursor_name(a, "text");
	SETTLE();
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_CIRCLE, "off: the circle over text");
	lodestone_pointer_adapter_window_unmapped(a, 1);
	CHECK(lodestone_pointer_adapter_element_count(a, 1) == 0, "no elements of a window gone");
	lodestone_pointer_adapter_destroy(a);
	lodestone_pointer_adapter_destroy(NULL);

	/* Without an adapter: the engine takes a cursor name itself. */
	CHECK(lodestone_pointer_engine_set_cursor_name(ae, t, "text"), "engine: text");
	for (int i = 0; i < 40; i++) { t += 0.016; lodestone_pointer_engine_step(ae, t, &p); }
	CHECK(p.shape_kind == LODESTONE_POINTER_SHAPE_KIND_VERTICAL_BEAM, "engine: the beam");
	CHECK(!lodestone_pointer_engine_set_cursor_name(ae, t, "nonsense"), "engine: an unknown name");
	lodestone_pointer_engine_destroy(ae);
	wl_event_loop_destroy(loop);

	if (failures) {
		printf("%d checks failed\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
