// Bezier surface evaluation as an application writes it: a control grid of (m+1) x (m+1)
// points {x, y, z} in double precision, kept in AoS on the host (ctrl[a * (m+1) + b]);
// every work-item evaluates the surface at one point of an nu x nv output grid
// (s = iu / (nu-1), t = iv / (nv-1), record iv * nu + iu of out) from all control points,
// which every work-item reads in the same order.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
  double x, y, z;
} point3;

#define BZ_MAX_DEGREE 31  // the largest m (the basis values are private arrays)

// The m+1 Bernstein polynomials of degree m at s, by the triangle recurrence
// B(j, k) = (1-s) B(j-1, k) + s B(j-1, k-1).
inline void bernstein(double s, int m, double* b) {
  b[0] = 1.0;
  for (int j = 1; j <= m; ++j) {
    double carry = 0.0;
    for (int k = 0; k < j; ++k) {
      const double v = b[k];
      b[k] = carry + (1.0 - s) * v;
      carry = s * v;
    }
    b[j] = carry;
  }
}

//DL: AoS: const ctrl[m + 1][m + 1], write_only out[nu * nv]
__kernel void bezier_kernel(__global const point3* ctrl, int m, __global point3* out, int nu,
                            int nv) {
  const int i = get_global_id(0);
  if (i >= nu * nv) return;
  const int iu = i % nu, iv = i / nu;
  double bu[BZ_MAX_DEGREE + 1], bv[BZ_MAX_DEGREE + 1];
  bernstein(nu > 1 ? (double)iu / (nu - 1) : 0.0, m, bu);
  bernstein(nv > 1 ? (double)iv / (nv - 1) : 0.0, m, bv);
  double x = 0.0, y = 0.0, z = 0.0;
  for (int a = 0; a <= m; ++a) {
    double rx = 0.0, ry = 0.0, rz = 0.0;  // row a's curve at t
    for (int b = 0; b <= m; ++b) {
      const int c = a * (m + 1) + b;
      rx += bv[b] * ctrl[c].x;
      ry += bv[b] * ctrl[c].y;
      rz += bv[b] * ctrl[c].z;
    }
    x += bu[a] * rx;
    y += bu[a] * ry;
    z += bu[a] * rz;
  }
  out[i].x = x;
  out[i].y = y;
  out[i].z = z;
}
