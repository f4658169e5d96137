"""The host's half of make test-tty: boots the guest (build-guest's kernel and initramfs,
the host's root over 9p) in QEMU under TCG, and talks to it: QMP for the virtual monitor
and input devices, the guest agent (guest-agent.py) on a virtio serial port for commands
inside it. Pictures come back as QMP screendumps (PPM, read here without any library)."""
import json, os, socket, struct, subprocess, time, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


class Picture:
    """An RGB image from a screendump (PPM P6)."""

    def __init__(self, width, height, rgb):
        self.width, self.height, self.rgb = width, height, rgb

    @classmethod
    def read_ppm(cls, path):
        data = open(path, "rb").read()
        fields, i = [], 0
        while len(fields) < 4:
            while data[i:i + 1].isspace():
                i += 1
            j = i
            while not data[j:j + 1].isspace():
                j += 1
            fields.append(data[i:j])
            i = j
        i += 1
        w, h = int(fields[1]), int(fields[2])
        return cls(w, h, data[i:i + w * h * 3])

    @classmethod
    def read_png(cls, path):
        """An 8-bit RGB or RGBA PNG, not interlaced (what Lodestone's --screenshot writes)."""
        data, chunks, i = open(path, "rb").read(), [], 8
        while i < len(data):
            n, kind = struct.unpack(">I4s", data[i:i + 8])
            chunks.append((kind, data[i + 8:i + 8 + n]))
            i += 12 + n
        w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", dict(chunks)[b"IHDR"])
        assert depth == 8 and colour in (2, 6) and not interlace, f"{path}: an unsupported PNG"
        bpp = 3 if colour == 2 else 4
        raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
        stride, out, previous = w * bpp, bytearray(), bytearray(w * bpp)
        for y in range(h):
            kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = previous[x], previous[x - bpp] if x >= bpp else 0
                if kind == 1: line[x] = (line[x] + a) & 255
                elif kind == 2: line[x] = (line[x] + b) & 255
                elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            out += line if bpp == 3 else b"".join(line[k:k + 3] for k in range(0, stride, 4))
            previous = line
        return cls(w, h, bytes(out))

    def pixel(self, x, y):
        o = (y * self.width + x) * 3
        return tuple(self.rgb[o:o + 3])

    def differing(self, other, box=None, tolerance=8):
        """How many pixels differ by more than tolerance in any channel (inside box)."""
        x0, y0, x1, y1 = box or (0, 0, self.width, self.height)
        n = 0
        for y in range(y0, y1):
            a = self.rgb[(y * self.width + x0) * 3:(y * self.width + x1) * 3]
            b = other.rgb[(y * other.width + x0) * 3:(y * other.width + x1) * 3]
            if a == b:
                continue
            n += sum(1 for k in range(0, len(a), 3)
                     if max(abs(a[k] - b[k]), abs(a[k + 1] - b[k + 1]), abs(a[k + 2] - b[k + 2])) > tolerance)
        return n

    def distinct_colours(self, step=7):
        return len({self.rgb[o:o + 3] for o in range(0, len(self.rgb), 3 * step)})

    def write_png(self, path, scale=1):
        """A PNG (scale 2 halves each side, for docs/tty.md)."""
        w, h = self.width // scale, self.height // scale
        rows = []
        for y in range(h):
            if scale == 1:
                row = self.rgb[y * self.width * 3:(y + 1) * self.width * 3]
            else:  # each pixel the mean of its scale × scale block
                lines = [self.rgb[(y * scale + k) * self.width * 3:(y * scale + k + 1) * self.width * 3] for k in range(scale)]
                row = bytes(sum(line[(x * scale + j) * 3 + c] for line in lines for j in range(scale)) // (scale * scale)
                            for x in range(w) for c in range(3))
            rows.append(b"\0" + row)
        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
               + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
        open(path, "wb").write(png)


class LineSocket:
    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.buffer = b""

    def send(self, obj):
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def receive(self, timeout):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the guest closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


QCODES = {c: c for c in "abcdefghijklmnopqrstuvwxyz0123456789"}
QCODES.update({" ": "spc", "\n": "ret", "-": "minus", ".": "dot", "/": "slash", ">": ("shift", "dot"),
               "_": ("shift", "minus"), "=": "equal", "'": "apostrophe", ";": "semicolon", "&": ("shift", "7")})


