#!/usr/bin/env python3
"""A zwp_linux_dmabuf_v1 client, written with pywayland, for Lodestone's tests (DmabufTests,
Tests/vm/tty-test's dmabuf scenario).

Usage: dmabuf_client.py MODE [ARG]   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Real dmabufs come from /dev/udmabuf (a memfd sealed against shrinking, made a dmabuf by the
udmabuf driver, where the kernel has it: CONFIG_UDMABUF), else from a DRM dumb buffer exported
with PRIME (any /dev/dri/card* that makes one: the QEMU guest's virtio-gpu; Debian 12's kernel
has no udmabuf); a plain memfd maps the same but is no dmabuf, which is what the import modes
below rely on. Without either, `show` prints 'RESULT: no-dmabuf'.

Modes:
  show [immed|argb|v3]    a 200×120 window from one linear XRGB8888 dmabuf (stride 864, offset
                          4096, the X byte 0): red, green, blue and white quadrants; `immed`
                          makes it with create_immed, `argb` an opaque ARGB8888 one, `v3` binds
                          version 3. Prints 'mapped' once shown, then 'fds N' (its own) and
                          stays until killed
  feedback                version 4: the default feedback and a surface's, printed as
                          'main_device MAJ:MIN', 'table XR24:0x0 AR24:0x0', 'tranche MAJ:MIN
                          flags F formats ...', 'done'; then versions 3 and 1: 'v3 modifier ...',
                          'v1 format ...'
  feedback-watch N        the default feedback until it named N different main devices (10 s
                          at most), printing 'main_device MAJ:MIN' at each done
  failed                  create from a memfd (no dmabuf): prints 'failed' (the event)
  failed-v3-implicit      version 3, a memfd plane with DRM_FORMAT_MOD_INVALID: 'failed'
  churn N                 N params destroyed unused, N creates from memfds answered 'failed',
                          and (where dmabufs can be made) N dmabuf wl_buffers made and destroyed;
                          prints 'churned'
  fd-flood                adds planes from memfds until the compositor's limit (256) stops it

Protocol errors (each prints RESULT: protocol-error; libwayland logs the message on stderr):
  already-used            add after create
  plane-idx               add with plane index 4
  plane-set               plane 0 added twice
  incomplete-none         create with no plane
  incomplete-gap          planes 0 and 2
  incomplete-planes       XRGB8888 with two planes
  invalid-format          a fourcc never advertised ('NV12')
  invalid-modifier        XRGB8888 with DRM_FORMAT_MOD_INVALID at version 4
  modifier-mismatch       two planes with different modifiers
  invalid-dimensions      a 0×120 buffer
  out-of-bounds           stride × height past the end of the fd
  short-stride            a stride less than a row of pixels
  invalid-wl-buffer       create_immed from a memfd (no dmabuf)

Prints 'RESULT: <what happened>': 'protocol-error', 'disconnected', 'ok', or a mode's own.
"""
import errno
import fcntl
import mmap
import os
import struct
import sys
import time

from pywayland import lib
from pywayland.client import Display
from pywayland.protocol.linux_dmabuf_unstable_v1 import ZwpLinuxDmabufV1
from pywayland.protocol.wayland import WlCompositor
from pywayland.protocol.xdg_shell import XdgWmBase

XR24, AR24, NV12 = 0x34325258, 0x34325241, 0x3231564E
LINEAR, INVALID = 0, 0x00FFFFFFFFFFFFFF
WIDTH, HEIGHT, STRIDE, OFFSET = 200, 120, 200 * 4 + 64, 4096
# The quadrants, as 0xXXRRGGBB with X 0: XRGB8888 ignores it (an ARGB reading would be clear).
QUADRANTS = (0x00FF0000, 0x0000FF00, 0x000000FF, 0x00FFFFFF)
UDMABUF_CREATE = 0x40187542  # _IOW('u', 0x42, struct udmabuf_create { u32 memfd, flags; u64 offset, size; })
UDMABUF_FLAGS_CLOEXEC = 1
F_ADD_SEALS, F_SEAL_SHRINK = 1033, 2


