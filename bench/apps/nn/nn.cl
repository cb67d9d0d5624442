// Nearest-neighbour search as an application writes it (shaped like Rodinia's nn): the
// host keeps the records' coordinates {lat, lng} in AoS; every work-item computes the
// Euclidean distance of one record to the query point (lat, lng) into d[i]; the host
// picks the k nearest from d. The host pads the global size to a multiple of 64.
typedef struct {
  float lat, lng;
} latlong;

//DL: AoS: const locations[n]
__kernel void nn_kernel(__global const latlong* locations, __global float* d, int n, float lat,
                        float lng) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const float dlat = lat - locations[i].lat;
  const float dlng = lng - locations[i].lng;
  d[i] = sqrt(dlat * dlat + dlng * dlng);
}
