// The batch of particle records of upload.cl read as rows of 12 floats (pos, vel, mass,
// the id's bits and the padding), in planes of H rows: the annotation lets DL store each
// plane diagonalized (-> DIAG), so a whole write of the batch lands in chunks of whole
// planes, each diagonalized as it lands. Rows past the last whole plane stay AoS. The
// same arithmetic as upload.cl, so the host's check is the same.
//DL: AoS: const p:float[nplanes][H][12] -> DIAG
__kernel void energy(__global const float* p, __global float* out, int n, int nplanes, int H) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float4 pos = (float4)(p[i * 12 + 0], p[i * 12 + 1], p[i * 12 + 2], p[i * 12 + 3]);
  const float4 v = (float4)(p[i * 12 + 4], p[i * 12 + 5], p[i * 12 + 6], p[i * 12 + 7]);
  const float mass = p[i * 12 + 8];
  const int id = as_int(p[i * 12 + 9]);
  out[i] = 0.5f * mass * dot(v, v) + dot(pos, v) + (float)(id & 1023);
}
