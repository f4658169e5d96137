/* Counting heap allocations with ordo-one's malloc interposer (libMallocInterposerSwift.so)
 * when it is preloaded, for lodestone-bench and PointerEngineBenchmark (AllocationCounter).
 * Its functions are looked up at run time: the benchmarks do not link it, so their other
 * figures keep glibc's allocator. The interposer's per-allocation hook names the library that
 * asked for each counted allocation (the first frame of the backtrace outside the interposer
 * and libc: libwayland-server, libswiftCore, the program...) and on request writes every
 * backtrace to a file descriptor. In C because the hook runs inside malloc: it must not
 * allocate, and needs a thread-local recursion guard Swift has no form for. */
#ifndef CALLOCATIONHOOK_H
#define CALLOCATIONHOOK_H

/* Non-zero when the interposer is in the process (preloaded) and replaces malloc. */
int lodestone_interposer_loaded(void);
/* Zeroes the counters and starts counting every thread's allocations; `dump_fd` >= 0
 * receives each counted allocation's backtrace (backtrace_symbols_fd). */
void lodestone_interposer_start(int dump_fd);
/* Stops counting: allocations (less those the hook itself caused) and frees since start. */
void lodestone_interposer_stop(long *allocations, long *frees);
/* Callers seen since start: at most 32 distinct libraries; `index` < count. */
int lodestone_interposer_caller_count(void);
const char *lodestone_interposer_caller_name(int index);
long lodestone_interposer_caller_allocations(int index);

#endif
