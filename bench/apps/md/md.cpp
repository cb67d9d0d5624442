// Molecular dynamics shaped like Rodinia's lavaMD: boxes1d^3 boxes of 100 particles, one
// work-group per box accumulating into the force records of its particles the potential
// and force of every particle of the box and its up to 26 neighbours. Positions rv and
// results fv are {v, x, y, z} records in AoS; charges qv are a plain array. The AoS
// application, and its kernel hand-written in AoS, DA and ASTA(T). Plain OpenCL.
//
//   dl-app-md [--boxes1d 10] [--alpha 0.5] [--T 16,32,64] [--repeats 5] [--json f]
//             [--rewritten label=FILE,...]   (dl-annotate outputs of md.cl)
//   dl-app-md --mode app [--iters 10]   (the annotated AoS kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

namespace {

// As in md.cl and md_layouts.cl.
constexpr int kPar = 100;  // particles per box
constexpr int kNt = 128;   // work-items per group
constexpr int kNei = 27;   // neighbour slots per box: itself and up to 26 others
constexpr unsigned kFields = 4;
const char* kRecord = "four_vector 16 4 float:v@0 float:x@4 float:y@8 float:z@12";

/// Neighbour lists: box b's slot 0 is b itself, then its adjacent boxes in the 3-D grid,
/// padded with -1 to kNei entries.
std::vector<int> neighbours(int b1d) {
  const int nboxes = b1d * b1d * b1d;
  std::vector<int> nei(std::size_t(nboxes) * kNei, -1);
  for (int z = 0; z < b1d; ++z)
    for (int y = 0; y < b1d; ++y)
      for (int x = 0; x < b1d; ++x) {
        const int b = (z * b1d + y) * b1d + x;
        int* out = &nei[std::size_t(b) * kNei];
        int k = 0;
        out[k++] = b;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int nx = x + dx, ny = y + dy, nz = z + dz;
              if ((dx | dy | dz) == 0 || nx < 0 || ny < 0 || nz < 0 || nx >= b1d || ny >= b1d ||
                  nz >= b1d)
                continue;
              out[k++] = (nz * b1d + ny) * b1d + nx;
            }
      }
  return nei;
}

/// CPU reference (double precision) of fv after one launch on zeroed fv, and per
/// component the sum of the magnitudes of its terms (the scale of rounding errors).
void reference(const std::vector<float>& rv, const std::vector<float>& qv,
               const std::vector<int>& nei, int nboxes, double alpha, std::vector<double>& want,
               std::vector<double>& mag) {
  const double a2 = 2.0 * alpha * alpha;
  want.assign(rv.size(), 0.0);
  mag.assign(rv.size(), 0.0);
  for (int bx = 0; bx < nboxes; ++bx)
    for (int k = 0; k < kNei; ++k) {
      const int pointer = nei[std::size_t(bx) * kNei + k];
      if (pointer < 0) continue;
      for (int i = bx * kPar; i < (bx + 1) * kPar; ++i) {
        const float* a = &rv[std::size_t(i) * kFields];
        double* w = &want[std::size_t(i) * kFields];
        double* m = &mag[std::size_t(i) * kFields];
        for (int j = pointer * kPar; j < (pointer + 1) * kPar; ++j) {
          const float* b = &rv[std::size_t(j) * kFields];
          const double r2 = double(a[0]) + b[0] -
                            (double(a[1]) * b[1] + double(a[2]) * b[2] + double(a[3]) * b[3]);
          const double vij = std::exp(-a2 * r2), fs = 2.0 * vij, q = qv[std::size_t(j)];
          const double t[kFields] = {q * vij, q * fs * (double(a[1]) - b[1]),
                                     q * fs * (double(a[2]) - b[2]),
                                     q * fs * (double(a[3]) - b[3])};
          for (unsigned c = 0; c < kFields; ++c) {
            w[c] += t[c];
            m[c] += std::abs(t[c]);
          }
        }
      }
    }
}

