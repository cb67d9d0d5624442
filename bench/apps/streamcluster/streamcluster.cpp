// Streamcluster's pgain (shaped like Rodinia's streamcluster): the gain of opening a new
// center at point x, over an array of point records {weight, assign, cost} with padding
// (24 bytes: float@0, 8-byte int@8, float@16) and a transposed coordinate array. The AoS
// application, and its kernel hand-written in AoS, DA and ASTA(T). Plain OpenCL.
//
//   dl-app-streamcluster [--n 1048576] [--dim 16] [--K 10] [--T 16,32,64] [--repeats 5]
//                        [--json f] [--rewritten [label=]FILE,...]
//   dl-app-streamcluster --mode app [--iters 10]   (the annotated AoS kernel only)
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "app.hpp"

using nlohmann::json;

namespace {

/// The host's view of the kernel's point_t (OpenCL `long` is 64 bits).
struct Point {
  float weight;
  std::int64_t assign;
  float cost;
};
static_assert(sizeof(Point) == 24, "point_t is 24 bytes");
static_assert(offsetof(Point, weight) == 0 && offsetof(Point, assign) == 8 &&
                  offsetof(Point, cost) == 16,
              "point_t field offsets");

const char* kRecord = "point_t 24 8 float:weight@0 long:assign@8 float:cost@16";

struct Field {
  std::size_t offset, size;
};
const std::vector<Field> kFields = {{offsetof(Point, weight), sizeof(float)},
                                    {offsetof(Point, assign), sizeof(std::int64_t)},
                                    {offsetof(Point, cost), sizeof(float)}};

/// The bytes of n records of R bytes (AoS) in tiles of W records (1 = AoS, n = DA,
/// T = ASTA(T); the last partial tile holds n % W records): slot (o, z) of record i goes
/// to byte b*R + w*o + (i-b)*z, b = i/W*W, w = min(W, n-b). Padding bytes stay zero.
std::vector<unsigned char> to_layout(const void* aos, std::size_t n, std::size_t R,
                                     const std::vector<Field>& fields, std::size_t W) {
  const auto* in = static_cast<const unsigned char*>(aos);
  std::vector<unsigned char> out(n * R, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t b = i / W * W, w = std::min(W, n - b);
    for (const Field& f : fields)
      std::memcpy(&out[b * R + w * f.offset + (i - b) * f.size], in + i * R + f.offset, f.size);
  }
  return out;
}

struct Problem {
  std::size_t n = 0;
  int dim = 0, K = 0, x = 0;
  std::vector<Point> points;
  std::vector<float> coord;  // transposed: coordinate i of point q at coord[i*n + q]
  std::vector<int> center_table;
};

/// CPU reference of `launches` pgain launches on zeroed buffers, in float in the kernel's
/// order: work_mem (n rows of K+1) and switch_membership. OpenCL C lets a compiler
/// contract `x_cost += t * t` into an fma (PoCL on an FMA CPU does; GPU compilers usually
/// do), so there are two references: plain float, and contracted (std::fma).
struct Reference {
  std::vector<float> work;
  std::vector<char> sw;
};

Reference reference(const Problem& pr, int launches, bool contract) {
  const std::size_t n = pr.n, K = std::size_t(pr.K);
  Reference r;
  r.work.assign(n * (K + 1), 0.0f);
  r.sw.assign(n, 0);
  for (std::size_t q = 0; q < n; ++q) {
    float x_cost = 0;
    for (int i = 0; i < pr.dim; ++i) {
      const float t = pr.coord[std::size_t(i) * n + q] - pr.coord[std::size_t(i) * n + pr.x];
      x_cost = contract ? std::fma(t, t, x_cost) : x_cost + t * t;
    }
    x_cost *= pr.points[q].weight;
    const float current_cost = pr.points[q].cost;
    const bool moves = x_cost < current_cost;
    if (moves) r.sw[q] = 1;
    const std::size_t col = moves ? K : std::size_t(pr.center_table[pr.points[q].assign]);
    for (int l = 0; l < launches; ++l) r.work[q * (K + 1) + col] += current_cost - x_cost;
  }
  return r;
}

/// The device's result against the references: each row (work_mem row and
/// switch_membership) must equal one of them bit for bit. A row that equals neither (a
/// compiler that evaluates differently still) is compared to the plain reference with a
/// relative tolerance of the operands' magnitude, kTol * launches * (|cost| + |x_cost|);
/// a point whose x_cost is that close to its cost may take either branch, and every other
/// slot of the row must be exactly 0. Such rows are counted and reported.
constexpr double kTol = 1e-5;

void check(const Problem& pr, int launches, const std::vector<float>& work,
           const std::vector<char>& sw, const Reference (&refs)[2], const std::string& what) {
  const std::size_t n = pr.n, K = std::size_t(pr.K), row_bytes = (K + 1) * sizeof(float);
  std::size_t inexact = 0;
  double worst = 0;
  for (std::size_t q = 0; q < n; ++q) {
    const float* row = &work[q * (K + 1)];
    bool exact = false;
    for (const Reference& r : refs)
      exact = exact || (sw[q] == r.sw[q] && std::memcmp(row, &r.work[q * (K + 1)], row_bytes) == 0);
    if (exact) continue;
    ++inexact;
    const Reference& r = refs[0];
    const std::size_t ref_col = r.sw[q] ? K : std::size_t(pr.center_table[pr.points[q].assign]);
    const double ref = double(r.work[q * (K + 1) + ref_col]) / launches;  // cost - x_cost
    const double cost = pr.points[q].cost, x_cost = cost - ref;
    const double tol = kTol * (std::abs(cost) + std::abs(x_cost));
    if (sw[q] != 0 && sw[q] != 1)
      dlb::fail("streamcluster " + what + ": switch_membership[" + std::to_string(q) +
                "] = " + std::to_string(int(sw[q])));
    if (sw[q] != r.sw[q] && std::abs(ref) > tol)
      dlb::fail("streamcluster " + what + ": point " + std::to_string(q) + " switch " +
                std::to_string(int(sw[q])) + ", expected " + std::to_string(int(r.sw[q])));
    const std::size_t col = sw[q] ? K : std::size_t(pr.center_table[pr.points[q].assign]);
    for (std::size_t k = 0; k <= K; ++k) {
      const double want = k == col ? launches * ref : 0.0;
      const double err = std::abs(double(row[k]) - want);
      if (k == col ? err > launches * tol : row[k] != 0.0f)
        dlb::fail("streamcluster " + what + ": work_mem[" + std::to_string(q) + "][" +
                  std::to_string(k) + "] = " + std::to_string(row[k]) + ", expected " +
                  std::to_string(want));
      if (k == col) worst = std::max(worst, err / (launches * (std::abs(cost) + std::abs(x_cost))));
    }
  }
  if (inexact)
    std::printf("  (%s: %zu of %zu rows not bit-exact, within %.2g relative, tolerance %.0e)\n",
                what.c_str(), inexact, n, worst, kTol);
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "streamcluster");
  Problem pr;
  pr.n = std::size_t(args.num("n", 1 << 20));
  pr.dim = int(args.num("dim", 16));
  pr.K = int(args.num("K", 10));
  const std::size_t n = pr.n, K = std::size_t(pr.K), dim = std::size_t(pr.dim);
  if (n == 0 || pr.dim <= 0 || pr.K <= 0) throw std::runtime_error("need n, dim, K > 0");
  if (n * sizeof(Point) >= (std::size_t(1) << 32) || n * (K + 1) >= (std::size_t(1) << 31) ||
      n * dim >= (std::size_t(1) << 31))
    throw std::runtime_error("n too large for the kernels' 32-bit indices");
  pr.x = int(n / 3);
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("streamcluster on %s: %zu points, dim %d, K %d, candidate %d\n", d.name.c_str(), n,
              pr.dim, pr.K, pr.x);

