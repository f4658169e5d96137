/* overlay-client.h: the module's own client of weston, which makes the overlays' wl_shm buffers. */
#ifndef LODESTONE_OVERLAY_CLIENT_H
#define LODESTONE_OVERLAY_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct overlay_client;
struct overlay_client_buffer;

/* A client on `fd` (the other end is weston's wl_client); `ready` once it has wl_shm. */
struct overlay_client *overlay_client_create(int fd, void (*ready)(void *data), void *data);
/* The fd to watch for events, and what to do when it is readable (false: connection lost). */
int overlay_client_fd(struct overlay_client *client);
bool overlay_client_dispatch(struct overlay_client *client);
void overlay_client_destroy(struct overlay_client *client);

/* An ARGB8888 buffer, width * 4 bytes a row, all zero; `made` gets its wl_buffer's object id
 * once weston has made the buffer (wl_client_get_object finds the server's resource). */
struct overlay_client_buffer *overlay_client_buffer_create(struct overlay_client *client, int32_t width, int32_t height,
	void (*made)(void *data, uint32_t id), void *data);
uint32_t *overlay_client_buffer_pixels(struct overlay_client_buffer *buffer);
void overlay_client_buffer_destroy(struct overlay_client *client, struct overlay_client_buffer *buffer);

#endif
