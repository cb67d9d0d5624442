// The particle record of the particles kernel (examples/particles/particles.cl) as the
// host sees it, and the initial state its applications start from.
#pragma once
#include <random>
#include <vector>

#include "example.hpp"

namespace example {

struct Particle {  // the OpenCL C struct {float4 pos; float4 vel; float mass; int id;}
  cl_float4 pos;
  cl_float4 vel;
  cl_float mass;
  cl_int id;
  cl_float pad[2];
};
static_assert(sizeof(Particle) == 48, "matches the OpenCL C layout");

/// n particles with positions and velocities in [-1, 1), masses in [0.5, 2.5), ids
/// 0..n-1 and zero padding, drawn from a generator seeded with `seed`.
inline std::vector<Particle> make_particles(int n, unsigned seed) {
  std::vector<Particle> p(static_cast<std::size_t>(n));
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) p[i].pos.s[c] = u(g), p[i].vel.s[c] = u(g);
    p[i].mass = 1.5f + u(g);
    p[i].id = i;
    p[i].pad[0] = p[i].pad[1] = 0.0f;
  }
  return p;
}

/// Binds the arguments of integrate(p, n, dt) and returns the global size: n rounded up
/// to a multiple of `local`.
inline std::size_t bind_integrate(cl_kernel k, cl_mem buf, cl_int n, cl_float dt,
                                  std::size_t local) {
  CL_CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
  CL_CHECK(clSetKernelArg(k, 1, sizeof n, &n));
  CL_CHECK(clSetKernelArg(k, 2, sizeof dt, &dt));
  return (static_cast<std::size_t>(n) + local - 1) / local * local;
}

}  // namespace example
