// Sparse matrix-vector products with one matrix and a vector x that changes now and then
// (Dymaxion's SpMV case study, an indirect gather): the host builds a random matrix in
// ELL stored column-major (entry k of row i at k * rows + i), uploads it and x, and
// launches y = A x again and again, writing a new x every --update-x launches. Plain
// OpenCL; the annotated kernel (`gather: x[col]`) lets DL read x[col[e]] from a copy of
// x gathered through col, kept while neither changes.
//
//   dl-app-gather [--rows 1048576] [--K 16] [--band 16] [--iters 10] [--update-x 0]
//                 [--json f] [--kernel gather.cl]
//
// --band W puts each row's columns within i - W .. i + W (clamped to the matrix), --band 0
// anywhere. Each launch is followed by nothing (the same x), except every --update-x N
// launches (0: never) a new x is written before the next one. y is read and checked
// against the CPU after the first launch, the first launch after each new x, and the last
// one. It reports the mean kernel time per launch (event profiling) and the wall time
// from the first upload to the last read.
#include <chrono>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "gather");
  const long long rows_arg = args.num("rows", 1 << 20), k_arg = args.num("K", 16);
  const long long band = args.num("band", 16), update_x = args.num("update-x", 0);
  if (rows_arg < 1 || k_arg < 1 || band < 0 || update_x < 0 || rows_arg * k_arg > 0x7fffffffll)
    throw std::runtime_error(
        "--rows and --K at least 1, rows K below 2^31, --band and "
        "--update-x at least 0");
  const std::size_t rows = std::size_t(rows_arg), K = std::size_t(k_arg), nnz = rows * K;
  const int iters = std::max(o.iters, 1);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  const std::string shape = std::to_string(rows) + "x" + std::to_string(K) +
                            (band ? " band " + std::to_string(band) : " random");
  std::printf("gather on %s: %s, %d launches, a new x every %lld\n", d.name.c_str(), shape.c_str(),
              iters, update_x);

  // The matrix: entry k of row i at k * rows + i, its column near i or anywhere.
  dlb::Rng rng(23);
  std::vector<float> val(nnz), x(rows);
  std::vector<cl_int> col(nnz);
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t i = 0; i < rows; ++i) {
      long long c = 0;
      if (band) {
        const long long off = (long long)(rng.next() % std::uint64_t(2 * band + 1)) - band;
        c = std::clamp<long long>((long long)i + off, 0, rows_arg - 1);
      } else {
        c = (long long)(rng.next() % rows);
      }
      col[k * rows + i] = cl_int(c);
      val[k * rows + i] = rng.uniform(-1.0f, 1.0f);
    }
  auto new_x = [&] {
    for (float& v : x) v = rng.uniform(-1.0f, 1.0f);
  };
  new_x();
  // The CPU's y in double, and the sum of the terms' magnitudes (the check's scale).
  std::vector<double> want(rows), mag(rows);
  auto reference = [&] {
    for (std::size_t i = 0; i < rows; ++i) {
      double s = 0, m = 0;
      for (std::size_t k = 0; k < K; ++k) {
        const double t = double(val[k * rows + i]) * x[std::size_t(col[k * rows + i])];
        s += t;
        m += std::abs(t);
      }
      want[i] = s;
      mag[i] = m;
    }
  };

  cl_program p = dlb::build_program(d, dlb::read_text(o.kernel), "");
  cl_kernel kern = dlb::make_kernel(p, "spmv_ell_gather");
  cl_mem val_buf = dlb::make_buffer(d, nnz * sizeof(float), CL_MEM_READ_ONLY);
  cl_mem col_buf = dlb::make_buffer(d, nnz * sizeof(cl_int), CL_MEM_READ_ONLY);
  cl_mem x_buf = dlb::make_buffer(d, rows * sizeof(float), CL_MEM_READ_ONLY);
  cl_mem y_buf = dlb::make_buffer(d, rows * sizeof(float));
  std::vector<float> y(rows, -777.0f);  // poison: a launch that wrote nothing fails
  reference();

  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  dlb::write(d, val_buf, val.data(), nnz * sizeof(float));
  dlb::write(d, col_buf, col.data(), nnz * sizeof(cl_int));
  dlb::write(d, x_buf, x.data(), rows * sizeof(float));
  dlb::write(d, y_buf, y.data(), rows * sizeof(float));
  const cl_uint rows_u = cl_uint(rows), k_u = cl_uint(K);
  dlb::set_arg(kern, 0, val_buf);
  dlb::set_arg(kern, 1, col_buf);
  dlb::set_arg(kern, 2, x_buf);
  dlb::set_arg(kern, 3, y_buf);
  dlb::set_arg(kern, 4, rows_u);
  dlb::set_arg(kern, 5, k_u);

  std::vector<double> launch_ms;
  double cpu_ms = 0;  // the CPU's references of new x, left out of the wall time
  auto timed_reference = [&] {
    const auto r0 = clock::now();
    reference();
    cpu_ms += std::chrono::duration<double, std::milli>(clock::now() - r0).count();
  };
  int updates = 0, checks = 0;
  bool fresh = true;  // the launch reads an x not checked yet
  for (int it = 0; it < iters; ++it) {
    if (update_x && it > 0 && it % update_x == 0) {
      new_x();
      dlb::write(d, x_buf, x.data(), rows * sizeof(float));
      timed_reference();
      ++updates;
      fresh = true;
    }
    cl_event e = dlb::launch_1d(d, kern, rows, 128);
    dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
    launch_ms.push_back(dlb::event_ms(e));
    clReleaseEvent(e);
    if (!fresh && it != iters - 1) continue;
    fresh = false;
    dlb::read(d, y_buf, y.data(), rows * sizeof(float));
    ++checks;
    for (std::size_t i = 0; i < rows; ++i)
      if (!(std::abs(y[i] - want[i]) <= 1e-5 * mag[i] + 1e-6))
        dlb::fail("gather launch " + std::to_string(it) + ": y[" + std::to_string(i) +
                  "] = " + std::to_string(y[i]) + ", expected " + std::to_string(want[i]));
  }
  const double wall_ms =
      std::chrono::duration<double, std::milli>(clock::now() - t0).count() - cpu_ms;
  json c = {{"case", shape},  {"rows", rows},        {"K", K}, {"nnz", nnz}, {"band", band},
            {"iters", iters}, {"update_x", update_x}};
  dlb::report_launches(launch_ms, updates, wall_ms, checks, c);
  json out = dlb::app_json(d, o, "gather", argc, argv);
  out["cases"] = json::array({c});
  out["under_dl"] = dlb::under_dl();
  dlb::write_json(o.json, out);
  for (cl_mem m : {val_buf, col_buf, x_buf, y_buf}) clReleaseMemObject(m);
  clReleaseKernel(kern);
  clReleaseProgram(p);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-gather: %s\n", e.what());
  return 2;
}
