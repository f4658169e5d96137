/*
 * virtual-pointer: moves the pointer of a wlroots compositor through zwlr_virtual_pointer_v1.
 *
 *     virtual-pointer X Y [X Y ...]     (absolute positions in a 1280×800 output)
 *
 * Each position is sent as motion_absolute + frame, with a round trip after it. The two
 * requests it uses are described here by hand (opcodes 1 and 4 of zwlr_virtual_pointer_v1,
 * create_virtual_pointer is opcode 0 of the manager) so the example needs no protocol XML
 * beyond what Debian ships.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

static const struct wl_interface virtual_pointer_interface;

static const struct wl_interface *create_types[] = {&wl_seat_interface, &virtual_pointer_interface};
static const struct wl_message manager_requests[] = {
	{"create_virtual_pointer", "?on", create_types},
};
static const struct wl_interface manager_interface = {
	"zwlr_virtual_pointer_manager_v1", 1, 1, manager_requests, 0, NULL,
};

static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL, NULL};
static const struct wl_message pointer_requests[] = {
	{"motion", "uff", no_types},
	{"motion_absolute", "uuuuu", no_types},
	{"button", "uuu", no_types},
	{"axis", "uuf", no_types},
	{"frame", "", no_types},
};
static const struct wl_interface virtual_pointer_interface = {
	"zwlr_virtual_pointer_v1", 1, 5, pointer_requests, 0, NULL,
};

static struct wl_proxy *manager;
static struct wl_seat *seat;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	(void)data; (void)version;
	if (strcmp(interface, manager_interface.name) == 0)
		manager = wl_registry_bind(registry, name, &manager_interface, 1);
	else if (strcmp(interface, "wl_seat") == 0)
		seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

int main(int argc, char **argv) {
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: %s X Y [X Y ...]\n", argv[0]);
		return 1;
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "virtual-pointer: cannot connect to $WAYLAND_DISPLAY\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!manager) {
		fprintf(stderr, "virtual-pointer: the compositor offers no zwlr_virtual_pointer_manager_v1\n");
		return 1;
	}
	struct wl_proxy *pointer = wl_proxy_marshal_constructor(manager, 0, &virtual_pointer_interface, seat, NULL);
	for (int i = 1; i + 1 < argc; i += 2) {
		uint32_t x = (uint32_t)atoi(argv[i]), y = (uint32_t)atoi(argv[i + 1]);
		wl_proxy_marshal(pointer, 1, (uint32_t)i, x, y, 1280u, 800u);
		wl_proxy_marshal(pointer, 4);
		wl_display_roundtrip(display);
	}
	printf("moved\n");
	wl_display_disconnect(display);
	return 0;
}
