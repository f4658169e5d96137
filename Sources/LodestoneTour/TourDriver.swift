import Foundation
import LodestoneSystem
import LodestoneTesting

/// `lodestone-demo --sync-stdin` running inside a session: `sync()` returns
/// once the client has handled every event sent so far and its resulting
/// commit has reached the compositor, so a capture shows what it drew.
final class DemoClient {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var counter = 0
    private var buffered = ""

    /// `lodestone-demo` beside the lodestone executable (or `$LODESTONE_DEMO`).
    static var executable: String {
        if let env = ProcessInfo.processInfo.environment["LODESTONE_DEMO"] { return env }
        return URL(fileURLWithPath: Session.executable).deletingLastPathComponent().appendingPathComponent("lodestone-demo").path
    }

    init(session: Session, log: String, trace: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--sync-stdin"]
        process.environment = session.clientEnvironment.merging(trace ? ["LODESTONE_DEMO_TRACE": "1"] : [:]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
    }

    func sync(timeout: TimeInterval = 10) throws {
        counter += 1
        let expected = "synced \(counter)"
        input.fileHandleForWriting.write(Data("sync \(counter)\n".utf8))
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let newline = buffered.firstIndex(of: "\n") {
                let line = String(buffered[..<newline])
                buffered = String(buffered[buffered.index(after: newline)...])
                if line == expected { return }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, process.isRunning else {
                throw SystemError("lodestone-demo did not answer sync \(counter) (running: \(process.isRunning))")
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000)) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 512)
            let n = read(fd, &bytes, bytes.count)
            if n <= 0 { throw SystemError("lodestone-demo closed its output") }
            buffered += String(decoding: bytes[0..<n], as: UTF8.self)
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// What a tour step does with the pointer, in the window's (= the output's) coordinates.
public final class TourDriver {
    /// The headless Lodestone, for steps that start another client beside the demo.
    public let session: Session
    let client: DemoClient
    /// The tour's own config.toml (`--config`), so a user's file never changes the tour.
    let configPath: String
    let reader: PointerReader
    private(set) var position = (x: 0.0, y: 0.0)
    var control: TestControl { session.control }

    init(session: Session, client: DemoClient, configPath: String, reader: PointerReader) {
        self.session = session
        self.client = client
        self.configPath = configPath
        self.reader = reader
    }

    /// Saves `text` as the config file the way editors do (a temporary file renamed over it)
    /// and waits until the running Lodestone has applied it: until `applied` holds for the
    /// presented pointer (Lodestone reads the file on its own loop, in wall time).
    public func saveConfig(_ text: String, until applied: (PresentedPointer) -> Bool) throws {
        let temporary = configPath + ".new"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, configPath) == 0 else { throw SystemError.lastError("cannot rename \(temporary)", call: "rename") }
        let ok = try session.wait(timeout: 10) {
            try control.advanceClock(milliseconds: 100)
            return applied(try reader.read())
        }
        if !ok { throw SystemError("Lodestone did not apply the saved \(configPath)") }
    }

    public func move(_ x: Double, _ y: Double) throws {
        try control.movePointer(x: x, y: y)
        position = (x, y)
        try client.sync()
    }

    /// Moves in several motion events (a drag the client can follow), a frame apart.
    public func glide(_ x: Double, _ y: Double, steps: Int = 8) throws {
        let start = position
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            try control.movePointer(x: start.x + (x - start.x) * t, y: start.y + (y - start.y) * t)
            try control.advanceClock(milliseconds: 16)
        }
        position = (x, y)
        try client.sync()
    }

    /// Lets time pass without input (the pointer's springs catch up), then syncs.
    public func pause(milliseconds: UInt32 = 300) throws {
        try control.advanceClock(milliseconds: milliseconds)
        try control.movePointer(dx: 0, dy: 0)
        try client.sync()
    }

    public func press() throws {
        try control.button(pressed: true)
        try client.sync()
    }

    public func release() throws {
        try control.button(pressed: false)
        try client.sync()
    }

    public func click() throws {
        try press()
        try control.advanceClock(milliseconds: 80)
        try release()
    }

