// ARGS: --report
// INPUT: ../golden/helper.cl
// EXIT: 0
// EXPECT: irregular 2 (2 of them not seen: moved pointer or helper)
// EXPECT: pattern: not known: every index is hidden behind a moved pointer or a helper
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - default (paper 5.1: AoS to ASTA): 2 access(es) through a pointer or helper whose index dl-annotate cannot see
// A buffer reached through &a[i] in a helper: its accesses prove nothing, ASTA stays.
