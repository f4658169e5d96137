/*
 * adapter-test: liblodestone-pointer's adapter against a real app over AT-SPI (run by
 * PointerAdapterTests with a private session bus and gtk4-widget-factory on Xvfb).
 *
 *     adapter-test PID X Y WIDTH HEIGHT [AT_X AT_Y [PIXELS]]
 *
 * Reports the app's window (pid, global rectangle) to an adapter on a wl_event_loop of its
 * own, dispatches the loop (the adapter's D-Bus fds and timers) until the window's walk has
 * brought elements, then moves the engine's pointer over the window on a grid (or straight to
 * AT_X, AT_Y) until a region the adapter placed targets it with the highlight, which needs the
 * app's confirmation of the element under the pointer over the bus. Prints "elements N", then
 * "highlight X Y REGION WxH", the settled "platter X Y W H" and "ok", or what it did not find.
 *
 * PIXELS: a file of the window's pixels (WIDTH × HEIGHT ARGB8888 words in native byte order,
 * the window's rectangle at scale 1, as a screenshot shows it), handed to the adapter through
 * lodestone_pointer_adapter_set_window_pixels; prints how often the adapter asked.
 */
#define _POSIX_C_SOURCE 200809L /* unsetenv, clock_gettime */
#include <lodestone-pointer.h>
#include <wayland-server-core.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The window's pixels from PIXELS, and how often the adapter asked for them. */
struct window_pixels {
	uint32_t *argb;
	int32_t width, height;
	unsigned asked;
};

static bool window_pixels(void *data, uint64_t window, struct lodestone_pointer_window_pixels *out) {
	struct window_pixels *w = data;
	w->asked++;
	if (window != 1 || out->size < sizeof *out) return false;
	out->argb = w->argb;
	out->width = w->width;
	out->height = w->height;
	out->stride = w->width * 4;
	out->scale = 1;
	out->geometry_x = out->geometry_y = 0;
	out->commit = 1; /* one picture: the adapter copies it once */
	return true;
}

static bool read_pixels(const char *path, struct window_pixels *w) {
	size_t count = (size_t)w->width * (size_t)w->height;
	FILE *f = fopen(path, "rb");
	w->argb = malloc(count * 4);
	bool ok = f && w->argb && fread(w->argb, 4, count, f) == count;
	if (f) fclose(f);
	return ok;
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	if (argc != 6 && argc != 8 && argc != 9) {
		fprintf(stderr, "usage: adapter-test PID X Y WIDTH HEIGHT [AT_X AT_Y [PIXELS]]\n");
		return 2;
	}
	int pid = atoi(argv[1]);
	double x = atof(argv[2]), y = atof(argv[3]), w = atof(argv[4]), h = atof(argv[5]);
	bool at = argc >= 8;
	double at_x = at ? atof(argv[6]) : 0, at_y = at ? atof(argv[7]) : 0;
	struct window_pixels pixels = { .width = (int32_t)w, .height = (int32_t)h };
	if (argc == 9 && !read_pixels(argv[8], &pixels)) {
		printf("cannot read %d x %d pixels from %s\n", pixels.width, pixels.height, argv[8]);
		return 1;
	}
	struct wl_event_loop *loop = wl_event_loop_create();
	struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, x + w + 100, y + h + 100);
	struct lodestone_pointer_adapter *a = lodestone_pointer_adapter_create(e, loop, NULL);
	if (!loop || !e || !a || !lodestone_pointer_adapter_window_configured(a, 1, pid, x, y, w, h, 0, NULL)) {
		printf("no adapter\n");
		return 1;
	}
	if (pixels.argb) lodestone_pointer_adapter_set_window_pixels(a, window_pixels, &pixels);
	lodestone_pointer_adapter_window_activated(a, 1);
	lodestone_pointer_adapter_pointer_over(a, 1);
	struct lodestone_pointer_presentation p = { .size = sizeof p };
	double start = now();
	uint32_t elements = 0;
	while (now() - start < 60) {
		wl_event_loop_dispatch(loop, 20);
		double t = now() - start;
		lodestone_pointer_engine_step(e, t, &p);
		lodestone_pointer_adapter_stepped(a, t);
		elements = lodestone_pointer_adapter_element_count(a, 1);
		if (elements >= 10) break;
	}
	printf("elements %u after %.0f ms\n", elements, (now() - start) * 1000);
	if (elements == 0) return 1;
	/* Let the walk finish: the count stops growing. */
	for (uint32_t last = 0; last != elements && now() - start < 60;) {
		last = elements;
		double until = now() + 0.5;
		while (now() < until) wl_event_loop_dispatch(loop, 20);
		elements = lodestone_pointer_adapter_element_count(a, 1);
	}
	printf("elements %u walked\n", elements);
	for (double py = at ? at_y : y + 8; py < (at ? at_y + 1 : y + h); py += 12) {
		for (double px = at ? at_x : x + 8; px < (at ? at_x + 1 : x + w); px += 12) {
			lodestone_pointer_engine_warp(e, now() - start, px, py);
			/* Over one point: long enough for the app to confirm the element over the bus. */
			for (int i = 0; i < (at ? 500 : 12); i++) {
				wl_event_loop_dispatch(loop, 4);
				double t = now() - start;
				lodestone_pointer_engine_step(e, t, &p);
				lodestone_pointer_adapter_stepped(a, t);
				if (p.targeted && p.effect_kind == LODESTONE_POINTER_EFFECT_KIND_HIGHLIGHT && p.effect_progress > 0.5) {
					printf("highlight %.0f %.0f %llu %.0fx%.0f\n", px, py, (unsigned long long)p.target_region, p.width, p.height);
					/* The platter once its spring has settled (a second at most). */
					double settle = now() + 1;
					do {
						wl_event_loop_dispatch(loop, 4);
						t = now() - start;
						lodestone_pointer_engine_step(e, t, &p);
						lodestone_pointer_adapter_stepped(a, t);
					} while (p.animating && now() < settle);
					/* A highlight can be withdrawn while it settles: an element that moved
					 * after the walk is refuted when the adapter confirms it (a loaded CI
					 * run: a 63×24 highlight at the header bar's height fell back to the
					 * circle). That is the adapter's job, not a miss: the scan goes on. */
					if (!p.targeted || p.effect_kind != LODESTONE_POINTER_EFFECT_KIND_HIGHLIGHT) {
						printf("withdrawn: now %s\n", p.targeted ? "another effect" : "untargeted");
						continue;
					}
					printf("platter %.1f %.1f %.1f %.1f\n", p.x, p.y, p.width, p.height);
					if (pixels.argb) printf("pixels asked %u\n", pixels.asked);
					int ours = (p.target_region >> 62) == 3;
					lodestone_pointer_adapter_destroy(a);
					lodestone_pointer_engine_destroy(e);
					wl_event_loop_destroy(loop);
					free(pixels.argb);
					printf(ours ? "ok\n" : "not the adapter's region\n");
					return ours ? 0 : 1;
				}
			}
		}
	}
	printf("no highlight over the window\n");
	return 1;
}
