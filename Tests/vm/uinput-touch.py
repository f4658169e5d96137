#!/usr/bin/env python3
"""A touchscreen in the guest, for tty-test's touch scenario: a multitouch device through
/dev/uinput (the legacy uinput_user_dev setup, one write), its axes in the first head's
pixels (WIDTH×HEIGHT), so libinput maps a point straight onto the output. It taps where
the file /vm/tap says ("X Y"), removing the file and printing "tapped X Y", and lives until
killed (the device goes with it: libinput sees it removed).

Usage: uinput-touch.py WIDTH HEIGHT"""
import fcntl, os, struct, sys, time

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH = 0x14a
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2f, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 1
# _IOW('U', n, int) and _IO('U', 1) on x86-64.
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556e
UI_DEV_CREATE = 0x5501

width, height = int(sys.argv[1]), int(sys.argv[2])
fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
for ev in (EV_SYN, EV_KEY, EV_ABS):
    fcntl.ioctl(fd, UI_SET_EVBIT, ev)
fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
maximum = {ABS_X: width - 1, ABS_Y: height - 1, ABS_MT_POSITION_X: width - 1, ABS_MT_POSITION_Y: height - 1,
           ABS_MT_SLOT: 9, ABS_MT_TRACKING_ID: 65535}
for axis in maximum:
    fcntl.ioctl(fd, UI_SET_ABSBIT, axis)
absmax = [maximum.get(i, 0) for i in range(64)]
# struct uinput_user_dev: name[80], input_id (bus, vendor, product, version), ff_effects_max,
# absmax[64], absmin[64], absfuzz[64], absflat[64].
os.write(fd, struct.pack("80sHHHHi64i64i64i64i", b"Lodestone test touchscreen", 0x06, 0x1, 0x1, 1, 0,
                         *absmax, *([0] * 64), *([0] * 64), *([0] * 64)))
fcntl.ioctl(fd, UI_DEV_CREATE)
print("created", flush=True)


def emit(*events):
    for kind, code, value in events + ((EV_SYN, 0, 0),):
        os.write(fd, struct.pack("llHHi", 0, 0, kind, code, value))


tracking = 0
while True:
    try:
        x, y = (int(v) for v in open("/vm/tap").read().split())
    except (FileNotFoundError, ValueError):
        time.sleep(0.1)
        continue
    os.remove("/vm/tap")
    tracking += 1
    emit((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, tracking), (EV_ABS, ABS_MT_POSITION_X, x),
         (EV_ABS, ABS_MT_POSITION_Y, y), (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y))
    time.sleep(0.2)
    emit((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0))
    print("tapped", x, y, flush=True)
