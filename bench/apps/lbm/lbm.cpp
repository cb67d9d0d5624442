// D3Q19 lattice-Boltzmann, lid-driven cavity, cells interleaved (20 floats per cell,
// Parboil style): the AoS application and its step kernel hand-written in AoS, DA and
// ASTA(T). Plain OpenCL (no DL calls).
//
//   dl-app-lbm [--nx 100 --ny 100 --nz 130] [--steps 10] [--T 16,32,64] [--json f]
//   dl-app-lbm --mode app [--iters 10]            (the annotated AoS kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

namespace {

constexpr int Q = 19, REC = 20;
const int EX[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1};
const int EY[Q] = {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0};
const int EZ[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1};
const int OPP[Q] = {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15};
float weight(int q) {
  return q == 0 ? 1.f / 3 : q < 7 ? 1.f / 18 : 1.f / 36;
}

struct Grid {
  unsigned nx, ny, nz;
  std::size_t cells() const { return std::size_t(nx) * ny * nz; }
};

/// Initial AoS grid: walls are obstacles, the top layer is the moving lid, distributions
/// at rest with a small random perturbation.
std::vector<float> initial(const Grid& g) {
  std::vector<float> f(g.cells() * REC);
  dlb::Rng rng(g.cells());
  for (unsigned z = 0; z < g.nz; ++z)
    for (unsigned y = 0; y < g.ny; ++y)
      for (unsigned x = 0; x < g.nx; ++x) {
        const std::size_t c = x + std::size_t(g.nx) * (y + std::size_t(g.ny) * z);
        const bool wall = x == 0 || y == 0 || z == 0 || x == g.nx - 1 || y == g.ny - 1;
        const float flag = wall ? 1.0f : z == g.nz - 1 ? 2.0f : 0.0f;
        for (int q = 0; q < Q; ++q) f[c * REC + q] = weight(q) * rng.uniform(0.99f, 1.01f);
        f[c * REC + 19] = flag;
      }
  return f;
}

/// CPU reference of one step (the kernel's arithmetic in float).
void step_cpu(const Grid& g, const std::vector<float>& src, std::vector<float>& dst) {
  for (std::size_t c = 0; c < g.cells(); ++c) {
    const unsigned x = unsigned(c % g.nx), y = unsigned(c / g.nx % g.ny),
                   z = unsigned(c / (std::size_t(g.nx) * g.ny));
    const float* in = &src[c * REC];
    const float flag = in[19];
    float out[Q];
    if (flag == 1.0f) {
      for (int q = 0; q < Q; ++q) out[q] = in[OPP[q]];
    } else {
      float rho = 0, ux = 0, uy = 0, uz = 0;
      for (int q = 0; q < Q; ++q)
        rho += in[q], ux += EX[q] * in[q], uy += EY[q] * in[q], uz += EZ[q] * in[q];
      ux /= rho, uy /= rho, uz /= rho;
      if (flag == 2.0f) ux = 0.005f, uy = 0.002f, uz = 0.0f;
      const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
      for (int q = 0; q < Q; ++q) {
        const float cu = EX[q] * ux + EY[q] * uy + EZ[q] * uz;
        const float feq = weight(q) * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2);
        out[q] = in[q] + 1.95f * (feq - in[q]);
      }
    }
    for (int q = 0; q < Q; ++q) {
      const unsigned xn = (x + g.nx + EX[q]) % g.nx, yn = (y + g.ny + EY[q]) % g.ny,
                     zn = (z + g.nz + EZ[q]) % g.nz;
      dst[(xn + std::size_t(g.nx) * (yn + std::size_t(g.ny) * zn)) * REC + q] = out[q];
    }
    dst[c * REC + 19] = flag;
  }
}

double mass(const std::vector<float>& f) {
  double m = 0;
  for (std::size_t c = 0; c < f.size() / REC; ++c)
    for (int q = 0; q < Q; ++q) m += f[c * REC + q];
  return m;
}

