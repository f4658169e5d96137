/*
 * fake-pointer: moves KWin's pointer for the tests, through org_kde_kwin_fake_input (KDE's
 * fake-input protocol, version 4, which KWin 5.27 offers): `kwin_wayland --virtual` has no
 * input device, and an effect cannot inject input.
 *
 *     fake-pointer X Y [X Y ...] [press] [release]   absolute motions, 40 ms apart; buttons (left)
 *
 * KWin offers the interface only to clients its permission check lets through: a desktop
 * file whose X-KDE-Wayland-Interfaces names it, or every client when KWin runs with
 * KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 (what the tests do). Prints "moved" when KWin has
 * handled the requests (a wl_display_roundtrip after the last one).
 *
 * The interface is written out here (its requests up to keyboard_key, in the protocol's
 * order) rather than generated: Debian 12 has plasma-wayland-protocols' XML only in a
 * package KWin does not need, and this client sends four of its requests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static const struct wl_message fake_input_requests[] = {
	{"authenticate", "ss", NULL},
	{"pointer_motion", "ff", NULL},
	{"button", "uu", NULL},
	{"axis", "uf", NULL},
	{"touch_down", "2uff", NULL},
	{"touch_motion", "2uff", NULL},
	{"touch_up", "2u", NULL},
	{"touch_cancel", "2", NULL},
	{"touch_frame", "2", NULL},
	{"pointer_motion_absolute", "3ff", NULL},
	{"keyboard_key", "4uu", NULL},
};
static const struct wl_interface fake_input_interface = {
	"org_kde_kwin_fake_input", 4, 11, fake_input_requests, 0, NULL,
};
enum { AUTHENTICATE = 0, BUTTON = 2, POINTER_MOTION_ABSOLUTE = 9 };
enum { BTN_LEFT = 0x110 };

static struct wl_proxy *fake_input;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version)
{
	(void)data;
	if (strcmp(interface, fake_input_interface.name) == 0 && version >= 3)
		fake_input = wl_registry_bind(registry, name, &fake_input_interface, version < 4 ? version : 4);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

int main(int argc, char **argv)
{
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "fake-pointer: cannot connect to the Wayland display\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!fake_input) {
		fprintf(stderr, "fake-pointer: no org_kde_kwin_fake_input (version 3 or later) offered to this client\n");
		return 1;
	}
	wl_proxy_marshal(fake_input, AUTHENTICATE, "fake-pointer", "Lodestone's KWin effect tests");
	const struct timespec pause = {0, 40 * 1000 * 1000};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "press") == 0 || strcmp(argv[i], "release") == 0) {
			wl_proxy_marshal(fake_input, BUTTON, BTN_LEFT, strcmp(argv[i], "press") == 0 ? 1u : 0u);
		} else if (i + 1 < argc) {
			wl_proxy_marshal(fake_input, POINTER_MOTION_ABSOLUTE, wl_fixed_from_double(atof(argv[i])),
				wl_fixed_from_double(atof(argv[i + 1])));
			i++;
		} else {
			fprintf(stderr, "fake-pointer: %s has no Y\n", argv[i]);
			return 2;
		}
		wl_display_roundtrip(display);
		nanosleep(&pause, NULL);
	}
	wl_display_roundtrip(display);
	printf("moved\n");
	wl_proxy_destroy(fake_input);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return 0;
}
