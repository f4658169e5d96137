#include "CValgrind.h"
#include <valgrind/callgrind.h>

void cvg_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
void cvg_dump_stats_at(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
int cvg_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
