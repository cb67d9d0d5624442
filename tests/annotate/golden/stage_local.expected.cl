// --stage-local: a 5-point stencil reads its input from a 18x18 box in local memory when
// the work-group is 16x16 (docs/annotation.md, "Staging in local memory").
// ARGS: --stage-local
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
