// ARGS: -DOCL_2_0 -DEXTRA
// conditional_params.cl parsed with its macros defined: the conditional parameters
// exist, the annotations bind to the same names. The conditional in the body is copied
// as written (it does not touch the annotated buffer).
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
  int e = 1;
#ifdef EXTRA
  e = extra;
#endif
  if (i < n) p[i].c += e;
}
