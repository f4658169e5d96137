#include "adaptive-pointer-effect.h"

#include "kwaylandserver-abi.h"

#include <lodestone-pointer.h>
#include <wayland-server-core.h>

#include <QMatrix4x4>

#include <chrono>
#include <cmath>

namespace
{

bool surfacePositionCallback(void *data, wl_resource *surface, double *x, double *y, int32_t *layer)
{
    return static_cast<const AdaptivePointerEffect *>(data)->surfacePosition(surface, x, y, layer);
}

/** The presentation's damage, rounded out to whole points. */
QRect damageOf(const lodestone_pointer_presentation &frame)
{
    if (frame.damage_width <= 0 || frame.damage_height <= 0) {
        return QRect();
    }
    const int left = std::floor(frame.damage_x), top = std::floor(frame.damage_y);
    return QRect(QPoint(left, top), QPoint(int(std::ceil(frame.damage_x + frame.damage_width)) - 1,
                                           int(std::ceil(frame.damage_y + frame.damage_height)) - 1));
}

/** The windows the adapter hears about: the clients' (not KWin's own), shown on this desktop. */
bool isClientWindow(KWin::EffectWindow *window)
{
    return !window->isDeleted() && !window->internalWindow() && window->pid() > 0;
}

} // namespace

AdaptivePointerEffect::AdaptivePointerEffect()
    : m_frame(std::make_unique<lodestone_pointer_presentation>())
{
    *m_frame = {};
    m_frame->size = sizeof *m_frame;
    const QRect outputs = KWin::effects->virtualScreenGeometry();
    m_engine = lodestone_pointer_engine_create(outputs.x(), outputs.y(), outputs.width(), outputs.height());

    // The region protocol on KWin's own display, and the adapter on its event loop (which
    // KWin dispatches from its Qt event loop, so the adapter's D-Bus fds are watched there).
    wl_display *display = *KWin::effects->waylandDisplay();
    lodestone_pointer_server_callbacks callbacks = {};
    callbacks.size = sizeof callbacks;
    callbacks.surface_position = surfacePositionCallback;
    m_server = lodestone_pointer_server_create(display, m_engine, &callbacks, this);
    m_adapter = lodestone_pointer_adapter_create(m_engine, wl_display_get_event_loop(display), m_server);

    const QPoint pointer = KWin::effects->cursorPos();
    lodestone_pointer_engine_warp(m_engine, now(), pointer.x(), pointer.y());

    connect(KWin::effects, &KWin::EffectsHandler::mouseChanged, this,
            [this](const QPoint &pos, const QPoint &oldpos, Qt::MouseButtons buttons, Qt::MouseButtons oldbuttons,
                   Qt::KeyboardModifiers, Qt::KeyboardModifiers) {
                mouseChanged(pos, oldpos, buttons, oldbuttons);
            });
    connect(KWin::effects, &KWin::EffectsHandler::windowAdded, this, &AdaptivePointerEffect::windowAdded);
    connect(KWin::effects, &KWin::EffectsHandler::windowClosed, this, &AdaptivePointerEffect::windowClosed);
    connect(KWin::effects, &KWin::EffectsHandler::windowActivated, this, &AdaptivePointerEffect::windowActivated);
    connect(KWin::effects, &KWin::EffectsHandler::stackingOrderChanged, this, &AdaptivePointerEffect::windowsRestacked);
    connect(KWin::effects, &KWin::EffectsHandler::windowFrameGeometryChanged, this, &AdaptivePointerEffect::windowsRestacked);
    connect(KWin::effects, &KWin::EffectsHandler::windowMinimized, this, &AdaptivePointerEffect::windowsRestacked);
    connect(KWin::effects, &KWin::EffectsHandler::windowUnminimized, this, &AdaptivePointerEffect::windowsRestacked);
    connect(KWin::effects, &KWin::EffectsHandler::cursorShapeChanged, this, &AdaptivePointerEffect::cursorShapeChanged);
    connect(KWin::effects, &KWin::EffectsHandler::virtualScreenGeometryChanged, this, &AdaptivePointerEffect::outputsChanged);
    for (KWin::EffectWindow *window : KWin::effects->stackingOrder()) {
        windowAdded(window);
    }

    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        double deadline = 0;
        const bool due = lodestone_pointer_engine_next_deadline(m_engine, &deadline) && deadline <= now();
        if ((m_adapter && lodestone_pointer_adapter_changed(m_adapter)) || due) {
            step();
        }
    });
    m_poll.start();
    step();
}

AdaptivePointerEffect::~AdaptivePointerEffect()
{
    for (KWin::EffectWindow *window : m_windows.keys()) {
        if (window->surface()) {
            disconnect(static_cast<QObject *>(window->surface()), nullptr, this, nullptr);
        }
    }
    showAdaptivePointer(false);
    KWin::effects->addRepaint(m_painted);
    // The adapter and the server before the engine they hold (the header's order).
    lodestone_pointer_adapter_destroy(m_adapter);
    lodestone_pointer_server_destroy(m_server);
    lodestone_pointer_engine_destroy(m_engine);
}

