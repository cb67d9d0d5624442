// Nearest-neighbour distances (Rodinia nn shape), hand-written for every layout (see
// layouts.h): locations are records of 2 floats (lat, lng: k = 0, 1) addressed through
// LIDX; the distances d stay a plain array.
__kernel void nn_kernel(__global const float* locations, __global float* d, int n, float lat,
                        float lng) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float dlat = lat - locations[LIDX(i, 0, 2, n)];
  const float dlng = lng - locations[LIDX(i, 1, 2, n)];
  d[i] = sqrt(dlat * dlat + dlng * dlng);
}
