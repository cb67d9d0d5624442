// EXIT: 1
// EXPECT: annotated_twice.cl:13:12: error: 'a' of kernel 'k' is already annotated (line 8)
// Two annotation blocks of one kernel name (the second definition is set aside by the
// preprocessor) bound the same argument twice, and the rewrite declared its
// prologue twice and did not compile (found by the annotate fuzzer).
typedef struct { float v; int c; } pt;

//DL: AoS: a[n] -> DA
__kernel void k(__global pt *a, int n) {
  if (get_global_id(0) < n) a[get_global_id(0)].v += 1.0f;
}
#if 0
//DL: AoS: a[n]
__kernel void k(__global pt *a, int n) {
  if (get_global_id(0) < n) a[get_global_id(0)].c += 1;
}
#endif
