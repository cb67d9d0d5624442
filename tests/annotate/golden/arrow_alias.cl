// (f + e)->m and pointer aliases (p = f + gid; p->m).
struct pt {
  float x, y;
};

//DL: AoS: f[global_size(0)]
__kernel void move(__global struct pt *f, float dx) {
  size_t i = get_global_id(0);
  (f + i)->x += dx;
  __global struct pt *p = f + i;
  p->y = p->x * 2.0f;
}
