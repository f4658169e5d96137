/* DRM/KMS: resources, connectors, dumb buffers, page flips. */
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_mode.h>
