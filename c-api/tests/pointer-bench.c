/* pointer-bench: what a C host pays per call of liblodestone-pointer (not a test).
 *
 * A 1920×1080 output with a toolbar of 40 highlight buttons; the pointer sweeps back and forth
 * across it. Prints the mean wall time of one motion call, one step (presentation written),
 * and one motion + step + event drain, in nanoseconds. Build the library in release
 * (swift build -c release) for numbers that mean anything. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <lodestone-pointer.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 200000;
	struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, 1920, 1080);
	for (int i = 0; i < 40; i++) {
		struct lodestone_pointer_region r;
		lodestone_pointer_region_init(&r, sizeof r);
		r.surface = 1;
		r.identifier = (uint32_t)i;
		r.x = 20 + 46 * i; r.y = 20; r.width = 40; r.height = 30;
		r.effect = LODESTONE_POINTER_EFFECT_HIGHLIGHT;
		lodestone_pointer_engine_set_region(e, (uint64_t)i + 1, &r);
	}
	struct lodestone_pointer_presentation p = { .size = sizeof p };
	struct lodestone_pointer_event ev = { .size = sizeof ev };
	double t = 0;
	/* x sweeps 20…1860 and back; 1 ms of engine time per motion. */
	#define X(i) (20.0 + (double)((i) % 3680 < 1840 ? (i) % 3680 : 3680 - (i) % 3680))

	double start = now();
	for (int i = 0; i < n; i++)
		lodestone_pointer_engine_motion(e, t += 0.001, X(i), 35);
	double motion = (now() - start) / n * 1e9;

	start = now();
	for (int i = 0; i < n; i++)
		lodestone_pointer_engine_step(e, t += 0.001, &p);
	double step = (now() - start) / n * 1e9;

	start = now();
	for (int i = 0; i < n; i++) {
		lodestone_pointer_engine_motion(e, t += 0.001, X(i), 35);
		lodestone_pointer_engine_step(e, t, &p);
		while (lodestone_pointer_engine_next_event(e, &ev)) {}
	}
	double frame = (now() - start) / n * 1e9;

	printf("motion %.0f ns, step %.0f ns, motion+step+events %.0f ns (%d calls each)\n", motion, step, frame, n);
	lodestone_pointer_engine_destroy(e);
	return 0;
}
