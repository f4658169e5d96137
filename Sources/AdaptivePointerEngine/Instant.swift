/// A moment on the compositor's clock, in seconds. The engine never reads a clock itself:
/// every input and every frame carries an `Instant`, which makes a run reproducible (same
/// inputs and same instants give the same presentations) and lets tests use a manual clock.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var seconds: Double

    @inlinable public init(seconds: Double) { self.seconds = seconds }

    @inlinable public static var zero: Instant { Instant(seconds: 0) }

    @inlinable public func advanced(by seconds: Double) -> Instant { Instant(seconds: self.seconds + seconds) }

    /// Seconds from `earlier` to `self`.
    @inlinable public func since(_ earlier: Instant) -> Double { seconds - earlier.seconds }

    @inlinable public static func < (a: Instant, b: Instant) -> Bool { a.seconds < b.seconds }

    public var description: String { "t=\(seconds)s" }
}