void compare(const std::vector<float>& got, const std::vector<float>& want,
             const std::string& what) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::abs(got[i] - want[i]) <= 1e-5f + 1e-4f * std::abs(want[i])))
      dlb::fail("lbm " + what + ": cell " + std::to_string(i / REC) + " slot " +
                std::to_string(i % REC) + " is " + std::to_string(got[i]) + ", expected " +
                std::to_string(want[i]));
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "lbm");
  const Grid g{unsigned(args.num("nx", 100)), unsigned(args.num("ny", 100)),
               unsigned(args.num("nz", 130))};
  const int check_steps = int(args.num("steps", 2));
  const std::size_t n = g.cells(), bytes = n * REC * sizeof(float);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("lbm on %s: %ux%ux%u cells\n", d.name.c_str(), g.nx, g.ny, g.nz);
  const auto init = initial(g);
  // CPU reference of the first check_steps steps (or of `iters` steps in app mode).
  const int ref_steps = o.mode == "app" ? o.iters : check_steps;
  const bool have_ref = double(n) * ref_steps <= 4e7;
  std::vector<float> ref = init, tmp = init;
  if (have_ref)
    for (int s = 0; s < ref_steps; ++s) step_cpu(g, ref, tmp), std::swap(ref, tmp);
  const double m0 = mass(init);

  json out = dlb::app_json(d, o, "lbm", argc, argv);
  const std::string inc = " -I" + o.kernel_dir;

  // Runs `steps` checked steps then (timed) `repeats` more in layout W; returns ms/step.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int steps,
                 int timed, const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program p = dlb::build_program(d, src, opts + inc);
    cl_kernel k = dlb::make_kernel(p, "lbm_step");
    cl_mem a = dlb::make_buffer(d, bytes), b = dlb::make_buffer(d, bytes);
    const auto in = dlb::to_tiled(init, REC, n, W);
    dlb::write(d, a, in.data(), bytes);
    dlb::write(d, b, in.data(), bytes);
    const cl_uint nx = g.nx, ny = g.ny, nz = g.nz;
    for (cl_uint i : {2u, 3u, 4u}) dlb::set_arg(k, i, i == 2 ? nx : i == 3 ? ny : nz);
    std::vector<double> times;
    auto step = [&](int s) {
      dlb::set_arg(k, 0, s % 2 ? b : a);
      dlb::set_arg(k, 1, s % 2 ? a : b);
      cl_event e = dlb::launch_1d(d, k, n, 128);
      dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
      times.push_back(dlb::event_ms(e));
      clReleaseEvent(e);
    };
    std::vector<float> raw(n * REC);
    for (int s = 0; s < steps; ++s) step(s);
    dlb::read(d, steps % 2 ? b : a, raw.data(), bytes);
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto got = dlb::from_tiled(raw, REC, n, W);
    if (have_ref) compare(got, ref, what);
    double ms = dlb::median(times);
    if (timed > 0) {
      times.clear();
      for (int s = steps; s < steps + 1 + timed; ++s) step(s);
      times.erase(times.begin());  // warm-up
      ms = dlb::median(times);
      dlb::read(d, (steps + 1 + timed) % 2 ? b : a, raw.data(), bytes);
    }
    const double m = mass(dlb::from_tiled(raw, REC, n, W));
    if (!(std::abs(m - m0) <= 1e-4 * m0))
      dlb::fail("lbm " + what + ": mass not conserved (" + std::to_string(m) + " vs " +
                std::to_string(m0) + ")");
    for (cl_mem x : {a, b}) clReleaseMemObject(x);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, 0, "app", &wall);
    std::printf("app mode: %d steps, %.3f ms per step, %.1f ms wall, %s\n", o.iters, ms, wall,
                have_ref ? "matches the CPU reference"
                         : "mass conserved (grid too large for the CPU reference)");
    out["cases"] = json::array({{{"case", "cavity"},
                                 {"cells", n},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", dlb::last_read_fnv()}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "lbm");
  json c{{"case", "cavity"}, {"nx", g.nx}, {"ny", g.ny}, {"nz", g.nz}, {"cells", n}};
  dlb::bench_case(
      o, n, REC * sizeof(float), src, annotated, "", c,
      [&](const std::string& s, const std::string& opts, std::size_t W, const std::string& what) {
        return run(s, opts, W, check_steps, o.repeats, what, nullptr);
      });
  c["check"] = have_ref ? "cpu-reference" : "mass";
  const char* rec = "lbm_cell 80 4 float*20:f@0";
  c["buffers"] = json::array({{{"name", "src"}, {"record", rec}, {"n", n}, {"readback", true}},
                              {{"name", "dst"}, {"record", rec}, {"n", n}, {"readback", false}}});
  out["cases"] = json::array({c});
  std::printf("all layouts %s\n", have_ref ? "match the CPU reference" : "conserve mass");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-lbm: %s\n", e.what());
  return 2;
}
