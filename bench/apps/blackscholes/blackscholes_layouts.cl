// Black-Scholes, hand-written for every layout (see layouts.h): records of 5 floats
// (price, strike, years in; call, put out).
#define RISKFREE 0.02f
#define VOLATILITY 0.30f

inline float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  const float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = RSQRT2PI * exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}

__kernel void black_scholes(__global float* opt, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float S = opt[LIDX(i, 0, 5, n)], X = opt[LIDX(i, 1, 5, n)], T = opt[LIDX(i, 2, 5, n)];
  const float sqrtT = sqrt(T);
  const float d1 = (log(S / X) + (RISKFREE + 0.5f * VOLATILITY * VOLATILITY) * T) / (VOLATILITY * sqrtT);
  const float d2 = d1 - VOLATILITY * sqrtT;
  const float c1 = cnd(d1), c2 = cnd(d2);
  const float expRT = exp(-RISKFREE * T);
  opt[LIDX(i, 3, 5, n)] = S * c1 - X * expRT * c2;
  opt[LIDX(i, 4, 5, n)] = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}
