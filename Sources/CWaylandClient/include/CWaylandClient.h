#ifndef CWAYLAND_CLIENT_H
#define CWAYLAND_CLIENT_H

#include <wayland-client.h>
#include "protocols/xdg-shell-client-protocol.h"
#include "protocols/xdg-decoration-unstable-v1-client-protocol.h"
#include "protocols/relative-pointer-unstable-v1-client-protocol.h"
#include "protocols/pointer-constraints-unstable-v1-client-protocol.h"
#include "protocols/pointer-gestures-unstable-v1-client-protocol.h"
#include "protocols/tablet-unstable-v2-client-protocol.h"
#include "protocols/lodestone-test-v1-client-protocol.h"
#include "protocols/adaptive-pointer-v1-client-protocol.h"
#include "protocols/cursor-shape-v1-client-protocol.h"
#include "protocols/xdg-activation-v1-client-protocol.h"
#include "protocols/idle-inhibit-unstable-v1-client-protocol.h"
#include "protocols/primary-selection-unstable-v1-client-protocol.h"
#include "protocols/viewporter-client-protocol.h"
#include "protocols/fractional-scale-v1-client-protocol.h"
#include "protocols/single-pixel-buffer-v1-client-protocol.h"
#include "protocols/xdg-output-unstable-v1-client-protocol.h"
#include "protocols/keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include "protocols/pointer-warp-v1-client-protocol.h"
#include "protocols/presentation-time-client-protocol.h"
#include "protocols/wlr-screencopy-unstable-v1-client-protocol.h"
#include "protocols/wlr-data-control-unstable-v1-client-protocol.h"
#include "protocols/xdg-foreign-unstable-v2-client-protocol.h"
#include "protocols/ext-foreign-toplevel-list-v1-client-protocol.h"
#include "protocols/ext-idle-notify-v1-client-protocol.h"
#include "protocols/ext-session-lock-v1-client-protocol.h"
#include "protocols/input-method-unstable-v2-client-protocol.h"
#include "protocols/linux-dmabuf-unstable-v1-client-protocol.h"
#include "protocols/text-input-unstable-v3-client-protocol.h"
#include "protocols/text-input-unstable-v1-client-protocol.h"
#include "protocols/virtual-keyboard-unstable-v1-client-protocol.h"
#include "protocols/wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "protocols/wlr-layer-shell-unstable-v1-client-protocol.h"
#include "protocols/wlr-output-management-unstable-v1-client-protocol.h"

/* glibc 2.36 declares memfd_create only under _GNU_SOURCE. */
int cwc_memfd_create(const char *name, unsigned int flags);
/* A memfd of `size` bytes for a wl_shm pool, sealed against shrinking (F_SEAL_SHRINK, as
 * weston's and GTK 4's are): a compositor reading it can never fault, so a nested Lodestone
 * may show it through its parent (issue 37). -1 with errno on failure. */
int cwc_shm_file(const char *name, size_t size);

#endif
