#define _GNU_SOURCE
#include "CAllocationHook.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Benchmark tooling, not the compositor: this state lives for one counted child process. */
enum { max_callers = 32, max_frames = 32 };
static const char *caller_names[max_callers];
static long caller_allocations[max_callers];
static int caller_count;
static long nested;
static const char *interposer_name;
static const char *libc_name;
static int dump_fd = -1;
static __thread int in_hook;

static const char *library_of(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return "?";
    return info.dli_fname;
}

const char *lodestone_allocation_library_of(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}

void lodestone_allocation_hook_prepare(const void *interposer, int fd) {
    void *frames[4];
    backtrace(frames, 4);
    interposer_name = library_of(interposer);
    libc_name = library_of((const void *)(uintptr_t)&memcpy);
    caller_count = 0;
    nested = 0;
    dump_fd = fd;
}

/* dli_fname strings are the loader's own, one per library, so a pointer compare suffices. */
static void tally(const char *name) {
    for (int i = 0; i < caller_count; i++) {
        if (caller_names[i] == name) {
            caller_allocations[i]++;
            return;
        }
    }
    if (caller_count == max_callers) return;
    caller_names[caller_count] = name;
    caller_allocations[caller_count] = 1;
    caller_count++;
}

void lodestone_allocation_hook(size_t size) {
    (void)size;
    if (in_hook) {
        nested++;
        return;
    }
    in_hook = 1;
    void *frames[max_frames];
    int n = backtrace(frames, max_frames);
    /* frames: this hook, the interposer's malloc (and its helpers), maybe libc (strdup,
     * fopen...), then whoever asked. */
    int past_interposer = 0;
    const char *caller = "?";
    for (int i = 1; i < n; i++) {
        const char *name = library_of(frames[i]);
        if (name == interposer_name) {
            past_interposer = 1;
            continue;
        }
        if (!past_interposer || name == libc_name) continue;
        caller = name;
        break;
    }
    tally(caller);
    if (dump_fd >= 0) {
        static const char separator[] = "-- allocation\n";
        (void)!write(dump_fd, separator, sizeof separator - 1);
        backtrace_symbols_fd(frames, n, dump_fd);
    }
    in_hook = 0;
}

int lodestone_allocation_hook_caller_count(void) { return caller_count; }
const char *lodestone_allocation_hook_caller_name(int index) { return caller_names[index]; }
long lodestone_allocation_hook_caller_allocations(int index) { return caller_allocations[index]; }
long lodestone_allocation_hook_nested(void) { return nested; }
