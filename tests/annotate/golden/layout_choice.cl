// The layout of each buffer without a written target follows its accesses: AoS kept
// where every access is unit-stride per work-item or there is none; ASTA where an access
// is strided AoS or irregular (the analysis cannot tell a gather from a stride it does
// not name). A written target is kept whatever the accesses.
typedef struct {
  float x, y, z, w;
} atom;

//DL: AoS: a[n], b[n], c[n], d[n]
__kernel void forces(__global atom *a, __global const atom *b, __global const int *nbr,
                     __global atom *c, __global atom *d, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].x += 1.0f;            /* strided AoS: ASTA */
  atom self = b[i];          /* a whole record per work-item: AoS kept */
  atom other = c[nbr[i]];    /* irregular: ASTA, the controller judges */
  a[i].w = self.y + other.z;
}

//DL: AoS: a[n] -> AoS, c[n] -> ASTA
__kernel void written(__global atom *a, __global const int *nbr, __global atom *c, int n) {
  int i = get_global_id(0);
  if (i < n) a[i].y = c[nbr[i]].x; /* targets as written, whatever the accesses */
}
