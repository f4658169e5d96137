/*
 * pointer-overlay.h: draws the library's pointer into KWin's composed frame (OpenGL).
 *
 * lodestone_pointer_engine_draw draws into premultiplied ARGB8888 pixels whose (0, 0) is global
 * (0, 0), and its effects read the element's pixels from that buffer (the lift scales the
 * element up). So, per painted output: the damaged rectangle of the composed frame is read
 * back (glReadPixels) into a buffer laid out that way, the library draws into it, and the
 * rectangle is uploaded to a texture that replaces those pixels of the frame. Only the
 * pointer's damage is read and written, a few thousand pixels a frame.
 */
#pragma once

#include <QImage>
#include <QRect>
#include <memory>

struct lodestone_pointer_engine;
class QMatrix4x4;

namespace KWin
{
class GLTexture;
}

class PointerOverlay
{
public:
    PointerOverlay();
    ~PointerOverlay();

    /**
     * Draws the engine's last stepped frame over `damage` (global logical coordinates) into
     * the framebuffer bound now, which shows `target` (the output's logical rectangle) at
     * `scale` pixels a point; `projection` is the scene's for this pass.
     */
    void paint(lodestone_pointer_engine *engine, const QRect &damage, const QRect &target, double scale,
               const QMatrix4x4 &projection);

private:
    /** Global (0, 0) at pixel (0, 0), as large as the bottom-right of the outputs painted. */
    QImage m_frame;
    std::unique_ptr<KWin::GLTexture> m_texture;
};
