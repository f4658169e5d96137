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

/* The interposer's C API (interposer.h), found with dlsym. */
typedef void (*toggle_t)(void);
typedef void (*hook_t)(size_t);
typedef void (*set_hook_t)(hook_t);
typedef void (*stats_t)(int64_t *, int64_t *, int64_t *, int64_t *, int64_t *, int64_t *);
static toggle_t enable, disable, reset;
static set_hook_t set_hook;
static stats_t get_stats;

static const char *library_of(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return "?";
    return info.dli_fname;
}

int lodestone_interposer_loaded(void) {
    enable = (toggle_t)dlsym(RTLD_DEFAULT, "malloc_interposer_enable");
    disable = (toggle_t)dlsym(RTLD_DEFAULT, "malloc_interposer_disable");
    reset = (toggle_t)dlsym(RTLD_DEFAULT, "malloc_interposer_reset");
    set_hook = (set_hook_t)dlsym(RTLD_DEFAULT, "malloc_interposer_set_allocation_hook");
    get_stats = (stats_t)dlsym(RTLD_DEFAULT, "malloc_interposer_get_stats");
    int (*installed)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "malloc_interposer_global_hooks_installed");
    if (!enable || !disable || !reset || !set_hook || !get_stats || !installed || !installed()) return 0;
    /* Replacing malloc means being the first definition the loader finds. */
    void *first_malloc = dlsym(RTLD_DEFAULT, "malloc");
    interposer_name = library_of((const void *)(uintptr_t)enable);
    return first_malloc != NULL && library_of(first_malloc) == interposer_name;
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

static void hook(size_t size) {
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

void lodestone_interposer_start(int fd) {
    void *frames[4];
    backtrace(frames, 4);  /* its first use loads libgcc_s, which allocates */
    libc_name = library_of((const void *)(uintptr_t)&memcpy);
    caller_count = 0;
    nested = 0;
    dump_fd = fd;
    set_hook(hook);
    reset();
    enable();
}

void lodestone_interposer_stop(long *allocations, long *frees) {
    disable();
    set_hook(NULL);
    int64_t mallocs = 0, bytes = 0, small = 0, large = 0, freed = 0, freed_bytes = 0;
    get_stats(&mallocs, &bytes, &small, &large, &freed, &freed_bytes);
    *allocations = (long)mallocs - nested;
    *frees = (long)freed;
}

int lodestone_interposer_caller_count(void) { return caller_count; }
const char *lodestone_interposer_caller_name(int index) { return caller_names[index]; }
long lodestone_interposer_caller_allocations(int index) { return caller_allocations[index]; }
