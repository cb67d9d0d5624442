// dl-bench-stage: kernel time of the kernels of tests/annotate/stage/kernels.cl as written
// and staged in local memory by dl-annotate --stage-local (bench/stage/staged.cl), on one
// device, with a float4 copy of the same run as the bandwidth reference.
//
//   dl-bench-stage --json out.json [--size gpu|cpu] [--repeats R] [--platform P]
//                  [--original file.cl] [--staged file.cl] [--out file]
//
// Per kernel: the median device time (ms) of the original at the work-group staged for,
// of the staged build (-DDL_ASTA_T) at that work-group (reads from local memory) and at
// a smaller one (the unstaged reads of the staged build: what a launch the staging does
// not fit costs), and whether the outputs are byte-identical to the original's. Exits 1
// on a mismatch. --out writes the original program's outputs (every kernel's, in order):
// tests/e2e/stage.sh compares them natively and under dl-run.
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "clbench.hpp"

namespace {

struct Buffer {
  std::size_t floats;
  bool output;
};

struct Case {
  std::string kernel;
  cl_uint dims;
  std::array<std::size_t, 3> global, staged, other;
  std::vector<Buffer> buffers;  // the pointer arguments, in order
  std::vector<int> ints;        // the int arguments after them
  std::size_t bytes;            // bytes the kernel must move at least (inputs + outputs once)
};

std::vector<Case> cases(bool gpu) {
  const std::size_t n2 = gpu ? 8192 : 1024;  // stencil5 and conv5x5: n2 x n2 points
  const std::size_t mm = gpu ? 4096 : 512;   // matmul_k: mm x mm, MM_K = 64
  const std::size_t x3 = gpu ? 512 : 128, z3 = gpu ? 256 : 64;  // stencil7
  const std::size_t f = sizeof(float);
  std::vector<Case> c;
  c.push_back({"matmul_k",
               2,
               {mm, mm, 1},
               {16, 16, 1},
               {8, 8, 1},
               {{mm * 64, false}, {64 * mm, false}, {mm * mm, true}},
               {int(mm), int(mm)},
               (2 * mm * 64 + mm * mm) * f});
  c.push_back({"matmul_wide",
               2,
               {mm, mm, 1},
               {16, 16, 1},
               {8, 8, 1},
               {{mm * 256, false}, {256 * mm, false}, {mm * mm, true}},
               {int(mm), int(mm)},
               (2 * mm * 256 + mm * mm) * f});
  c.push_back({"stencil5",
               2,
               {n2, n2, 1},
               {16, 16, 1},
               {8, 8, 1},
               {{n2 * n2, false}, {n2 * n2, true}},
               {int(n2), int(n2)},
               2 * n2 * n2 * f});
  c.push_back({"stencil7",
               3,
               {x3, x3, z3},
               {8, 8, 4},
               {4, 4, 4},
               {{x3 * x3 * z3, false}, {x3 * x3 * z3, true}},
               {int(x3), int(x3), int(z3)},
               2 * x3 * x3 * z3 * f});
  const std::size_t w = n2 + 4;
  c.push_back({"conv5x5",
               2,
               {n2, n2, 1},
               {16, 16, 1},
               {8, 8, 1},
               {{w * w, false}, {25, false}, {w * w, true}},
               {int(w)},
               2 * w * w * f});
  return c;
}

const char* kCopy = R"(__kernel void copy4(__global const float4* a, __global float4* b) {
  b[get_global_id(0)] = a[get_global_id(0)];
})";

/// Median device ms of `repeats` launches (after one warm-up).
double timed(const dlb::Device& d, cl_kernel k, cl_uint dims, const std::size_t* global,
             const std::size_t* local, int repeats) {
  std::vector<double> t;
  for (int r = -1; r < repeats; ++r) {
    cl_event e = nullptr;
    dlb::check(clEnqueueNDRangeKernel(d.queue, k, dims, nullptr, global, local, 0, nullptr, &e),
               "clEnqueueNDRangeKernel");
    dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
    if (r >= 0) t.push_back(dlb::event_ms(e));
    clReleaseEvent(e);
  }
  return dlb::median(t);
}

struct Run {
  double ms;
  std::vector<unsigned char> out;
};

