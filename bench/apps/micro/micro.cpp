// Figure 1 of the DL paper: a memory-bound reduce-and-duplicate kernel over records of
// 1-32 floats, in AoS, DA and ASTA(T). Plain OpenCL (no DL calls).
//
//   dl-app-micro [--S 1,2,...,32] [--n 1048576] [--T 16,32,64] [--repeats 5] [--json f]
//   dl-app-micro --mode app [--S 5] [--iters 10]   (the annotated AoS kernel only)
//   dl-app-micro --mode app --host-ptr ...         (its input a CL_MEM_USE_HOST_PTR buffer
//                                                   over the host array)
//   dl-app-micro --mode app --alloc-host-ptr ...   (its input a CL_MEM_ALLOC_HOST_PTR
//                                                   buffer, written through a map)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app.hpp"

using nlohmann::json;

namespace {

std::vector<float> expected(const std::vector<float>& a, unsigned S, std::size_t n) {
  std::vector<float> b(a.size());
  for (std::size_t i = 0; i < n; ++i) {
    float s = 0.0f;
    for (unsigned k = 0; k < S; ++k) s += a[i * S + k];
    for (unsigned k = 0; k < S; ++k) b[i * S + k] = s;
  }
  return b;
}

/// Runs `kernel` of `src` built with `opts` on the layout `w` of `aos`; returns ms and
/// checks the output against `want` (AoS).
double run_layout(const dlb::Device& d, const dlb::AppOptions& o, const std::string& src,
                  const std::string& opts, const std::vector<float>& aos,
                  const std::vector<float>& want, unsigned S, std::size_t n, std::size_t W,
                  const std::string& what) {
  cl_program p = dlb::build_program(d, src, opts);
  cl_kernel k = dlb::make_kernel(p, "reduce_dup");
  const std::size_t bytes = aos.size() * sizeof(float);
  cl_mem a = dlb::make_buffer(d, bytes, CL_MEM_READ_ONLY);
  cl_mem b = dlb::make_buffer(d, bytes);
  const auto in = dlb::to_tiled(aos, S, n, W);
  dlb::write(d, a, in.data(), bytes);
  std::vector<float> out(aos.size(), -12345.0f);  // poison
  dlb::write(d, b, out.data(), bytes);
  const cl_uint nn = cl_uint(n);
  dlb::set_arg(k, 0, a);
  dlb::set_arg(k, 1, b);
  dlb::set_arg(k, 2, nn);
  const double ms = dlb::time_kernel(o.repeats, [&] { return dlb::launch_1d(d, k, n, 256); });
  dlb::read(d, b, out.data(), bytes);
  const auto got = dlb::from_tiled(out, S, n, W);
  for (std::size_t j = 0; j < got.size(); ++j)
    if (got[j] != want[j])
      dlb::fail("micro " + what + " S=" + std::to_string(S) + ": element " + std::to_string(j) +
                " is " + std::to_string(got[j]) + ", expected " + std::to_string(want[j]));
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
  return ms;
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "micro");
  std::vector<long long> all;
  for (int s = 1; s <= 32; ++s) all.push_back(s);
  const auto Ss = args.list("S", all);
  const std::size_t n = std::size_t(args.num("n", 1 << 20));
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);
  std::printf("micro on %s: n = %zu records\n", d.name.c_str(), n);
  json out = dlb::device_json(d);
  out["app"] = "micro";
  out["date"] = dlb::now_utc();
  out["command"] = dlb::command_line(argc, argv);
  out["cases"] = json::array();
  const std::string annotated = dlb::read_text(o.kernel);
  if (o.mode == "app") {
    // The unmodified application: AoS data, the annotated kernel, `iters` launches; the
    // input written to the device, or (--host-ptr) a buffer over the host array itself.
    const bool host_ptr = args.has("host-ptr"), alloc_host = args.has("alloc-host-ptr");
    for (long long S : Ss) {
      std::vector<float> a(n * S);
      dlb::Rng rng(S);
      for (auto& v : a) v = rng.uniform(0.5f, 1.5f);
      const auto want = expected(a, unsigned(S), n);
      const auto t0 = std::chrono::steady_clock::now();
      cl_program p = dlb::build_program(d, annotated, "-DS=" + std::to_string(S));
      cl_kernel k = dlb::make_kernel(p, "reduce_dup");
      const std::size_t bytes = a.size() * sizeof(float);
      float* host = nullptr;
      cl_mem ab = nullptr;
      if (host_ptr) {
        host = static_cast<float*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
        std::memcpy(host, a.data(), bytes);
        cl_int err = CL_SUCCESS;
        ab = clCreateBuffer(d.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, host, &err);
        dlb::check(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
      } else if (alloc_host) {
        ab = dlb::make_buffer(d, bytes, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR);
        cl_int err = CL_SUCCESS;
        void* mapped = clEnqueueMapBuffer(d.queue, ab, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                          bytes, 0, nullptr, nullptr, &err);
        dlb::check(err, "clEnqueueMapBuffer");
        std::memcpy(mapped, a.data(), bytes);
        dlb::check(clEnqueueUnmapMemObject(d.queue, ab, mapped, 0, nullptr, nullptr),
                   "clEnqueueUnmapMemObject");
      } else {
        ab = dlb::make_buffer(d, bytes, CL_MEM_READ_ONLY);
        dlb::write(d, ab, a.data(), bytes);
      }
      cl_mem bb = dlb::make_buffer(d, bytes);
      const cl_uint nn = cl_uint(n);
      dlb::set_arg(k, 0, ab);
      dlb::set_arg(k, 1, bb);
      dlb::set_arg(k, 2, nn);
      double ms = 0;
      // The loop's wall time per launch: under DL with --host-ptr it holds the copies.
      const auto l0 = std::chrono::steady_clock::now();
      for (int it = 0; it < o.iters; ++it) {
        cl_event e = dlb::launch_1d(d, k, n, 256);
        dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
        ms += dlb::event_ms(e);
        clReleaseEvent(e);
      }
      const double loop =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - l0).count() /
          o.iters;
      std::vector<float> got(a.size());
      dlb::read(d, bb, got.data(), bytes);
      const double wall =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (got != want) dlb::fail("micro app mode S=" + std::to_string(S) + ": wrong result");
      clReleaseMemObject(ab);
      clReleaseMemObject(bb);
      clReleaseKernel(k);
      clReleaseProgram(p);
      std::free(host);
      out["cases"].push_back({{"case", "S=" + std::to_string(S)},
                              {"host_ptr", host_ptr},
                              {"alloc_host_ptr", alloc_host},
                              {"iters", o.iters},
                              {"kernel_ms", ms / o.iters},
                              {"loop_ms_per_launch", loop},
                              {"wall_ms", wall},
                              {"result_fnv", dlb::last_read_fnv()}});
      std::printf(
          "S=%2lld app mode%s: %.3f ms per launch (kernel), %.3f ms per launch (loop), "
          "%.1f ms wall, check ok\n",
          S,
          host_ptr     ? " (host pointer)"
          : alloc_host ? " (allocated host pointer)"
                       : "",
          ms / o.iters, loop, wall);
    }
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "micro");
  std::printf("%4s %12s", "S", "AoS ms");
  for (std::size_t l = 1; l < o.layouts.size(); ++l)
    std::printf(" %12s", (o.layouts[l].name() + " x").c_str());
  std::printf("\n");
  for (long long S : Ss) {
    std::vector<float> a(n * S);
    dlb::Rng rng(S);
    for (auto& v : a) v = rng.uniform(0.5f, 1.5f);
    const auto want = expected(a, unsigned(S), n);
    const std::string def = " -DS=" + std::to_string(S);
    json c{{"case", "S=" + std::to_string(S)}, {"S", S}, {"n", n}};
    json ms = json::object(), speed = json::object(), per_elem = json::object();
    double aos_ms = 0;
    for (const auto& l : o.layouts) {
      const double t =
          run_layout(d, o, src, l.options() + def, a, want, unsigned(S), n, l.width(n), l.name());
      if (l.tile == 1) aos_ms = t;
      ms[l.name()] = t;
      speed[l.name()] = aos_ms / t;
      per_elem[l.name()] = 1e6 * t / double(2 * n * S);
    }
    c["annotated_aos_ms"] =
        run_layout(d, o, annotated, def, a, want, unsigned(S), n, 1, "annotated");
    c["rewritten_ms"] = dlb::time_rewritten(
        o, n, 4 * std::size_t(S), def,
        [&](const std::string& s, const std::string& opts, std::size_t W, const std::string& what) {
          return run_layout(d, o, s, opts, a, want, unsigned(S), n, W, what);
        });
    c["kernel_ms"] = ms;
    c["speedup"] = speed;
    c["ns_per_element"] = per_elem;
    c["check"] = "ok";
    std::printf("%4lld %12.4f", S, aos_ms);
    for (std::size_t l = 1; l < o.layouts.size(); ++l)
      std::printf(" %12.2f", speed[o.layouts[l].name()].get<double>());
    std::printf("\n");
    out["cases"].push_back(c);
  }
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-micro: %s\n", e.what());
  return 2;
}