def outcome(display):
    code = lib.wl_display_get_error(display._ptr)
    if code == 0:
        return "ok"
    return "protocol-error" if code == errno.EPROTO else "disconnected"


def memfd(size=1 << 20):
    fd = os.memfd_create("dmabuf-client", os.MFD_ALLOW_SEALING)
    os.ftruncate(fd, size)
    return fd


def make_dmabuf(size, fill=None):
    """A linear dmabuf of at least `size` bytes (a page multiple), `fill(mmap)` drawing into it
    first: from /dev/udmabuf when there is one, else a DRM dumb buffer exported with PRIME
    (`dumb_buffer`); None when neither can be made."""
    if os.path.exists("/dev/udmabuf"):
        return udmabuf(size, fill)
    return dumb_buffer(size, fill)


def udmabuf(size, fill):
    """A memfd sealed against shrinking, made a dmabuf by the udmabuf driver."""
    backing = memfd(size)
    if fill:
        with mmap.mmap(backing, size) as m:
            fill(m)
    fcntl.fcntl(backing, F_ADD_SEALS, F_SEAL_SHRINK)
    device = os.open("/dev/udmabuf", os.O_RDWR | os.O_CLOEXEC)
    try:
        return fcntl.ioctl(device, UDMABUF_CREATE, bytearray(struct.pack("=IIQQ", backing, UDMABUF_FLAGS_CLOEXEC, 0, size)), True)
    finally:
        os.close(device)
        os.close(backing)


DRM_IOCTL_MODE_CREATE_DUMB = 0xC02064B2  # _IOWR('d', 0xB2, struct drm_mode_create_dumb), 32 bytes
DRM_IOCTL_MODE_DESTROY_DUMB = 0xC00464B4  # _IOWR('d', 0xB4, struct drm_mode_destroy_dumb), 4 bytes
DRM_IOCTL_PRIME_HANDLE_TO_FD = 0xC00C642D  # _IOWR('d', 0x2D, struct drm_prime_handle), 12 bytes
DMA_BUF_IOCTL_SYNC = 0x40086200  # _IOW('b', 0, struct dma_buf_sync)
DMA_BUF_SYNC_WRITE, DMA_BUF_SYNC_END = 2, 4


