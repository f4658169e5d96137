#ifndef CWAYLAND_SERVER_H
#define CWAYLAND_SERVER_H

/* Without this Swift sees two different wl_resource types. */
#define WL_HIDE_DEPRECATED 1
#include <stdbool.h>
#include <wayland-server.h>
#include "protocols/xdg-shell-server-protocol.h"
#include "protocols/xdg-decoration-unstable-v1-server-protocol.h"
#include "protocols/relative-pointer-unstable-v1-server-protocol.h"
#include "protocols/pointer-constraints-unstable-v1-server-protocol.h"
#include "protocols/pointer-gestures-unstable-v1-server-protocol.h"
#include "protocols/tablet-unstable-v2-server-protocol.h"
#include "protocols/lodestone-test-v1-server-protocol.h"
#include "protocols/adaptive-pointer-v1-server-protocol.h"
#include "protocols/cursor-shape-v1-server-protocol.h"
#include "protocols/xdg-activation-v1-server-protocol.h"
#include "protocols/idle-inhibit-unstable-v1-server-protocol.h"
#include "protocols/primary-selection-unstable-v1-server-protocol.h"
#include "protocols/viewporter-server-protocol.h"
#include "protocols/single-pixel-buffer-v1-server-protocol.h"
#include "protocols/xdg-output-unstable-v1-server-protocol.h"
#include "protocols/wlr-screencopy-unstable-v1-server-protocol.h"
#include "protocols/wlr-data-control-unstable-v1-server-protocol.h"
#include "protocols/fractional-scale-v1-server-protocol.h"
#include "protocols/xdg-foreign-unstable-v2-server-protocol.h"
#include "protocols/keyboard-shortcuts-inhibit-unstable-v1-server-protocol.h"
#include "protocols/presentation-time-server-protocol.h"
#include "protocols/pointer-warp-v1-server-protocol.h"
#include "protocols/ext-foreign-toplevel-list-v1-server-protocol.h"
#include "protocols/ext-idle-notify-v1-server-protocol.h"
#include "protocols/ext-session-lock-v1-server-protocol.h"
#include "protocols/input-method-unstable-v2-server-protocol.h"
#include "protocols/linux-dmabuf-unstable-v1-server-protocol.h"
#include "protocols/text-input-unstable-v3-server-protocol.h"
#include "protocols/text-input-unstable-v1-server-protocol.h"
#include "protocols/virtual-keyboard-unstable-v1-server-protocol.h"
#include "protocols/wlr-foreign-toplevel-management-unstable-v1-server-protocol.h"
#include "protocols/wlr-layer-shell-unstable-v1-server-protocol.h"
#include "protocols/wlr-output-management-unstable-v1-server-protocol.h"

/* wl_resource_post_error is variadic, which Swift cannot call. */
void cws_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message);

/* libwayland posts some protocol errors itself (wl_shm's, an unknown object or opcode) and
 * logs no more than "error in client communication". A protocol logger sees every
 * wl_display.error event as it is sent, whoever posted it; `report` is called for those
 * only (one pointer comparison for every other message), while the client still exists. */
typedef void (*cws_error_report)(struct wl_client *client, const char *object_class, uint32_t object_id,
                                 uint32_t code, const char *message);
struct wl_protocol_logger *cws_display_add_error_reporter(struct wl_display *display, cws_error_report report);

/* wl_container_of is a macro, so a listener keeps its Swift owner beside it.
 * Heap-allocated so its address stays valid while it sits in a signal list. */
struct cws_listener {
	struct wl_listener listener;
	void *owner;
	void (*notify)(void *owner, void *data);
};
struct cws_listener *cws_listener_create(void *owner, void (*notify)(void *owner, void *data));
void cws_listener_add(struct cws_listener *listener, struct wl_signal *signal);
/* Removes the listener from its signal (if any) and frees it. */
void cws_listener_destroy(struct cws_listener *listener);
/* Client destroy listeners go through wl_client_add_destroy_listener. */
void cws_client_add_destroy_listener(struct wl_client *client, struct cws_listener *listener);

/* A read-only, sealed memfd holding `size` bytes of `data` (the keymap every
 * client maps). memfd_create and the seal constants need _GNU_SOURCE, which
 * Swift's Glibc module does not define. Returns -1 on failure. */
int cws_sealed_memfd(const char *name, const void *data, size_t size);

/* wl_shm pools of Lodestone's own (WaylandServer's ShmPool, shm.c): libwayland's wl_shm closes
 * the client's fd, which a nested Lodestone shares with its parent compositor.
 * Between begin and end a read of `data` (`size` bytes, a pool's mapping) that faults with
 * SIGBUS (the client truncated its file) reads zeros instead, and end returns 1, as
 * libwayland's wl_shm_buffer_begin_access/end_access do. Accesses nest, up to 8 pools at once;
 * begin returns 0 when the read is not guarded (no handler, too many pools). */
int cws_shm_begin_access(void *data, size_t size);
int cws_shm_end_access(void *data);
/* mremap with MREMAP_MAYMOVE (_GNU_SOURCE): the mapping's new address, NULL on failure. */
void *cws_shm_mremap(void *data, size_t old_size, size_t new_size);
/* Whether the file is sealed against shrinking (F_SEAL_SHRINK): reading it cannot fault. */
int cws_shm_cannot_shrink(int fd);

/* DMA_BUF_IOCTL_SYNC with DMA_BUF_SYNC_READ and START (or END) on a client's dmabuf
 * (zwp_linux_dmabuf_v1), around every read of its mapping: the ioctl request is built by
 * the _IOW macro, which Swift cannot import. -1 with errno set on failure (ENOTTY: the fd
 * is no dmabuf; EINTR, EAGAIN: call again). */
int cws_dmabuf_sync_read(int fd, bool start);

#endif
