// A buffer DL converts (an AoS: clause) is not also staged in local memory.
// EXIT: 1
// EXPECT: 'p' of kernel 'k' is in both an AoS: and a local: clause (line 5): a buffer DL converts is not staged in local memory
typedef struct { float x, y; } P;
//DL: AoS: const p[*]
//DL: local: p[get_global_size(0)]
__kernel void k(__global const P* p, __global float* out) {
  const int i = get_global_id(0);
  out[i] = p[i].x + p[i + 1].y;
}
