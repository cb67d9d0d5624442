// EXIT: 1
// EXPECT: count_terms_bad.cl:17:12: error: dimension 'sizeof(struct missing)' of 'p': sizeof(struct missing): no complete type of that name
// EXPECT: count_terms_bad.cl:20:12: error: dimension 'd.volume' of 'p': 'd.volume' is of type 'float'; a count reads an integer field
// EXPECT: count_terms_bad.cl:23:12: error: dimension 'd.boxes' of 'p': 'dim_t' has no member 'boxes'
// EXPECT: count_terms_bad.cl:26:12: error: dimension 'n.x' of 'p': 'n' is a parameter of type 'int', not a struct passed by value
// sizeof of an unknown type, a field that is not an integer, a member that does not
// exist, and a field of an argument that is no struct.
typedef struct {
  int nx;
  float volume;
} dim_t;

struct rec {
  float a;
};

//DL: AoS: p[sizeof(struct missing)]
__kernel void k1(__global struct rec *p) { p[get_global_id(0)].a = 1.0f; }

//DL: AoS: p[d.volume]
__kernel void k2(__global struct rec *p, dim_t d) { p[get_global_id(0)].a = 1.0f; }

//DL: AoS: p[d.boxes]
__kernel void k3(__global struct rec *p, dim_t d) { p[get_global_id(0)].a = 1.0f; }

//DL: AoS: p[n.x]
__kernel void k4(__global struct rec *p, int n) { p[get_global_id(0)].a = 1.0f; }
