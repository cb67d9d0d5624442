// dl-bench-overhead: host cost of clSetKernelArg x3 + clEnqueueNDRangeKernel, natively
// and under libdl_interpose.so (LD_PRELOAD), for a kernel without annotation and for an
// annotated kernel whose buffer is already in its layout (no marshal on the hot path).
//
//   dl-bench-overhead <out.json> [--launches N] [--processes P] [--cpu C]
//                     [--lib path/libdl_interpose.so]
//
// DL_BENCH_PLATFORM=<part of a platform name> picks the OpenCL platform (default: the first).
//
// The parent runs itself as a child P times natively and P times under DL, interleaved
// (pair i runs native first when i is even, DL first when odd), each child timing N
// launches of each kernel (the median over batches of 128). What DL adds is the median
// over the pairs of (DL - native), with a 90 % bootstrap interval of that median: the
// process-to-process spread, which one pair cannot tell from DL's cost, is in the
// interval. --cpu C pins each child's launching thread to CPU C once its context exists.
// The JSON holds every process's numbers, the device, date and command.
// Target: DL adds <= 1 us per launch.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <sched.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "clbench.hpp"

namespace {

using dlb::median;

const char* kSource = R"CL(
typedef struct { float4 pos; float4 vel; float mass; int id; } particle;
#ifdef DL_ASTA_T
inline size_t dl_tiled(size_t n, size_t i, size_t o) {
  if (i >= n) return i * 48 + o;
  size_t b = (i / DL_ASTA_T) * DL_ASTA_T;
  return b * 48 + min(n - b, (size_t)DL_ASTA_T) * o + (i - b) * 4;
}
#define MASS(p, n, i) (*(__global float*)((__global char*)(p) + dl_tiled((n), (i), 32)))
#else
#define MASS(p, n, i) (p)[i].mass
#endif
//DL: AoS: p[n] AOS2ASTA_particle
//DL: record particle 48 16 float4:pos@0 float4:vel@16 float:mass@32 int:id@36
__kernel void annotated(__global particle* p, int n, float f) {
  size_t i = get_global_id(0);
  if (i < (size_t)n) MASS(p, n, i) *= f;
}
__kernel void plain(__global float* x, int n, float f) {
  size_t i = get_global_id(0);
  if (i < (size_t)n) x[i] *= f;
}
)CL";

#define CHECK(x)                                             \
  do {                                                       \
    cl_int st_ = (x);                                        \
    if (st_ != CL_SUCCESS) {                                 \
      std::fprintf(stderr, "%s failed: %d\n", #x, (int)st_); \
      std::exit(1);                                          \
    }                                                        \
  } while (0)

/// Median ns per (3 x clSetKernelArg + clEnqueueNDRangeKernel), in batches that exclude
/// the clFinish between them.
double measure(cl_command_queue q, cl_kernel k, cl_mem m, int n, int launches) {
  const int batch = 128;
  const size_t g = static_cast<size_t>(n);
  std::vector<double> per;
  for (int done = 0; done < launches; done += batch) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) {
      const float f = 1.0f + 1e-7f * static_cast<float>(i);
      CHECK(clSetKernelArg(k, 0, sizeof m, &m));
      CHECK(clSetKernelArg(k, 1, sizeof n, &n));
      CHECK(clSetKernelArg(k, 2, sizeof f, &f));
      CHECK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr));
    }
    auto t1 = std::chrono::steady_clock::now();
    CHECK(clFinish(q));
    per.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / batch);
  }
  return median(per);
}

int child(int launches) {
  // The first platform whose name contains $DL_BENCH_PLATFORM (e.g. NVIDIA), else the first.
  cl_uint count = 0;
  CHECK(clGetPlatformIDs(0, nullptr, &count));
  std::vector<cl_platform_id> platforms(count);
  CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));
  cl_platform_id platform = platforms.at(0);
  if (const char* want = std::getenv("DL_BENCH_PLATFORM"); want && *want) {
    for (cl_platform_id p : platforms) {
      char pname[256] = {0};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pname - 1, pname, nullptr);
      if (std::strstr(pname, want)) {
        platform = p;
        break;
      }
    }
  }
  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
  char name[256] = {0};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &device, "", nullptr, nullptr));
  cl_kernel plain = clCreateKernel(p, "plain", &err);
  CHECK(err);
  cl_kernel annotated = clCreateKernel(p, "annotated", &err);
  CHECK(err);
  const int n = 256;
  std::vector<float> host(static_cast<size_t>(n) * 12, 1.5f);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4,
                            host.data(), &err);
  CHECK(err);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4,
                            host.data(), &err);
  CHECK(err);
  if (const char* cpu = std::getenv("DL_BENCH_CPU"); cpu && *cpu) {
    // This thread alone (the driver's threads, made by now, keep theirs): the launch
    // cost then varies less from process to process.
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(std::atoi(cpu), &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) std::perror("sched_setaffinity");
  }
  measure(q, plain, b, n, 256);  // warm up (and, under DL, marshal `a` once)
  measure(q, annotated, a, n, 256);
  const double tp = measure(q, plain, b, n, launches);
  const double ta = measure(q, annotated, a, n, launches);
  std::printf("{\"device\": \"%s\", \"plain_ns\": %.1f, \"annotated_ns\": %.1f}\n", name, tp, ta);
  return 0;
}

