// Black-Scholes over an array of option records, annotated for DL.
typedef struct {
  float s, x, t, call, put;
} option;

float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = rsqrt2pi * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

//DL: AoS: o[n]
__kernel void black_scholes(__global option* o, int n, float r, float v) {
  int i = get_global_id(0);
  if (i >= n) return;
  float s = o[i].s, x = o[i].x, t = o[i].t;
  float sq = sqrt(t);
  float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
  float d2 = d1 - v * sq;
  float e = exp(-r * t);
  o[i].call = s * cnd(d1) - x * e * cnd(d2);
  o[i].put = x * e * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}
