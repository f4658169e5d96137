"""lodestone_pointer: a ctypes binding of liblodestone-pointer's engine API (no Swift needed).

The structs mirror include/lodestone-pointer.h field for field; each is created with its `size`
set, as the header asks. Only the engine calls are bound (the server helper needs a
wl_display, which Python compositors do not have).

    from lodestone_pointer import Engine, Region, EFFECT_HIGHLIGHT
    engine = Engine(0, 0, 320, 200)
    engine.set_region(1, Region(identifier=7, x=100, y=80, width=80, height=40, effect=EFFECT_HIGHLIGHT))
    engine.motion(0.0, 130, 95)
    frame = engine.step(0.5)
    engine.draw(pixels, width, height)        # a ctypes uint32 array, premultiplied ARGB

The library is found through $LODESTONE_POINTER_LIBRARY, else the system's linker path
(make install puts it in PREFIX/lib).
"""
import ctypes
import ctypes.util
import os

from ctypes import c_bool, c_char_p, c_double, c_int32, c_uint32, c_uint64, c_void_p, POINTER

EFFECT_AUTOMATIC, EFFECT_NONE, EFFECT_HIGHLIGHT, EFFECT_LIFT, EFFECT_HOVER = range(5)
SHAPE_KIND_NAMES = ["circle", "vertical_beam", "horizontal_beam", "rounded_rect", "custom", "hidden", "band"]
EFFECT_KIND_NAMES = ["none", "highlight", "lift", "hover"]
EVENT_NAMES = ["entered", "left", "band_began", "band_changed", "band_ended"]


class Region(ctypes.Structure):
    _fields_ = [
        ("size", c_uint32), ("identifier", c_uint32), ("surface", c_uint64),
        ("x", c_double), ("y", c_double), ("width", c_double), ("height", c_double),
        ("corner_radius", c_double), ("stacking_order", c_int32), ("effect", c_uint32), ("hover_tint", c_uint32),
        ("hover_shadow", c_bool), ("hover_scale", c_bool), ("opaque_background", c_bool), ("band_selection", c_bool),
        ("shape", c_uint32), ("shape_parameter", c_double), ("hit_area", c_uint32), ("hit_padding", c_double),
        ("hit_x", c_double), ("hit_y", c_double), ("hit_width", c_double), ("hit_height", c_double),
        ("magnetism", c_uint32), ("latching_axes", c_uint32), ("constrained_axes", c_uint32),
        ("annotation", c_char_p),
    ]


class Presentation(ctypes.Structure):
    _fields_ = [
        ("size", c_uint32), ("shape_kind", c_uint32), ("time", c_double),
        ("logical_x", c_double), ("logical_y", c_double), ("device_x", c_double), ("device_y", c_double),
        ("x", c_double), ("y", c_double), ("width", c_double), ("height", c_double), ("corner_radius", c_double),
        ("alpha", c_double), ("effect_kind", c_uint32), ("targeted", c_bool), ("visible", c_bool), ("animating", c_bool),
        ("effect_progress", c_double), ("effect_scale", c_double),
        ("target_region", c_uint64), ("target_identifier", c_uint32), ("accessory_count", c_uint32),
        ("damage_x", c_double), ("damage_y", c_double), ("damage_width", c_double), ("damage_height", c_double),
        ("band", c_bool), ("band_x", c_double), ("band_y", c_double), ("band_width", c_double), ("band_height", c_double),
        ("annotation", c_bool), ("annotation_alpha", c_double),
    ]


class Event(ctypes.Structure):
    _fields_ = [
        ("size", c_uint32), ("type", c_uint32), ("region", c_uint64), ("identifier", c_uint32),
        ("x", c_double), ("y", c_double), ("width", c_double), ("height", c_double),
    ]


def load(path=None):
    """The library, with every bound function's argument and result types declared."""
    path = path or os.environ.get("LODESTONE_POINTER_LIBRARY") or ctypes.util.find_library("lodestone-pointer")
    if not path:
        raise OSError("liblodestone-pointer not found: set LODESTONE_POINTER_LIBRARY or make install")
    lib = ctypes.CDLL(path)
    engine = c_void_p
    signatures = {
        "lodestone_pointer_version": (c_uint32, []),
        "lodestone_pointer_engine_create": (engine, [c_double] * 4),
        "lodestone_pointer_engine_destroy": (None, [engine]),
        "lodestone_pointer_region_init": (None, [POINTER(Region), c_uint32]),
        "lodestone_pointer_engine_set_region": (c_int32, [engine, c_uint64, POINTER(Region)]),
        "lodestone_pointer_engine_remove_region": (c_bool, [engine, c_uint64]),
        "lodestone_pointer_engine_motion": (None, [engine, c_double, c_double, c_double]),
        "lodestone_pointer_engine_button": (None, [engine, c_double, c_bool]),
        "lodestone_pointer_engine_step": (c_bool, [engine, c_double, POINTER(Presentation)]),
        "lodestone_pointer_engine_next_event": (c_bool, [engine, POINTER(Event)]),
        "lodestone_pointer_engine_draw": (c_bool, [engine, POINTER(c_uint32), c_int32, c_int32, c_int32, c_double,
                                                   c_int32, c_int32, c_int32, c_int32]),
    }
    for name, (result, arguments) in signatures.items():
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
    return lib


class Engine:
    """One engine (lodestone_pointer_engine), freed with close() or when collected."""

    def __init__(self, x, y, width, height, library=None):
        self.lib = library or load()
        self.handle = self.lib.lodestone_pointer_engine_create(x, y, width, height)
        if not self.handle:
            raise ValueError("empty or non-finite output rectangle")

    def close(self):
        if self.handle:
            self.lib.lodestone_pointer_engine_destroy(self.handle)
            self.handle = None

    __del__ = close

    def version(self):
        v = self.lib.lodestone_pointer_version()
        return (v >> 16, (v >> 8) & 0xFF, v & 0xFF)

    def region(self, **fields):
        """A region with the library's defaults, then `fields`."""
        r = Region()
        self.lib.lodestone_pointer_region_init(ctypes.byref(r), ctypes.sizeof(r))
        for name, value in fields.items():
            setattr(r, name, value)
        return r

    def set_region(self, region_id, region):
        code = self.lib.lodestone_pointer_engine_set_region(self.handle, region_id, ctypes.byref(region))
        if code != 0:
            raise ValueError(f"region refused (lodestone_pointer_error {code})")

    def motion(self, time, x, y):
        self.lib.lodestone_pointer_engine_motion(self.handle, time, x, y)

    def button(self, time, pressed):
        self.lib.lodestone_pointer_engine_button(self.handle, time, pressed)

    def step(self, time):
        p = Presentation(size=ctypes.sizeof(Presentation))
        self.lib.lodestone_pointer_engine_step(self.handle, time, ctypes.byref(p))
        return p

    def events(self):
        """The events queued for clients, as (name, identifier) pairs."""
        out = []
        e = Event(size=ctypes.sizeof(Event))
        while self.lib.lodestone_pointer_engine_next_event(self.handle, ctypes.byref(e)):
            out.append((EVENT_NAMES[e.type], e.identifier))
        return out

    def draw(self, pixels, width, height, scale=1.0):
        """Draws the last frame over `pixels` (width × height premultiplied ARGB, one uint32 each)."""
        if not self.lib.lodestone_pointer_engine_draw(self.handle, pixels, width, height, width * 4, scale, 0, 0, width, height):
            raise ValueError("bad buffer")
