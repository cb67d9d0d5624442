// EXIT: 1
// EXPECT: count_terms_bad.cl:19:12: error: dimension 'sizeof(struct missing)' of 'p': sizeof(struct missing): no complete type of that name
// EXPECT: count_terms_bad.cl:22:12: error: dimension 'd.volume' of 'p': 'd.volume' is of type 'float'; a count reads an integer field
// EXPECT: count_terms_bad.cl:25:12: error: dimension 'd.boxes' of 'p': 'dim_t' has no member 'boxes'
// EXPECT: count_terms_bad.cl:28:12: error: dimension 'n.x' of 'p': 'n' is a parameter of type 'int', not a struct passed by value
// EXPECT: count_terms_bad.cl:31:12: error: dimension 'cou.t' of 'p': 'cou' is not a parameter of the kernel (arg.field reads a field of a struct passed by value)
// sizeof of an unknown type, a field that is not an integer, a member that does not
// exist, a field of an argument that is no struct, and of a name that is no argument
// (found by the fuzzer: the name went into the rewritten kernel, which did not compile).
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

//DL: AoS: p[cou.t]
__kernel void k5(__global struct rec *p, int count) { p[get_global_id(0)].a = 1.0f; }
