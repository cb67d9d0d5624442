// --stage-local: a 5-point stencil reads its input from a 18x18 box in local memory when
// the work-group is 16x16 (docs/annotation.md, "Staging in local memory").
// ARGS: --stage-local
//DL: local: in[w * h]
__kernel void stencil5(__global const float* in, __global float* out, int w, int h) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
    const int i = y * w + x;
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
  }
}
