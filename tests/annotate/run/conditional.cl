// Run-equivalence: preprocessor conditionals in kernel parameter lists, before and after
// the annotated parameters. Annotations bind by name to the parameters the compiler sees,
// whatever the build options; dl-annotate runs on this file without and with the macros
// (tests/annotate/CMakeLists.txt), and each rewrite is built with each //BUILD: line.
// Kernel `skipped` uses its buffer in a region neither run of dl-annotate sees: built
// with WITH_TWICE the transformed program must not build (the runtime runs it
// untransformed).
//BUILD:
//BUILD: -DWITH_FLAGS -DWITH_EXTRA
//BUILD-UNTRANSFORMED: -DWITH_TWICE
typedef struct {
  float v;
  int c;
} pt;

//TEST: after 1003 args: in=buf n=int:1003 out=buf flags=ibuf:1003
//DL: AoS: in[n], out[n]
__kernel void after(__global const pt *in, int n, __global pt *out
#ifdef WITH_FLAGS
                    , __global int *flags
#endif
) {
  int i = get_global_id(0);
  if (i >= n) return;
  out[i].v = in[i].v * 2.0f + (float)in[i].c;
  out[i].c = in[i].c + 1;
#ifdef WITH_FLAGS
  flags[i] = 1;
#endif
}

//TEST: before 1003 args: extra=int:7 p=buf n=int:1003
//DL: AoS: p[n]
__kernel void before(
#ifdef WITH_EXTRA
    int extra,
#endif
    __global pt *p, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int e = 1;
#ifdef WITH_EXTRA
  e = extra;
#endif
  p[i].c += e;
  p[i].v -= (float)p[i].c;
}

//TEST: both 1003 args: a=buf extra=int:3 n=int:1003 flags=ibuf:1003
//DL: AoS: a[n] -> DA
__kernel void both(__global pt *a,
#if defined(WITH_EXTRA)
                   int extra,
#else
                   /* no extra */
#endif
                   int n
#ifdef WITH_FLAGS
                   , __global int *flags
#endif
) {
  int i = get_global_id(0);
  if (i < n) a[i].c = a[i].c * 2 + i;
}

//TEST: skipped 1003 args: p=buf n=int:1003
//DL: AoS: p[n]
__kernel void skipped(__global pt *p, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
#ifdef WITH_TWICE
  p[i].v *= 2.0f;
#endif
  p[i].c += 1;
}
