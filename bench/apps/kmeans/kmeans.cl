// K-means membership as an application writes it (shaped like Rodinia's kmeans, the first
// case study of Dymaxion): npoints points of nfeatures floats, row-major
// (feature[p * nfeatures + f], nfeatures a kernel argument), nclusters centres, row-major
// too. One work-item per point finds its nearest centre. Consecutive work-items read
// floats nfeatures apart; column-major (discrete arrays) makes them adjacent.
//DL: AoS: const feature[npoints][nfeatures] -> DA
__kernel void kmeans_assign(__global const float* feature, __constant float* clusters,
                            __global int* membership, int npoints, int nclusters,
                            int nfeatures) {
  const int p = get_global_id(0);
  if (p >= npoints) return;
  int best = 0;
  float best_d = FLT_MAX;
  for (int c = 0; c < nclusters; ++c) {
    float d = 0.0f;
    for (int f = 0; f < nfeatures; ++f) {
      const float x = feature[p * nfeatures + f] - clusters[c * nfeatures + f];
      d += x * x;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  membership[p] = best;
}
