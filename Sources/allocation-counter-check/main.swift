// allocation-counter-check: builds ordo-one's malloc interposer (libMallocInterposerSwift.so,
// which the benchmarks preload into their counting children without linking it) and checks,
// run with it preloaded, that it counts: 1,000 arrays must show as 1,000 allocations.
// `make bench` runs it before the benchmarks.
import Glibc
import MallocInterposerSwift

MallocInterposerSwift.initialize()
MallocInterposerSwift.hook()
var kept: [[Int]] = []
kept.reserveCapacity(1_000)
for i in 0..<1_000 { kept.append([i]) }
MallocInterposerSwift.unhook()
let counted = MallocInterposerSwift.getStatistics().mallocCount
guard counted >= 1_000, kept.count == 1_000 else {
    print("allocation counter: the malloc interposer saw \(counted) of 1000 allocations (is it preloaded?)")
    exit(1)
}
print("allocation counter: the malloc interposer saw \(counted) of 1000 allocations")
