// Bezier surface evaluation, hand-written for every layout (see layouts.h): the control
// points ctrl ((m+1)^2 records) and the output points out (nu * nv records) are records
// of 3 doubles (x, y, z: k = 0..2) addressed through LIDX; the arithmetic is bezier.cl's.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define BZ_MAX_DEGREE 31

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

__kernel void bezier_kernel(__global const double* ctrl, int m, __global double* out, int nu,
                            int nv) {
  const int i = get_global_id(0);
  const int nout = nu * nv, nc = (m + 1) * (m + 1);
  if (i >= nout) return;
  const int iu = i % nu, iv = i / nu;
  double bu[BZ_MAX_DEGREE + 1], bv[BZ_MAX_DEGREE + 1];
  bernstein(nu > 1 ? (double)iu / (nu - 1) : 0.0, m, bu);
  bernstein(nv > 1 ? (double)iv / (nv - 1) : 0.0, m, bv);
  double x = 0.0, y = 0.0, z = 0.0;
  for (int a = 0; a <= m; ++a) {
    double rx = 0.0, ry = 0.0, rz = 0.0;
    for (int b = 0; b <= m; ++b) {
      const int c = a * (m + 1) + b;
      rx += bv[b] * ctrl[LIDX(c, 0, 3, nc)];
      ry += bv[b] * ctrl[LIDX(c, 1, 3, nc)];
      rz += bv[b] * ctrl[LIDX(c, 2, 3, nc)];
    }
    x += bu[a] * rx;
    y += bu[a] * ry;
    z += bu[a] * rz;
  }
  out[LIDX(i, 0, 3, nout)] = x;
  out[LIDX(i, 1, 3, nout)] = y;
  out[LIDX(i, 2, 3, nout)] = z;
}
