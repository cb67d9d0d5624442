// Run-equivalence: reads x[col[e]] from the gathered copy the runtime passes.
struct edge {
  float w;
  int to;
};

//TEST: ell 1000 args: fbuf:3000 ibuf:3000 fbuf:3000 fbuf:1000 int:1000 int:3
//DL: gather: x[col]
__kernel void ell(__global const float* val, __global const int* col, __global const float* x,
                  __global float* y, int rows, int k) {
  const int r = get_global_id(0);
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += val[j * rows + r] * x[col[j * rows + r]];
  y[r] = sum + x[r];
}

// The index read through a converted buffer, operands in either order.
//TEST: weighted 1003 args: buf ibuf:1003 fbuf:1003 fbuf:1003
//DL: AoS: const e[global_size(0)]; gather: v[idx]
__kernel void weighted(__global const struct edge* e, __global const int* idx,
                       __global const float* v, __global float* out) {
  const int i = get_global_id(0);
  out[i] = e[i].w * v[idx[e[i].to]] + (i[idx])[v] - v[i];
}
