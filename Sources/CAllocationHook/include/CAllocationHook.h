/* The malloc interposer's per-allocation hook for lodestone-bench and PointerEngineBenchmark:
 * it names the library that asked for each counted allocation (the first frame of the
 * backtrace outside the interposer and libc: libwayland-server, libswiftCore, the program,
 * ...), and on request writes every backtrace to a file descriptor, to find where an
 * allocation comes from. In C because the hook runs inside malloc: it must not allocate,
 * and needs a thread-local recursion guard Swift has no form for. */
#ifndef CALLOCATIONHOOK_H
#define CALLOCATIONHOOK_H

#include <stddef.h>

/* Prepares the backtracer (its first use loads libgcc_s, which allocates) and clears the
 * tallies. `interposer` is an address inside the interposer library (its frames are skipped);
 * `dump_fd` >= 0 receives every counted allocation's backtrace (backtrace_symbols_fd). */
void lodestone_allocation_hook_prepare(const void *interposer, int dump_fd);
/* The file of the library holding `address` (dladdr), or NULL. */
const char *lodestone_allocation_library_of(const void *address);
/* What malloc_interposer_set_allocation_hook takes. */
void lodestone_allocation_hook(size_t size);
/* Callers seen since prepare: at most 32 distinct libraries; `index` < count. */
int lodestone_allocation_hook_caller_count(void);
const char *lodestone_allocation_hook_caller_name(int index);
long lodestone_allocation_hook_caller_allocations(int index);
/* Allocations the hook itself caused (counted by the interposer; subtract them). */
long lodestone_allocation_hook_nested(void);

#endif
