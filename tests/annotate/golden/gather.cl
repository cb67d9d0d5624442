// gather: reads x[col[e]] take element e of the gathered copy dl_gather_x (a parameter
// appended to the DL build); other reads of x and col stay as written.
struct edge {
  float w;
  int to;
};

//DL: gather: x[col]
__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, int rows, int k) {
  const int r = get_global_id(0);
  if (r >= rows) return;
  float sum = 0.0f;
  for (int j = 0; j < k; ++j) sum += val[j * rows + r] * x[col[j * rows + r]];
  y[r] = sum + x[r];  // not through col: as written
}

// With an AoS: clause; the index reads a converted buffer; operands in either order;
// an address taken stays as written; vectors and unsigned short indices.
//DL: AoS: const e[*]; gather: v[idx]
__kernel void weighted(__global const struct edge* e, __global const ushort* idx,
                       __constant float4* v, __global float* out) {
  const int i = get_global_id(0);
  __constant float4* p = &v[idx[i]];
  out[i] = e[i].w * v[idx[e[i].to]].x + (i[idx])[v].y + p->z + idx[i][v].w;
}
