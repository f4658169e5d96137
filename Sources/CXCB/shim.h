/* libxcb: the window manager Lodestone runs inside Xwayland (Sources/Compositor/Xwayland)
 * speaks X11 through it. Composite redirects every top-level window off screen, so X
 * draws nothing itself and each window's pixels reach Lodestone as a wl_surface. Render
 * makes the root window's ARGB cursor (the theme's arrow). */
#include <xcb/xcb.h>
#include <xcb/composite.h>
#include <xcb/render.h>
