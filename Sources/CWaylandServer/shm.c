/* wl_shm pools of Lodestone's own (WaylandServer's ShmPool). libwayland's wl_shm closes the
 * client's fd once it has mapped it; a nested Lodestone keeps it, to share the pool with its
 * parent compositor (client surfaces shown as the parent's subsurfaces, without a copy). What
 * libwayland's wl_shm_buffer_begin_access/end_access guard is done here the same way. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include "CWaylandServer.h"

/* The pools being read now: Lodestone runs on one thread, and a read nests at most a few deep
 * (a frame reads one surface's pool at a time; an effect reads its preview's inside it). */
#define CWS_SHM_MAX_ACCESS 8
static struct {
	char *data;
	size_t size;
	int depth;
	volatile sig_atomic_t faulted;
} accesses[CWS_SHM_MAX_ACCESS];
static struct sigaction previous_sigbus;
static int sigbus_installed;

static void reraise_sigbus(void) {
	sigaction(SIGBUS, &previous_sigbus, NULL);
	raise(SIGBUS);
}

/* A fault inside a pool being read: the client truncated its file. The pool's pages become
 * anonymous zeros (the read goes on), and end_access reports it. Any other fault is real. */
static void sigbus_handler(int signum, siginfo_t *info, void *context) {
	(void)signum; (void)context;
	char *address = info->si_addr;
	for (int i = 0; i < CWS_SHM_MAX_ACCESS; i++) {
		if (accesses[i].depth == 0 || address < accesses[i].data || address >= accesses[i].data + accesses[i].size) continue;
		accesses[i].faulted = 1;
		if (mmap(accesses[i].data, accesses[i].size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			reraise_sigbus();
		return;
	}
	reraise_sigbus();
}

int cws_shm_begin_access(void *data, size_t size) {
	if (!sigbus_installed) {
		struct sigaction action = { .sa_sigaction = sigbus_handler, .sa_flags = SA_SIGINFO | SA_NODEFER };
		sigemptyset(&action.sa_mask);
		if (sigaction(SIGBUS, &action, &previous_sigbus) != 0) return 0;
		sigbus_installed = 1;
	}
	int free_slot = -1;
	for (int i = 0; i < CWS_SHM_MAX_ACCESS; i++) {
		if (accesses[i].depth > 0 && accesses[i].data == data) {
			accesses[i].depth++;
			return 1;
		}
		if (accesses[i].depth == 0 && free_slot < 0) free_slot = i;
	}
	if (free_slot < 0) return 0;
	accesses[free_slot].data = data;
	accesses[free_slot].size = size;
	accesses[free_slot].faulted = 0;
	accesses[free_slot].depth = 1;
	return 1;
}

int cws_shm_end_access(void *data) {
	for (int i = 0; i < CWS_SHM_MAX_ACCESS; i++) {
		if (accesses[i].depth == 0 || accesses[i].data != data) continue;
		int faulted = accesses[i].faulted;
		if (--accesses[i].depth == 0) accesses[i].faulted = 0;
		return faulted;
	}
	return 0;
}

void *cws_shm_mremap(void *data, size_t old_size, size_t new_size) {
	void *moved = mremap(data, old_size, new_size, MREMAP_MAYMOVE);
	return moved == MAP_FAILED ? NULL : moved;
}

int cws_shm_cannot_shrink(int fd) {
	int seals = fcntl(fd, F_GET_SEALS);
	return seals >= 0 && (seals & F_SEAL_SHRINK) != 0;
}
