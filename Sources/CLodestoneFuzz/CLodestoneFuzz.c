// memfd_create needs _GNU_SOURCE, which Swift's view of glibc does not define.
#define _GNU_SOURCE
#include <sys/mman.h>
#include "CLodestoneFuzz.h"

int clf_memfd(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
