/* libinput for the TTY backend's devices, and libudev for its seat enumeration. */
#include <libinput.h>
#include <libudev.h>
