import Glibc
import LodestoneSystem
import Logging
import Rendering
import WaylandServer

/// The handwriting recogniser, a helper process (`lodestone-scribble-recognizer`) the
/// compositor starts on first use and talks to over two pipes watched on the event loop, so
/// a slow recognition never stalls a frame and a recogniser that crashes, hangs or answers
/// garbage harms nothing: its answer is refused, it is stopped, and the next writing starts
/// a fresh one.
///
/// The protocol, one line each way (docs/scribble.md):
/// `recognize ID LANG[,LANG…] x,y,p x,y,p…;x,y,p…` (strokes separated by `;`, points relative
/// to the ink's top-left, in points) is answered by `text ID TEXT` (TEXT empty: nothing
/// recognised) or `error ID REASON`.
final class ScribbleRecognizer {
    /// What came of one request.
    enum Outcome: Equatable {
        case text(String)
        case failed(String)
    }

    /// The helper's command line (`ScribbleRecognizer.command`).
    let command: [String]
    private let loop: EventLoop
    private let log: Logger
    /// The answer to the request in flight (set once by `Scribble`).
    var answered: (Outcome) -> Void = { _ in }

    private var process: ChildProcess?
    private var toHelper: Int32 = -1, fromHelper: Int32 = -1
    private var readable: EventSource?
    private var timer: EventSource?
    private var received: [UInt8] = []
    /// The request in flight.
    private var inFlight: UInt64?
    private var nextID: UInt64 = 1

    /// How long a recognition may take before the helper is taken to hang: Tesseract's four
    /// readings take about 0.3 s here, several seconds on a loaded machine.
    /// `$LODESTONE_SCRIBBLE_TIMEOUT_MS` shortens it for the tests of a hanging recogniser.
    var timeoutMilliseconds: Int32 = 10_000
    /// The longest answer line: a few words, never kilobytes.
    static let maximumAnswer = 4096
    /// The most points sent: longer writing is thinned (a request stays within one pipe buffer).
    static let maximumPoints = 3000

    init(command: [String], loop: EventLoop, log: Logger) {
        self.command = command
        self.loop = loop
        self.log = log
        if let ms = getenv("LODESTONE_SCRIBBLE_TIMEOUT_MS").flatMap({ Int32(String(cString: $0)) }), ms > 0 { timeoutMilliseconds = ms }
    }

    deinit { stop() }

    /// The helper to run: `$LODESTONE_SCRIBBLE_RECOGNIZER` (the tests' fake recognisers),
    /// else `lodestone-scribble-recognizer` beside the running executable, else on PATH.
    static func defaultCommand(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> [String] {
        if let override = environment("LODESTONE_SCRIBBLE_RECOGNIZER"), !override.isEmpty { return [override] }
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &path, path.count - 1)
        if n > 0 {
            let exe = String(decoding: path[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let beside = exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)] + "/lodestone-scribble-recognizer"
            if access(String(beside), X_OK) == 0 { return [String(beside)] }
        }
        return ["lodestone-scribble-recognizer"]
    }

    /// The request line for `strokes` (global points), relative to their top-left.
    static func request(id: UInt64, languages: [String], strokes: [[InkPoint]]) -> String {
        let points = strokes.joined()
        let x0 = points.map(\.x).min() ?? 0, y0 = points.map(\.y).min() ?? 0
        let step = max(1, (points.count + maximumPoints - 1) / maximumPoints)
        // Tenths of a point, hundredths of pressure.
        func f(_ v: Double, _ digits: Int = 1) -> String { String(Int((v * (digits == 1 ? 10 : 100)).rounded())).fixed(digits) }
        let text = strokes.map { stroke in
            stroke.enumerated().filter { $0.offset % step == 0 || $0.offset == stroke.count - 1 }.map { _, p in
                "\(f(p.x - x0)),\(f(p.y - y0)),\(f(p.pressure, 2))"
            }.joined(separator: " ")
        }.joined(separator: ";")
        return "recognize \(id) \(languages.joined(separator: ",")) \(text)\n"
    }

    /// Sends `strokes` to the helper (starting it if needed); `answered` hears the outcome
    /// once, from the loop. A request while one is in flight replaces it.
    func recognize(_ strokes: [[InkPoint]], languages: [String]) {
        if inFlight != nil { stop() }
        do {
            try startIfNeeded()
            let id = nextID
            nextID += 1
            let bytes = Array(Self.request(id: id, languages: languages, strokes: strokes).utf8)
            // A request fits the empty pipe (thinned to `maximumPoints`): the write never waits.
            let written = bytes.withUnsafeBytes { b in NonBlocking.run { write(toHelper, b.baseAddress, b.count) } }
            guard written == .done(bytes.count) else { throw SystemError("cannot send the strokes to the recogniser (\(written))") }
            inFlight = id
            timer?.arm(milliseconds: timeoutMilliseconds)
        } catch {
            fail("\(error)")
        }
    }

