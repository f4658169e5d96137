#!/usr/bin/env python3
"""Misbehaving and probing zwlr_output_manager_v1 clients for OutputManagementTests, in pywayland.

Usage: output_management_client.py MODE   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor;
Lodestone with two heads, --outputs 2)

Protocol errors (each prints 'RESULT: protocol-error'; libwayland logs 'interface#id: error code: ...'):
  head-twice        enable_head with the same head twice          (already_configured_head)
  unconfigured      apply naming only the first head               (unconfigured_head)
  used-twice        apply, then test the same configuration        (already_used)
  mode-twice        set_mode twice on one head                     (already_set)
  foreign-mode      set_mode with the other head's mode            (invalid_mode)
  custom-mode-zero  set_custom_mode(0, 0, 0)                       (invalid_custom_mode)
  bad-transform     set_transform(8)                               (invalid_transform)
  zero-scale        set_scale(0)                                   (invalid_scale)

Answers (print the configuration's event, then 'RESULT: ok'):
  stale-serial      a configuration made for the serial before the last: 'cancelled'
  all-off           both heads disabled: 'failed'
  far-away          the second head at (INT32_MAX - 10, INT32_MIN + 10): 'failed'
  test-move         test (not apply) the second head at 0,2000: 'succeeded', then the
                    position the manager reports after a round trip: 'position X Y'

The bindings are generated from protocols/wlr-output-management-unstable-v1.xml (not in
pywayland) with pywayland's scanner at start-up (pywayland_bindings.py).
"""
import errno
import os
import sys
import pywayland_bindings

HERE = os.path.dirname(os.path.abspath(__file__))
XML = os.path.join(HERE, "..", "..", "protocols", "wlr-output-management-unstable-v1.xml")
INT32_MAX, INT32_MIN = 2**31 - 1, -2**31


def bindings():
    return pywayland_bindings.generate("output_management_protocols", [pywayland_bindings.core(), XML],
                                       ["wlr_output_management_unstable_v1"])[0]

def main(mode):
    from pywayland.client import Display
    from pywayland import lib
    om = bindings()
    display = Display()
    display.connect()
    found = {}
    registry = display.get_registry()
    registry.dispatcher["global"] = lambda r, name, interface, version: found.__setitem__(interface, name)
    display.roundtrip()
    manager = registry.bind(found["zwlr_output_manager_v1"], om.ZwlrOutputManagerV1, 2)
    heads, serials = [], []

    def on_head(m, head):
        state = {"head": head, "modes": [], "name": None, "position": None}
        head.dispatcher["name"] = lambda h, name: state.__setitem__("name", name)
        head.dispatcher["mode"] = lambda h, mode: state["modes"].append(mode)
        head.dispatcher["position"] = lambda h, x, y: state.__setitem__("position", (x, y))
        heads.append(state)
    manager.dispatcher["head"] = on_head
    manager.dispatcher["done"] = lambda m, serial: serials.append(serial)
    display.roundtrip()
    display.roundtrip()
    heads.sort(key=lambda s: s["name"])
    if len(heads) < 2:
        print("needs two heads, got %d" % len(heads), flush=True)
        os._exit(2)
    first, second = heads[0]["head"], heads[1]["head"]
    answers = []

    def configuration(serial=None):
        c = manager.create_configuration(serials[-1] if serial is None else serial)
        for event in ("succeeded", "failed", "cancelled"):
            c.dispatcher[event] = (lambda e: lambda cfg: answers.append(e))(event)
        return c

    c = configuration()
    if mode == "head-twice":
        c.enable_head(first)
        c.enable_head(first)
    elif mode == "unconfigured":
        c.enable_head(first)
        c.apply()
    elif mode == "used-twice":
        c.enable_head(first)
        c.enable_head(second)
        c.apply()
        display.roundtrip()
        c.test()
    elif mode == "mode-twice":
        h = c.enable_head(first)
        h.set_mode(heads[0]["modes"][0])
        h.set_mode(heads[0]["modes"][0])
    elif mode == "foreign-mode":
        h = c.enable_head(first)
        h.set_mode(heads[1]["modes"][0])
    elif mode == "custom-mode-zero":
        c.enable_head(first).set_custom_mode(0, 0, 0)
    elif mode == "bad-transform":
        c.enable_head(first).set_transform(8)
    elif mode == "zero-scale":
        c.enable_head(first).set_scale(0)
    elif mode == "stale-serial":
        c.destroy()
        # A change (an identity configuration applied) moves the serial on.
        now = configuration()
        now.enable_head(first)
        now.enable_head(second)
        now.apply()
        display.roundtrip()
        answers.clear()
        c = configuration(serials[0])
        c.enable_head(first)
        c.enable_head(second)
        c.apply()
    elif mode == "all-off":
        c.disable_head(first)
        c.disable_head(second)
        c.apply()
    elif mode == "far-away":
        c.enable_head(first)
        c.enable_head(second).set_position(INT32_MAX - 10, INT32_MIN + 10)
        c.apply()
    elif mode == "test-move":
        c.enable_head(first)
        c.enable_head(second).set_position(0, 2000)
        c.test()
    else:
        print("unknown mode " + mode, file=sys.stderr)
        os._exit(2)
    for _ in range(3):
        if display.roundtrip() < 0:
            break
    if answers:
        print(answers[-1], flush=True)
    if mode == "test-move":
        print("position %d %d" % heads[1]["position"], flush=True)
    code = lib.wl_display_get_error(display._ptr)
    print("RESULT: " + ("ok" if code == 0 else ("protocol-error" if code == errno.EPROTO else "disconnected")), flush=True)
    sys.stderr.flush()
    # pywayland's proxies crash when collected after a protocol error: end here.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1])
