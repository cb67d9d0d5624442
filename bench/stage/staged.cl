// Kernels staged in local memory by dl-annotate --stage-local
// (tests/annotate/stage_test.cpp runs them against the originals; bench/stage times them).

// Matrix multiply with the inner dimension a compile-time constant (MM_K): the rows of A
// and the columns of B one 16x16 work-group reads fit local memory.
#ifndef MM_K
#define MM_K 64
#endif
//DL: local: A[rows * (64)], B[(64) * cols]
#ifdef DL_ASTA_T
__kernel void matmul_k(__global const float* A, __global const float* B, __global float* C,
                       int rows, int cols) {
  __local float dl_local_A[1024];
  __local float dl_local_B[1024];
  const long dl_stride_B_1 = (long)cols;
  const int dl_staged = get_local_size(0) == 16 && get_local_size(1) == 16 && get_local_size(2) == 1 && dl_stride_B_1 >= 0 && dl_stride_B_1 <= 2147483647L / 128;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 16 * (get_local_id(1) + 16 * get_local_id(2));
    {
      const long dl_origin = 64 * (long)get_global_offset(1) + 1024 * (long)get_group_id(1);
      const long dl_end = (long)(((long)(rows) * (long)64));
      for (uint dl_t = dl_lid; dl_t < 1024u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t));
        if (dl_g >= 0 && dl_g < dl_end) dl_local_A[dl_t] = A[dl_g];
      }
    }
    {
      const long dl_origin = (long)get_global_offset(0) + 16 * (long)get_group_id(0);
      const long dl_end = (long)(((long)64 * (long)(cols)));
      for (uint dl_t = dl_lid; dl_t < 1024u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t % 16u) + (int)(dl_t / 16u) * (int)dl_stride_B_1);
        if (dl_g >= 0 && dl_g < dl_end) dl_local_B[dl_t] = B[dl_g];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < MM_K; ++k) sum += (dl_staged ? dl_local_A[0 + 64 * (int)get_local_id(1) + (int)(k)] : A[row * MM_K + k]) * (dl_staged ? dl_local_B[0 + (int)get_local_id(0) + 16 * (int)(k)] : B[k * cols + col]);
  if (row < rows && col < cols) C[row * cols + col] = sum;
}
#else
__kernel void matmul_k(__global const float* A, __global const float* B, __global float* C,
                       int rows, int cols) {
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < MM_K; ++k) sum += A[row * MM_K + k] * B[k * cols + col];
  if (row < rows && col < cols) C[row * cols + col] = sum;
}
#endif

// The same with a wider inner dimension (MM_WIDE): a 16x16 work-group's rows of A and
// columns of B fill 32 KiB of local memory.
#ifndef MM_WIDE
#define MM_WIDE 256
#endif
//DL: local: A[rows * (256)], B[(256) * cols]
#ifdef DL_ASTA_T
__kernel void matmul_wide(__global const float* A, __global const float* B, __global float* C,
                          int rows, int cols) {
  __local float dl_local_A[4096];
  __local float dl_local_B[4096];
  const long dl_stride_B_1 = (long)cols;
  const int dl_staged = get_local_size(0) == 16 && get_local_size(1) == 16 && get_local_size(2) == 1 && dl_stride_B_1 >= 0 && dl_stride_B_1 <= 2147483647L / 512;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 16 * (get_local_id(1) + 16 * get_local_id(2));
    {
      const long dl_origin = 256 * (long)get_global_offset(1) + 4096 * (long)get_group_id(1);
      const long dl_end = (long)(((long)(rows) * (long)256));
      for (uint dl_t = dl_lid; dl_t < 4096u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t));
        if (dl_g >= 0 && dl_g < dl_end) dl_local_A[dl_t] = A[dl_g];
      }
    }
    {
      const long dl_origin = (long)get_global_offset(0) + 16 * (long)get_group_id(0);
      const long dl_end = (long)(((long)256 * (long)(cols)));
      for (uint dl_t = dl_lid; dl_t < 4096u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t % 16u) + (int)(dl_t / 16u) * (int)dl_stride_B_1);
        if (dl_g >= 0 && dl_g < dl_end) dl_local_B[dl_t] = B[dl_g];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < MM_WIDE; ++k) sum += (dl_staged ? dl_local_A[0 + 256 * (int)get_local_id(1) + (int)(k)] : A[row * MM_WIDE + k]) * (dl_staged ? dl_local_B[0 + (int)get_local_id(0) + 16 * (int)(k)] : B[k * cols + col]);
  if (row < rows && col < cols) C[row * cols + col] = sum;
}
#else
__kernel void matmul_wide(__global const float* A, __global const float* B, __global float* C,
                          int rows, int cols) {
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < MM_WIDE; ++k) sum += A[row * MM_WIDE + k] * B[k * cols + col];
  if (row < rows && col < cols) C[row * cols + col] = sum;
}
#endif

