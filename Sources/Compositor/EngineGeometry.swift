import PointerEngine

// Rendering and PointerEngine both define `Rect`, and `PointerEngine.Rect` would name a
// member of the `PointerEngine` struct rather than the module's type. Files that import both
// modules name the engine's typed geometry through these aliases (this file imports only the
// engine, so `Rect` here is unambiguous).
typealias EngineRect<Space: CoordinateSpace> = Rect<Space>
typealias EnginePoint<Space: CoordinateSpace> = Point<Space>
/// The engine's global space (WaylandServer has a `Global` too: the wl_global wrapper).
typealias GlobalSpace = Global
/// The engine's region (Rendering has a `Region` too: a pixman region).
typealias EngineRegion = Region
