#include "pointer-overlay.h"

#include <kwineffects.h>
#include <kwinglutils.h>

#include <lodestone-pointer.h>

#include <cmath>
#include <vector>

PointerOverlay::PointerOverlay() = default;
PointerOverlay::~PointerOverlay() = default;

void PointerOverlay::paint(lodestone_pointer_engine *engine, const QRect &damage, const QRect &target, double scale,
                           const QMatrix4x4 &projection)
{
    const QRect logical = damage.intersected(target);
    KWin::GLFramebuffer *framebuffer = KWin::GLFramebuffer::currentFramebuffer();
    if (logical.isEmpty() || !framebuffer) {
        return;
    }
    // The rectangle in buffer pixels (global), and in the framebuffer's (output-local).
    const QRect pixels(QPoint(std::floor(logical.left() * scale), std::floor(logical.top() * scale)),
                       QPoint(std::ceil((logical.right() + 1) * scale) - 1, std::ceil((logical.bottom() + 1) * scale) - 1));
    const QPoint origin(std::lround(target.left() * scale), std::lround(target.top() * scale));
    const QRect local = pixels.translated(-origin).intersected(QRect(QPoint(), framebuffer->size()));
    if (local.isEmpty()) {
        return;
    }
    const QRect global = local.translated(origin);

    const QSize needed(global.right() + 1, global.bottom() + 1);
    if (m_frame.width() < needed.width() || m_frame.height() < needed.height()) {
        m_frame = QImage(needed.expandedTo(m_frame.size()), QImage::Format_ARGB32_Premultiplied);
    }

    // The composed pixels under the pointer. GL's rows run bottom-up: row 0 of the read is
    // the rectangle's bottom row.
    std::vector<uint32_t> rows(size_t(local.width()) * local.height());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(local.x(), framebuffer->size().height() - local.y() - local.height(), local.width(), local.height(),
                 GL_BGRA, GL_UNSIGNED_BYTE, rows.data());
    for (int y = 0; y < local.height(); ++y) {
        auto *line = reinterpret_cast<uint32_t *>(m_frame.scanLine(global.y() + y)) + global.x();
        std::copy_n(rows.data() + size_t(local.height() - 1 - y) * local.width(), local.width(), line);
    }

    lodestone_pointer_engine_draw(engine, reinterpret_cast<uint32_t *>(m_frame.bits()), m_frame.width(), m_frame.height(),
                                  m_frame.bytesPerLine(), scale, global.x(), global.y(), global.width(), global.height());

    // Back into the frame: the rectangle replaces what was composed there (no blending: the
    // library already blended the pointer over those very pixels).
    if (!m_texture || m_texture->width() < local.width() || m_texture->height() < local.height()) {
        const QSize size = local.size().expandedTo(m_texture ? m_texture->size() : QSize());
        m_texture = std::make_unique<KWin::GLTexture>(GL_RGBA8, size);
        m_texture->setFilter(GL_NEAREST);
        m_texture->setWrapMode(GL_CLAMP_TO_EDGE);
    }
    const QImage patch = m_frame.copy(global);
    m_texture->update(patch);

    KWin::ShaderBinder binder(KWin::ShaderTrait::MapTexture);
    QMatrix4x4 mvp = projection;
    mvp.translate(local.x(), local.y());
    binder.shader()->setUniform(KWin::GLShader::ModelViewProjectionMatrix, mvp);
    glDisable(GL_BLEND);
    // The texture may be larger than the patch: its top-left part, local.size(), is drawn.
    m_texture->bind();
    KWin::GLVertexBuffer *vbo = KWin::GLVertexBuffer::streamingBuffer();
    vbo->reset();
    const float w = local.width(), h = local.height();
    const float tw = float(local.width()) / m_texture->width(), th = float(local.height()) / m_texture->height();
    const float vertices[] = {0, 0, 0, h, w, 0, w, h};
    // Texture row 0 is the patch's top row (QImage order), so v runs with y.
    const float texcoords[] = {0, 0, 0, th, tw, 0, tw, th};
    vbo->setData(4, 2, vertices, texcoords);
    vbo->render(GL_TRIANGLE_STRIP);
    m_texture->unbind();
}
