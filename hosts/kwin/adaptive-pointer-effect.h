/*
 * adaptive-pointer-effect.h: KWin 5.27's host for liblodestone-pointer (issue 36).
 *
 * The effect hides KWin's cursor and draws the library's adaptive pointer over the composed
 * frame; it feeds the engine KWin's pointer (EffectsHandler::mouseChanged), offers
 * adaptive_pointer_manager_v1 on KWin's wl_display through the library's server helper, and
 * tells the library's adapter about KWin's windows (pid, rectangle, stacking, activation) and
 * the cursor image of the client under the pointer, so apps that declare no regions adapt
 * from their cursors and their AT-SPI trees. What an effect cannot do is in docs/kwin.md.
 */
#pragma once

#include <kwineffects.h>

#include <QHash>
#include <QTimer>

#include <memory>

#include "pointer-overlay.h"

struct lodestone_pointer_engine;
struct lodestone_pointer_server;
struct lodestone_pointer_adapter;
struct lodestone_pointer_presentation;
struct wl_resource;

class AdaptivePointerEffect : public KWin::Effect
{
    Q_OBJECT

public:
    AdaptivePointerEffect();
    ~AdaptivePointerEffect() override;

    void prePaintScreen(KWin::ScreenPrePaintData &data, std::chrono::milliseconds presentTime) override;
    void paintScreen(int mask, const QRegion &region, KWin::ScreenPaintData &data) override;
    void postPaintScreen() override;
    bool isActive() const override;
    /** Inside the screenshot effect, so captures show the pointer. */
    int requestedEffectChainPosition() const override;

    /** The server helper's surface_position callback: the window of the surface, and its layer. */
    bool surfacePosition(wl_resource *surface, double *x, double *y, int32_t *layer) const;

private Q_SLOTS:
    /** A window's wl_surface committed (KWaylandServer::SurfaceInterface::committed, by name). */
    void surfaceCommitted();

private:
    void mouseChanged(const QPoint &pos, const QPoint &oldpos, Qt::MouseButtons buttons, Qt::MouseButtons oldbuttons);
    void windowAdded(KWin::EffectWindow *window);
    void windowClosed(KWin::EffectWindow *window);
    void windowActivated(KWin::EffectWindow *window);
    void windowsRestacked();
    void cursorShapeChanged();
    void outputsChanged();

    /** Tells the adapter where the window is now (it mapped, moved, resized or restacked). */
    void configure(KWin::EffectWindow *window, int32_t layer);
    /** The top-most window under the pointer; nullptr over none. */
    KWin::EffectWindow *windowAt(const QPoint &pos) const;
    /** Steps the engine to now, sends its events, lets the adapter follow, repaints the damage. */
    void step();
    /** Hides KWin's cursor while the adaptive pointer is drawn, shows it when the client's is. */
    void showAdaptivePointer(bool adaptive);
    /** Seconds on the monotonic clock, never going backwards (the engine's time). */
    double now();

    lodestone_pointer_engine *m_engine = nullptr;
    lodestone_pointer_server *m_server = nullptr;
    lodestone_pointer_adapter *m_adapter = nullptr;
    std::unique_ptr<lodestone_pointer_presentation> m_frame;
    PointerOverlay m_overlay;
    /** The adapter's ids for KWin's windows (never 0, never reused). */
    QHash<KWin::EffectWindow *, uint64_t> m_windows;
    uint64_t m_nextWindowId = 1;
    uint64_t m_windowUnderPointer = 0;
    /** Where the last painted frame drew (global): repainted once more when the next one moves. */
    QRect m_painted;
    bool m_cursorHidden = false;
    double m_lastTime = 0;
    /**
     * Polls what changes without input: the adapter's D-Bus replies (dispatched by KWin's
     * wl_event_loop, which has no hook for an effect) and the engine's deadlines (auto-hide,
     * exit delays).
     */
    QTimer m_poll;
};
