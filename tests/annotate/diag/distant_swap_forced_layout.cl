// ARGS: --layout=DA
// INPUT: ../golden/distant_swap.cl
// EXIT: 1
// EXPECT: error: 'a': --layout cannot replace a swap of dimensions (its target is the order of the dimensions)
