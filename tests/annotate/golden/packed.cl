// Packed records: misaligned fields are accessed through packed wrappers.
typedef struct __attribute__((packed)) {
  char flag;
  float value;
} sample;

//DL: AoS: s[global_size(0)]
__kernel void clear(__global sample *s) {
  size_t i = get_global_id(0);
  if (s[i].flag) s[i].value = 0.0f;
}
