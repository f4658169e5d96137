/*
 * kwaylandserver-abi.h: the three members of KWin's Wayland server classes this effect calls.
 *
 * KWin 5.27 hands effects a KWaylandServer::Display (EffectsHandler::waylandDisplay) and a
 * KWaylandServer::SurfaceInterface per window (EffectWindow::surface), but installs neither
 * class's header (kwin-dev 5.27 ships kwineffects.h, kwinglutils.h and none of src/wayland/; the
 * classes moved from KWayland's libKF5WaylandServer into libkwin.so.5 in 5.24). The library's
 * server helper needs the wl_display and each surface's wl_resource, which these members give.
 * Each declaration below matches a symbol libkwin.so.5 exports (nm -DC libkwin.so.5):
 *
 *     KWaylandServer::Display::operator wl_display*() const
 *     KWaylandServer::SurfaceInterface::resource() const
 *     KWaylandServer::SurfaceInterface::get(wl_resource*)
 *
 * Both classes are QObjects in KWin (class SurfaceInterface : public QObject), single
 * inheritance, so a SurfaceInterface pointer is a QObject pointer and its committed() signal
 * can be connected by name. Nothing here is instantiated, subclassed or given data members:
 * only non-virtual members are called, whose mangled names are all the ABI this relies on.
 * The plugin links libkwin.so.5 by path, so a KWin without these symbols fails to load it
 * (rather than misbehave). The effect is built against one KWin version anyway: kwineffects.h
 * says effects "must be compiled against the same kwineffects library version as KWin".
 */
#pragma once

#include <QObject>

struct wl_display;
struct wl_resource;

namespace KWaylandServer
{

/** KWin's wl_display owner (src/wayland/display.h). */
class Display : public QObject
{
public:
    operator wl_display *() const;
};

/** KWin's wl_surface (src/wayland/surface_interface.h). */
class SurfaceInterface : public QObject
{
public:
    wl_resource *resource() const;
    static SurfaceInterface *get(wl_resource *native);
};

} // namespace KWaylandServer
