// ARGS: --report
// INPUT: ../golden/layout_choice.cl
// EXIT: 0
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - default (paper 5.1: AoS to ASTA): ASTA makes the strided field accesses
// EXPECT: pattern: unit-stride per work-item
// EXPECT: layout: AoS - AoS kept: every access is unit-stride per work-item, loop-invariant (kept in registers), uniform (a broadcast) or a gather
// EXPECT: pattern: gather: record index loaded from memory
// EXPECT: layout: AoS - AoS kept: the kernel does not access it
// EXPECT: pattern: loop-invariant: the same record in every trip of a loop around the access
// EXPECT: accesses: 2 (2 read, 2 write, 0 whole-record); unit-stride 0, strided AoS 0, loop-invariant 2
// EXPECT: pattern: irregular: a record index the analysis cannot name
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - default (paper 5.1: AoS to ASTA): an index the analysis cannot name may still be a stride
// EXPECT: pattern: uniform: the same record for every work-item (a broadcast)
// EXPECT: layout: AoS - the annotation asks for AoS
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - the annotation asks for ASTA
// The report of golden/layout_choice.cl: which layout each buffer got, and why.
