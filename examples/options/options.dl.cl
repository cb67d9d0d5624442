// options.cl as dl-annotate rewrites it (kept for builds without the annotator).
typedef struct {
  float s, x, t, call, put;
} option;

#ifdef DL_ASTA_T
inline size_t dl_tiled(size_t n, size_t i, size_t o) {
  if (i >= n) return i * 20 + o;  // records from n on stay AoS
  size_t b = (i / DL_ASTA_T) * DL_ASTA_T;
  return b * 20 + min(n - b, (size_t)DL_ASTA_T) * o + (i - b) * 4;
}
#define F(p, n, i, o) (*(__global float*)((__global char*)(p) + dl_tiled((n), (i), (o))))
#else
#define F(p, n, i, o) (*(__global float*)((__global char*)(p) + (size_t)(i) * 20 + (o)))
#endif

float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = rsqrt2pi * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

//DL: AoS: o[n] AOS2ASTA_option
//DL: record option 20 4 float:s@0 float:x@4 float:t@8 float:call@12 float:put@16
__kernel void black_scholes(__global option* o, int n, float r, float v) {
  int i = get_global_id(0);
  if (i >= n) return;
  float s = F(o, n, i, 0), x = F(o, n, i, 4), t = F(o, n, i, 8);
  float sq = sqrt(t);
  float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
  float d2 = d1 - v * sq;
  float e = exp(-r * t);
  F(o, n, i, 12) = s * cnd(d1) - x * e * cnd(d2);
  F(o, n, i, 16) = x * e * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}
