import CLodestoneFuzz
import CWaylandProtocols
import CWaylandServer
import LodestoneCompositor
import Glibc
import Logging
import WaylandServer

/// Feeds byte strings to a Lodestone in this process as Wayland requests from a client on a
/// socketpair (issue 17, 2a). Each input is one client's life: it binds every global (the
/// prologue, so the fuzzer need not discover interface names), then the input is read as a
/// list of requests, each encoded against the real signature of a live object (`Input`):
/// which object, which request, and every argument (integers from a table of extremes or
/// raw, strings, arrays, object ids, the next new id, and file descriptors stood in by
/// memfds, some truncated after they are sent). After each request the compositor handles
/// what arrived, advances its manual clock a frame and draws; at the end the client hangs up.
/// A crash, a trap or (under AddressSanitizer) a memory error ends the process.
final class WireFuzzer {
    private let display: Display
    private let compositor: Compositor
    /// Every interface a client can reach, by name: the globals' and those their requests create.
    private var interfaces: [String: UnsafePointer<wl_interface>] = [:]
    /// The prologue: get_registry, then a bind of every global at its version, ids 3...
    private var prologue: [UInt8] = []
    private var nextPrologueID: UInt32 = 3

    init() throws {
        display = try Display()
        var options = Compositor.Options()
        options.clock = .manual
        options.testControl = true
        var log = Logger(label: "lodestone-fuzz")
        log.logLevel = .critical
        compositor = try Compositor(display: display, options: options, logger: log)
        signal(SIGPIPE, SIG_IGN)
        // libwayland logs every malformed message it rejects: most inputs have one.
        wl_log_set_handler_server { _, _ in }
        try learnGlobals()
    }

    // MARK: One input

