import PointerAdaptation

// `--pointer` and `--legacy-apps` belong to the decision they steer (PointerAdaptation's
// `AppCursorPolicy`, which the C library's adapter runs too); named here as well, for
// LodestoneConfig and the `lodestone` command import only this module.
public typealias PointerMode = PointerAdaptation.PointerMode
public typealias LegacyApps = PointerAdaptation.LegacyApps
