// The layout of each buffer without a written target follows its accesses: AoS kept
// where every access is unit-stride per work-item, the same record in every trip of a
// loop, or a gather through a loaded index, or where there is none; ASTA where an access
// is strided AoS or has an index the analysis cannot name (it may be a stride). A
// written target is kept whatever the accesses.
typedef struct {
  float x, y, z, w;
} atom;

//DL: AoS: a[n], b[n], c[n], d[n], e[n], f[n]
__kernel void forces(__global atom *a, __global const atom *b, __global const int *nbr,
                     __global atom *c, __global atom *d, __global atom *e,
                     __global const atom *f, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  a[i].x += 1.0f;            /* strided AoS: ASTA */
  atom self = b[i];          /* a whole record per work-item: AoS kept */
  atom other = c[nbr[i]];    /* a gather: AoS kept */
  a[i].w = self.y + other.z;
  for (int k = 0; k < 8; ++k) {
    e[i].x += other.x * k;   /* the same record in every trip: AoS kept */
    e[i].y -= other.y * k;
  }
  a[i].y = f[(i * 7) % n].z; /* an index the analysis cannot name: ASTA */
}

//DL: AoS: a[n] -> AoS, c[n] -> ASTA
__kernel void written(__global atom *a, __global const int *nbr, __global atom *c, int n) {
  int i = get_global_id(0);
  if (i < n) a[i].y = c[nbr[i]].x; /* targets as written, whatever the accesses */
}

//DL: AoS: ctrl[m * m], out[n]
__kernel void broadcast(__global const atom *ctrl, __global atom *out, int m, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float s = 0.0f;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) s += ctrl[a * m + b].x; /* the same for every work-item: AoS kept */
  out[i].x = s;                                         /* strided: ASTA */
}
