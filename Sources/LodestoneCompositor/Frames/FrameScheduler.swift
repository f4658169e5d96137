/// When the next frame starts composing. Pure: times in milliseconds on the frame clock,
/// the refreshes on a grid from the last presentation time, so it runs the same on the
/// manual clock as on the real one (`FrameSchedulerTests`).
public struct FrameScheduler: Sendable {
    public var mode: MaxRenderTime
    /// Milliseconds between refreshes.
    public let interval: Double
    /// The margin on top of the measured compose time (`auto`); a missed refresh doubles it.
    public private(set) var margin = FrameScheduler.baseMargin
    /// The last presentation time: refreshes fall on `presented + k × interval`.
    public private(set) var presented = 0.0
    /// Recent compose times, oldest overwritten first.
    private var samples: [Double] = []
    private var next = 0

    public static let baseMargin = 1.0
    static let sampleCount = 64
    /// The share of recent frames the prediction covers.
    static let percentile = 0.95

    public init(mode: MaxRenderTime, interval: Double) {
        self.mode = mode
        self.interval = max(1, interval)
    }

    /// How long before its refresh a frame starts (0 with `off`); at most a refresh.
    public var lead: Double {
        switch mode {
        case .off: return 0
        case .milliseconds(let ms): return min(ms, interval)
        case .auto:
            guard let high = predicted else { return min(interval / 2, interval) }
            return min(high + margin, interval)
        }
    }

    /// The compose time `auto` predicts (the high percentile of recent frames, no margin).
    private var predicted: Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * Self.percentile).rounded(.down)))]
    }

    /// The frame to schedule at `now`: the first refresh whose start (the refresh less
    /// `lead`) has not passed, and that start.
    public func frame(after now: Double) -> (start: Double, refresh: Double) {
        // A lead grown to a whole refresh (slow frames and misses: a TTY under emulation)
        // has always passed, and waiting for a refresh to start would cost a refresh more
        // than `off` after every flip: compose now, for the first refresh the predicted time
        // (no margin) fits before.
        let atOnce = mode == .auto && lead >= interval ? predicted : nil
        let needed = atOnce ?? lead
        // The first refresh strictly after now, then later ones until `needed` fits before it.
        var k = ((now - presented) / interval).rounded(.down) + 1
        var refresh = presented + k * interval
        while refresh - needed < now {
            k += 1
            refresh = presented + k * interval
        }
        return (atOnce == nil ? refresh - needed : now, refresh)
    }

    /// A frame took `duration` and was done at `finished`, for the refresh at `refresh`:
    /// recorded, and a late one grows the margin (a frame on time lets it shrink slowly).
    public mutating func composed(duration: Double, finished: Double, refresh: Double) {
        if samples.count < Self.sampleCount {
            samples.append(duration)
        } else {
            samples[next] = duration
            next = (next + 1) % Self.sampleCount
        }
        if finished > refresh {
            margin = min(margin * 2, interval / 2)
        } else {
            margin = max(Self.baseMargin, margin * 0.99)
        }
    }

    /// A frame was shown a refresh later than the one it was composed for (its presentation
    /// feedback or page flip said so, though it was composed in time): what follows the
    /// compose (the copy to the parent, its own compose) needs more margin.
    public mutating func missedRefresh() { margin = min(margin * 2, interval / 2) }

    /// A frame was presented at `time` (a page flip, the parent's presentation feedback, the
    /// frame clock's tick): the refreshes' grid follows it.
    public mutating func presented(at time: Double) { presented = time }
}