// 2-D 5-point stencil over the interior of a w x h grid (any global size: guarded).
//DL: local: in[w * h]
#ifdef DL_ASTA_T
__kernel void stencil5(__global const float* in, __global float* out, int w, int h) {
  __local float dl_local_in[324];
  const long dl_stride_in_1 = (long)w;
  const int dl_staged = get_local_size(0) == 16 && get_local_size(1) == 16 && get_local_size(2) == 1 && dl_stride_in_1 >= 0 && dl_stride_in_1 <= 2147483647L / 36;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 16 * (get_local_id(1) + 16 * get_local_id(2));
    {
      const long dl_origin = (long)get_global_offset(0) + (long)get_global_offset(1) * (long)w + 16 * (long)get_group_id(0) + 16 * (long)get_group_id(1) * (long)w + -1 + -(long)w;
      const long dl_end = (long)(((long)(w) * (long)(h)));
      for (uint dl_t = dl_lid; dl_t < 324u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t % 18u) + (int)(dl_t / 18u) * (int)dl_stride_in_1);
        if (dl_g >= 0 && dl_g < dl_end) dl_local_in[dl_t] = in[dl_g];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    const int i = y * w + x;
    out[i] = 0.5f * (dl_staged ? dl_local_in[19 + (int)get_local_id(0) + 18 * (int)get_local_id(1)] : in[i]) + 0.125f * ((dl_staged ? dl_local_in[18 + (int)get_local_id(0) + 18 * (int)get_local_id(1)] : in[i - 1]) + (dl_staged ? dl_local_in[20 + (int)get_local_id(0) + 18 * (int)get_local_id(1)] : in[i + 1]) + (dl_staged ? dl_local_in[1 + (int)get_local_id(0) + 18 * (int)get_local_id(1)] : in[i - w]) + (dl_staged ? dl_local_in[37 + (int)get_local_id(0) + 18 * (int)get_local_id(1)] : in[i + w]));
  }
}
#else
__kernel void stencil5(__global const float* in, __global float* out, int w, int h) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    const int i = y * w + x;
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
  }
}
#endif

// 3-D 7-point stencil over the interior of a nx x ny x nz grid.
//DL: local: in[nx * ny * nz]
#ifdef DL_ASTA_T
__kernel void stencil7(__global const float* in, __global float* out, int nx, int ny, int nz) {
  __local float dl_local_in[600];
  const long dl_stride_in_1 = (long)nx;
  const long dl_stride_in_2 = (long)nx * (long)ny;
  const int dl_staged = get_local_size(0) == 8 && get_local_size(1) == 8 && get_local_size(2) == 4 && dl_stride_in_1 >= 0 && dl_stride_in_1 <= 2147483647L / 30 && dl_stride_in_2 >= 0 && dl_stride_in_2 <= 2147483647L / 18;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 8 * (get_local_id(1) + 8 * get_local_id(2));
    {
      const long dl_origin = (long)get_global_offset(0) + (long)get_global_offset(1) * (long)nx + (long)get_global_offset(2) * (long)nx * (long)ny + 8 * (long)get_group_id(0) + 8 * (long)get_group_id(1) * (long)nx + 4 * (long)get_group_id(2) * (long)nx * (long)ny + -1 + -(long)nx + -(long)nx * (long)ny;
      const long dl_end = (long)((((long)(nx) * (long)(ny)) * (long)(nz)));
      for (uint dl_t = dl_lid; dl_t < 600u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t % 10u) + (int)(dl_t / 10u % 10u) * (int)dl_stride_in_1 + (int)(dl_t / 100u) * (int)dl_stride_in_2);
        if (dl_g >= 0 && dl_g < dl_end) dl_local_in[dl_t] = in[dl_g];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  const int i = (z * ny + y) * nx + x;
  const int plane = nx * ny;
  out[i] = (dl_staged ? dl_local_in[111 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i]) - ((dl_staged ? dl_local_in[110 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i - 1]) + (dl_staged ? dl_local_in[112 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i + 1]) + (dl_staged ? dl_local_in[101 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i - nx]) + (dl_staged ? dl_local_in[121 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i + nx]) + (dl_staged ? dl_local_in[11 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i - plane]) +
                    (dl_staged ? dl_local_in[211 + (int)get_local_id(0) + 10 * (int)get_local_id(1) + 100 * (int)get_local_id(2)] : in[i + plane])) / 6.0f;
}
#else
__kernel void stencil7(__global const float* in, __global float* out, int nx, int ny, int nz) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  const int i = (z * ny + y) * nx + x;
  const int plane = nx * ny;
  out[i] = in[i] - (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] +
                    in[i + plane]) / 6.0f;
}
#endif