/// Runs case `c` from `p` at `local`: fresh buffers (the same inputs every time).
Run run(const dlb::Device& d, cl_program p, const Case& c, const std::size_t* local, int repeats) {
  cl_kernel k = dlb::make_kernel(p, c.kernel.c_str());
  std::vector<cl_mem> mems;
  dlb::Rng rng(42);
  cl_uint arg = 0;
  for (const Buffer& b : c.buffers) {
    std::vector<float> v(b.floats);
    for (float& x : v) x = b.output ? 7.0f : rng.uniform(-1.0f, 1.0f);
    mems.push_back(dlb::make_buffer(d, v.size() * sizeof(float)));
    dlb::write(d, mems.back(), v.data(), v.size() * sizeof(float));
    dlb::set_arg(k, arg++, mems.back());
  }
  for (int i : c.ints) dlb::set_arg(k, arg++, i);
  Run r;
  r.ms = timed(d, k, c.dims, c.global.data(), local, repeats);
  for (std::size_t i = 0; i < c.buffers.size(); ++i) {
    if (!c.buffers[i].output) continue;
    std::vector<unsigned char> bytes(c.buffers[i].floats * sizeof(float));
    dlb::read(d, mems[i], bytes.data(), bytes.size());
    r.out.insert(r.out.end(), bytes.begin(), bytes.end());
  }
  for (cl_mem m : mems) clReleaseMemObject(m);
  clReleaseKernel(k);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const dlb::Args args(argc, argv);
    const std::string json = args.str("json", "");
    if (json.empty()) {
      std::fprintf(stderr,
                   "usage: %s --json out.json [--size gpu|cpu] [--repeats R] [--platform P] "
                   "[--original file.cl] [--staged file.cl] [--out file]\n",
                   argv[0]);
      return 2;
    }
    const std::string dir = dlb::exe_dir();
    const std::string original = dlb::read_text(args.str("original", dir + "/stage_kernels.cl"));
    const std::string staged = dlb::read_text(args.str("staged", dir + "/stage_staged.cl"));
    const int repeats = static_cast<int>(args.num("repeats", 20));
    dlb::Device d;
    dlb::open_device(d, static_cast<unsigned>(args.num("platform", 0)), 0);
    const bool gpu = args.str("size", d.gpu ? "gpu" : "cpu") == "gpu";
    cl_program po = dlb::build_program(d, original, "");
    cl_program ps = dlb::build_program(d, staged, "-DDL_ASTA_T=32");
    cl_program pc = dlb::build_program(d, kCopy, "");

    nlohmann::json rows = nlohmann::json::array();
    bool all_same = true;
    std::ofstream outputs;
    if (args.has("out")) outputs.open(args.str("out", ""), std::ios::binary);
    for (const Case& c : cases(gpu)) {
      // The float4 copy of the bytes this kernel moves, as the bandwidth reference.
      const std::size_t n4 = c.bytes / 2 / 16;
      cl_kernel copy = dlb::make_kernel(pc, "copy4");
      cl_mem a = dlb::make_buffer(d, n4 * 16), b = dlb::make_buffer(d, n4 * 16);
      dlb::set_arg(copy, 0, a);
      dlb::set_arg(copy, 1, b);
      const double copy_ms = timed(d, copy, 1, &n4, nullptr, repeats);
      clReleaseMemObject(a);
      clReleaseMemObject(b);
      clReleaseKernel(copy);

      const Run orig = run(d, po, c, c.staged.data(), repeats);
      outputs.write(reinterpret_cast<const char*>(orig.out.data()),
                    static_cast<std::streamsize>(orig.out.size()));
      const Run st = run(d, ps, c, c.staged.data(), repeats);
      const Run other = run(d, ps, c, c.other.data(), repeats);
      const Run orig_other = run(d, po, c, c.other.data(), repeats);
      const bool same = st.out == orig.out && other.out == orig.out && orig_other.out == orig.out;
      all_same = all_same && same;
      const auto group = [](const std::array<std::size_t, 3>& l) {
        return std::to_string(l[0]) + "x" + std::to_string(l[1]) + "x" + std::to_string(l[2]);
      };
      std::printf(
          "%-9s original %8.4f ms  staged %8.4f ms (%.2fx)  unstaged path %8.4f ms "
          "(original there %8.4f)  copy of its bytes %8.4f ms  %s\n",
          c.kernel.c_str(), orig.ms, st.ms, orig.ms / st.ms, other.ms, orig_other.ms, copy_ms,
          same ? "identical" : "MISMATCH");
      rows.push_back({{"kernel", c.kernel},
                      {"global", c.global},
                      {"work_group", group(c.staged)},
                      {"original_ms", orig.ms},
                      {"staged_ms", st.ms},
                      {"speedup", orig.ms / st.ms},
                      {"other_work_group", group(c.other)},
                      {"unstaged_path_ms", other.ms},
                      {"original_other_ms", orig_other.ms},
                      {"copy_ms", copy_ms},
                      {"bytes", c.bytes},
                      {"original_vs_copy", copy_ms / orig.ms},
                      {"staged_vs_copy", copy_ms / st.ms},
                      {"identical", same}});
    }
    clReleaseProgram(po);
    clReleaseProgram(ps);
    clReleaseProgram(pc);
    nlohmann::json j = {
        {"benchmark", "staging in local memory (dl-annotate --stage-local)"},
        {"device", d.name + " | " + d.driver},
        {"platform", d.platform_name},
        {"date", dlb::now_utc()},
        {"command", dlb::command_line(argc, argv)},
        {"repeats", repeats},
        {"ms", "median device time of the kernel (event profiling), one warm-up launch first"},
        {"vs_copy",
         "copy_ms / kernel ms: copy_ms is a float4 copy of half the kernel's bytes "
         "(read + written = its bytes), so 1.0 means the kernel moves its data at "
         "copy speed"},
        {"rows", rows}};
    std::ofstream(json) << j.dump(2) << "\n";
    if (!all_same) dlb::fail("a staged kernel's output differs from the original's");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dl-bench-stage: %s\n", e.what());
    return 1;
  }
}
