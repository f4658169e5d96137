"""pywayland bindings for the protocols pywayland does not ship: generated at start-up with
pywayland's scanner from their XML files (wayland-scanner's core protocol, wayland-protocols,
or this repository's protocols/) into a fresh directory, and imported. The test clients that
speak such a protocol all generate theirs here."""
import importlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOLS = os.path.join(HERE, "..", "..", "protocols")


def pkg_data(package):
    return subprocess.check_output(["pkg-config", "--variable=pkgdatadir", package], text=True).strip()


def core():
    """The core protocol's XML (wayland.xml), which the others name."""
    return os.path.join(pkg_data("wayland-scanner"), "wayland.xml")


def wayland_protocols(*parts):
    """An XML of wayland-protocols, e.g. ("stable", "xdg-shell", "xdg-shell.xml")."""
    return os.path.join(pkg_data("wayland-protocols"), *parts)


def repository(name):
    """An XML of this repository's protocols/."""
    return os.path.join(PROTOCOLS, name)


def generate(package, xmls, modules):
    """Generates `xmls` into a new package `package` and returns its `modules` (one per XML,
    named as the scanner names them: the file's name with '_' for '-'), in that order."""
    directory = tempfile.mkdtemp(prefix="lodestone-%s-" % package.replace("_", "-"))
    out = os.path.join(directory, package)
    subprocess.check_call([sys.executable, "-m", "pywayland.scanner", "-i", *xmls, "-o", out], stderr=subprocess.DEVNULL)
    open(os.path.join(out, "__init__.py"), "w").close()
    sys.path.insert(0, directory)
    return tuple(importlib.import_module(package + "." + m) for m in modules)
