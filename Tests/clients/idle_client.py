#!/usr/bin/env python3
"""An ext_idle_notify_v1 client for Lodestone's idle tests (IdleNotifyTests), in pywayland.

Usage: idle_client.py TIMEOUT_MS...   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Binds ext_idle_notifier_v1, asks for one ext_idle_notification_v1 per timeout and prints
'ready' once the compositor has them; then prints 'idled MS' and 'resumed MS' as they come.
On SIGUSR1 it does a round trip and prints 'synced N' (N counts the syncs): every event the
compositor sent before the signal is printed before that line, so a test can tell that an
event did not come.
"""
import select
import signal
import sys


def say(*words):
    print(*words, flush=True)


def main(timeouts):
    from pywayland.client import Display
    from pywayland.protocol.wayland import WlSeat
    from pywayland.protocol.ext_idle_notify_v1 import ExtIdleNotifierV1

    display = Display()
    display.connect()
    found = {}
    registry = display.get_registry()
    registry.dispatcher["global"] = lambda r, name, interface, version: found.__setitem__(interface, name)
    display.roundtrip()
    if "ext_idle_notifier_v1" not in found:
        say("no ext_idle_notifier_v1")
        return 1
    seat = registry.bind(found["wl_seat"], WlSeat, 1)
    notifier = registry.bind(found["ext_idle_notifier_v1"], ExtIdleNotifierV1, 1)
    notifications = []
    for ms in timeouts:
        n = notifier.get_idle_notification(ms, seat)
        n.dispatcher["idled"] = lambda _, ms=ms: say("idled", ms)
        n.dispatcher["resumed"] = lambda _, ms=ms: say("resumed", ms)
        notifications.append(n)
    display.roundtrip()
    say("ready")

    requested = []
    signal.signal(signal.SIGUSR1, lambda *_: requested.append(1))
    syncs = 0
    fd = display.get_fd()
    while True:
        display.flush()
        readable, _, _ = select.select([fd], [], [], 0.05)
        if readable and display.dispatch(block=True) < 0:
            say("disconnected")
            return 1
        while requested:
            requested.pop()
            if display.roundtrip() < 0:
                say("disconnected")
                return 1
            syncs += 1
            say("synced", syncs)


if __name__ == "__main__":
    sys.exit(main([int(t) for t in sys.argv[1:]]))
