// Bezier surface evaluation over double-precision control points {x, y, z} (24 bytes): a
// control grid of (m+1) x (m+1) points in AoS, one work-item per point of an nu x nv
// output grid reading every control point (the same one in every work-item at a time),
// output points {x, y, z} in AoS. The AoS application, and its kernel hand-written in
// AoS, DA and ASTA(T). Plain OpenCL; the device needs cl_khr_fp64.
//
//   dl-app-bezier [--m 15] [--nu 1024] [--nv 1024] [--T 16,32,64] [--repeats 5] [--json f]
//                 [--rewritten [label=]FILE,...]   (dl-annotate outputs of bezier.cl)
//   dl-app-bezier --mode app [--iters 10]   (the annotated AoS kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

namespace {

constexpr unsigned kFields = 3;
constexpr int kMaxDegree = 31;      // BZ_MAX_DEGREE of bezier.cl
constexpr std::size_t kLocal = 64;  // the global size is padded to a multiple of 64
const char* kRecord = "point3 24 8 double:x@0 double:y@8 double:z@16";

/// The m+1 Bernstein polynomials of degree m at s (the kernel's recurrence).
std::vector<double> bernstein(double s, int m) {
  std::vector<double> b(std::size_t(m) + 1, 0.0);
  b[0] = 1.0;
  for (int j = 1; j <= m; ++j) {
    double carry = 0.0;
    for (int k = 0; k < j; ++k) {
      const double v = b[k];
      b[k] = carry + (1.0 - s) * v;
      carry = s * v;
    }
    b[j] = carry;
  }
  return b;
}

/// CPU reference of the nu x nv output points (AoS) from the control grid (AoS).
std::vector<double> reference(const std::vector<double>& ctrl, int m, int nu, int nv) {
  std::vector<double> want(std::size_t(nu) * nv * kFields);
  std::vector<std::vector<double>> basis_u(static_cast<std::size_t>(nu));
  for (int iu = 0; iu < nu; ++iu) basis_u[iu] = bernstein(nu > 1 ? double(iu) / (nu - 1) : 0.0, m);
  for (int iv = 0; iv < nv; ++iv) {
    const auto bv = bernstein(nv > 1 ? double(iv) / (nv - 1) : 0.0, m);
    for (int iu = 0; iu < nu; ++iu) {
      const auto& bu = basis_u[iu];
      double* p = &want[(std::size_t(iv) * nu + iu) * kFields];
      for (int a = 0; a <= m; ++a) {
        double r[kFields] = {0.0, 0.0, 0.0};
        for (int b = 0; b <= m; ++b)
          for (unsigned f = 0; f < kFields; ++f)
            r[f] += bv[b] * ctrl[(std::size_t(a) * (m + 1) + b) * kFields + f];
        for (unsigned f = 0; f < kFields; ++f) p[f] += bu[a] * r[f];
      }
    }
  }
  return want;
}

/// The basis is non-negative and sums to 1, the control coordinates lie in [-1, 1]: the
/// result's rounding errors (a compiler may contract into fmas) stay far below this.
constexpr double kTol = 1e-9;

void check(const std::vector<double>& got, const std::vector<double>& want,
           const std::string& what) {
  static const char* names[kFields] = {"x", "y", "z"};
  for (std::size_t e = 0; e < want.size(); ++e)
    if (!(std::abs(got[e] - want[e]) <= kTol))
      dlb::fail("bezier " + what + ": out[" + std::to_string(e / kFields) + "]." +
                names[e % kFields] + " is " + std::to_string(got[e]) + ", expected " +
                std::to_string(want[e]));
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "bezier");
  const int m = int(args.num("m", 15));
  const int nu = int(args.num("nu", 1024)), nv = int(args.num("nv", 1024));
  if (m < 1 || m > kMaxDegree)
    throw std::runtime_error("--m must be 1.." + std::to_string(kMaxDegree));
  if (nu < 1 || nv < 1 || std::size_t(nu) * std::size_t(nv) > std::size_t(0x7fffffff))
    throw std::runtime_error("--nu and --nv must be at least 1, nu * nv below 2^31");
  const std::size_t nc = std::size_t(m + 1) * std::size_t(m + 1);
  const std::size_t nout = std::size_t(nu) * std::size_t(nv);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  if (dlb::device_string(d.device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") == std::string::npos)
    throw std::runtime_error("the device has no cl_khr_fp64 (doubles)");
  std::printf("bezier on %s: degree %d (%zu control points), %d x %d = %zu output points\n",
              d.name.c_str(), m, nc, nu, nv, nout);

  // A wavy surface over the unit square: x and y on the grid, z from a fixed seed.
  std::vector<double> ctrl(nc * kFields);
  dlb::Rng rng(42);
  for (int a = 0; a <= m; ++a)
    for (int b = 0; b <= m; ++b) {
      double* p = &ctrl[(std::size_t(a) * (m + 1) + b) * kFields];
      p[0] = double(a) / m;
      p[1] = double(b) / m;
      p[2] = rng.uniform(-1.0f, 1.0f);
    }
  const auto want = reference(ctrl, m, nu, nv);
  const std::size_t cbytes = ctrl.size() * sizeof(double), obytes = nout * kFields * sizeof(double);
  const cl_int m_arg = m, nu_arg = nu, nv_arg = nv;

  json out = dlb::app_json(d, o, "bezier", argc, argv);

  // Runs `src` with `opts` with ctrl and out in the layout of width W: 1 = AoS, T =
  // ASTA(T), 0 = DA (the buffers hold different numbers of records, so bench_case gets
  // n = 0 and each buffer's DA width is its own n). iters > 0: the application, `iters`
  // launches, returns the mean ms per launch; iters == 0: returns the median kernel ms of
  // repeated launches. The result is checked either way.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t wc = W ? W : nc, wo = W ? W : nout;
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel k = dlb::make_kernel(p, "bezier_kernel");
    cl_mem ctrl_buf = dlb::make_buffer(d, cbytes, CL_MEM_READ_ONLY);
    cl_mem out_buf = dlb::make_buffer(d, obytes);
    const auto in = dlb::to_tiled(ctrl, kFields, nc, wc);
    dlb::write(d, ctrl_buf, in.data(), cbytes);
    std::vector<double> raw(nout * kFields, -12345.0);  // poison
    dlb::write(d, out_buf, raw.data(), obytes);
    dlb::set_arg(k, 0, ctrl_buf);
    dlb::set_arg(k, 1, m_arg);
    dlb::set_arg(k, 2, out_buf);
    dlb::set_arg(k, 3, nu_arg);
    dlb::set_arg(k, 4, nv_arg);
    auto launch = [&] { return dlb::launch_1d(d, k, nout, kLocal); };
    double ms = 0;
    if (iters > 0) {  // the application: `iters` launches
      for (int it = 0; it < iters; ++it) {
        cl_event e = launch();
        dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
        ms += dlb::event_ms(e) / iters;
        clReleaseEvent(e);
      }
    } else {
      ms = dlb::time_kernel(o.repeats, launch);
    }
    dlb::read(d, out_buf, raw.data(), obytes);
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    check(dlb::from_tiled(raw, kFields, nout, wo), want, what);
    clReleaseMemObject(ctrl_buf);
    clReleaseMemObject(out_buf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  const std::string case_name =
      "m=" + std::to_string(m) + " " + std::to_string(nu) + "x" + std::to_string(nv);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    std::printf("app mode: %d launches, %.3f ms per launch, %.1f ms wall, check ok\n", o.iters, ms,
                wall);
    out["cases"] = json::array({{{"case", case_name},
                                 {"m", m},
                                 {"nu", nu},
                                 {"nv", nv},
                                 {"n", nout},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", dlb::last_read_fnv()}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "bezier");
  json c{{"case", case_name}, {"m", m}, {"nu", nu}, {"nv", nv}, {"n", nout}};
  dlb::bench_case(o, 0, kFields * sizeof(double), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] =
      json::array({{{"name", "ctrl"}, {"record", kRecord}, {"n", nc}, {"readback", false}},
                   {{"name", "out"}, {"record", kRecord}, {"n", nout}, {"readback", true}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-bezier: %s\n", e.what());
  return 2;
}