// MARK: - Input

void AdaptivePointerEffect::mouseChanged(const QPoint &pos, const QPoint &oldpos, Qt::MouseButtons buttons,
                                         Qt::MouseButtons oldbuttons)
{
    const double t = now();
    if (pos != oldpos) {
        lodestone_pointer_engine_motion(m_engine, t, pos.x(), pos.y());
        KWin::EffectWindow *window = windowAt(pos);
        const uint64_t id = window ? m_windows.value(window) : 0;
        if (id != m_windowUnderPointer && m_adapter) {
            m_windowUnderPointer = id;
            lodestone_pointer_adapter_pointer_over(m_adapter, id);
        }
    }
    // The engine has one button (the primary): pressed scale, band selection, latching.
    if ((buttons & Qt::LeftButton) != (oldbuttons & Qt::LeftButton)) {
        lodestone_pointer_engine_button(m_engine, t, buttons & Qt::LeftButton);
    }
    step();
}

void AdaptivePointerEffect::cursorShapeChanged()
{
    if (!m_adapter) {
        return;
    }
    // The new cursor is the client's under the pointer: say which one first.
    KWin::EffectWindow *window = windowAt(KWin::effects->cursorPos());
    const uint64_t id = window ? m_windows.value(window) : 0;
    if (id != m_windowUnderPointer) {
        m_windowUnderPointer = id;
        lodestone_pointer_adapter_pointer_over(m_adapter, id);
    }
    const KWin::PlatformCursorImage cursor = KWin::effects->cursorImage();
    const QImage image = cursor.image().convertToFormat(QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        lodestone_pointer_adapter_cursor_hidden(m_adapter);
    } else {
        const qreal scale = image.devicePixelRatio();
        lodestone_pointer_adapter_cursor_image(m_adapter, reinterpret_cast<const uint32_t *>(image.constBits()),
                                               image.width(), image.height(), image.bytesPerLine(), std::lround(scale),
                                               std::lround(cursor.hotSpot().x() * scale), std::lround(cursor.hotSpot().y() * scale));
    }
    step();
}

// MARK: - Windows

void AdaptivePointerEffect::windowAdded(KWin::EffectWindow *window)
{
    if (!isClientWindow(window) || m_windows.contains(window)) {
        return;
    }
    m_windows.insert(window, m_nextWindowId++);
    if (QObject *surface = static_cast<QObject *>(window->surface())) {
        connect(surface, SIGNAL(committed()), this, SLOT(surfaceCommitted()));
        // What it committed before it mapped (its first regions) applies now.
        lodestone_pointer_server_surface_committed(m_server, window->surface()->resource());
    }
    windowsRestacked();
}

void AdaptivePointerEffect::windowClosed(KWin::EffectWindow *window)
{
    const auto found = m_windows.constFind(window);
    if (found == m_windows.constEnd()) {
        return;
    }
    if (window->surface()) {
        disconnect(static_cast<QObject *>(window->surface()), nullptr, this, nullptr);
    }
    if (m_adapter) {
        lodestone_pointer_adapter_window_unmapped(m_adapter, *found);
    }
    if (m_windowUnderPointer == *found) {
        m_windowUnderPointer = 0;
    }
    m_windows.erase(found);
    lodestone_pointer_server_layout_changed(m_server);
    step();
}

void AdaptivePointerEffect::windowActivated(KWin::EffectWindow *window)
{
    if (m_adapter && window && m_windows.contains(window)) {
        lodestone_pointer_adapter_window_activated(m_adapter, m_windows.value(window));
    }
}

void AdaptivePointerEffect::windowsRestacked()
{
    const KWin::EffectWindowList stack = KWin::effects->stackingOrder();
    for (int layer = 0; layer < stack.size(); ++layer) {
        if (m_windows.contains(stack[layer])) {
            configure(stack[layer], layer);
        }
    }
    lodestone_pointer_server_layout_changed(m_server);
    step();
}

void AdaptivePointerEffect::configure(KWin::EffectWindow *window, int32_t layer)
{
    if (!m_adapter) {
        return;
    }
    const uint64_t id = m_windows.value(window);
    if (window->isMinimized() || !window->isOnCurrentDesktop()) {
        lodestone_pointer_adapter_window_unmapped(m_adapter, id);
        return;
    }
    // The content without KWin's decoration: what the app calls its window (xdg geometry).
    const QRectF content = window->clientGeometry();
    if (qEnvironmentVariableIsSet("LODESTONE_POINTER_DEBUG")) {
        const QRectF frame = window->frameGeometry(), buffer = window->bufferGeometry();
        qInfo("lodestone_pointer: window %llu pid %d layer %d content %g,%g %gx%g frame %g,%g %gx%g buffer %g,%g %gx%g",
              (unsigned long long)id, int(window->pid()), layer, content.x(), content.y(), content.width(), content.height(),
              frame.x(), frame.y(), frame.width(), frame.height(), buffer.x(), buffer.y(), buffer.width(), buffer.height());
    }
    wl_resource *surface = window->surface() ? window->surface()->resource() : nullptr;
    lodestone_pointer_adapter_window_configured(m_adapter, id, window->pid(), content.x(), content.y(), content.width(),
                                                content.height(), layer, surface);
}

