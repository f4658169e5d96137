/* libXcursor: reads the Xcursor themes clients draw their cursors from. Only
 * the file-loading half is used (XcursorLibraryLoadImages); it needs no X server. */
#include <X11/Xcursor/Xcursor.h>
