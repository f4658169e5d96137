/* libseat: the session (seatd, logind or builtin) that opens DRM and input devices. */
#include <libseat.h>