  dlb::Rng rng(42);
  pr.coord.resize(dim * n);
  for (float& c : pr.coord) c = rng.uniform(0.0f, 1.0f);
  pr.points.resize(n);
  for (Point& pt : pr.points) {
    pt.weight = rng.uniform(0.5f, 1.5f);
    pt.assign = std::int64_t(rng.next() % K);
    pt.cost = rng.uniform(0.0f, float(pr.dim) * 0.3f);
  }
  pr.center_table.resize(K);
  for (std::size_t k = 0; k < K; ++k) pr.center_table[k] = int(k);
  for (std::size_t k = K; k > 1; --k)  // Fisher-Yates
    std::swap(pr.center_table[k - 1], pr.center_table[rng.next() % k]);

  const std::size_t point_bytes = n * sizeof(Point), work_len = n * (K + 1);
  const cl_int num = cl_int(n), cdim = cl_int(pr.dim), cx = cl_int(pr.x), cK = cl_int(pr.K);

  json out = dlb::app_json(d, o, "streamcluster", argc, argv);

  // Reference results of one launch (bench mode) and of the app mode's launches.
  Reference refs[2];
  int ref_launches = 0;

  // Runs `src` with `opts` on points in the layout of width W. iters > 0: `iters` launches
  // on zeroed buffers, checked, returns the mean kernel ms. iters == 0: one launch on
  // zeroed buffers, checked, then the median ms of o.repeats timed launches.
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program prog = dlb::build_program(d, src, opts);
    cl_kernel k = dlb::make_kernel(prog, "pgain");
    cl_mem bp = dlb::make_buffer(d, point_bytes, CL_MEM_READ_ONLY);
    cl_mem bc = dlb::make_buffer(d, pr.coord.size() * sizeof(float), CL_MEM_READ_ONLY);
    cl_mem bw = dlb::make_buffer(d, work_len * sizeof(float));
    cl_mem bt = dlb::make_buffer(d, K * sizeof(int), CL_MEM_READ_ONLY);
    cl_mem bs = dlb::make_buffer(d, n);
    const auto pts = to_layout(pr.points.data(), n, sizeof(Point), kFields, W);
    dlb::write(d, bp, pts.data(), point_bytes);
    dlb::write(d, bc, pr.coord.data(), pr.coord.size() * sizeof(float));
    dlb::write(d, bt, pr.center_table.data(), K * sizeof(int));
    const std::vector<float> zero_work(work_len, 0.0f);
    const std::vector<char> zero_sw(n, 0);
    dlb::write(d, bw, zero_work.data(), work_len * sizeof(float));
    dlb::write(d, bs, zero_sw.data(), n);
    dlb::set_arg(k, 0, bp);
    dlb::set_arg(k, 1, bc);
    dlb::set_arg(k, 2, bw);
    dlb::set_arg(k, 3, bt);
    dlb::set_arg(k, 4, bs);
    dlb::check(clSetKernelArg(k, 5, dim * sizeof(float), nullptr), "clSetKernelArg");
    dlb::set_arg(k, 6, num);
    dlb::set_arg(k, 7, cdim);
    dlb::set_arg(k, 8, cx);
    dlb::set_arg(k, 9, cK);
    const int launches = iters > 0 ? iters : 1;
    double ms = 0;
    for (int it = 0; it < launches; ++it) {
      cl_event e = dlb::launch_1d(d, k, n, 256);
      dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
      ms += dlb::event_ms(e) / launches;
      clReleaseEvent(e);
    }
    std::vector<char> sw(n);
    std::vector<float> work(work_len);
    dlb::read(d, bs, sw.data(), n);
    dlb::read(d, bw, work.data(), work_len * sizeof(float));  // last: the result's FNV
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (ref_launches != launches) {
      refs[0] = reference(pr, launches, false);
      refs[1] = reference(pr, launches, true);
      ref_launches = launches;
    }
    check(pr, launches, work, sw, refs, what);
    // Timing: repeated launches accumulate into work_mem, which is not checked again.
    if (iters == 0) ms = dlb::time_kernel(o.repeats, [&] { return dlb::launch_1d(d, k, n, 256); });
    clReleaseMemObject(bs);
    clReleaseMemObject(bt);
    clReleaseMemObject(bw);
    clReleaseMemObject(bc);
    clReleaseMemObject(bp);
    clReleaseKernel(k);
    clReleaseProgram(prog);
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
  const std::string src = dlb::variant_source(o, "streamcluster");
  json c{{"case", "default"}, {"n", n}};
  dlb::bench_case(o, n, sizeof(Point), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] = json::array({{{"name", "p"}, {"record", kRecord}, {"n", n}, {"readback", false}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-streamcluster: %s\n", e.what());
  return 2;
}
