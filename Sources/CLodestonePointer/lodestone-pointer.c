/* CLodestonePointer: the public header of liblodestone-pointer, imported by the Swift target
 * that implements it (LodestonePointerC), so the structs Swift fills are laid out exactly as C
 * callers see them. This file only makes the header's module a C target; it defines nothing. */
#include "lodestone-pointer.h"