void AdaptivePointerEffect::surfaceCommitted()
{
    auto *surface = static_cast<KWaylandServer::SurfaceInterface *>(sender());
    lodestone_pointer_server_surface_committed(m_server, surface->resource());
    step();
}

bool AdaptivePointerEffect::surfacePosition(wl_resource *surface, double *x, double *y, int32_t *layer) const
{
    KWaylandServer::SurfaceInterface *interface = KWaylandServer::SurfaceInterface::get(surface);
    KWin::EffectWindow *window = interface ? KWin::effects->findWindow(interface) : nullptr;
    if (!window || window->isDeleted() || window->isMinimized() || !window->isOnCurrentDesktop()) {
        return false;
    }
    // The main surface's top-left (a Wayland window's buffer geometry).
    const QPointF origin = window->bufferGeometry().topLeft();
    *x = origin.x();
    *y = origin.y();
    *layer = KWin::effects->stackingOrder().indexOf(window);
    return true;
}

KWin::EffectWindow *AdaptivePointerEffect::windowAt(const QPoint &pos) const
{
    const KWin::EffectWindowList stack = KWin::effects->stackingOrder();
    for (auto it = stack.crbegin(); it != stack.crend(); ++it) {
        KWin::EffectWindow *window = *it;
        if (m_windows.contains(window) && window->isVisible() && window->isOnCurrentDesktop()
            && window->frameGeometry().contains(pos)) {
            return window;
        }
    }
    return nullptr;
}

void AdaptivePointerEffect::outputsChanged()
{
    const QRect outputs = KWin::effects->virtualScreenGeometry();
    lodestone_pointer_engine_set_output_bounds(m_engine, outputs.x(), outputs.y(), outputs.width(), outputs.height());
    step();
}

// MARK: - Frames

void AdaptivePointerEffect::step()
{
    const double t = now();
    lodestone_pointer_engine_step(m_engine, t, m_frame.get());
    lodestone_pointer_server_send_events(m_server);
    if (m_adapter) {
        lodestone_pointer_adapter_stepped(m_adapter, t);
        showAdaptivePointer(lodestone_pointer_adapter_pointer_source(m_adapter) == LODESTONE_POINTER_SOURCE_ADAPTIVE);
    } else {
        showAdaptivePointer(true);
    }
    KWin::effects->addRepaint(damageOf(*m_frame) | m_painted);
}

void AdaptivePointerEffect::prePaintScreen(KWin::ScreenPrePaintData &data, std::chrono::milliseconds presentTime)
{
    lodestone_pointer_engine_step(m_engine, now(), m_frame.get());
    lodestone_pointer_server_send_events(m_server);
    data.paint |= damageOf(*m_frame) | m_painted;
    KWin::effects->prePaintScreen(data, presentTime);
}

void AdaptivePointerEffect::paintScreen(int mask, const QRegion &region, KWin::ScreenPaintData &data)
{
    KWin::effects->paintScreen(mask, region, data);
    if (!m_cursorHidden || !KWin::effects->isOpenGLCompositing()) {
        return;
    }
    const QRect damage = damageOf(*m_frame);
    m_overlay.paint(m_engine, damage, KWin::effects->renderTargetRect(), KWin::effects->renderTargetScale(),
                    data.projectionMatrix());
    m_painted = damage;
}

void AdaptivePointerEffect::postPaintScreen()
{
    KWin::effects->postPaintScreen();
    if (m_frame->animating) {
        KWin::effects->addRepaint(damageOf(*m_frame) | m_painted);
    }
}

bool AdaptivePointerEffect::isActive() const
{
    return true;
}

int AdaptivePointerEffect::requestedEffectChainPosition() const
{
    // An effect paints around those with higher positions. The screenshot effect (50) copies
    // the frame once those inside it have painted, so the pointer is drawn inside it, or no
    // screenshot (spectacle, org.kde.KWin.ScreenShot2) would show it (seen: with 0 they did
    // not). Zoom (position 10 or so) magnifies it with the content, as it should.
    return 90;
}

void AdaptivePointerEffect::showAdaptivePointer(bool adaptive)
{
    if (adaptive == m_cursorHidden) {
        return;
    }
    // KWin counts hides: one hideCursor, one showCursor.
    m_cursorHidden = adaptive;
    if (adaptive) {
        KWin::effects->hideCursor();
    } else {
        KWin::effects->showCursor();
    }
}

double AdaptivePointerEffect::now()
{
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    m_lastTime = std::max(m_lastTime, t);
    return m_lastTime;
}
