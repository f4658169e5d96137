"""pywayland bindings for the input-method tests: the core protocol, xdg-shell, text-input v3
(wayland-protocols), and input-method v2 and virtual-keyboard v1 (protocols/, not in
wayland-protocols), generated with pywayland's scanner at start-up, as data_control_client.py
does. input-method v2 names text-input v3's enums, so they are generated together."""
import importlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOLS = os.path.join(HERE, "..", "..", "protocols")


def pkg_data(package):
    return subprocess.check_output(["pkg-config", "--variable=pkgdatadir", package], text=True).strip()


def bindings():
    """(wayland, xdg_shell, text_input_v3, input_method_v2, virtual_keyboard_v1) modules."""
    directory = tempfile.mkdtemp(prefix="lodestone-ime-")
    protocols = pkg_data("wayland-protocols")
    xmls = [os.path.join(pkg_data("wayland-scanner"), "wayland.xml"),
            os.path.join(protocols, "stable", "xdg-shell", "xdg-shell.xml"),
            os.path.join(protocols, "unstable", "text-input", "text-input-unstable-v3.xml"),
            os.path.join(PROTOCOLS, "input-method-unstable-v2.xml"),
            os.path.join(PROTOCOLS, "virtual-keyboard-unstable-v1.xml")]
    out = os.path.join(directory, "ime_bindings")
    subprocess.check_call([sys.executable, "-m", "pywayland.scanner", "-i", *xmls, "-o", out], stderr=subprocess.DEVNULL)
    open(os.path.join(out, "__init__.py"), "w").close()
    sys.path.insert(0, directory)
    names = ["wayland", "xdg_shell", "text_input_unstable_v3", "input_method_unstable_v2", "virtual_keyboard_unstable_v1"]
    return tuple(importlib.import_module("ime_bindings." + n) for n in names)
