// PointerMode, LegacyApps and MaxRenderTime live in LodestoneModes (LodestoneConfig reads them
// without the compositor); every user of LodestoneCompositor still sees them here.
@_exported import LodestoneModes
