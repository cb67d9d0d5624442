// ARGS: --report
// INPUT: ../golden/layout_choice.cl
// EXIT: 0
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - default (paper 5.1: AoS to ASTA): ASTA makes the strided field accesses
// EXPECT: pattern: unit-stride per work-item
// EXPECT: pattern: irregular: record index not an affine function of the work-item id
// EXPECT: layout: AoS - AoS kept: every access is unit-stride per work-item already
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - default (paper 5.1: AoS to ASTA): an irregular index may still be a stride
// EXPECT: layout: AoS - AoS kept: the kernel does not access it
// EXPECT: layout: AoS - the annotation asks for AoS
// EXPECT: layout: ASTA (T = DL_ASTA_T, chosen by the runtime) - the annotation asks for ASTA
// The report of golden/layout_choice.cl: which layout each buffer got, and why.
