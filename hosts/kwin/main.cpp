// The plugin's factory: KWin finds it in <Qt plugin path>/kwin/effects/plugins/ and reads
// metadata.json (KPlugin.Id "lodestone_pointer": kwinrc [Plugins] lodestone_pointerEnabled).
#include "adaptive-pointer-effect.h"

namespace KWin
{
// Only with OpenGL compositing: the pointer is drawn through GL (QPainter compositing has no
// framebuffer to read back).
KWIN_EFFECT_FACTORY_SUPPORTED(AdaptivePointerEffect, "metadata.json", return KWin::effects->isOpenGLCompositing();)
} // namespace KWin

#include "main.moc"