// 2-D convolution with a 5x5 mask; the image has a 2-pixel border on every side, the
// global size is its interior.
//DL: local: img[w * (get_global_size(1) + 4)], mask[25]
#ifdef DL_ASTA_T
__kernel void conv5x5(__global const float* img, __constant float* mask, __global float* out,
                      int w) {
  __local float dl_local_img[400];
  const long dl_stride_img_1 = (long)w;
  __local float dl_local_mask[25];
  const int dl_staged = get_local_size(0) == 16 && get_local_size(1) == 16 && get_local_size(2) == 1 && dl_stride_img_1 >= 0 && dl_stride_img_1 <= 2147483647L / 40;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 16 * (get_local_id(1) + 16 * get_local_id(2));
    {
      const long dl_origin = (long)get_global_offset(0) + (long)get_global_offset(1) * (long)w + 16 * (long)get_group_id(0) + 16 * (long)get_group_id(1) * (long)w;
      const long dl_end = (long)(((long)(w) * ((long)get_global_size(1) + (long)4)));
      for (uint dl_t = dl_lid; dl_t < 400u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t % 20u) + (int)(dl_t / 20u) * (int)dl_stride_img_1);
        if (dl_g >= 0 && dl_g < dl_end) dl_local_img[dl_t] = img[dl_g];
      }
    }
    {
      const long dl_origin = 0;
      const long dl_end = (long)((long)25);
      for (uint dl_t = dl_lid; dl_t < 25u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t));
        if (dl_g >= 0 && dl_g < dl_end) dl_local_mask[dl_t] = mask[dl_g];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int x = get_global_id(0) + 2;
  const int y = get_global_id(1) + 2;
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) acc += (dl_staged ? dl_local_img[42 + (int)get_local_id(0) + 20 * (int)get_local_id(1) + 20 * (int)(dy) + (int)(dx)] : img[(y + dy) * w + x + dx]) * (dl_staged ? dl_local_mask[12 + 5 * (int)(dy) + (int)(dx)] : mask[(dy + 2) * 5 + dx + 2]);
  out[y * w + x] = acc;
}
#else
__kernel void conv5x5(__global const float* img, __constant float* mask, __global float* out,
                      int w) {
  const int x = get_global_id(0) + 2;
  const int y = get_global_id(1) + 2;
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) acc += img[(y + dy) * w + x + dx] * mask[(dy + 2) * 5 + dx + 2];
  out[y * w + x] = acc;
}
#endif

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
// A flat array of records of 4 floats that DL converts to ASTA and also stages: the copy
// reads its layout, each work-item its record and both neighbours'.
//DL: record flat_float_4 16 4 float*4:v@0
//DL: AoS: const p[n][4] -> ASTA AOS2ASTA_flat_float_4
//DL: local: p[4 * n]
#ifdef DL_ASTA_T
__kernel void smooth4(__global const float* p, __global float* out, int n) {
  const dl_off dl_n_p = (dl_off)((long)(n));
  const dl_off dl_w_p = (dl_off)(DL_ASTA_T);
  __local float dl_local_p[1032];
  const int dl_staged = get_local_size(0) == 256 && get_local_size(1) == 1 && get_local_size(2) == 1;
  if (dl_staged) {
    const uint dl_lid = get_local_id(0) + 256 * (get_local_id(1) + 1 * get_local_id(2));
    {
      const long dl_origin = 4 * (long)get_global_offset(0) + 1024 * (long)get_group_id(0) + -4;
      const long dl_end = (long)(((long)4 * (long)(n)));
      for (uint dl_t = dl_lid; dl_t < 1032u; dl_t += 256u) {
        const long dl_g = dl_origin + ((int)(dl_t));
        if (dl_g >= 0 && dl_g < dl_end) dl_local_p[dl_t] = DL_REF(__global, float, p, dl_flat(dl_w_p, dl_n_p, 4, 4, (dl_off)dl_g));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    for (int c = 0; c < 4; ++c)
      out[i * 4 + c] = 0.25f * (dl_staged ? dl_local_p[0 + 4 * (int)get_local_id(0) + (int)(c)] : DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 16, ((i - 1)), (dl_off)((c)) * 4, 4))) + 0.5f * (dl_staged ? dl_local_p[4 + 4 * (int)get_local_id(0) + (int)(c)] : DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 16, (i), (dl_off)((c)) * 4, 4))) + 0.25f * (dl_staged ? dl_local_p[8 + 4 * (int)get_local_id(0) + (int)(c)] : DL_REF(__global, float, p, dl_tiled(dl_w_p, dl_n_p, 16, ((i + 1)), (dl_off)((c)) * 4, 4)));
}
#else
__kernel void smooth4(__global const float* p, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    for (int c = 0; c < 4; ++c)
      out[i * 4 + c] = 0.25f * p[(i - 1) * 4 + c] + 0.5f * p[i * 4 + c] + 0.25f * p[(i + 1) * 4 + c];
}
#endif
