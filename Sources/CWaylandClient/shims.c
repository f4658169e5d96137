#define _GNU_SOURCE
#include <sys/mman.h>
#include "CWaylandClient.h"

int cwc_memfd_create(const char *name, unsigned int flags) {
	return memfd_create(name, flags);
}

struct wl_proxy *cwc_registry_bind(struct wl_registry *registry, uint32_t name,
                                   const struct wl_interface *interface, uint32_t version) {
	return wl_registry_bind(registry, name, interface, version);
}
