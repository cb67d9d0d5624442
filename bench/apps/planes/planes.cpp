// Sums along the fastest dimension of a 3-D array a[nz][ny][nx] with work-items over the
// rows (DVMH's case for permuting two dimensions): the row-major application, and its
// kernel hand-written in row-major (AoS), DA and ASTA(T); T = ny by default, the array
// with x and y swapped in every plane, which the annotated kernel asks for as
// `-> ASTA(ny)`. Plain OpenCL.
//
//   dl-app-planes [--nz 64] [--ny 256] [--nx 64] [--T ny,...] [--repeats 5] [--json f]
//                 [--rewritten [label=]FILE,...]
//   dl-app-planes --mode app [--iters 10]   (the annotated row-major kernel only)
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "planes");
  const std::size_t nz = std::size_t(args.num("nz", 64)), ny = std::size_t(args.num("ny", 256)),
                    nx = std::size_t(args.num("nx", 64));
  if (nz < 1 || ny < 1 || nx < 1 || nx > 4096 || ny > (1u << 20) ||
      nz * ny > std::size_t(0x7fffffff) / nx)
    throw std::runtime_error(
        "--nz, --ny, --nx at least 1, nx at most 4096, ny at most 2^20, "
        "and nz * ny * nx below 2^31");
  if (!args.has("T")) {  // AoS, DA and the plane transpose
    o.layouts.resize(2);
    o.layouts.push_back({unsigned(ny)});
  }
  const std::size_t rows = nz * ny;
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("planes on %s: %zu x %zu x %zu floats\n", d.name.c_str(), nz, ny, nx);

  std::vector<float> a(rows * nx);
  dlb::Rng rng(7);
  for (float& v : a) v = rng.uniform(-1.0f, 1.0f);
  std::vector<float> want(rows, 0.0f);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t x = 0; x < nx; ++x) want[r] += a[r * nx + x];
  const cl_int nx_arg = cl_int(nx), ny_arg = cl_int(ny), nz_arg = cl_int(nz);
  const std::size_t abytes = a.size() * sizeof(float), obytes = rows * sizeof(float);
  const std::string record = "flat_float_" + std::to_string(nx) + " " +
                             std::to_string(nx * sizeof(float)) + " 4 float*" + std::to_string(nx) +
                             ":v@0";
  json out = dlb::app_json(d, o, "planes", argc, argv);

  // Runs `src` with `opts`, the array in the layout of width W (W = ny: planes swapped).
  // iters > 0: the application's loop (the kernel, the sums read and checked); returns
  // the mean kernel ms; iters == 0: the median kernel ms of repeated launches.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel k = dlb::make_kernel(p, "planes_sum");
    cl_mem a_buf = dlb::make_buffer(d, abytes, CL_MEM_READ_ONLY);
    cl_mem o_buf = dlb::make_buffer(d, obytes);
    const auto in = dlb::to_tiled(a, nx, rows, W);
    dlb::write(d, a_buf, in.data(), abytes);
    dlb::set_arg(k, 0, a_buf);
    dlb::set_arg(k, 1, o_buf);
    dlb::set_arg(k, 2, nx_arg);
    dlb::set_arg(k, 3, ny_arg);
    dlb::set_arg(k, 4, nz_arg);
    auto launch = [&] { return dlb::launch_1d(d, k, rows, 128); };
    std::vector<float> got(rows);
    auto check = [&](const std::string& when) {
      dlb::read(d, o_buf, got.data(), obytes);
      for (std::size_t r = 0; r < rows; ++r)
        if (!(std::abs(got[r] - want[r]) <= 1e-5f * float(nx)))
          dlb::fail("planes " + what + when + ": row " + std::to_string(r) + " sums to " +
                    std::to_string(got[r]) + ", expected " + std::to_string(want[r]));
    };
    double ms = 0;
    if (iters > 0) {
      ms = dlb::app_loop(iters, launch, [&](int it) { check(" iteration " + std::to_string(it)); });
    } else {
      ms = dlb::time_kernel(o.repeats, launch);
      check("");
    }
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    clReleaseMemObject(a_buf);
    clReleaseMemObject(o_buf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  const std::string case_name =
      std::to_string(nz) + "x" + std::to_string(ny) + "x" + std::to_string(nx);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    const std::string fnv = dlb::last_read_fnv();
    std::printf("app mode: %d iterations, %.4f ms per launch, %.1f ms wall, check ok\n", o.iters,
                ms, wall);
    out["cases"] = json::array({{{"case", case_name},
                                 {"nz", nz},
                                 {"ny", ny},
                                 {"nx", nx},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", fnv}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "planes");
  json c{{"case", case_name}, {"nz", nz}, {"ny", ny}, {"nx", nx}};
  dlb::bench_case(o, rows, nx * sizeof(float), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] =
      json::array({{{"name", "a"}, {"record", record}, {"n", rows}, {"readback", false}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-planes: %s\n", e.what());
  return 2;
}
