/* cairo draws the adaptive pointer, its effects and annotation text
 * (antialiased paths, gradients, fontconfig/freetype text) straight into the
 * pixman images Lodestone composes. */
#include <cairo.h>
