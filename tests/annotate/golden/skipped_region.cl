// Conditional regions the preprocessor skipped (dl-annotate ran without A, B, HELPER_X):
// in the transformed copies, code there that uses an annotated buffer (or a pointer
// variable into global memory) becomes #error, so a build that enables it fails and the
// runtime runs the program untransformed; the directives, the other code of the regions
// and the #else copy stay as written.
typedef struct {
  float v;
  int c;
} pt;

void bump(__global pt *r, int k) {
#ifdef HELPER_X
  r->c += k;
#else
  r->v += 1.0f;
#endif
}

//DL: AoS: p[n]
__kernel void k(__global pt *p, int n
#ifdef WITH_FLAGS
                , __global int *flags
#endif
) {
  int i = get_global_id(0);
  __global pt *q = p + i;
#if defined(A)
  p[i].c = 1;
#elif defined(B)
  q->c = 2;
#else
  p[i].v = 3.0f;
#endif
#ifdef WITH_FLAGS
  flags[i] = 1; /* no annotated buffer here: kept */
#endif
  bump(p + i, 2);
}
