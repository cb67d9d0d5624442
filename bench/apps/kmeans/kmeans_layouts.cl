// K-means membership (Rodinia kmeans shape), hand-written for every layout (see
// layouts.h): points are records of nfeatures floats addressed through LIDX; the centres
// stay row-major.
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
      const float x = feature[LIDX(p, f, nfeatures, npoints)] - clusters[c * nfeatures + f];
      d += x * x;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  membership[p] = best;
}
