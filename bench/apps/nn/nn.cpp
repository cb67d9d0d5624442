// Nearest-neighbour search shaped like Rodinia's nn: n records {lat, lng} (8 bytes) in
// AoS, one work-item per record computes the record's Euclidean distance to the query
// point into a float array d, and the host picks the k nearest from d. The AoS
// application, and its kernel hand-written in AoS, DA and ASTA(T). Plain OpenCL.
//
//   dl-app-nn [--n 16777216] [--k 10] [--lat 30] [--lng 90] [--T 16,32,64] [--repeats 5]
//             [--json f] [--rewritten [label=]FILE,...]   (dl-annotate outputs of nn.cl)
//   dl-app-nn --mode app [--iters 10]   (the annotated AoS kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <queue>
#include <utility>

#include "app.hpp"

using nlohmann::json;

namespace {

constexpr unsigned kFields = 2;
constexpr std::size_t kLocal = 64;  // the global size is padded to a multiple of 64
const char* kRecord = "latlong 8 4 float:lat@0 float:lng@4";

/// CPU reference (double precision) of the distances of the n records of `loc` (AoS) to
/// the query point.
std::vector<double> reference(const std::vector<float>& loc, std::size_t n, float lat, float lng) {
  std::vector<double> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double dlat = double(lat) - loc[i * kFields], dlng = double(lng) - loc[i * kFields + 1];
    want[i] = std::sqrt(dlat * dlat + dlng * dlng);
  }
  return want;
}

/// The k nearest records by distance, nearest first (ties: the lower index first).
template <class T>
std::vector<std::pair<T, std::size_t>> nearest(const std::vector<T>& dist, std::size_t k) {
  std::priority_queue<std::pair<T, std::size_t>> best;  // the k nearest so far, farthest on top
  for (std::size_t i = 0; i < dist.size(); ++i) {
    if (best.size() < k) {
      best.push({dist[i], i});
    } else if (k > 0 && std::make_pair(dist[i], i) < best.top()) {
      best.pop();
      best.push({dist[i], i});
    }
  }
  std::vector<std::pair<T, std::size_t>> out(best.size());
  for (std::size_t j = out.size(); j-- > 0; best.pop()) out[j] = best.top();
  return out;
}

/// Float arithmetic of two differences, two squares, a sum and a square root (OpenCL C's
/// sqrt is within 3 ulp, a compiler may contract into an fma): a few ulp of the distance.
constexpr double kTol = 1e-5;

/// Checks the device's distances, and the distances of the k nearest it gives, against
/// the reference.
void check(const std::vector<float>& got, const std::vector<double>& want, std::size_t k,
           const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::abs(got[i] - want[i]) <= kTol * want[i] + 1e-6))
      dlb::fail("nn " + what + ": d[" + std::to_string(i) + "] is " + std::to_string(got[i]) +
                ", expected " + std::to_string(want[i]));
  const auto g = nearest(got, k);
  const auto w = nearest(want, k);
  if (g.size() != w.size()) dlb::fail("nn " + what + ": wrong number of nearest records");
  for (std::size_t j = 0; j < w.size(); ++j)
    if (!(std::abs(g[j].first - w[j].first) <= kTol * w[j].first + 1e-6))
      dlb::fail("nn " + what + ": nearest #" + std::to_string(j) + " at distance " +
                std::to_string(g[j].first) + ", expected " + std::to_string(w[j].first));
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "nn");
  const std::size_t n = std::size_t(args.num("n", 1 << 24));
  const std::size_t k = std::size_t(args.num("k", 10));
  const float lat = float(args.real("lat", 30.0)), lng = float(args.real("lng", 90.0));
  if (n < 1 || n > std::size_t(0x7fffffff)) throw std::runtime_error("--n must be 1..2^31-1");
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("nn on %s: %zu records, query (%g, %g), %zu nearest\n", d.name.c_str(), n, lat, lng,
              k);

  // Locations from a fixed seed, anywhere on the globe.
  std::vector<float> loc(n * kFields);
  dlb::Rng rng(42);
  for (std::size_t i = 0; i < n; ++i) {
    loc[i * kFields + 0] = rng.uniform(-90.0f, 90.0f);
    loc[i * kFields + 1] = rng.uniform(-180.0f, 180.0f);
  }
  const auto want = reference(loc, n, lat, lng);
  const std::size_t lbytes = loc.size() * sizeof(float), dbytes = n * sizeof(float);
  const cl_int n_arg = cl_int(n);
  std::vector<float> dist(n);

  json out = dlb::app_json(d, o, "nn", argc, argv);

  // Runs `src` with `opts` with the locations in the layout of width W and leaves the
  // distances in `dist`. iters > 0: the application, `iters` launches, returns the mean
  // ms per launch; iters == 0: returns the median kernel ms of repeated launches.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel kern = dlb::make_kernel(p, "nn_kernel");
    cl_mem loc_buf = dlb::make_buffer(d, lbytes, CL_MEM_READ_ONLY);
    cl_mem d_buf = dlb::make_buffer(d, dbytes);
    const auto in = dlb::to_tiled(loc, kFields, n, W);
    dlb::write(d, loc_buf, in.data(), lbytes);
    const std::vector<float> poison(n, -1.0f);
    dlb::write(d, d_buf, poison.data(), dbytes);
    dlb::set_arg(kern, 0, loc_buf);
    dlb::set_arg(kern, 1, d_buf);
    dlb::set_arg(kern, 2, n_arg);
    dlb::set_arg(kern, 3, lat);
    dlb::set_arg(kern, 4, lng);
    auto launch = [&] { return dlb::launch_1d(d, kern, n, kLocal); };
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
    dlb::read(d, d_buf, dist.data(), dbytes);
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    check(dist, want, k, what);
    clReleaseMemObject(loc_buf);
    clReleaseMemObject(d_buf);
    clReleaseKernel(kern);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  const std::string case_name = "n=" + std::to_string(n);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    const std::string fnv = dlb::last_read_fnv();
    json found = json::array();
    for (const auto& [dd, i] : nearest(dist, k)) {
      std::printf("  record %9zu (%9.4f, %9.4f) at distance %.5f\n", i, loc[i * kFields],
                  loc[i * kFields + 1], dd);
      found.push_back({{"index", i}, {"distance", dd}});
    }
    std::printf("app mode: %d launches, %.3f ms per launch, %.1f ms wall, check ok\n", o.iters, ms,
                wall);
    out["cases"] = json::array({{{"case", case_name},
                                 {"n", n},
                                 {"k", k},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"nearest", found},
                                 {"result_fnv", fnv}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "nn");
  json c{{"case", case_name}, {"n", n}, {"k", k}};
  dlb::bench_case(o, n, kFields * sizeof(float), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] =
      json::array({{{"name", "locations"}, {"record", kRecord}, {"n", n}, {"readback", false}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-nn: %s\n", e.what());
  return 2;
}
