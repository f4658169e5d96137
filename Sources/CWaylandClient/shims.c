#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CWaylandClient.h"

int cwc_memfd_create(const char *name, unsigned int flags) {
	return memfd_create(name, flags);
}

int cwc_shm_file(const char *name, size_t size) {
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
	return fd;
}

