// Sums over the middle dimension of a 3-D array a[nz][ny][nx] with work-items over (z, x)
// (DVMH's case for swapping the two slowest dimensions): the row-major application, its
// kernel hand-written for a[z][y][x] and for the swapped a[y][z][x], the annotated kernel
// (`-> [ny][nz][nx]`) as the application runs it, and files dl-annotate rewrote from it,
// timed on the swapped array (the layout DL converts the buffer to). Plain OpenCL.
// `--pair far`: sums over x with work-items over (y, z), z fastest (a sweep along x,
// parallel across the other two), whose array wants z and x exchanged (a[x][y][z],
// `-> [nx][ny][nz]`, two dimensions that are not neighbours).
//
//   dl-app-swap [--pair slowest|far] [--nz 65536] [--ny 256] [--nx 4,...] [--repeats 5]
//               [--json f] [--rewritten [label=]FILE,...]
//   dl-app-swap --mode app [--iters 10]   (the annotated row-major kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  const auto o = dlb::parse_app_options(args, "swap");
  const std::string pair = args.str("pair", "slowest");
  if (pair != "slowest" && pair != "far") throw std::runtime_error("--pair slowest or far");
  const bool far = pair == "far";
  const char* kernel = far ? "swap_far" : "swap_sum";
  const std::size_t nz = std::size_t(args.num("nz", 65536)), ny = std::size_t(args.num("ny", 256));
  const auto nxs = args.list("nx", {4});
  for (long long nx : nxs)
    if (nz < 1 || ny < 1 || nx < 1 || nx > 4096 || nz * ny > std::size_t(0x7fffffff) / nx)
      throw std::runtime_error(
          "--nz, --ny, --nx at least 1, nx at most 4096, nz * ny * nx below 2^31");
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  json out = dlb::app_json(d, o, "swap", argc, argv);
  out.erase("tiles");  // a swap's tile width is nz
  out["pair"] = pair;
  out["cases"] = json::array();
  const std::string annotated = dlb::read_text(o.kernel);

  for (long long nx_ll : nxs) {
    const std::size_t nx = std::size_t(nx_ll), n = nz * ny * nx, items = far ? ny * nz : nz * nx;
    std::printf("swap (%s) on %s: %zu x %zu x %zu floats\n", pair.c_str(), d.name.c_str(), nz, ny,
                nx);
    std::vector<float> a(n), swapped(n);
    dlb::Rng rng(11);
    for (float& v : a) v = rng.uniform(-1.0f, 1.0f);
    // The swapped array; the sums over y at (z, x), or over x at (y, z).
    std::vector<float> want(items, 0.0f);
    for (std::size_t z = 0; z < nz; ++z)
      for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < nx; ++x) {
          const float v = a[(z * ny + y) * nx + x];
          swapped[far ? (x * ny + y) * nz + z : (y * nz + z) * nx + x] = v;
          want[far ? y * nz + z : z * nx + x] += v;
        }
    const float reach = float(far ? nx : ny);
    const cl_int nx_arg = cl_int(nx), ny_arg = cl_int(ny), nz_arg = cl_int(nz);
    const std::size_t abytes = n * sizeof(float), obytes = items * sizeof(float);

    // Runs `src` built with `opts` on `data`. iters > 0: the application's loop (kernel,
    // sums read and checked), the mean kernel ms; iters == 0: the median of repeats.
    auto run = [&](const std::string& src, const std::string& opts, const std::vector<float>& data,
                   int iters, const std::string& what, double* wall_ms) {
      const auto t0 = std::chrono::steady_clock::now();
      cl_program p = dlb::build_program(d, src, opts);
      cl_kernel k = dlb::make_kernel(p, kernel);
      cl_mem a_buf = dlb::make_buffer(d, abytes, CL_MEM_READ_ONLY);
      cl_mem o_buf = dlb::make_buffer(d, obytes);
      dlb::write(d, a_buf, data.data(), abytes);
      dlb::set_arg(k, 0, a_buf);
      dlb::set_arg(k, 1, o_buf);
      dlb::set_arg(k, 2, nx_arg);
      dlb::set_arg(k, 3, ny_arg);
      dlb::set_arg(k, 4, nz_arg);
      auto launch = [&] { return dlb::launch_1d(d, k, items, 128); };
      std::vector<float> got(items);
      auto check = [&](const std::string& when) {
        dlb::read(d, o_buf, got.data(), obytes);
        for (std::size_t i = 0; i < items; ++i)
          if (!(std::abs(got[i] - want[i]) <= 1e-5f * reach))
            dlb::fail("swap " + what + when + ": sum " + std::to_string(i) + " is " +
                      std::to_string(got[i]) + ", expected " + std::to_string(want[i]));
      };
      double ms = 0;
      if (iters > 0) {
        ms = dlb::app_loop(iters, launch,
                           [&](int it) { check(" iteration " + std::to_string(it)); });
      } else {
        ms = dlb::time_kernel(o.repeats, launch);
        check("");
      }
      if (wall_ms)
        *wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                       .count();
      clReleaseMemObject(a_buf);
      clReleaseMemObject(o_buf);
      clReleaseKernel(k);
      clReleaseProgram(p);
      return ms;
    };

    const std::string case_name =
        std::to_string(nz) + "x" + std::to_string(ny) + "x" + std::to_string(nx);
    json c{{"case", case_name}, {"nz", nz}, {"ny", ny}, {"nx", nx}};
    if (o.mode == "app") {
      double wall = 0;
      c["iters"] = o.iters;
      c["kernel_ms"] = run(annotated, "", a, o.iters, "app", &wall);
      c["wall_ms"] = wall;
      c["result_fnv"] = dlb::last_read_fnv();
      std::printf("app mode: %d iterations, %.4f ms per launch, %.1f ms wall, check ok\n", o.iters,
                  c["kernel_ms"].get<double>(), wall);
      out["cases"].push_back(c);
      continue;
    }
    const std::string variants = dlb::variant_source(o, "swap");
    auto timed = [&](const std::string& label, double ms) {
      std::printf("  %-24s %9.4f ms  speedup %.2f\n", label.c_str(), ms,
                  c["kernel_ms"]["AoS"].get<double>() / ms);
      c["kernel_ms"][label] = ms;
    };
    c["kernel_ms"] = json::object();
    c["kernel_ms"]["AoS"] = run(variants, "", a, 0, "AoS", nullptr);
    timed("AoS", c["kernel_ms"]["AoS"].get<double>());
    timed("swapped", run(variants, "-DSWAPPED", swapped, 0, "swapped", nullptr));
    // (Each rewritten file reads the layout of the pair it was made for.)
    timed("annotated", run(annotated, "", a, 0, "annotated", nullptr));
    // A rewritten file reads the swapped array whatever T it is built with (the tile
    // width of a swap is the annotation's d1, nz): one build, T = 32. Its buffer's
    // layout is the pair's, the kernel the one this run launches.
    for (const auto& r : o.rewritten) {
      if (r.target != 3) dlb::fail(r.path + ": not a rewrite of a swap of dimensions (`-> [..]`)");
      timed(r.label, run(r.source, "-DDL_ASTA_T=32 " + r.options, swapped, 0, r.label, nullptr));
    }
    c["check"] = "ok";
    out["cases"].push_back(c);
  }
  if (o.mode != "app") std::printf("all kernels match the CPU reference\n");
  out["under_dl"] = dlb::under_dl();
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-swap: %s\n", e.what());
  return 2;
}
