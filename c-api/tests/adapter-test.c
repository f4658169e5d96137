/*
 * adapter-test: liblodestone-pointer's adapter against a real app over AT-SPI (run by
 * PointerAdapterTests with a private session bus and gtk4-widget-factory on Xvfb).
 *
 *     adapter-test PID X Y WIDTH HEIGHT
 *
 * Reports the app's window (pid, global rectangle) to an adapter on a wl_event_loop of its
 * own, dispatches the loop (the adapter's D-Bus fds and timers) until the window's walk has
 * brought elements, then moves the engine's pointer over the window on a grid until a region
 * the adapter placed targets it with the highlight, which needs the app's confirmation of the
 * element under the pointer over the bus. Prints "elements N", then "highlight X Y REGION"
 * and "ok", or what it did not find.
 */
#define _POSIX_C_SOURCE 200809L /* unsetenv, clock_gettime */
#include <lodestone-pointer.h>
#include <wayland-server-core.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	if (argc != 6) {
		fprintf(stderr, "usage: adapter-test PID X Y WIDTH HEIGHT\n");
		return 2;
	}
	int pid = atoi(argv[1]);
	double x = atof(argv[2]), y = atof(argv[3]), w = atof(argv[4]), h = atof(argv[5]);
	struct wl_event_loop *loop = wl_event_loop_create();
	struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, x + w + 100, y + h + 100);
	struct lodestone_pointer_adapter *a = lodestone_pointer_adapter_create(e, loop, NULL);
	if (!loop || !e || !a || !lodestone_pointer_adapter_window_configured(a, 1, pid, x, y, w, h, 0, NULL)) {
		printf("no adapter\n");
		return 1;
	}
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
	for (double py = y + 8; py < y + h; py += 12) {
		for (double px = x + 8; px < x + w; px += 12) {
			lodestone_pointer_engine_warp(e, now() - start, px, py);
			for (int i = 0; i < 12; i++) {
				wl_event_loop_dispatch(loop, 4);
				double t = now() - start;
				lodestone_pointer_engine_step(e, t, &p);
				lodestone_pointer_adapter_stepped(a, t);
				if (p.targeted && p.effect_kind == LODESTONE_POINTER_EFFECT_KIND_HIGHLIGHT && p.effect_progress > 0.5) {
					printf("highlight %.0f %.0f %llu %.0fx%.0f\n", px, py, (unsigned long long)p.target_region, p.width, p.height);
					int ours = (p.target_region >> 62) == 3;
					lodestone_pointer_adapter_destroy(a);
					lodestone_pointer_engine_destroy(e);
					wl_event_loop_destroy(loop);
					printf(ours ? "ok\n" : "not the adapter's region\n");
					return ours ? 0 : 1;
				}
			}
		}
	}
	printf("no highlight over the window\n");
	return 1;
}
