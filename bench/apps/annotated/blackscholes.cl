// Black-Scholes option pricing over an array of option records, as an application
// writes it (after the NVIDIA OpenCL SDK sample). Records stay in AoS on the host.
typedef struct {
  float price, strike, years;  // in
  float call, put;             // out
} option_t;

#define RISKFREE 0.02f
#define VOLATILITY 0.30f

inline float cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  const float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float c = RSQRT2PI * exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}

#ifdef DL_ASTA_T
/* dl-annotate: address helpers of the ASTA/DA layouts (docs/annotation.md). */
#ifndef DL_ANNOTATE_HELPERS
#define DL_ANNOTATE_HELPERS
/* Indices, divisions and compares in 32 bits unless DL_OFFSET64 is defined (64-bit
   integer arithmetic costs GPUs several instructions per operation, yet some
   kernels run faster with it: DL's runtime builds both and keeps the faster per
   kernel; a buffer of 4 GiB or more needs DL_OFFSET64). Byte offsets are 64-bit,
   each term widened before its multiply, so that address arithmetic in loops
   needs no zero extension of a 32-bit sum. */
#ifdef DL_OFFSET64
typedef ulong dl_off;
#else
typedef uint dl_off;
#endif
/* Byte offset of the slot (offset o, size z) of record i of n records of r bytes,
   tiles of w records; the last, partial tile holds n % w records. Records i >= n
   are outside the marshaled range and keep their AoS address. Linear in o with
   factors fixed per record, which a loop over o strength-reduces. */
static inline ulong dl_tiled(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,
                             dl_off z) {
  const dl_off b = i < n ? i / w * w : i, m = i < n ? (n - b < w ? n - b : w) : 1;
  return (ulong)b * r + (ulong)m * o + (ulong)(i - b) * z;
}
/* The same for one tile of all n records (DA). */
static inline ulong dl_da(dl_off n, dl_off r, dl_off i, dl_off o, dl_off z) {
  return (ulong)(i < n ? n : 1) * o + (ulong)i * (i < n ? z : r);
}
/* Element x of a flat array of records of s scalars of z bytes. */
static inline ulong dl_flat(dl_off w, dl_off n, dl_off s, dl_off z, dl_off x) {
  const dl_off i = x / s;
  return dl_tiled(w, n, s * z, i, (x - i * s) * z, z);
}
#define DL_REF(AS, TYPE, BASE, OFF) (*(AS TYPE *)((AS uchar *)(BASE) + (OFF)))
#define DL_UREF(AS, TYPE, BASE, OFF) \
  (((AS dl_unaligned_##TYPE *)((AS uchar *)(BASE) + (OFF)))->v)
#endif
#endif
//DL: record option_t 20 4 float:price@0 float:strike@4 float:years@8 float:call@12 float:put@16
//DL: AoS: opt[n] -> ASTA AOS2ASTA_option_t
#ifdef DL_ASTA_T
__kernel void black_scholes(__global option_t* opt, uint n) {
  const dl_off dl_n_opt = (dl_off)((long)(n));
  const dl_off dl_w_opt = (dl_off)(DL_ASTA_T);
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float S = DL_REF(__global, float, opt, dl_tiled(dl_w_opt, dl_n_opt, 20, (i), 0, 4)), X = DL_REF(__global, float, opt, dl_tiled(dl_w_opt, dl_n_opt, 20, (i), 4, 4)), T = DL_REF(__global, float, opt, dl_tiled(dl_w_opt, dl_n_opt, 20, (i), 8, 4));
  const float sqrtT = sqrt(T);
  const float d1 = (log(S / X) + (RISKFREE + 0.5f * VOLATILITY * VOLATILITY) * T) / (VOLATILITY * sqrtT);
  const float d2 = d1 - VOLATILITY * sqrtT;
  const float c1 = cnd(d1), c2 = cnd(d2);
  const float expRT = exp(-RISKFREE * T);
  DL_REF(__global, float, opt, dl_tiled(dl_w_opt, dl_n_opt, 20, (i), 12, 4)) = S * c1 - X * expRT * c2;
  DL_REF(__global, float, opt, dl_tiled(dl_w_opt, dl_n_opt, 20, (i), 16, 4)) = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}
#else
__kernel void black_scholes(__global option_t* opt, uint n) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float S = opt[i].price, X = opt[i].strike, T = opt[i].years;
  const float sqrtT = sqrt(T);
  const float d1 = (log(S / X) + (RISKFREE + 0.5f * VOLATILITY * VOLATILITY) * T) / (VOLATILITY * sqrtT);
  const float d2 = d1 - VOLATILITY * sqrtT;
  const float c1 = cnd(d1), c2 = cnd(d2);
  const float expRT = exp(-RISKFREE * T);
  opt[i].call = S * c1 - X * expRT * c2;
  opt[i].put = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}
#endif
