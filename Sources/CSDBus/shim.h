/* sd-bus (libsystemd): the D-Bus client for the accessibility bus. It hands out its
 * file descriptor, the events it waits for and its next timeout, and does its work in
 * sd_bus_process, so it runs on the wl_event_loop without a thread. Only the
 * non-variadic calls are used (Swift cannot call C variadic functions). */
#include <systemd/sd-bus.h>
#include <poll.h>
