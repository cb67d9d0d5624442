// Streamcluster's pgain, hand-written for every layout of the point records
// {float weight @0, long assign @8, float cost @16; 24 bytes with padding}. The fields
// differ in size, so records are addressed by bytes (layouts.h selects the layout):
// slot (offset o, size z) of record i of n records of 24 bytes lives at
//   AoS: i*24 + o   DA: n*o + i*z   ASTA(T): b*24 + w*o + (i-b)*z, b = i/T*T, w = min(T, n-b)
#define SC_R 24u

inline uint sc_addr(uint i, uint o, uint z, uint n) {
#if defined(L_DA)
  return n * o + i * z;
#elif defined(L_ASTA)
  const uint b = i / L_T * L_T;
  const uint w = min((uint)L_T, n - b);
  return b * SC_R + w * o + (i - b) * z;
#else
  (void)z;
  (void)n;
  return i * SC_R + o;
#endif
}

#define SC_FIELD(TYPE, p, i, o, n) \
  (*(__global const TYPE *)((__global const uchar *)(p) + sc_addr((i), (o), sizeof(TYPE), (n))))

__kernel void pgain(__global const uchar *p, __global const float *coord,
                    __global float *work_mem, __global const int *center_table,
                    __global char *switch_membership, __local float *coord_s, int num, int dim,
                    int x, int K) {
  const int tid = get_global_id(0);
  if (get_local_id(0) == 0) {
    for (int i = 0; i < dim; i++) coord_s[i] = coord[i * num + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (tid < num) {
    float x_cost = 0;
    for (int i = 0; i < dim; i++) {
      const float t = coord[i * num + tid] - coord_s[i];
      x_cost += t * t;
    }
    x_cost *= SC_FIELD(float, p, tid, 0, num);                   // weight
    const float current_cost = SC_FIELD(float, p, tid, 16, num);  // cost
    const int base = tid * (K + 1);
    if (x_cost < current_cost) {
      switch_membership[tid] = 1;
      work_mem[base + K] += current_cost - x_cost;
    } else {
      const long assign = SC_FIELD(long, p, tid, 8, num);
      work_mem[base + center_table[(int)assign]] += current_cost - x_cost;
    }
  }
}
