/* Callgrind's client requests for lodestone-bench. They are macros with inline
 * assembly, which Swift cannot call, so each gets a tiny function. Outside
 * valgrind they do nothing (a few instructions). */
#ifndef CVALGRIND_H
#define CVALGRIND_H

/* Start or stop counting (run valgrind with --collect-atstart=no). */
void cvg_toggle_collect(void);
/* Writes what was counted since the last dump as its own part, named `label`, and zeroes the counters. */
void cvg_dump_stats_at(const char *label);
/* Non-zero when running under valgrind. */
int cvg_running_on_valgrind(void);

#endif
