// Needleman-Wunsch alignment scores of many pairs of sequences, a wavefront over score
// matrices (Dymaxion's diagonal-strip case study): the host keeps the matrices row-major,
// uploads them with their gap rows, launches one kernel per anti-diagonal, reads every
// matrix back and checks it against the CPU. Plain OpenCL; the annotated kernel
// (`-> DIAG`) lets DL store the planes diagonal after diagonal.
//
//   dl-app-wave [--nz 64] [--n 2048] [--iters 3] [--json f] [--kernel wave.cl]
//
// Every iteration is one whole alignment: write the matrices, every diagonal, read them.
// It reports the mean wall time of the diagonals (enqueued back to back, then waited
// for), the host's part of that (enqueueing them), the whole iteration (write to read),
// and the read-back's hash.
#include <chrono>
#include <cstdio>

#include "app.hpp"

using nlohmann::json;

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "wave");
  const std::size_t nz = std::size_t(args.num("nz", 64)), n = std::size_t(args.num("n", 2048));
  const int gap = 1;
  if (nz < 1 || n < 1 || n > (1u << 20) - 1 || nz * (n + 1) * (n + 1) > std::size_t(0x7fffffff))
    throw std::runtime_error("--nz and --n at least 1, n below 2^20, nz (n + 1)^2 below 2^31");
  const std::size_t ny = n + 1, nx = n + 1, cells = nz * ny * nx;
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("wave on %s: %zu alignments of %zu x %zu\n", d.name.c_str(), nz, n, n);

  // Sequences of a 4-letter alphabet; the pairs are related so that scores vary.
  std::vector<char> sa(nz * n), sb(nz * n);
  dlb::Rng rng(11);
  for (std::size_t i = 0; i < sa.size(); ++i) {
    sa[i] = "ACGT"[rng.next() % 4];
    sb[i] = rng.next() % 10 < 7 ? sa[i] : "ACGT"[rng.next() % 4];
  }
  std::vector<int> init(cells, 0);
  for (std::size_t z = 0; z < nz; ++z) {
    for (std::size_t x = 0; x < nx; ++x) init[z * ny * nx + x] = -gap * int(x);
    for (std::size_t y = 0; y < ny; ++y) init[(z * ny + y) * nx] = -gap * int(y);
  }
  std::vector<int> want = init;
  for (std::size_t z = 0; z < nz; ++z)
    for (std::size_t y = 1; y < ny; ++y)
      for (std::size_t x = 1; x < nx; ++x) {
        int* h = &want[z * ny * nx];
        const int m = sa[z * n + y - 1] == sb[z * n + x - 1] ? 2 : -1;
        h[y * nx + x] = std::max(h[(y - 1) * nx + x - 1] + m,
                                 std::max(h[(y - 1) * nx + x], h[y * nx + x - 1]) - gap);
      }

  cl_program p = dlb::build_program(d, dlb::read_text(o.kernel), "");
  cl_kernel k = dlb::make_kernel(p, "nw_diagonal");
  const std::size_t bytes = cells * sizeof(int);
  cl_mem h_buf = dlb::make_buffer(d, bytes);
  cl_mem a_buf = dlb::make_buffer(d, sa.size(), CL_MEM_READ_ONLY);
  cl_mem b_buf = dlb::make_buffer(d, sb.size(), CL_MEM_READ_ONLY);
  dlb::write(d, a_buf, sa.data(), sa.size());
  dlb::write(d, b_buf, sb.data(), sb.size());
  const cl_int nx_arg = cl_int(nx), ny_arg = cl_int(ny), nz_arg = cl_int(nz), gap_arg = gap;
  dlb::set_arg(k, 0, h_buf);
  dlb::set_arg(k, 1, a_buf);
  dlb::set_arg(k, 2, b_buf);
  dlb::set_arg(k, 3, nx_arg);
  dlb::set_arg(k, 4, ny_arg);
  dlb::set_arg(k, 5, nz_arg);
  dlb::set_arg(k, 8, gap_arg);

  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t) {
    return std::chrono::duration<double, std::milli>(clock::now() - t).count();
  };
  std::vector<int> got(cells);
  double diag_ms = 0, enqueue_ms = 0, step_ms = 0, first_ms = 0;
  const int iters = std::max(o.iters, 1);
  for (int it = 0; it < iters; ++it) {
    const auto t0 = clock::now();
    dlb::write(d, h_buf, init.data(), bytes);
    const auto t1 = clock::now();
    for (cl_int dd = 2; dd <= cl_int(ny + nx - 2); ++dd) {
      const cl_int len = std::min(cl_int(ny) - 1, dd - 1) - std::max(1, dd - cl_int(nx - 1)) + 1;
      dlb::set_arg(k, 6, dd);
      dlb::set_arg(k, 7, len);
      const std::size_t local = 128, global = (nz * std::size_t(len) + local - 1) / local * local;
      dlb::check(
          clEnqueueNDRangeKernel(d.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    }
    const double em = ms_since(t1);  // the host's part: enqueueing the launches
    dlb::check(clFinish(d.queue), "clFinish");
    const double dm = ms_since(t1);
    dlb::read(d, h_buf, got.data(), bytes);
    const double sm = ms_since(t0);
    if (got != want) {
      std::size_t i = 0;
      while (got[i] == want[i]) ++i;
      dlb::fail("wave iteration " + std::to_string(it) + ": cell " + std::to_string(i) + " is " +
                std::to_string(got[i]) + ", expected " + std::to_string(want[i]));
    }
    if (it == 0) first_ms = sm;
    if (iters == 1 || it > 0) {  // the first iteration builds and converts once more
      diag_ms += dm / (iters == 1 ? 1 : iters - 1);
      enqueue_ms += em / (iters == 1 ? 1 : iters - 1);
      step_ms += sm / (iters == 1 ? 1 : iters - 1);
    }
  }
  std::printf(
      "%d iterations: diagonals %.3f ms, write + diagonals + read %.3f ms (first %.3f), "
      "check ok\n",
      iters, diag_ms, step_ms, first_ms);
  json out = dlb::app_json(d, o, "wave", argc, argv);
  out["cases"] = json::array({{{"case", std::to_string(nz) + "x" + std::to_string(n)},
                               {"nz", nz},
                               {"n", n},
                               {"iters", iters},
                               {"diagonals_ms", diag_ms},
                               {"enqueue_ms", enqueue_ms},
                               {"step_ms", step_ms},
                               {"first_step_ms", first_ms},
                               {"result_fnv", dlb::last_read_fnv()}}});
  out["under_dl"] = dlb::under_dl();
  dlb::write_json(o.json, out);
  for (cl_mem m : {h_buf, a_buf, b_buf}) clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-wave: %s\n", e.what());
  return 2;
}