def dumb_buffer(size, fill):
    """A DRM dumb buffer (linear, in memory) on the first /dev/dri/card* that makes one,
    exported as a dmabuf (PRIME), then drawn through the dmabuf's own mapping between
    DMA_BUF_IOCTL_SYNC start and end. Root may make one on a card another process drives."""
    cards = sorted(n for n in os.listdir("/dev/dri") if n.startswith("card")) if os.path.isdir("/dev/dri") else []
    for name in cards:
        try:
            card = os.open("/dev/dri/" + name, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            # Rows of 4096 bytes, as many as the size needs: the buffer is raw memory here.
            rows = -(-size // 4096)
            request = bytearray(struct.pack("=IIIIIIQ", rows, 1024, 32, 0, 0, 0, 0))
            fcntl.ioctl(card, DRM_IOCTL_MODE_CREATE_DUMB, request, True)
            handle = struct.unpack_from("=I", request, 16)[0]
            prime = bytearray(struct.pack("=IIi", handle, os.O_CLOEXEC | os.O_RDWR, -1))
            fcntl.ioctl(card, DRM_IOCTL_PRIME_HANDLE_TO_FD, prime, True)
            fd = struct.unpack_from("=i", prime, 8)[0]
            # The dmabuf holds the memory now; the handle on the card can go.
            fcntl.ioctl(card, DRM_IOCTL_MODE_DESTROY_DUMB, bytearray(struct.pack("=I", handle)), True)
        except OSError:
            continue
        finally:
            os.close(card)
        if fill:
            fcntl.ioctl(fd, DMA_BUF_IOCTL_SYNC, struct.pack("=Q", DMA_BUF_SYNC_WRITE))
            with mmap.mmap(fd, size) as m:
                fill(m)
            fcntl.ioctl(fd, DMA_BUF_IOCTL_SYNC, struct.pack("=Q", DMA_BUF_SYNC_WRITE | DMA_BUF_SYNC_END))
        return fd
    return None


def draw(m, fourcc=XR24):
    for y in range(HEIGHT):
        row = bytearray()
        for x in range(WIDTH):
            colour = QUADRANTS[(y >= HEIGHT // 2) * 2 + (x >= WIDTH // 2)]
            if fourcc == AR24:
                colour |= 0xFF000000
            row += struct.pack("<I", colour)
        m[OFFSET + y * STRIDE:OFFSET + y * STRIDE + len(row)] = bytes(row)


class Client:
    def __init__(self, version=4):
        self.display = Display()
        self.display.connect()
        self.globals = {}
        self.registry = self.display.get_registry()
        self.registry.dispatcher["global"] = lambda r, name, interface, version: self.globals.__setitem__(interface, (name, version))
        self.display.roundtrip()
        if "zwp_linux_dmabuf_v1" not in self.globals:
            print("RESULT: no-linux-dmabuf", flush=True)
            sys.exit(0)
        self.dmabuf = self.bind_dmabuf(version)
        self.compositor = self.registry.bind(self.globals["wl_compositor"][0], WlCompositor, 4)

    def bind_dmabuf(self, version):
        return self.registry.bind(self.globals["zwp_linux_dmabuf_v1"][0], ZwpLinuxDmabufV1, version)

    def params(self, planes, modifier=LINEAR):
        """Params with (fd, index, offset, stride) planes added."""
        p = self.dmabuf.create_params()
        for fd, index, offset, stride in planes:
            p.add(fd, index, offset, stride, modifier >> 32, modifier & 0xFFFFFFFF)
        return p

    def answer(self, params):
        """'created' or 'failed', the event after create."""
        said = []
        params.dispatcher["created"] = lambda p, buffer: said.append(("created", buffer))
        params.dispatcher["failed"] = lambda p: said.append(("failed", None))
        while not said and self.display.roundtrip() >= 0:
            pass
        return said[0] if said else (outcome(self.display), None)

    def window(self, buffer):
        wm = self.registry.bind(self.globals["xdg_wm_base"][0], XdgWmBase, 2)
        wm.dispatcher["ping"] = lambda w, serial: w.pong(serial)
        surface = self.compositor.create_surface()
        xdg = wm.get_xdg_surface(surface)
        toplevel = xdg.get_toplevel()
        toplevel.set_title("dmabuf-client")
        serial = []
        xdg.dispatcher["configure"] = lambda x, s: serial.append(s)
        surface.commit()
        while not serial and self.display.roundtrip() >= 0:
            pass
        xdg.ack_configure(serial[-1])
        surface.attach(buffer, 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        shown = []
        surface.frame().dispatcher["done"] = lambda cb, t: shown.append(t)
        surface.commit()
        while not shown and self.display.roundtrip() >= 0:
            pass
        return surface, xdg, toplevel


def show(option):
    c = Client(3 if option == "v3" else 4)
    fourcc = AR24 if option == "argb" else XR24
    fd = make_dmabuf(OFFSET + STRIDE * HEIGHT + 4096 - (OFFSET + STRIDE * HEIGHT) % 4096, lambda m: draw(m, fourcc))
    if fd is None:
        print("RESULT: no-dmabuf", flush=True)
        return
    params = c.params([(fd, 0, OFFSET, STRIDE)])
    if option == "immed":
        buffer = params.create_immed(WIDTH, HEIGHT, fourcc, 0)
    else:
        params.create(WIDTH, HEIGHT, fourcc, 0)
        what, buffer = c.answer(params)
        if what != "created":
            print(f"RESULT: {what}", flush=True)
            return
    params.destroy()
    os.close(fd)
    keep = c.window(buffer)
    print("mapped", flush=True)
    print(f"fds {len(os.listdir('/proc/self/fd'))}", flush=True)
    while c.display.dispatch() >= 0:
        pass
    del keep
    print(f"RESULT: {outcome(c.display)}", flush=True)


def feedback():
    c = Client(4)
    lines = []

    def listen(fb, name):
        table = []

        def on_table(f, fd, size):
            table[:] = read_table(fd, size)
            lines.append(f"{name} table " + " ".join(table))

        fb.dispatcher["format_table"] = on_table
        fb.dispatcher["main_device"] = lambda f, dev: lines.append(f"{name} main_device {device(dev)}")
        tranche = {}
        fb.dispatcher["tranche_target_device"] = lambda f, dev: tranche.__setitem__("device", device(dev))
        fb.dispatcher["tranche_flags"] = lambda f, flags: tranche.__setitem__("flags", flags)
        fb.dispatcher["tranche_formats"] = lambda f, indices: tranche.__setitem__(
            "formats", [table[i] for i in struct.unpack(f"={len(indices) // 2}H", indices)])
        fb.dispatcher["tranche_done"] = lambda f: lines.append(
            f"{name} tranche {tranche.get('device')} flags {tranche.get('flags')} formats {' '.join(tranche.get('formats', []))}")
        fb.dispatcher["done"] = lambda f: lines.append(f"{name} done")

    listen(c.dmabuf.get_default_feedback(), "default")
    listen(c.dmabuf.get_surface_feedback(c.compositor.create_surface()), "surface")
    c.display.roundtrip()
    v3 = c.bind_dmabuf(3)
    v3.dispatcher["modifier"] = lambda d, fourcc, hi, lo: lines.append(f"v3 modifier {pair(fourcc, hi << 32 | lo)}")
    v3.dispatcher["format"] = lambda d, fourcc: lines.append(f"v3 format {fourcc_name(fourcc)}")
    v1 = c.bind_dmabuf(1)
    v1.dispatcher["format"] = lambda d, fourcc: lines.append(f"v1 format {fourcc_name(fourcc)}")
    c.display.roundtrip()
    print("\n".join(lines), flush=True)
    print(f"RESULT: {outcome(c.display)}", flush=True)


def feedback_watch(n):
    """The default feedback until it named `n` different main devices (or 10 s passed): prints
    'main_device MAJ:MIN' at each done."""
    c = Client(4)
    fb = c.dmabuf.get_default_feedback()
    now, seen = {}, []
    fb.dispatcher["format_table"] = lambda f, fd, size: os.close(fd)
    fb.dispatcher["main_device"] = lambda f, dev: now.__setitem__("device", device(dev))

    def done(f):
        print(f"main_device {now.get('device')}", flush=True)
        if now.get("device") not in seen:
            seen.append(now.get("device"))

    fb.dispatcher["done"] = done
    deadline = time.monotonic() + 10
    while len(seen) < n and time.monotonic() < deadline and c.display.roundtrip() >= 0:
        time.sleep(0.05)
    print(f"RESULT: {outcome(c.display)}", flush=True)


def fourcc_name(f):
    return struct.pack("<I", f).decode("ascii", "replace")


def pair(fourcc, modifier):
    return f"{fourcc_name(fourcc)}:{modifier:#x}"


def device(dev):
    (d,) = struct.unpack("=Q", dev)
    return f"{os.major(d)}:{os.minor(d)}"


def read_table(fd, size):
    with mmap.mmap(fd, size, mmap.MAP_PRIVATE, mmap.PROT_READ) as m:
        entries = [struct.unpack_from("=IIQ", m, i * 16) for i in range(size // 16)]
    # The table must be sealed: a write through our fd is refused.
    try:
        os.pwrite(fd, b"x", 0)
        entries.append((0, 0, 0xDEAD))  # shows up as a bogus entry the test refuses
    except OSError:
        pass
    os.close(fd)
    return [pair(f, m) for f, _, m in entries]


def failed(version, modifier):
    c = Client(version)
    fd = memfd()
    params = c.params([(fd, 0, 0, WIDTH * 4)], modifier)
    params.create(WIDTH, HEIGHT, XR24, 0)
    what, _ = c.answer(params)
    print(what, flush=True)
    params.destroy()
    c.display.roundtrip()
    print(f"RESULT: {outcome(c.display)}", flush=True)


def churn(n):
    c = Client(4)
    for i in range(n):
        fd = memfd(1 << 16)
        c.params([(fd, 0, 0, WIDTH * 4)]).destroy()
        p = c.params([(fd, 0, 0, WIDTH * 4)])
        p.create(WIDTH, 10, XR24, 0)
        assert c.answer(p)[0] == "failed"
        p.destroy()
        os.close(fd)
        real = make_dmabuf(1 << 16)
        if real is not None:
            p = c.params([(real, 0, 0, WIDTH * 4)])
            os.close(real)
            buffer = p.create_immed(WIDTH, 10, XR24, 0)
            p.destroy()
            buffer.destroy()
        if i % 16 == 0:
            c.display.roundtrip()
    c.display.roundtrip()
    print("churned", flush=True)
    print(f"RESULT: {outcome(c.display)}", flush=True)


def fd_flood():
    c = Client(4)
    fd = memfd(1 << 16)
    for i in range(300):
        c.params([(fd, 0, 0, WIDTH * 4)])
        if c.display.roundtrip() < 0:
            print(f"stopped after {i} planes", flush=True)
            break
    print(f"RESULT: {outcome(c.display)}", flush=True)


def protocol_error(mode):
    c = Client(4)
    fd = memfd()
    row = WIDTH * 4
    if mode == "already-used":
        p = c.params([(fd, 0, 0, row)])
        p.create(WIDTH, HEIGHT, XR24, 0)
        p.add(fd, 1, 0, row, 0, 0)
    elif mode == "plane-idx":
        c.params([(fd, 4, 0, row)])
    elif mode == "plane-set":
        c.params([(fd, 0, 0, row), (fd, 0, 0, row)])
    elif mode == "incomplete-none":
        c.dmabuf.create_params().create(WIDTH, HEIGHT, XR24, 0)
    elif mode == "incomplete-gap":
        c.params([(fd, 0, 0, row), (fd, 2, 0, row)]).create(WIDTH, HEIGHT, XR24, 0)
    elif mode == "incomplete-planes":
        c.params([(fd, 0, 0, row), (fd, 1, 0, row)]).create(WIDTH, HEIGHT, XR24, 0)
    elif mode == "invalid-format":
        c.params([(fd, 0, 0, row)]).create(WIDTH, HEIGHT, NV12, 0)
    elif mode == "invalid-modifier":
        c.params([(fd, 0, 0, row)], INVALID).create(WIDTH, HEIGHT, XR24, 0)
    elif mode == "modifier-mismatch":
        p = c.params([(fd, 0, 0, row)])
        p.add(fd, 1, 0, row, 0, 1)
        p.create(WIDTH, HEIGHT, XR24, 0)
    elif mode == "invalid-dimensions":
        c.params([(fd, 0, 0, row)]).create(0, HEIGHT, XR24, 0)
    elif mode == "out-of-bounds":
        c.params([(fd, 0, 0, row)]).create(WIDTH, (1 << 20) // row + 1, XR24, 0)
    elif mode == "short-stride":
        c.params([(fd, 0, 0, row - 4)]).create(WIDTH, HEIGHT, XR24, 0)
    elif mode == "invalid-wl-buffer":
        c.params([(fd, 0, 0, row)]).create_immed(WIDTH, HEIGHT, XR24, 0)
    else:
        sys.exit(f"unknown mode {mode}")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and c.display.roundtrip() >= 0:
        time.sleep(0.02)
    print(f"RESULT: {outcome(c.display)}", flush=True)


def main(mode, arg=None):
    if mode == "show":
        show(arg)
    elif mode == "feedback":
        feedback()
    elif mode == "feedback-watch":
        feedback_watch(int(arg))
    elif mode == "failed":
        failed(4, LINEAR)
    elif mode == "failed-v3-implicit":
        failed(3, INVALID)
    elif mode == "churn":
        churn(int(arg))
    elif mode == "fd-flood":
        fd_flood()
    else:
        protocol_error(mode)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    sys.stdout.flush()
    os._exit(0)  # pywayland's proxies crash the interpreter's last garbage collection