    func run(_ bytes: UnsafeRawBufferPointer) {
        var input = Input(bytes)
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return }
        let ours = pair[1]
        _ = fcntl(ours, F_SETFL, fcntl(ours, F_GETFL) | O_NONBLOCK)
        guard let client = display.createClient(fd: pair[0]) else { close(pair[0]); close(ours); return }
        var gone = false
        let listener = client.onDestroy { gone = true }
        send(prologue, fds: [], to: ours)
        turn(reading: ours)
        var nextID = nextPrologueID
        while !input.isEmpty && !gone {
            guard let message = encode(&input, client: client, nextID: &nextID) else { break }
            send(message.bytes, fds: message.fds, to: ours)
            for (fd, truncate) in message.fds {
                if truncate { _ = ftruncate(fd, 0) }
                close(fd)
            }
            turn(reading: ours)
        }
        close(ours)
        for _ in 0..<8 where !gone { turn(reading: -1) }
        if !gone { client.destroy() }
        withExtendedLifetime(listener) {}
    }

    /// The compositor handles what arrived, a frame passes and is drawn; what it sent is read and dropped.
    private func turn(reading fd: Int32) {
        for _ in 0..<4 {
            display.eventLoop.dispatch(timeout: 0)
            compositor.clock.advance(by: 17)
            compositor.composeIfNeeded()
            display.flushClients()
            if fd >= 0 { drain(fd) }
        }
    }

    private func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    // MARK: Encoding

    private struct Message {
        var bytes: [UInt8] = []
        var fds: [(Int32, truncate: Bool)] = []
    }

    /// The next request from `input`, aimed at a live object of the client and shaped by its signature.
    private func encode(_ input: inout Input, client: Client, nextID: inout UInt32) -> Message? {
        let live = (1..<nextID).filter { client.interfaceName(ofObject: $0) != nil }
        guard !live.isEmpty else { return nil }
        let id = live[Int(input.byte()) % live.count]
        guard let name = client.interfaceName(ofObject: id), let interface = interfaces[name],
              interface.pointee.method_count > 0 else { return nil }
        let opcode = Int(input.byte()) % Int(interface.pointee.method_count)
        let method = interface.pointee.methods[opcode]
        var message = Message(), args: [UInt8] = []
        var nullable = false
        for c in String(cString: method.signature).utf8 {
            switch c {
            case UInt8(ascii: "?"): nullable = true; continue
            case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "f"): args.append(word: input.integer())
            case UInt8(ascii: "s"):
                let length = Int(input.byte()) % 48
                if nullable && length == 0 { args.append(word: 0) } else { args.append(string: input.bytes(max(0, length - 1))) }
            case UInt8(ascii: "a"): args.append(array: input.bytes(Int(input.byte()) % 64))
            case UInt8(ascii: "o"):
                let pick = input.byte()
                args.append(word: nullable && pick % 5 == 0 ? 0 : pick % 17 == 0 ? UInt32(pick) &* 0x0101_0101 : live[Int(pick) % live.count])
            case UInt8(ascii: "n"):
                args.append(word: nextID)
                nextID &+= 1
            case UInt8(ascii: "h"):
                let how = input.byte()
                let fd = clf_memfd("lodestone-fuzz")
                guard fd >= 0 else { return nil }
                _ = ftruncate(fd, how & 1 == 0 ? 65536 : Int(how) * 64)
                message.fds.append((fd, truncate: how & 6 == 6))
            default: break  // the version a request came in (digits)
            }
            nullable = false
        }
        message.bytes.append(word: id)
        message.bytes.append(word: UInt32(8 + args.count) << 16 | UInt32(opcode))
        message.bytes += args
        return message
    }

    private func send(_ bytes: [UInt8], fds: [(Int32, truncate: Bool)], to socket: Int32) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { data in
            var iov = iovec(iov_base: UnsafeMutableRawPointer(mutating: data.baseAddress), iov_len: data.count)
            let space = MemoryLayout<cmsghdr>.stride + MemoryLayout<Int32>.stride * max(fds.count, 1) + 8
            let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: 8)
            defer { control.deallocate() }
            var header = msghdr()
            withUnsafeMutablePointer(to: &iov) { iovPointer in
                header.msg_iov = iovPointer
                header.msg_iovlen = 1
                if !fds.isEmpty {
                    let cmsg = control.assumingMemoryBound(to: cmsghdr.self)
                    cmsg.pointee.cmsg_level = SOL_SOCKET
                    cmsg.pointee.cmsg_type = Int32(SCM_RIGHTS)
                    cmsg.pointee.cmsg_len = MemoryLayout<cmsghdr>.stride + MemoryLayout<Int32>.stride * fds.count
                    let slots = (control + MemoryLayout<cmsghdr>.stride).assumingMemoryBound(to: Int32.self)
                    for (i, fd) in fds.enumerated() { slots[i] = fd.0 }
                    header.msg_control = control
                    header.msg_controllen = cmsg.pointee.cmsg_len
                }
                _ = sendmsg(socket, &header, Int32(MSG_NOSIGNAL))
            }
        }
    }

    // MARK: The globals

    /// Connects once to read the globals (name, interface, version) from wl_registry, builds
    /// the prologue that binds them all, and collects every interface reachable from theirs.
    private func learnGlobals() throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0,
              let client = display.createClient(fd: pair[0]) else { throw Failure("no socketpair for the prologue") }
        defer { client.destroy(); close(pair[1]) }
        var getRegistry: [UInt8] = []
        getRegistry.append(word: 1)
        getRegistry.append(word: 12 << 16 | 1)
        getRegistry.append(word: 2)
        send(getRegistry, fds: [], to: pair[1])
        display.eventLoop.dispatch(timeout: 0)
        display.flushClients()
        var events: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
        while case let n = read(pair[1], &buffer, buffer.count), n > 0 { events += buffer[..<n] }
        prologue = getRegistry
        var offset = 0
        while offset + 8 <= events.count {
            let object = events.word(at: offset), sizeAndOpcode = events.word(at: offset + 4)
            let size = Int(sizeAndOpcode >> 16)
            guard size >= 8, offset + size <= events.count else { break }
            if object == 2 && sizeAndOpcode & 0xffff == 0 {
                // wl_registry.global(name, interface, version)
                let name = events.word(at: offset + 8), length = Int(events.word(at: offset + 12))
                let interface = String(decoding: events[(offset + 16)..<(offset + 16 + max(0, length - 1))], as: UTF8.self)
                let version = events.word(at: offset + 16 + (length + 3) / 4 * 4)
                var args: [UInt8] = []
                args.append(word: name)
                args.append(string: Array(interface.utf8))
                args.append(word: version)
                args.append(word: nextPrologueID)
                nextPrologueID += 1
                prologue.append(word: 2)
                prologue.append(word: UInt32(8 + args.count) << 16 | 0)
                prologue += args
            }
            offset += size
        }
        guard nextPrologueID > 3 else { throw Failure("the registry announced no globals") }
        for root in rootInterfaces { collect(root) }
    }

    /// The interfaces of the globals and of the objects they make.
    private var rootInterfaces: [UnsafePointer<wl_interface>] {
        [cwp_wl_display_interface(), cwp_wl_registry_interface()] + Globals.interfaces(of: display)
    }

    private func collect(_ interface: UnsafePointer<wl_interface>) {
        let name = String(cString: interface.pointee.name)
        guard interfaces[name] == nil else { return }
        interfaces[name] = interface
        for list in [(interface.pointee.methods, interface.pointee.method_count), (interface.pointee.events, interface.pointee.event_count)] {
            guard let messages = list.0 else { continue }
            for i in 0..<Int(list.1) {
                let signature = String(cString: messages[i].signature).utf8.filter { !"0123456789?".utf8.contains($0) }
                guard let types = messages[i].types else { continue }
                for j in 0..<signature.count { if let t = types[j] { collect(t) } }
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// The interfaces of a display's globals, gathered through a global filter as libwayland
/// announces them to a throwaway client.
private enum Globals {
    nonisolated(unsafe) private static var seen: [UnsafePointer<wl_interface>] = []

    static func interfaces(of display: Display) -> [UnsafePointer<wl_interface>] {
        seen = []
        display.withDisplayPointer {
            wl_display_set_global_filter($0, { _, global, _ in
                if let global, let interface = wl_global_get_interface(global) { Globals.seen.append(interface) }
                return true
            }, nil)
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0,
              let client = display.createClient(fd: pair[0]) else { return [] }
        var getRegistry: [UInt8] = []
        getRegistry.append(word: 1)
        getRegistry.append(word: 12 << 16 | 1)
        getRegistry.append(word: 2)
        _ = getRegistry.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) }
        display.eventLoop.dispatch(timeout: 0)
        client.destroy()
        close(pair[1])
        display.withDisplayPointer { wl_display_set_global_filter($0, nil, nil) }
        return seen
    }
}
