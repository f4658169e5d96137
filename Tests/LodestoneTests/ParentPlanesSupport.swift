import CWaylandClient
import CWaylandProtocols
import Foundation
import LodestoneTesting
import WaylandClient
import XCTest

/// A headless Lodestone parent (test control, real clock) with a nested Lodestone in it whose
/// parent planes are on or off (`--parent-planes`): the two sides of every comparison in
/// `ParentPlanesTests`.
final class PlanesRig {
    let planes: Bool
    let parent: Session
    let nested: Session
    /// Parent pixels per logical point.
    let parentScale: Double

    init(planes: Bool, parentSize: String = "1000x760", nestedSize: String = "800x600", parentScale: Double = 1,
         parentArguments: [String] = [], nestedArguments: [String] = [], nestedEnvironment: [String: String] = [:]) throws {
        self.planes = planes
        self.parentScale = parentScale
        parent = try Session(size: parentSize, scale: parentScale, extraArguments: parentArguments)
        do {
            nested = try Session(nestedIn: parent, size: nestedSize, extraArguments: ["--parent-planes", planes ? "on" : "off"] + nestedArguments,
                                 environment: nestedEnvironment)
        } catch {
            parent.stop()
            throw error
        }
    }

    func stop() {
        nested.stop()
        parent.stop()
    }

    var name: String { planes ? "planes on" : "planes off" }

    /// The nested output's rect in the parent's capture (parent pixels).
    func outputRect() throws -> (x: Int, y: Int, width: Int, height: Int) {
        let w = try parent.waitForWindow("Lodestone")
        func px(_ v: Int32) -> Int { Int((Double(v) * parentScale).rounded()) }
        return (px(w.x), px(w.y), px(w.x + w.width) - px(w.x), px(w.y + w.height) - px(w.y))
    }

    /// The parent's capture once the nested Lodestone's last frame has reached it: two
    /// captures in a row, `interval` apart, the same.
    func settledShot(timeout: TimeInterval = 10, interval: UInt32 = 120_000) throws -> Screenshot {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try parent.screenshot("settle")
        while Date() < deadline {
            usleep(interval)
            let shot = try parent.screenshot("settle")
            if shot.pixels == last.pixels { return shot }
            last = shot
        }
        return last
    }

    /// Subsurfaces the nested Lodestone made in the parent, from its WAYLAND_DEBUG=client trace
    /// (the window's own title bar, when it draws one, is one of them).
    var subsurfacesMade: Int { nested.log.split(separator: "\n").filter { $0.contains("wl_subcompositor@") && $0.contains(".get_subsurface(") }.count }
}

/// Two captures of the same scene, each at its own place: how many pixels differ by more
/// than `threshold` in a channel, and the largest difference.
struct CaptureComparison: CustomStringConvertible {
    var differing = 0, total = 0, worst = 0
    var examples: [String] = []
    var share: Double { total == 0 ? 0 : Double(differing) / Double(total) }
    var description: String {
        "\(differing) of \(total) pixels (\(String(format: "%.3f", share * 100)) %) differ, by at most \(worst) in a channel; e.g. \(examples.prefix(6).joined(separator: ", "))"
    }

    init(_ a: Screenshot, _ ra: (x: Int, y: Int, width: Int, height: Int), _ b: Screenshot, _ rb: (x: Int, y: Int, width: Int, height: Int),
         threshold: Int) {
        let w = min(ra.width, rb.width), h = min(ra.height, rb.height)
        for y in 0..<h {
            for x in 0..<w {
                let ax = ra.x + x, ay = ra.y + y, bx = rb.x + x, by = rb.y + y
                guard ax >= 0, ay >= 0, bx >= 0, by >= 0, ax < a.width, ay < a.height, bx < b.width, by < b.height else { continue }
                total += 1
                let p = a[ax, ay], q = b[bx, by]
                var d = 0
                for shift in [0, 8, 16] { d = max(d, abs(Int(p >> UInt32(shift) & 0xff) - Int(q >> UInt32(shift) & 0xff))) }
                worst = max(worst, d)
                if d > threshold {
                    differing += 1
                    if examples.count < 12 { examples.append("(\(x), \(y)) \(String(p, radix: 16)) vs \(String(q, radix: 16))") }
                }
            }
        }
    }
}

/// A test client's toplevel with still, deterministic pixels: a gradient, an opaque or
/// translucent one, from a seed.
func patternWindow(_ globals: Globals, title: String, width: Int32, height: Int32, seed: UInt32, translucent: Bool = false) throws -> Window {
    try Window(globals, title: title, width: width, height: height) { buffer in
        fillPattern(buffer, seed: seed, translucent: translucent)
    }
}

/// Premultiplied ARGB: diagonal stripes of colours from `seed`, half transparent when
/// `translucent` (the top quarter fully transparent, as a shadow margin would be).
func fillPattern(_ buffer: ClientShmBuffer, seed: UInt32, translucent: Bool = false) {
    let w = Int(buffer.width), h = Int(buffer.height), stride = Int(buffer.stride / 4)
    buffer.withPixels { p in
        for y in 0..<h {
            for x in 0..<w {
                // Stripes whose slant and width follow the seed, so surfaces tell apart.
                let band = UInt32((x * Int(seed % 3 + 1) + y * Int(seed % 2 == 0 ? 1 : -1) + 4096) / (6 + Int(seed % 5) * 3)) &+ seed
                var r = (band &* 67) & 0xff, g = (band &* 131 &+ UInt32(y)) & 0xff, b = (band &* 29 &+ UInt32(x)) & 0xff
                var a: UInt32 = 0xff
                if translucent {
                    a = y < h / 4 ? 0 : 0x80
                    r = r * a / 255; g = g * a / 255; b = b * a / 255
                }
                p[y * stride + x] = a << 24 | r << 16 | g << 8 | b
            }
        }
    }
}

/// A surface of `globals`' client: made, given a role by `role`, filled with a pattern.
final class PatternSurface {
    let surface: Proxy
    var buffer: ClientShmBuffer?

    init(_ globals: Globals) throws {
        surface = try Proxy(creating: { globals.compositor.request { wl_compositor_create_surface($0) } }, on: globals.connection, what: "wl_compositor.create_surface")
    }

    /// Attaches a new `width`×`height` buffer (scale and transform as given) and commits.
    func show(_ globals: Globals, width: Int32, height: Int32, seed: UInt32, scale: Int32 = 1, transform: Int32 = 0, translucent: Bool = false) throws {
        let b = try ClientShmBuffer(on: globals.shm, width: width, height: height)
        fillPattern(b, seed: seed, translucent: translucent)
        buffer = b
        surface.request { wl_surface_set_buffer_scale($0, scale) }
        surface.request { wl_surface_set_buffer_transform($0, transform) }
        surface.request(b.buffer) { wl_surface_attach($0, $1, 0, 0) }
        surface.request { wl_surface_damage_buffer($0, 0, 0, width, height) }
        surface.request { wl_surface_commit($0) }
    }
}
