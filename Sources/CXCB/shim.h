/* libxcb: the window manager Lodestone runs inside Xwayland (Sources/LodestoneCompositor/Xwayland)
 * speaks X11 through it. Composite redirects every top-level window off screen, so X
 * draws nothing itself and each window's pixels reach Lodestone as a wl_surface. Render
 * makes the root window's ARGB cursor (the theme's arrow). */
#include <xcb/xcb.h>
#include <xcb/composite.h>
#include <xcb/render.h>
#include <xcb/xfixes.h>

/* XFixes tells the window manager when an X client takes a selection (the clipboard
 * bridge, Sources/LodestoneCompositor/Xwayland/XSelection.swift). Its extension id is a C global
 * whose address Swift must not take (it may hand over a temporary copy). */
static inline const xcb_query_extension_reply_t *CXCB_xfixes_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_xfixes_id);
}
