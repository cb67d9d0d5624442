// Preprocessor conditionals in kernel parameter lists, after and before the annotated
// parameters: annotations bind by name to the parameters Clang sees. Parsed without the
// macros here (conditional_params_defined.cl: with them); the parameter lists and the
// #else copies stay as written, so the output builds with or without them.
typedef struct {
  float v;
  int c;
} pt;
#define T pt

//DL: AoS: in[n], out[n]
__kernel void after(int n, __global T *in, __global T *out
#ifdef OCL_2_0
                    , __global volatile int *flags
#endif
) {
  int i = get_global_id(0);
  if (i < n) out[i].v = in[i].v + (float)in[i].c;
}

//DL: AoS: p[n]
__kernel void before(
#ifdef EXTRA
    int extra,
#endif
    __global T *p, int n) {
  int i = get_global_id(0);
  if (i < n) p[i].c += 1;
}