/// Checks fv (AoS) after `launches` launches on zeroed fv against the reference.
void check(const std::vector<float>& got, const std::vector<double>& want,
           const std::vector<double>& mag, int launches, const std::string& what) {
  static const char* names[kFields] = {"v", "x", "y", "z"};
  for (std::size_t e = 0; e < want.size(); ++e) {
    const double w = launches * want[e];
    if (!(std::abs(got[e] - w) <= 1e-4 * launches * mag[e] + 1e-5))
      dlb::fail("md " + what + ": fv[" + std::to_string(e / kFields) + "]." + names[e % kFields] +
                " is " + std::to_string(got[e]) + ", expected " + std::to_string(w));
  }
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "md");
  const int b1d = int(args.num("boxes1d", 10));
  const float alpha = float(args.real("alpha", 0.5));
  if (b1d < 1) throw std::runtime_error("--boxes1d must be at least 1");
  const int nboxes = b1d * b1d * b1d;
  const int npar = nboxes * kPar;
  const std::size_t n = std::size_t(npar);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  if (d.max_work_group < std::size_t(kNt))
    throw std::runtime_error("the device's work-groups are smaller than " + std::to_string(kNt));
  std::printf("md on %s: %d^3 = %d boxes, %d particles\n", d.name.c_str(), b1d, nboxes, npar);

  // Positions and charges from a fixed seed; fv starts at zero.
  std::vector<float> rv(n * kFields), qv(n);
  dlb::Rng rng(42);
  for (auto& x : rv) x = rng.uniform(0.1f, 1.0f);
  for (auto& x : qv) x = rng.uniform(0.1f, 1.0f);
  const auto nei = neighbours(b1d);
  std::vector<double> want, mag;
  reference(rv, qv, nei, nboxes, alpha, want, mag);
  const std::vector<float> zeros(n * kFields, 0.0f);
  const std::size_t rbytes = rv.size() * sizeof(float);
  const std::size_t global = std::size_t(nboxes) * kNt;

  json out = dlb::app_json(d, o, "md", argc, argv);

  // Runs `src` with `opts` with rv and fv in the layout of width W. iters > 0: the
  // application, `iters` launches accumulating into fv, returns the mean ms per launch.
  // iters == 0: one launch on zeroed fv is checked, then returns the median kernel ms of
  // repeated launches (which keep accumulating; only their time is used).
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel k = dlb::make_kernel(p, "md_kernel");
    cl_mem nei_buf = dlb::make_buffer(d, nei.size() * sizeof(int), CL_MEM_READ_ONLY);
    cl_mem rv_buf = dlb::make_buffer(d, rbytes, CL_MEM_READ_ONLY);
    cl_mem qv_buf = dlb::make_buffer(d, qv.size() * sizeof(float), CL_MEM_READ_ONLY);
    cl_mem fv_buf = dlb::make_buffer(d, rbytes);
    dlb::write(d, nei_buf, nei.data(), nei.size() * sizeof(int));
    const auto rin = dlb::to_tiled(rv, kFields, n, W);
    dlb::write(d, rv_buf, rin.data(), rbytes);
    dlb::write(d, qv_buf, qv.data(), qv.size() * sizeof(float));
    dlb::write(d, fv_buf, zeros.data(), rbytes);  // zeros in every layout
    const cl_int nboxes_arg = nboxes, npar_arg = npar;
    dlb::set_arg(k, 0, alpha);
    dlb::set_arg(k, 1, nboxes_arg);
    dlb::set_arg(k, 2, nei_buf);
    dlb::set_arg(k, 3, rv_buf);
    dlb::set_arg(k, 4, qv_buf);
    dlb::set_arg(k, 5, fv_buf);
    dlb::set_arg(k, 6, npar_arg);
    auto launch = [&] { return dlb::launch_1d(d, k, global, kNt); };
    std::vector<float> raw(rv.size());
    double ms = 0;
    if (iters > 0) {
      for (int it = 0; it < iters; ++it) {
        cl_event e = launch();
        dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
        ms += dlb::event_ms(e) / iters;
        clReleaseEvent(e);
      }
      dlb::read(d, fv_buf, raw.data(), rbytes);
      if (wall_ms)
        *wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                       .count();
      check(dlb::from_tiled(raw, kFields, n, W), want, mag, iters, what);
    } else {
      cl_event e = launch();
      dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
      clReleaseEvent(e);
      dlb::read(d, fv_buf, raw.data(), rbytes);
      check(dlb::from_tiled(raw, kFields, n, W), want, mag, 1, what);
      ms = dlb::time_kernel(o.repeats, launch);
    }
    for (cl_mem m : {nei_buf, rv_buf, qv_buf, fv_buf}) clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  const std::string case_name = "boxes1d=" + std::to_string(b1d);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    std::printf("app mode: %d launches, %.3f ms per launch, %.1f ms wall, check ok\n", o.iters, ms,
                wall);
    out["cases"] = json::array({{{"case", case_name},
                                 {"boxes1d", b1d},
                                 {"n", n},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", dlb::last_read_fnv()}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "md");
  json c{{"case", case_name}, {"boxes1d", b1d}, {"boxes", nboxes}, {"n", n}};
  dlb::bench_case(o, n, 4 * sizeof(float), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] = json::array({{{"name", "rv"}, {"record", kRecord}, {"n", n}, {"readback", false}},
                              {{"name", "fv"}, {"record", kRecord}, {"n", n}, {"readback", true}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-md: %s\n", e.what());
  return 2;
}
