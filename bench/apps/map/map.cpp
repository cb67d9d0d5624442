// Reads through an index function with an array x that changes now and then (a
// user-defined map): the host uploads x and launches y[i] = a x[f(i)] + 1 again and
// again, f an FFT's bit reversal or a matrix's transposition, writing a new x every
// --update-x launches. Plain OpenCL; the annotated kernels (`map: x[bitrev]`,
// `map: x[transposed]`) let DL read x[f(i)] from a copy of x made on the device, kept
// while x does not change.
//
//   dl-app-map [--map bitrev|transposed] [--log2n 26] [--rows 4096] [--iters 10]
//              [--update-x 0] [--json f] [--kernel map.cl]
//
// x holds 2^log2n floats; --rows sets the transposed matrix's rows (the columns are
// 2^log2n / rows; rows must divide it). y is read and checked against the CPU after the
// first launch, the first launch after each new x, and the last one. It reports the mean
// kernel time per launch (event profiling) and the wall time from the first upload to
// the last read.
#include <chrono>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

namespace {

std::uint32_t bitrev(std::uint32_t i, std::uint32_t bits) {
  std::uint32_t r = 0;
  for (std::uint32_t b = 0; b < bits; ++b) r |= ((i >> b) & 1u) << (bits - 1u - b);
  return r;
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "map");
  const std::string map = args.str("map", "bitrev");
  const long long log2n = args.num("log2n", 26), rows_arg = args.num("rows", 4096);
  const long long update_x = args.num("update-x", 0);
  if (map != "bitrev" && map != "transposed") throw std::runtime_error("--map bitrev|transposed");
  if (log2n < 1 || log2n > 30 || update_x < 0)
    throw std::runtime_error("--log2n in [1, 30], --update-x at least 0");
  const std::size_t n = std::size_t(1) << log2n;
  if (rows_arg < 1 || n % std::size_t(rows_arg))
    throw std::runtime_error("--rows must divide 2^log2n");
  const std::size_t rows = std::size_t(rows_arg), cols = n / rows;
  const int iters = std::max(o.iters, 1);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  const std::string shape = map == "bitrev"
                                ? "bitrev 2^" + std::to_string(log2n)
                                : "transposed " + std::to_string(rows) + "x" + std::to_string(cols);
  std::printf("map on %s: %s, %d launches, a new x every %lld\n", d.name.c_str(), shape.c_str(),
              iters, update_x);
  std::vector<std::uint32_t> f(n);
  for (std::size_t i = 0; i < n; ++i)
    f[i] = map == "bitrev" ? bitrev(std::uint32_t(i), std::uint32_t(log2n))
                           : std::uint32_t((i % rows) * cols + i / rows);
  dlb::Rng rng(29);
  std::vector<float> x(n), y(n, -777.0f);  // poison: a launch that wrote nothing fails
  auto new_x = [&] {
    for (float& v : x) v = rng.uniform(-1.0f, 1.0f);
  };
  new_x();
  const float a = 1.5f;

  cl_program p = dlb::build_program(d, dlb::read_text(o.kernel), "");
  cl_kernel kern = dlb::make_kernel(p, map == "bitrev" ? "scale_bitrev" : "scale_transposed");
  cl_mem x_buf = dlb::make_buffer(d, n * sizeof(float), CL_MEM_READ_ONLY);
  cl_mem y_buf = dlb::make_buffer(d, n * sizeof(float));

  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  dlb::write(d, x_buf, x.data(), n * sizeof(float));
  dlb::write(d, y_buf, y.data(), n * sizeof(float));
  const cl_uint n_u = cl_uint(n), bits_u = cl_uint(log2n), rows_u = cl_uint(rows),
                cols_u = cl_uint(cols);
  dlb::set_arg(kern, 0, x_buf);
  dlb::set_arg(kern, 1, y_buf);
  dlb::set_arg(kern, 2, n_u);
  cl_uint next = 3;
  if (map == "bitrev") {
    dlb::set_arg(kern, next++, bits_u);
  } else {
    dlb::set_arg(kern, next++, rows_u);
    dlb::set_arg(kern, next++, cols_u);
  }
  dlb::set_arg(kern, next, a);

  std::vector<double> launch_ms;
  int updates = 0, checks = 0;
  bool fresh = true;  // the launch reads an x not checked yet
  for (int it = 0; it < iters; ++it) {
    if (update_x && it > 0 && it % update_x == 0) {
      new_x();
      dlb::write(d, x_buf, x.data(), n * sizeof(float));
      ++updates;
      fresh = true;
    }
    cl_event e = dlb::launch_1d(d, kern, n, 256);
    dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
    launch_ms.push_back(dlb::event_ms(e));
    clReleaseEvent(e);
    if (!fresh && it != iters - 1) continue;
    fresh = false;
    dlb::read(d, y_buf, y.data(), n * sizeof(float));
    ++checks;
    for (std::size_t i = 0; i < n; ++i) {
      const double want = double(a) * x[f[i]] + 1.0;  // (the device may fuse the multiply-add)
      if (!(std::abs(y[i] - want) <= 1e-6 * (std::abs(want) + 2.0)))
        dlb::fail("map launch " + std::to_string(it) + ": y[" + std::to_string(i) +
                  "] = " + std::to_string(y[i]) + ", expected " + std::to_string(want));
    }
  }
  const double wall_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  json c = {{"case", shape}, {"map", map},     {"n", n},
            {"rows", rows},  {"iters", iters}, {"update_x", update_x}};
  dlb::report_launches(launch_ms, updates, wall_ms, checks, c);
  json out = dlb::app_json(d, o, "map", argc, argv);
  out["cases"] = json::array({c});
  out["under_dl"] = dlb::under_dl();
  dlb::write_json(o.json, out);
  for (cl_mem m : {x_buf, y_buf}) clReleaseMemObject(m);
  clReleaseKernel(kern);
  clReleaseProgram(p);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-map: %s\n", e.what());
  return 2;
}
