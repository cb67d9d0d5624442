// Buffers of local: clauses that --stage-local cannot or need not stage: a warning each
// says why, and the kernel reads them as written.
// ARGS: --stage-local
// EXIT: 0
// EXPECT: 'A' is not staged in local memory: the loop of `k` (line 14) runs to `n`, not a constant: counted as 16 trips; a staged box must hold every read (strip-mining is not done)
// EXPECT: 'a' is not staged in local memory: one work-group reads 256 elements, and its box holds 256: staging saves no reads
// EXPECT: 'io' is not staged in local memory: the kernel writes it (line 27)
// EXPECT: 'far' is not staged in local memory: the box of the elements one work-group reads is larger than the local memory given (32768 bytes)
// EXPECT: 'n' is not staged in local memory: not a __global or __constant pointer parameter of the kernel
//DL: local: A[n * n]
__kernel void matmul(__global const float* A, __global const float* B, __global float* C, int n) {
  const int row = get_global_id(1), col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

//DL: local: a[get_global_size(0)]
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  const size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

//DL: local: io[get_global_size(0) + 1], far[get_global_size(0) + 10000], n[1]
__kernel void written(__global float* io, __global const float* far, int n) {
  const int i = get_global_id(0);
  io[i] = io[i + 1] + far[i] + far[i + 10000] + n;
}
