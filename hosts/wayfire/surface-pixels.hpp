/*
 * A surface's pixels as its client last committed them, for the adapter (cursor images,
 * window pixels). wlroots 0.15 keeps a committed wl_shm buffer only until it has uploaded it:
 * a later buffer of the same size is written into the same texture while the client buffer's
 * `source` stays the first one, so the pixels are read back from the texture, where they are.
 */
#pragma once

#include <cstdint>
#include <vector>

#include <wayfire/nonstd/wlroots-full.hpp>

namespace lodestone_wayfire
{
/** The surface's current texture as premultiplied ARGB8888, row 0 at the top, into `argb`
 *  (width × height); false when it has none or it cannot be read (not a GLES2 2D texture). */
bool read_surface_pixels(wlr_surface *surface, std::vector<uint32_t>& argb, int32_t& width, int32_t& height);
}