    /// Forgets the request in flight (the writing was abandoned): its answer is ignored.
    func cancel() { inFlight = nil; timer?.arm(milliseconds: 0) }

    private func startIfNeeded() throws(SystemError) {
        if process != nil { return }
        let requests = try pipePair(), answers = try pipePair()
        do {
            process = try ChildProcess(command, environment: [:], passing: [(requests.read, 0), (answers.write, 1)])
        } catch {
            for fd in [requests.read, requests.write, answers.read, answers.write] { close(fd) }
            throw error
        }
        close(requests.read)
        close(answers.write)
        toHelper = requests.write
        fromHelper = answers.read
        _ = fcntl(toHelper, F_SETFL, O_NONBLOCK)
        _ = fcntl(fromHelper, F_SETFL, O_NONBLOCK)
        readable = try loop.addFileDescriptor(fromHelper) { [unowned self] _ in self.read() }
        timer = try loop.addTimer { [unowned self] in self.fail("no answer within \(self.timeoutMilliseconds) ms: it hangs") }
        log.info("scribble: recogniser '\(command.joined(separator: " "))' started (pid \(process?.pid ?? 0))")
    }

    private func pipePair() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try check("pipe", what: "cannot make the recogniser's pipe") { pipe(&fds) == 0 }
        // Only the helper gets them, under the numbers `ChildProcess` gives them.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// The helper wrote: an answer line (or its end: it crashed).
    private func read() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = buffer.withUnsafeMutableBytes { b in NonBlocking.run { Glibc.read(fromHelper, b.baseAddress, b.count) } }
            switch result {
            case .wouldBlock: return
            case .failed(let code): return fail("cannot read its answer: \(String(cString: strerror(code)))")
            case .done(0): return fail("it exited\(exitStatus.map { " with status \($0)" } ?? "")")
            case .done(let n):
                received += buffer[..<n]
                while let newline = received.firstIndex(of: 0x0a) {
                    let line = Array(received[..<newline])
                    received.removeSubrange(...newline)
                    answer(line)
                    if process == nil { return }
                }
                if received.count > Self.maximumAnswer { return fail("an answer longer than \(Self.maximumAnswer) bytes") }
            }
        }
    }

    private var exitStatus: Int32? {
        for _ in 0..<20 { if let s = process?.reap() { return s }; usleep(1000) }
        return nil
    }

    /// One line from the helper: the answer to the request in flight, or garbage.
    private func answer(_ line: [UInt8]) {
        guard let text = String(validating: line, as: UTF8.self) else { return fail("an answer that is not UTF-8") }
        let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count >= 2, let id = UInt64(words[1]), words[0] == "text" || words[0] == "error" else {
            return fail("an answer that is not 'text ID TEXT' or 'error ID REASON': \(text.prefix(80).debugDescription)")
        }
        // A late answer to a request abandoned: dropped.
        guard id == inFlight else { return }
        let rest = words.count > 2 ? String(words[2]) : ""
        // Text an app can take: no control characters (a newline would end a line field's edit).
        guard !rest.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return fail("an answer with control characters: \(rest.prefix(80).debugDescription)")
        }
        inFlight = nil
        timer?.arm(milliseconds: 0)
        answered(words[0] == "error" ? .failed("it could not read the ink: \(rest)") : .text(rest))
    }

    /// The helper failed: it is stopped (a fresh one starts next time) and the request in
    /// flight, if any, is answered with the reason.
    private func fail(_ reason: String) {
        log.warning("scribble: the recogniser failed: \(reason)")
        let hadRequest = inFlight != nil
        stop()
        if hadRequest { answered(.failed(reason)) }
    }

    /// Stops the helper (SIGKILL: it may hang) and closes its pipes.
    func stop() {
        inFlight = nil
        readable?.remove()
        readable = nil
        timer = nil
        if toHelper >= 0 { close(toHelper); toHelper = -1 }
        if fromHelper >= 0 { close(fromHelper); fromHelper = -1 }
        received = []
        if let process {
            if process.reap() == nil {
                kill(process.pid, SIGKILL)
                var status: Int32 = 0
                waitpid(process.pid, &status, 0)
            }
        }
        process = nil
    }
}

private extension String {
    /// "1234" (an integer of `digits` decimals) as "12.34".
    func fixed(_ digits: Int) -> String {
        let negative = hasPrefix("-")
        var number = negative ? String(dropFirst()) : self
        while number.count <= digits { number = "0" + number }
        return (negative ? "-" : "") + number.dropLast(digits) + "." + number.suffix(digits)
    }
}
