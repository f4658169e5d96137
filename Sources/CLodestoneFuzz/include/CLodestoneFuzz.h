#ifndef CLODESTONEFUZZ_H
#define CLODESTONEFUZZ_H

/// memfd_create(name, MFD_CLOEXEC): glibc declares it only under _GNU_SOURCE. The fuzzer's
/// stand-ins for a client's file descriptors.
int clf_memfd(const char *name);

#endif
