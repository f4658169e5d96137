import CSDBus

/// An argument of a method call: the few D-Bus basic types AT-SPI's calls take.
enum DBusArgument {
    case string(String)
    case int32(Int32)
    case uint32(UInt32)
    /// A boolean in a variant (`v` holding `b`), as Properties.Set takes it.
    case variantBool(Bool)
}

/// An object on a bus: the connection's unique name and the object path (D-Bus `(so)`).
struct DBusObject: Hashable, CustomStringConvertible {
    var bus: String
    var path: String
    var description: String { "\(bus)\(path)" }
}

/// A method call's error reply, or the call failing before any reply (a timeout, a closed bus).
struct DBusError: Error, CustomStringConvertible {
    var name: String
    var message: String
    var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// A received `sd_bus_message`, readable only while the handler it was given to runs
/// (sd-bus frees it afterwards). Every reader returns nil when the next value is not of
/// the type asked for, so a toolkit that answers with another signature is ignored, not
/// trusted.
struct DBusMessage {
    /// The `sd_bus_message *` (made by `DBusConnection` only).
    let pointer: OpaquePointer

    private static func type(_ c: Character) -> CChar { CChar(bitPattern: c.asciiValue!) }

    private func readBasic<T>(_ type: Character, _ initial: T) -> T? {
        var value = initial
        let r = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(pointer, Self.type(type), $0) }
        return r > 0 ? value : nil
    }

    func readUInt32() -> UInt32? { readBasic("u", UInt32(0)) }
    func readInt32() -> Int32? { readBasic("i", Int32(0)) }
    /// A boolean (`b`, which sd-bus reads as an int).
    func readBool() -> Bool? { readBasic("b", Int32(0)).map { $0 != 0 } }

    /// A string (`s`) or an object path (`o`).
    func readString(_ type: Character = "s") -> String? {
        var value: UnsafePointer<CChar>?
        let r = sd_bus_message_read_basic(pointer, Self.type(type), &value)
        guard r > 0, let value else { return nil }
        return String(cString: value)
    }

    /// Reads the contents of a container (`a`, `r` for a struct, `v`, `e`) with `body`;
    /// nil when the next value is no such container. For an array `body` is called once per
    /// element until it returns nil or the array ends.
    func container<T>(_ type: Character, _ contents: String, _ body: () -> T?) -> T? {
        guard sd_bus_message_enter_container(pointer, Self.type(type), contents) > 0 else { return nil }
        defer { sd_bus_message_exit_container(pointer) }
        return body()
    }

    /// The elements of an array whose element signature is `contents`, at most `limit`.
    func array<T>(_ contents: String, limit: Int = .max, _ element: () -> T?) -> [T]? {
        container("a", contents) { () -> [T]? in
            var items: [T] = []
            while items.count < limit, !isAtEnd, let item = element() { items.append(item) }
            return items
        }
    }

    /// An `(so)` object reference.
    func readObject() -> DBusObject? {
        container("r", "so") { () -> DBusObject? in
            guard let bus = readString("s"), let path = readString("o") else { return nil }
            return DBusObject(bus: bus, path: path)
        }
    }

    /// The end of the container being read.
    var isAtEnd: Bool { sd_bus_message_at_end(pointer, 0) > 0 }

    var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }
    var path: String? { sd_bus_message_get_path(pointer).map { String(cString: $0) } }
    var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }

    /// The error this reply carries, if it is an error reply.
    var error: DBusError? {
        guard sd_bus_message_is_method_error(pointer, nil) > 0, let e = sd_bus_message_get_error(pointer) else { return nil }
        return DBusError(name: e.pointee.name.map { String(cString: $0) } ?? "error",
                         message: e.pointee.message.map { String(cString: $0) } ?? "")
    }
}
