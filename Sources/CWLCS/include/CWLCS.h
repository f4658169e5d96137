#ifndef CWLCS_H
#define CWLCS_H

/* Why this C target exists: wlcs dlopen()s a module and reads the *data*
 * symbol `wlcs_server_integration` (Swift's @_cdecl exports functions only),
 * and its hooks are C structs of C function pointers. This file fills those
 * structs with trampolines that call the Swift side (LodestoneWLCS, the
 * `lodestone_wlcs_*` functions) with the Swift owner each object carries.
 * Swift sees only opaque pointers here; the wlcs headers stay in the .c file
 * because they declare libwayland-client types that clash with the server's. */

#include <stddef.h>
#include <stdint.h>

/* A WlcsDisplayServer (v3) owned by a Swift object. */
void *cwlcs_server_create(void *owner);
void cwlcs_server_free(void *server);
void *cwlcs_server_owner(const void *server);
/* The server's WlcsIntegrationDescriptor: `count` extensions, set one by one
 * (names are copied). */
void cwlcs_server_set_extension_count(void *server, size_t count);
void cwlcs_server_set_extension(void *server, size_t index, const char *name, uint32_t version);

/* A WlcsPointer / WlcsTouch owned by a Swift object; freed by their destroy hook. */
void *cwlcs_pointer_create(void *owner);
void *cwlcs_touch_create(void *owner);

/* Client-side facts wlcs hands us in position_window_absolute: the fd of the
 * client's wl_display (the end of our socketpair wlcs connected) and the
 * protocol id of its wl_surface proxy. */
int cwlcs_client_display_fd(void *client_display);
uint32_t cwlcs_client_proxy_id(void *client_proxy);

#endif