    // MARK: Pen (a tablet tool)

    private(set) var pen: (x: Double, y: Double, inProximity: Bool, touching: Bool) = (0, 0, false, false)

    /// The pen hovering over (x, y), `distance` from the screen (0 about to touch, 1 the edge of
    /// proximity): it comes into proximity there, or moves there in `steps` frames.
    public func penHover(_ x: Double, _ y: Double, distance: Double, steps: Int = 1) throws {
        if !pen.inProximity {
            try control.tabletTool(.proximityIn, x: x, y: y, distance: distance)
        } else {
            let start = pen
            for i in 1...max(steps, 1) {
                let t = Double(i) / Double(max(steps, 1))
                try control.tabletTool(.axes, x: start.x + (x - start.x) * t, y: start.y + (y - start.y) * t, distance: distance)
                try control.advanceClock(milliseconds: 16)
            }
        }
        pen = (x, y, true, false)
        try client.sync()
    }

    /// The tip touches where the pen hovers.
    public func penDown(pressure: Double, tiltX: Double = 0, tiltY: Double = 0) throws {
        try control.tabletTool(.tipDown, x: pen.x, y: pen.y, pressure: pressure, tiltX: tiltX, tiltY: tiltY)
        pen.touching = true
        try client.sync()
    }

    /// The touching pen moves to (x, y) in `steps` frames, its pressure going from `from` to `to`.
    public func penDraw(_ x: Double, _ y: Double, pressure from: Double, to: Double, tiltX: Double = 0, tiltY: Double = 0, steps: Int = 16) throws {
        let start = pen
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            try control.tabletTool(.axes, x: start.x + (x - start.x) * t, y: start.y + (y - start.y) * t,
                                   pressure: from + (to - from) * t, tiltX: tiltX, tiltY: tiltY)
            try control.advanceClock(milliseconds: 16)
        }
        pen.x = x; pen.y = y
        try client.sync()
    }

    /// The tip lifts; the pen hovers `distance` above where it was.
    public func penUp(distance: Double = 0.2) throws {
        try control.tabletTool(.tipUp, x: pen.x, y: pen.y, distance: distance)
        pen.touching = false
        try client.sync()
    }

    /// The pen leaves proximity.
    public func penAway() throws {
        try control.tabletTool(.proximityOut, x: pen.x, y: pen.y)
        pen.inProximity = false
        try client.sync()
    }

    /// Writes `strokes` with the pen, their top-left at (x, y): each a tip down, its points
    /// (a frame apart), a tip up; the pen then leaves.
    public func penWrite(_ strokes: [[(x: Double, y: Double, pressure: Double)]], at x: Double, _ y: Double) throws {
        for stroke in strokes {
            guard let first = stroke.first else { continue }
            try penHover(x + first.x, y + first.y, distance: 0.05, steps: 2)
            try penDown(pressure: first.pressure)
            for p in stroke.dropFirst() {
                try control.tabletTool(.axes, x: x + p.x, y: y + p.y, pressure: p.pressure)
                try control.advanceClock(milliseconds: 8)
            }
            if let last = stroke.last { pen.x = x + last.x; pen.y = y + last.y }
            try penUp(distance: 0.05)
        }
        try penAway()
    }

    /// Polls captures (real time: Scribble's pause and its recogniser run on the wall clock)
    /// until `condition` holds; throws after `timeout` seconds.
    public func waitForCapture(timeout: TimeInterval = 30, _ what: String, _ condition: (Screenshot) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try client.sync()
            if condition(try session.screenshot("wait")) { return }
            guard Date() < deadline else { throw SystemError("the capture never showed \(what) in \(Int(timeout)) s") }
            usleep(100_000)
        }
    }

    /// Lets springs, exit delays and the client's answers to region events run their course.
    func settle(milliseconds: UInt32 = 700) throws {
        try client.sync()
        try control.advanceClock(milliseconds: milliseconds)
        try client.sync()  // entered/left/band events the frames sent, and what the client drew for them
        try control.advanceClock(milliseconds: 50)
        try client.sync()
    }
}
