// The gain of opening a new center at point x, over an array of point records, as a
// streaming k-median clusterer writes it (shaped like Rodinia's streamcluster pgain).
// Records stay in AoS on the host; the coordinates are a separate transposed array.
typedef struct {
  float weight;  // how many input points this point stands for
  long assign;   // index of the center the point is assigned to
  float cost;    // cost of that assignment
} point_t;

//DL: AoS: const p[num]
__kernel void pgain(__global const point_t *p, __global const float *coord,
                    __global float *work_mem, __global const int *center_table,
                    __global char *switch_membership, __local float *coord_s, int num, int dim,
                    int x, int K) {
  const int tid = get_global_id(0);
  // The first work-item of each group stages the coordinates of the candidate x.
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
    x_cost *= p[tid].weight;
    const float current_cost = p[tid].cost;
    const int base = tid * (K + 1);
    if (x_cost < current_cost) {
      // Point tid would move to x: it saves current_cost - x_cost.
      switch_membership[tid] = 1;
      work_mem[base + K] += current_cost - x_cost;
    } else {
      // It stays: closing its center would cost the difference.
      work_mem[base + center_table[(int)p[tid].assign]] += current_cost - x_cost;
    }
  }
}
