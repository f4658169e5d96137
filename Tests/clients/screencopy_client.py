#!/usr/bin/env python3
"""A zwlr_screencopy_manager_v1 client written with pywayland, for Lodestone's tests of
screen copies: what grim does not show (damage, timestamps, refused buffers).

Usage: screencopy_client.py MODE   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Modes:
  damage         copy_with_damage twice: prints 'buffer W H STRIDE FORMAT', then for each
                 copy 'damage X Y W H' lines and 'ready SEC NSEC'; prints 'waiting' once the
                 second copy is sent (it completes only when the screen changes), and
                 'pixel X Y 0xRRGGBB' of the first copy's (X, Y) from the environment's
                 PROBE=X,Y if set
  wrong-size     copies into a buffer one pixel narrower than announced
  narrow-stride  copies into a buffer whose stride is too small for the width
  single-pixel   copies into a single-pixel buffer (not wl_shm)
  twice          copies the same frame twice

The error modes print 'RESULT: failed', 'RESULT: protocol-error' or 'RESULT: ready'; a
protocol error is logged by libwayland on stderr ('zwlr_screencopy_frame_v1#N: error 1: ...').

The bindings are generated from protocols/wlr-screencopy-unstable-v1.xml (not in
pywayland) with pywayland's scanner at start-up, together with the core protocol and
single-pixel-buffer so every proxy comes from one set of modules.
"""
import errno
import mmap
import os
import sys
import pywayland_bindings

HERE = os.path.dirname(os.path.abspath(__file__))
SCREENCOPY = os.path.join(HERE, "..", "..", "protocols", "wlr-screencopy-unstable-v1.xml")


def bindings():
    return pywayland_bindings.generate("screencopy_protocols",
                                       [pywayland_bindings.core(),
                                        pywayland_bindings.wayland_protocols("staging", "single-pixel-buffer", "single-pixel-buffer-v1.xml"),
                                        SCREENCOPY],
                                       ["wayland", "single_pixel_buffer_v1", "wlr_screencopy_unstable_v1"])

def say(*words):
    print(*words, flush=True)


class Client:
    def __init__(self):
        from pywayland.client import Display
        self.wl, self.spb, self.sc = bindings()
        self.display = Display()
        self.display.connect()
        self.globals = {}
        registry = self.display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: self.globals.__setitem__(interface, (name, version))
        self.display.roundtrip()
        self.registry = registry
        self.shm = self.bind("wl_shm", self.wl.WlShm, 1)
        self.output = self.bind("wl_output", self.wl.WlOutput, 1)
        self.manager = self.bind("zwlr_screencopy_manager_v1", self.sc.ZwlrScreencopyManagerV1, 3)

    def bind(self, name, cls, version):
        return self.registry.bind(self.globals[name][0], cls, version)

    def frame(self):
        """A frame of the whole output, with its buffer announcement recorded."""
        frame = self.manager.capture_output(0, self.output)
        info = {"events": []}
        frame.dispatcher["buffer"] = lambda f, fmt, w, h, stride: info.update(format=fmt, width=w, height=h, stride=stride)
        frame.dispatcher["buffer_done"] = lambda f: info.__setitem__("done", True)
        frame.dispatcher["flags"] = lambda f, flags: info["events"].append(("flags", flags))
        frame.dispatcher["damage"] = lambda f, x, y, w, h: info["events"].append(("damage", x, y, w, h))
        frame.dispatcher["ready"] = lambda f, hi, lo, ns: info["events"].append(("ready", (hi << 32) | lo, ns))
        frame.dispatcher["failed"] = lambda f: info["events"].append(("failed",))
        while "done" not in info and self.display.dispatch(block=True) >= 0:
            pass
        return frame, info

    def shm_buffer(self, width, height, stride, fmt):
        size = stride * height
        fd = os.memfd_create("screencopy-client", 0)
        os.ftruncate(fd, size)
        data = mmap.mmap(fd, size)
        pool = self.shm.create_pool(fd, size)
        buffer = pool.create_buffer(0, width, height, stride, fmt)
        pool.destroy()
        os.close(fd)
        return buffer, data

    def finished(self, info):
        return any(e[0] in ("ready", "failed") for e in info["events"])


def outcome(display):
    from pywayland import lib
    code = lib.wl_display_get_error(display._ptr)
    if code == 0:
        return "ok"
    return "protocol-error" if code == errno.EPROTO else "disconnected"


def damage(c):
    frame, info = c.frame()
    say("buffer", info["width"], info["height"], info["stride"], info["format"])
    buffer, data = c.shm_buffer(info["width"], info["height"], info["stride"], info["format"])
    frame.copy_with_damage(buffer)
    while not c.finished(info) and c.display.dispatch(block=True) >= 0:
        pass
    report(info)
    probe = os.environ.get("PROBE")
    if probe:
        x, y = (int(v) for v in probe.split(","))
        offset = y * info["stride"] + x * 4
        say("pixel", x, y, "0x%06x" % (int.from_bytes(data[offset:offset + 4], "little") & 0xffffff))
    frame.destroy()
    second, info2 = c.frame()
    second.copy_with_damage(buffer)
    c.display.roundtrip()
    say("waiting" if not c.finished(info2) else "finished-early")
    while not c.finished(info2) and c.display.dispatch(block=True) >= 0:
        pass
    report(info2)


def report(info):
    for event in info["events"]:
        if event[0] == "ready":
            say("ready", event[1], event[2])
        else:
            say(*event)


def error(c, mode):
    frame, info = c.frame()
    w, h, stride, fmt = info["width"], info["height"], info["stride"], info["format"]
    keep = []
    if mode == "wrong-size":
        keep.append(c.shm_buffer(w - 1, h, stride, fmt))
        frame.copy(keep[-1][0])
    elif mode == "narrow-stride":
        keep.append(c.shm_buffer(w, h, w * 2, fmt))
        frame.copy(keep[-1][0])
    elif mode == "single-pixel":
        manager = c.bind("wp_single_pixel_buffer_manager_v1", c.spb.WpSinglePixelBufferManagerV1, 1)
        keep.append(manager.create_u32_rgba_buffer(0, 0, 0, 0xffffffff))
        frame.copy(keep[-1])
    elif mode == "twice":
        keep.append(c.shm_buffer(w, h, stride, fmt))
        frame.copy(keep[-1][0])
        frame.copy(keep[-1][0])
    for _ in range(3):
        if c.display.roundtrip() < 0:
            break
    result = outcome(c.display)
    if result == "ok":
        result = "failed" if ("failed",) in info["events"] else "ready" if c.finished(info) else "nothing"
    say("RESULT: " + result)
    sys.stderr.flush()
    # Proxies of a dead connection crash pywayland's finalizers: leave without them.
    os._exit(0)


def main(mode):
    c = Client()
    if mode == "damage":
        damage(c)
    elif mode in ("wrong-size", "narrow-stride", "single-pixel", "twice"):
        error(c, mode)
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv[1])
