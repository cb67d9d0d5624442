// SpMV ELL variants that differ only in how a work-item walks its row's K entries, to
// find where the hand-written ASTA kernel loses to DA (dl-app-spmv --variants). Built
// after layouts.h with its layout macros (-DL_DA, or -DL_ASTA -DL_T=T) and one of:
//   -DV_FORMULA  LIDX per entry (the benchmark's first kernel; spmv_layouts.cl now walks
//                with V_STRIDE, unrolled by 4)
//   -DV_STRIDE   the first entry's index, then one add of the stride per entry: n in DA,
//                the tile's width in ASTA (T, or the last partial tile's row count)
//   -DV_SPLIT    ASTA: rows of a full tile loop with the constant stride T; only the last
//                partial tile's rows use its width (DA: same as V_STRIDE)
// -DV_UNROLL=U adds `#pragma unroll U` to the entry loop.
#ifndef V_UNROLL
#define V_UNROLL 1
#endif
#define V_PRAGMA_(x) _Pragma(#x)
#define V_PRAGMA(x) V_PRAGMA_(x)

#define V_WALK(first, stride)                                \
  {                                                          \
    uint e = (first);                                        \
    V_PRAGMA(unroll V_UNROLL) for (uint k = 0; k < K; ++k) { \
      s += val[e] * x[col[e]];                               \
      e += (stride);                                         \
    }                                                        \
  }

__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
#if defined(V_FORMULA)
  V_PRAGMA(unroll V_UNROLL) for (uint k = 0; k < K; ++k) {
    const uint e = LIDX(i, k, K, rows);
    s += val[e] * x[col[e]];
  }
#elif defined(L_DA)
  V_WALK(i, rows)
#elif defined(L_ASTA)
  const uint base = i / L_T * L_T;
  const uint first = base * K + (i - base);
#if defined(V_SPLIT)
  if (base + L_T <= rows)
    V_WALK(first, (uint)L_T)
  else
    V_WALK(first, rows - base)
#else
  V_WALK(first, min((uint)L_T, rows - base))
#endif
#else
  V_WALK(i * K, 1u)
#endif
  y[i] = s;
}
