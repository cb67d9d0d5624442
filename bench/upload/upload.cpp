// dl-bench-upload: an application that streams batches of particle records to the device
// (one whole clEnqueueWriteBuffer per step, from pageable or pinned host memory) and runs
// an annotated kernel on each batch, reading its small result back. Plain OpenCL, no DL
// calls: bench/scripts/upload-bench.sh runs it natively and under dl-run with and
// without converting during upload (docs/runtime.md, "Converting during upload").
//
//   dl-bench-upload [--mib 1024] [--steps 10] [--pinned] [--kernel FILE] [--json f]
//                   [--rows-per-plane H]
//
// Before the first launch it times three plain writes of the batch (blocking, device time
// from the write's event and wall time): the transfer alone. Then step 0 (not counted)
// and --steps steps, each: write the next batch (non-blocking), launch, read the result
// (blocking); wall time per step, the kernel's device time. Every result is checked
// against the CPU (the records hold small integers: the arithmetic is exact).
// --rows-per-plane H: the kernel takes two more arguments, the planes of H records and H
// (upload_diag.rewritten.cl reads the records as planes of rows of 12 floats, -> DIAG).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app.hpp"

namespace {

struct Particle {
  float pos[4], vel[4];
  float mass;
  std::int32_t id;
  std::uint8_t pad[8];  // OpenCL C aligns the struct to its float4s: 48 bytes
};
static_assert(sizeof(Particle) == 48, "particle is 48 bytes in OpenCL C");

float energy(const Particle& p) {
  float vv = 0, pv = 0;
  for (int k = 0; k < 4; ++k) vv += p.vel[k] * p.vel[k], pv += p.pos[k] * p.vel[k];
  return 0.5f * p.mass * vv + pv + static_cast<float>(p.id & 1023);
}

/// Batch `b` of n records: small integers, so the device's arithmetic is exact.
void fill(Particle* out, std::size_t n, unsigned b) {
  std::uint32_t s = 0x9E3779B9u * (b + 1);
  auto next = [&] {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    return static_cast<float>(s % 8);
  };
  for (std::size_t i = 0; i < n; ++i) {
    Particle& p = out[i];
    for (int k = 0; k < 4; ++k) p.pos[k] = next(), p.vel[k] = next();
    p.mass = next();
    p.id = static_cast<std::int32_t>(i * 7 + b);
    std::memset(p.pad, 0x5A, sizeof p.pad);
  }
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  const std::size_t mib = static_cast<std::size_t>(args.num("mib", 1024));
  const int steps = static_cast<int>(args.num("steps", 10));
  const bool pinned = args.has("pinned");
  const std::string kernel_file = args.str("kernel", dlb::exe_dir() + "/upload.rewritten.cl");
  const long rows_per_plane = args.num("rows-per-plane", 0);
  const std::size_t n = mib * (std::size_t{1} << 20) / sizeof(Particle);
  if (n < 1 || n > 0x7fffffff || steps < 1) throw std::runtime_error("bad --mib or --steps");
  const std::size_t bytes = n * sizeof(Particle);
  dlb::Device d;
  dlb::open_device(d, 0, 0);
  std::printf("upload on %s: %zu records (%.1f MiB) per batch, %s host memory\n", d.name.c_str(), n,
              double(bytes) / (1 << 20), pinned ? "pinned" : "pageable");

  // Two batches in host memory, written in turn.
  std::vector<Particle> pageable;
  cl_mem staging[2] = {nullptr, nullptr};
  Particle* batch[2] = {nullptr, nullptr};
  if (pinned) {
    for (int b = 0; b < 2; ++b) {
      staging[b] = dlb::make_buffer(d, bytes, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY);
      cl_int err = CL_SUCCESS;
      batch[b] = static_cast<Particle*>(clEnqueueMapBuffer(
          d.queue, staging[b], CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, nullptr, nullptr, &err));
      dlb::check(err, "clEnqueueMapBuffer");
    }
  } else {
    pageable.resize(2 * n);
    batch[0] = pageable.data();
    batch[1] = pageable.data() + n;
  }
  std::vector<float> want[2];
  for (unsigned b = 0; b < 2; ++b) {
    fill(batch[b], n, b);
    want[b].resize(n);
    for (std::size_t i = 0; i < n; ++i) want[b][i] = energy(batch[b][i]);
  }

  cl_program prog = dlb::build_program(d, dlb::read_text(kernel_file), "");
  cl_kernel k = dlb::make_kernel(prog, "energy");
  cl_mem recs = dlb::make_buffer(d, bytes, CL_MEM_READ_ONLY);
  cl_mem out = dlb::make_buffer(d, n * sizeof(float), CL_MEM_WRITE_ONLY);
  const cl_int n_arg = static_cast<cl_int>(n);
  dlb::set_arg(k, 0, recs);
  dlb::set_arg(k, 1, out);
  dlb::set_arg(k, 2, n_arg);
  if (rows_per_plane > 0) {
    const cl_int h = static_cast<cl_int>(rows_per_plane);
    const cl_int planes = static_cast<cl_int>(n / static_cast<std::size_t>(rows_per_plane));
    dlb::set_arg(k, 3, planes);
    dlb::set_arg(k, 4, h);
  }

  // The transfer alone: the buffer has not met the kernel yet.
  std::vector<double> write_dev, write_wall;
  for (int r = 0; r < 3; ++r) {
    cl_event e = nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    dlb::check(clEnqueueWriteBuffer(d.queue, recs, CL_TRUE, 0, bytes, batch[r % 2], 0, nullptr, &e),
               "clEnqueueWriteBuffer");
    write_wall.push_back(ms_since(t0));
    write_dev.push_back(dlb::event_ms(e));
    clReleaseEvent(e);
  }

  std::vector<float> got(n);
  std::vector<double> step_ms, kernel_ms;
  for (int s = 0; s <= steps; ++s) {
    const unsigned b = static_cast<unsigned>(s % 2);
    const auto t0 = std::chrono::steady_clock::now();
    dlb::check(
        clEnqueueWriteBuffer(d.queue, recs, CL_FALSE, 0, bytes, batch[b], 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
    const std::size_t local = 256, global = (n + local - 1) / local * local;
    cl_event e = nullptr;
    dlb::check(clEnqueueNDRangeKernel(d.queue, k, 1, nullptr, &global, &local, 0, nullptr, &e),
               "clEnqueueNDRangeKernel");
    dlb::check(clEnqueueReadBuffer(d.queue, out, CL_TRUE, 0, n * sizeof(float), got.data(), 0,
                                   nullptr, nullptr),
               "clEnqueueReadBuffer");
    const double wall = ms_since(t0);
    if (s > 0) {
      step_ms.push_back(wall);
      kernel_ms.push_back(dlb::event_ms(e));
    }
    clReleaseEvent(e);
    if (std::memcmp(got.data(), want[b].data(), n * sizeof(float)) != 0)
      dlb::fail("step " + std::to_string(s) + ": the results differ from the CPU's");
  }
  for (int b = 0; b < 2 && pinned; ++b) {
    dlb::check(clEnqueueUnmapMemObject(d.queue, staging[b], batch[b], 0, nullptr, nullptr),
               "clEnqueueUnmapMemObject");
    clReleaseMemObject(staging[b]);
  }
  dlb::check(clFinish(d.queue), "clFinish");
  clReleaseMemObject(recs);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(prog);

  const auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  nlohmann::json j = {{"tool", "dl-bench-upload"},
                      {"date", dlb::now_utc()},
                      {"command", dlb::command_line(argc, argv)},
                      {"device", d.name},
                      {"driver", d.driver},
                      {"platform", d.platform_name},
                      {"under_dl", dlb::under_dl()},
                      {"DL_POLICY", env("DL_POLICY")},
                      {"DL_UPLOAD_CHUNK", env("DL_UPLOAD_CHUNK")},
                      {"records", n},
                      {"rows_per_plane", rows_per_plane},
                      {"bytes", bytes},
                      {"pinned", pinned},
                      {"plain_write_device_ms", write_dev},
                      {"plain_write_wall_ms", write_wall},
                      {"step_ms", step_ms},
                      {"kernel_ms", kernel_ms},
                      {"median_step_ms", dlb::median(step_ms)},
                      {"median_kernel_ms", dlb::median(kernel_ms)},
                      {"median_plain_write_ms", dlb::median(write_wall)}};
  std::printf("plain write %.2f ms, step %.2f ms (kernel %.3f ms), median of %d; results ok\n",
              dlb::median(write_wall), dlb::median(step_ms), dlb::median(kernel_ms), steps);
  dlb::write_json(args.str("json", ""), j);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-bench-upload: %s\n", e.what());
  return 2;
}