class VM:
    """One guest. heads: the virtio GPU's outputs (max_outputs)."""

    def __init__(self, run_dir, heads=1, memory=1024):
        self.run_dir = run_dir
        self.share = os.path.join(run_dir, "share")
        os.makedirs(self.share, exist_ok=True)
        vm_dir = os.path.dirname(run_dir)
        for name in ("qmp.sock", "agent.sock"):
            if os.path.exists(os.path.join(run_dir, name)):
                os.unlink(os.path.join(run_dir, name))
        self.console = os.path.join(run_dir, "console.log")
        # More than one head: QEMU's D-Bus display, on a private bus, is what connects and
        # disconnects them (Console_N.SetUIInfo; see set_head). Without a UI every head but
        # the first stays disconnected.
        self.bus = None
        if heads > 1:
            address = f"unix:path={run_dir}/bus.sock"
            if os.path.exists(f"{run_dir}/bus.sock"):
                os.unlink(f"{run_dir}/bus.sock")
            self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address", f"--address={address}"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.bus.stdout.readline()
            self.bus_address = address
        command = ["nice", "-n", "5", "qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-smp", "1",
                   "-m", str(memory), "-nodefaults", "-no-user-config",
                   "-display", f"dbus,p2p=no,addr={self.bus_address}" if self.bus else "none",
                   "-kernel", os.path.join(vm_dir, "vmlinuz"), "-initrd", os.path.join(vm_dir, "initramfs.cpio.gz"),
                   "-append", f"console=ttyS0 quiet loglevel=4 panic=-1 vminit={HERE}/guest-init",
                   "-serial", f"file:{self.console}", "-no-reboot",
                   "-device", f"virtio-vga,id=video0,max_outputs={heads},xres=1024,yres=768",
                   "-device", "virtio-tablet-pci,display=video0",
                   "-device", "virtio-mouse-pci,display=video0",
                   "-device", "virtio-keyboard-pci,display=video0",
                   "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot",
                   "-virtfs", f"local,path={self.share},mount_tag=vmshare,security_model=none,id=vmshare",
                   "-device", "virtio-serial-pci",
                   "-chardev", f"socket,id=agent,path={run_dir}/agent.sock,server=on,wait=off",
                   "-device", "virtserialport,chardev=agent,name=agent",
                   "-qmp", f"unix:{run_dir}/qmp.sock,server=on,wait=off"]
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(os.path.join(run_dir, "qemu.log"), "wb"),
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        self.qmp = LineSocket(f"{run_dir}/qmp.sock", deadline)
        self.qmp.receive(10)  # the greeting
        self.command("qmp_capabilities")
        self.agent = LineSocket(f"{run_dir}/agent.sock", deadline)
        self.heads = heads
        self.width, self.height = 1024, 768

    def wait_ready(self, timeout=90):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"QEMU exited ({self.process.returncode}); see {self.console}")
            if b"guest: ready" in open(self.console, "rb").read():
                try:
                    self.run("true", timeout=20)
                    return time.monotonic() - self.started
                except (socket.timeout, EOFError):
                    pass
            time.sleep(0.2)
        raise RuntimeError(f"the guest did not come up in {timeout} s; see {self.console}")

    def set_head(self, head, width, height):
        """Connects head `head` at width × height, or disconnects it (0 × 0): the monitor
        plugged in or pulled out, as the guest's DRM driver sees it (a hotplug event)."""
        subprocess.run(["gdbus", "call", "--address", self.bus_address, "--dest", "org.qemu",
                        "--object-path", f"/org/qemu/Display1/Console_{head}", "--method",
                        "org.qemu.Display1.Console.SetUIInfo", "0", "0", "0", "0", str(width), str(height)],
                       check=True, stdout=subprocess.DEVNULL, timeout=20)

    def close(self):
        if self.bus:
            self.bus.kill()
            self.bus.wait()
        if self.process.poll() is None:
            try:
                self.command("quit")
            except Exception:
                pass
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # QMP

    def command(self, name, **arguments):
        self.qmp.send({"execute": name, "arguments": arguments} if arguments else {"execute": name})
        while True:
            reply = self.qmp.receive(60)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError(f"QMP {name}: {reply['error']}")

    def send_events(self, events):
        self.command("input-send-event", device="video0", events=events)

    def move_to(self, x, y, head=0):
        """Absolute motion (the tablet), in the head's pixels. One pixel off first: evdev
        drops an absolute position equal to the device's last one (a previous session's)."""
        for dx in (1, 0):
            self.command("input-send-event", device="video0", head=head, events=[
                {"type": "abs", "data": {"axis": "x", "value": int(min(x + dx, self.width - 1) * 32767 / (self.width - 1))}},
                {"type": "abs", "data": {"axis": "y", "value": int(y * 32767 / (self.height - 1))}}])

    def move_by(self, dx, dy):
        """Relative motion (the mouse)."""
        self.send_events([{"type": "rel", "data": {"axis": "x", "value": dx}},
                          {"type": "rel", "data": {"axis": "y", "value": dy}}])

    def button(self, name, down):
        self.send_events([{"type": "btn", "data": {"button": name, "down": down}}])

    def click(self, name="left"):
        self.button(name, True)
        time.sleep(0.08)
        self.button(name, False)

    def scroll(self, notches):
        """Wheel notches: positive scrolls down (wheel-down buttons on the tablet)."""
        name = "wheel-down" if notches > 0 else "wheel-up"
        for _ in range(abs(notches)):
            self.click(name)

    def keys(self, *qcodes, hold=0.05):
        """Presses the keys in order, then releases them in reverse (a chord)."""
        for q in qcodes:
            self.send_events([{"type": "key", "data": {"key": {"type": "qcode", "data": q}, "down": True}}])
            time.sleep(0.02)
        time.sleep(hold)
        for q in reversed(qcodes):
            self.send_events([{"type": "key", "data": {"key": {"type": "qcode", "data": q}, "down": False}}])
            time.sleep(0.02)

    def type(self, text):
        for c in text:
            q = QCODES[c]
            self.keys(*(q if isinstance(q, tuple) else (q,)), hold=0.01)

    def screendump(self, name, head=None):
        path = os.path.join(self.run_dir, name + ".ppm")
        if head is None:
            self.command("screendump", filename=path)
        else:
            self.command("screendump", filename=path, device="video0", head=head)
        return Picture.read_ppm(path)

    # The guest agent

    def run(self, shell, timeout=30):
        self.agent.send({"run": shell, "timeout": timeout})
        reply = self.agent.receive(timeout + 10)
        return reply["status"], reply["out"]

    def spawn(self, shell, log):
        self.agent.send({"spawn": shell, "log": log})
        return self.agent.receive(30)["pid"]

    def wait(self, pid, timeout):
        self.agent.send({"wait": pid, "timeout": timeout})
        return self.agent.receive(timeout + 10)["status"]
