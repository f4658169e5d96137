// MaxRenderTime lives in LodestoneModes (LodestoneConfig reads it without the compositor);
// every user of LodestoneCompositor still sees it here.
@_exported import LodestoneModes
