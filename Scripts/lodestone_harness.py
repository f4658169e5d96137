"""What Scripts/soak and Scripts/bench-abuse share: a headless Lodestone of their own, its
memory and descriptors, and a well-behaved client's round-trip latency (pywayland)."""
import os
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Compositor:
    """Starts `lodestone --backend headless` on a socket in a private runtime directory;
    `lodestone` is LODESTONE_BIN/lodestone or .build/debug/lodestone."""

    def __init__(self, extra=()):
        binary = os.path.join(os.environ.get("LODESTONE_BIN", os.path.join(ROOT, ".build", "debug")), "lodestone")
        if not os.access(binary, os.X_OK):
            raise SystemExit("%s is not built (swift build)" % binary)
        self.runtime = tempfile.mkdtemp(prefix="lodestone-harness-")
        os.chmod(self.runtime, 0o700)
        self.socket = "wayland-harness"
        self.log = open(os.path.join(self.runtime, "lodestone.log"), "w")
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, WAYLAND_DISPLAY=self.socket)
        self.process = subprocess.Popen([binary, "--backend", "headless", "--size", "1280x800", "--socket", self.socket,
                                         "--log-level", "warning", *extra],
                                        env=dict(self.env, XDG_CONFIG_HOME=self.runtime), stdout=self.log, stderr=self.log)
        path = os.path.join(self.runtime, self.socket)
        deadline = time.monotonic() + 60
        while not os.path.exists(path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("lodestone did not start:\n" + open(self.log.name).read())
            time.sleep(0.05)
        # Clients of this process find it through the environment.
        os.environ["XDG_RUNTIME_DIR"] = self.runtime
        os.environ["WAYLAND_DISPLAY"] = self.socket

    @property
    def alive(self):
        return self.process.poll() is None

    def status(self, key):
        """A /proc/PID/status figure in bytes (VmRSS, RssAnon, ...)."""
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def cpu_ms(self):
        """CPU time the compositor has used (user + system), in milliseconds."""
        with open("/proc/%d/stat" % self.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.process.pid))

    def stop(self):
        if self.alive:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.runtime, ignore_errors=True)


class Reference:
    """The well-behaved client: one connection making wl_display.sync round trips."""

    def __init__(self):
        from pywayland.client import Display
        self.display = Display()
        self.display.connect()
        self.display.roundtrip()

    def round_trip_ms(self):
        start = time.perf_counter()
        if self.display.roundtrip() < 0:
            raise SystemExit("the reference client lost its connection")
        return (time.perf_counter() - start) * 1000

    def close(self):
        self.display.disconnect()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")
