#define _GNU_SOURCE
#include <sys/mman.h>
#include "CWaylandClient.h"

int cwc_memfd_create(const char *name, unsigned int flags) {
	return memfd_create(name, flags);
}

