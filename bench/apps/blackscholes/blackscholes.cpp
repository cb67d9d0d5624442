// Black-Scholes over an array of option records {price, strike, years, call, put}: the
// AoS application, and its kernel hand-written in AoS, DA and ASTA(T). Plain OpenCL.
//
//   dl-app-blackscholes [--n 4194304] [--T 16,32,64] [--repeats 5] [--json f]
//   dl-app-blackscholes --mode app [--iters 10]   (the annotated AoS kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

namespace {

constexpr unsigned kFields = 5;
const char* kRecord =
    "option_t 20 4 float:price@0 float:strike@4 float:years@8 float:call@12 float:put@16";

double cnd(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978,
               A5 = 1.330274429, RSQRT2PI = 0.39894228040143267793994605993438;
  const double K = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  const double c =
      RSQRT2PI * std::exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}

/// CPU reference (double precision) of call and put.
void reference(const std::vector<float>& opt, std::size_t n, std::vector<double>& call,
               std::vector<double>& put) {
  const double R = 0.02, V = 0.30;
  call.resize(n);
  put.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double S = opt[i * kFields], X = opt[i * kFields + 1], T = opt[i * kFields + 2];
    const double d1 = (std::log(S / X) + (R + 0.5 * V * V) * T) / (V * std::sqrt(T));
    const double d2 = d1 - V * std::sqrt(T);
    const double e = std::exp(-R * T);
    call[i] = S * cnd(d1) - X * e * cnd(d2);
    put[i] = X * e * (1.0 - cnd(d2)) - S * (1.0 - cnd(d1));
  }
}

void check(const std::vector<float>& got, const std::vector<float>& in,
           const std::vector<double>& call, const std::vector<double>& put, std::size_t n,
           const std::string& what) {
  for (std::size_t i = 0; i < n; ++i) {
    for (unsigned k = 0; k < 3; ++k)
      if (got[i * kFields + k] != in[i * kFields + k])
        dlb::fail("blackscholes " + what + ": input field of option " + std::to_string(i) +
                  " changed");
    const double c = got[i * kFields + 3], p = got[i * kFields + 4];
    if (std::abs(c - call[i]) > 1e-3 + 1e-4 * std::abs(call[i]) ||
        std::abs(p - put[i]) > 1e-3 + 1e-4 * std::abs(put[i]))
      dlb::fail("blackscholes " + what + ": option " + std::to_string(i) + " call/put " +
                std::to_string(c) + "/" + std::to_string(p) + ", expected " +
                std::to_string(call[i]) + "/" + std::to_string(put[i]));
  }
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "blackscholes");
  const std::size_t n = std::size_t(args.num("n", 1 << 22));
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("blackscholes on %s: %zu options\n", d.name.c_str(), n);

  std::vector<float> opt(n * kFields);
  dlb::Rng rng(42);
  for (std::size_t i = 0; i < n; ++i) {
    opt[i * kFields + 0] = rng.uniform(5.0f, 30.0f);
    opt[i * kFields + 1] = rng.uniform(1.0f, 100.0f);
    opt[i * kFields + 2] = rng.uniform(0.25f, 10.0f);
    opt[i * kFields + 3] = -1.0f;
    opt[i * kFields + 4] = -1.0f;
  }
  std::vector<double> call, put;
  reference(opt, n, call, put);
  const std::size_t bytes = opt.size() * sizeof(float);
  const cl_uint nn = cl_uint(n);

  json out = dlb::app_json(d, o, "blackscholes", argc, argv);

  // Runs `src` with `opts` on the layout of width W; returns the median kernel ms.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel k = dlb::make_kernel(p, "black_scholes");
    cl_mem b = dlb::make_buffer(d, bytes);
    const auto in = dlb::to_tiled(opt, kFields, n, W);
    dlb::write(d, b, in.data(), bytes);
    dlb::set_arg(k, 0, b);
    dlb::set_arg(k, 1, nn);
    double ms = 0;
    if (iters > 0) {  // the application: `iters` launches
      for (int it = 0; it < iters; ++it) {
        cl_event e = dlb::launch_1d(d, k, n, 256);
        dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
        ms += dlb::event_ms(e) / iters;
        clReleaseEvent(e);
      }
    } else {
      ms = dlb::time_kernel(o.repeats, [&] { return dlb::launch_1d(d, k, n, 256); });
    }
    std::vector<float> raw(opt.size());
    dlb::read(d, b, raw.data(), bytes);
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    check(dlb::from_tiled(raw, kFields, n, W), opt, call, put, n, what);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    std::printf("app mode: %d launches, %.3f ms per launch, %.1f ms wall, check ok\n", o.iters, ms,
                wall);
    out["cases"] = json::array({{{"case", "default"},
                                 {"n", n},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", dlb::last_read_fnv()}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "blackscholes");
  json c{{"case", "default"}, {"n", n}};
  dlb::bench_case(o, n, kFields * sizeof(float), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] =
      json::array({{{"name", "opt"}, {"record", kRecord}, {"n", n}, {"readback", true}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-blackscholes: %s\n", e.what());
  return 2;
}
