/*
 * settings-test: lodestone_pointer_engine_load_settings from C. Loads the config.toml named on
 * the command line into a fresh engine and prints what came back and the circle's width:
 *     result R          (1 applied, 0 no such file, -1 refused)
 *     error MESSAGE     (when refused)
 *     width W           (the untargeted pointer's width after a step)
 *     adapter R         (lodestone_pointer_adapter_load_settings on the same file: legacy-apps)
 * PointerSettingsFileTests runs it on files of its own.
 */
#include <lodestone-pointer.h>
#include <stdio.h>
#include <wayland-server-core.h>

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s CONFIG.TOML\n", argv[0]);
		return 2;
	}
	struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, 800, 600);
	char error[256] = "";
	int32_t result = lodestone_pointer_engine_load_settings(e, argv[1], error, sizeof error);
	printf("result %d\n", result);
	if (result < 0) printf("error %s\n", error);
	struct lodestone_pointer_presentation p = {.size = sizeof p};
	lodestone_pointer_engine_motion(e, 1.0, 100, 100);
	lodestone_pointer_engine_step(e, 2.0, &p);
	printf("width %g\n", p.width);
	/* The adapter, on an event loop of its own (no accessibility bus needed to take the setting). */
	struct wl_event_loop *loop = wl_event_loop_create();
	struct lodestone_pointer_adapter *a = lodestone_pointer_adapter_create(e, loop, NULL);
	printf("adapter %d\n", lodestone_pointer_adapter_load_settings(a, argv[1], NULL, 0));
	lodestone_pointer_adapter_destroy(a);
	wl_event_loop_destroy(loop);
	/* A NULL engine and a NULL error buffer are refused without a crash. */
	if (lodestone_pointer_engine_load_settings(NULL, argv[1], NULL, 0) != -1) return 1;
	lodestone_pointer_engine_destroy(e);
	return 0;
}
