#!/usr/bin/python3
"""Lists the showing elements of one app's windows over AT-SPI, as JSON on stdout.

The accuracy benchmark (`lodestone-bench --accuracy`, docs/accuracy.md) reads each app's tree
with this, through libatspi (gir1.2-atspi-2.0), independently of Lodestone's own walk
(`Sources/PointerAdaptation/Accessibility`), and decides from it what each element should make
the pointer do.

    atspi_elements.py PID [--limit N]

Each element: its role, name, states, extents in screen coordinates and the extents of the
frame (toplevel) it is in, the nearest interactive ancestor's role (`within`), whether it or an
interactive ancestor is greyed out (neither sensitive nor enabled: `greyed`), what its children
are (for icon-only buttons) and, for text, the height of its first line. Only elements that are visible (or showing) and inside their frame.
"""
import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

MAX_DEPTH = 80
MAX_NODES = 20000
# Roles whose descendants are part of them (a check box's label, a slider's value): `within`
# names the nearest such ancestor.
INTERACTIVE = {"push button", "toggle button", "check box", "radio button", "combo box", "menu item", "check menu item",
               "radio menu item", "page tab", "link", "slider", "spin button", "text", "entry", "password text",
               "terminal", "scroll bar", "switch", "menu", "list item", "table cell", "tree item", "table column header"}


def states_of(node):
    s = node.get_state_set()
    names = []
    for state, name in ((Atspi.StateType.SHOWING, "showing"), (Atspi.StateType.VISIBLE, "visible"),
                        (Atspi.StateType.EDITABLE, "editable"), (Atspi.StateType.FOCUSABLE, "focusable"),
                        (Atspi.StateType.SENSITIVE, "sensitive"), (Atspi.StateType.ENABLED, "enabled"),
                        (Atspi.StateType.SELECTABLE_TEXT, "selectable-text"), (Atspi.StateType.MULTI_LINE, "multi-line"),
                        (Atspi.StateType.SINGLE_LINE, "single-line"), (Atspi.StateType.CHECKABLE, "checkable"),
                        (Atspi.StateType.DEFUNCT, "defunct")):
        if s.contains(state):
            names.append(name)
    return names


def extents(node):
    try:
        e = node.get_extents(Atspi.CoordType.SCREEN)
        return [e.x, e.y, e.width, e.height]
    except Exception:
        return None


def line_height(node):
    """The height of the first character's box, where the element has text."""
    try:
        text = node.get_text_iface()
        if text is None or text.get_character_count() == 0:
            return None
        box = text.get_character_extents(0, Atspi.CoordType.SCREEN)
        return box.height if box.height > 0 else None
    except Exception:
        return None


def child_roles(node, depth=0):
    """The roles under a button, five levels deep: GTK 4.8 hides a button's label in panels."""
    roles = []
    if depth >= 5:
        return roles
    try:
        for i in range(min(node.get_child_count(), 16)):
            c = node.get_child_at_index(i)
            if c is not None:
                roles.append(c.get_role_name())
                roles.extend(child_roles(c, depth + 1))
    except Exception:
        pass
    return roles


def main():
    pid = int(sys.argv[1])
    limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else None
    desktop = Atspi.get_desktop(0)
    apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
    apps = [a for a in apps if a is not None and a.get_process_id() == pid]
    out = []
    visited = 0
    for app in apps:
        for f in range(app.get_child_count()):
            frame = app.get_child_at_index(f)
            if frame is None:
                continue
            fx = extents(frame)
            if not fx or fx[2] <= 0 or fx[3] <= 0 or "showing" not in states_of(frame):
                continue
            stack = [(frame, 0, "", False)]
            while stack and visited < MAX_NODES:
                node, depth, within, greyed = stack.pop()
                visited += 1
                try:
                    states = states_of(node)
                    role = node.get_role_name()
                    name = node.get_name() or ""
                    count = node.get_child_count()
                except Exception:
                    continue
                # GTK 4.8 marks only windows as showing; visible is what every toolkit sets, and
                # a hidden stack page has no extents (or lies outside its frame).
                if not ("showing" in states or "visible" in states) or "defunct" in states:
                    continue
                e = extents(node)
                if node is not frame and e and e[2] > 0 and e[3] > 0:
                    inside = e[0] >= fx[0] and e[1] >= fx[1] and e[0] + e[2] <= fx[0] + fx[2] and e[1] + e[3] <= fx[1] + fx[3]
                    if inside:
                        out.append({"role": role, "name": name[:80], "states": states, "extents": e, "frame": fx,
                                    "frameName": frame.get_name() or "", "depth": depth, "within": within,
                                    "greyed": greyed or ("sensitive" not in states and "enabled" not in states),
                                    "children": child_roles(node) if role in ("push button", "toggle button", "button") else [],
                                    "lineHeight": line_height(node) if role in ("text", "entry", "password text", "terminal", "paragraph", "label", "spin button", "editbar", "document text") else None})
                if depth < MAX_DEPTH:
                    for i in reversed(range(min(count, 2000))):
                        try:
                            c = node.get_child_at_index(i)
                        except Exception:
                            c = None
                        if c is not None:
                            greyed_below = greyed or (role in INTERACTIVE and "sensitive" not in states and "enabled" not in states)
                            stack.append((c, depth + 1, role if role in INTERACTIVE else within, greyed_below))
    if limit is not None:
        out = out[:limit]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
