// Vector members (float4) and swizzles.
typedef struct {
  float4 pos;
  float4 vel;
} body;

//DL: AoS: b[global_size(0)]
__kernel void drift(__global body *b, float dt) {
  size_t i = get_global_id(0);
  b[i].pos.xyz += b[i].vel.xyz * dt;
}