std::string run_child(const std::string& self, const std::string& env, int launches) {
  std::string cmd = env + " '" + self + "' --child " + std::to_string(launches);
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return {};
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) out += buf;
  return pclose(f) == 0 ? out : std::string();
}

/// A 90 % bootstrap interval of the median of `v` (a fixed seed: reruns agree).
std::pair<double, double> median_interval(const std::vector<double>& v) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<std::size_t> pick(0, v.size() - 1);
  std::vector<double> meds, sample(v.size());
  for (int r = 0; r < 4000; ++r) {
    for (double& x : sample) x = v[pick(rng)];
    meds.push_back(median(sample));
  }
  std::sort(meds.begin(), meds.end());
  return {meds[meds.size() / 20], meds[meds.size() - 1 - meds.size() / 20]};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--child") == 0) return child(std::atoi(argv[2]));
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr,
                 "usage: %s <out.json> [--launches N] [--processes P] [--cpu C] [--lib "
                 "libdl_interpose.so]\n",
                 argv[0]);
    return 2;
  }
  std::string out = argv[1], lib = DL_INTERPOSE_LIB_PATH;
  int launches = 20000, processes = 10;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--launches") == 0) launches = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--processes") == 0) processes = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--lib") == 0) lib = argv[i + 1];
    if (std::strcmp(argv[i], "--cpu") == 0) setenv("DL_BENCH_CPU", argv[i + 1], 1);
  }
  if (launches < 128 || processes < 1) {
    std::fprintf(stderr, "--launches must be at least 128 and --processes at least 1\n");
    return 2;
  }
  char self[4096] = {0};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return 1;
  const std::string native_env = "env -u LD_PRELOAD -u OPENCL_LAYERS";
  const std::string dl_env = "env LD_PRELOAD='" + lib + "'";
  const char* kernels[] = {"plain", "annotated"};
  std::vector<double> native[2], dl[2], diff[2];
  std::string device;
  for (int i = 0; i < processes; ++i) {
    std::string a, b;  // native, DL: the order alternates from pair to pair
    if (i % 2 == 0) {
      a = run_child(self, native_env, launches);
      b = run_child(self, dl_env, launches);
    } else {
      b = run_child(self, dl_env, launches);
      a = run_child(self, native_env, launches);
    }
    if (a.empty() || b.empty()) {
      std::fprintf(stderr, "a measurement run failed (pair %d)\n", i);
      return 1;
    }
    const auto jn = nlohmann::json::parse(a), jd = nlohmann::json::parse(b);
    device = jn["device"].get<std::string>();
    for (int k = 0; k < 2; ++k) {
      const std::string key = std::string(kernels[k]) + "_ns";
      native[k].push_back(jn[key].get<double>());
      dl[k].push_back(jd[key].get<double>());
      diff[k].push_back(dl[k].back() - native[k].back());
    }
  }
  std::printf(
      "host cost per clSetKernelArg x3 + clEnqueueNDRangeKernel (%s), %d processes "
      "of each, %d launches per kernel each\n",
      device.c_str(), processes, launches);
  std::printf("%-30s %11s %11s %12s %22s\n", "kernel", "native ns", "DL ns", "DL adds ns",
              "90% interval ns");
  nlohmann::json rows = nlohmann::json::array();
  for (int k = 0; k < 2; ++k) {
    const char* label = k == 0 ? "no annotation" : "annotated, buffer in layout";
    const double a = median(native[k]), b = median(dl[k]), d = median(diff[k]);
    const auto [lo, hi] = median_interval(diff[k]);
    std::printf("%-30s %11.1f %11.1f %12.1f %10.1f .. %8.1f\n", label, a, b, d, lo, hi);
    rows.push_back({{"kernel", label},
                    {"native_ns", a},
                    {"dl_ns", b},
                    {"overhead_ns", d},
                    {"overhead_ci90_ns", {lo, hi}},
                    {"native_ns_per_process", native[k]},
                    {"dl_ns_per_process", dl[k]}});
  }
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
  std::time_t t = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  nlohmann::json j = {{"benchmark", "overhead"}, {"device", device},     {"date", date},
                      {"command", cmd},          {"launches", launches}, {"processes", processes},
                      {"target_ns", 1000},       {"results", rows}};
  if (const char* cpu = std::getenv("DL_BENCH_CPU"); cpu && *cpu) j["cpu"] = std::atoi(cpu);
  std::ofstream(out) << j.dump(2) << "\n";
  return 0;
}
