// dl-bench-overhead: host cost of clSetKernelArg x3 + clEnqueueNDRangeKernel, natively
// and under libdl_interpose.so (LD_PRELOAD), for a kernel without annotation and for an
// annotated kernel whose buffer is already in its layout (no marshal on the hot path).
//
//   dl-bench-overhead <out.json> [--launches N] [--processes P] [--cpu C]
//                     [--lib path/libdl_interpose.so] [--paired-only] [--policy P]
//
// --policy sets DL_POLICY in the children under DL (default always: the annotated
// kernel's launches run its transformed build, the path the label names; with auto the
// controller may keep AoS, as it does once a cached experience says converting does not
// pay, and the row measures that path instead).
// DL_BENCH_PLATFORM=<part of a platform name> picks the OpenCL platform (default: the first).
// --cpu C pins each child's launching thread to CPU C once its context exists. The JSON
// holds every process's numbers, the device, date and command. Target: DL adds <= 1 us
// per launch. Two measurements, each from P child processes:
//
// Between processes ("results"; skipped with --paired-only). The parent runs itself as a
// child P times natively and P times under DL, interleaved (pair i runs native first when
// i is even, DL first when odd), each child timing N launches of each kernel (the median
// over batches of 128). What DL adds is the median over the pairs of (DL - native), with
// a 90 % bootstrap interval of that median: the process-to-process spread of the launch
// cost, which one pair cannot tell from DL's cost, is in the interval.
//
// Paired in one process ("paired"). P more children run under DL (LD_PRELOAD alone,
// OPENCL_LAYERS unset). Each takes, besides the entry points the application's calls
// reach (DL's exports), the ICD loader's own: dlopen("libOpenCL.so.1", RTLD_NOLOAD) and
// dlsym on that handle search the loader and its dependencies, not the preloaded DL. DL
// hands the application the driver's own cl_kernel, cl_mem and cl_command_queue, so both
// sets of entry points take the same handles. The child times batches of 128 launches
// alternately through DL and through the loader, on the same queue, kernel and buffer,
// in the order ABBA BAAB ... (A = DL), N launches per kernel and way; each pair of
// adjacent batches gives one difference (DL - loader, ns per launch), free of the
// process-to-process spread. Reported per kernel: the median over the processes of each
// process's median difference, with its 90 % bootstrap interval; the median of all
// processes' differences pooled, with its interval (which takes the batches as
// independent, so it leaves out any spread of DL's cost between processes); every
// process's numbers and differences. The child stops with an error where both ways reach
// the same functions (DL not preloaded) or OPENCL_LAYERS is set (the loader's entry
// points would go through DL too). The batches through the loader launch the
// application's kernel, which under DL sees the annotated kernel's buffer in its
// converted layout and so computes garbage there; only host time is measured, and no
// value is read.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <utility>
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

/// The entry points one way into OpenCL takes.
struct Api {
  decltype(&clSetKernelArg) set_arg;
  decltype(&clEnqueueNDRangeKernel) enqueue;
  decltype(&clFinish) finish;
};

const Api kApp = {&clSetKernelArg, &clEnqueueNDRangeKernel, &clFinish};

const int kBatch = 128;

/// Ns per (3 x clSetKernelArg + clEnqueueNDRangeKernel) over one batch of kBatch
/// launches; the clFinish after it is not timed.
double batch(const Api& api, cl_command_queue q, cl_kernel k, cl_mem m, int n) {
  const size_t g = static_cast<size_t>(n);
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kBatch; ++i) {
    const float f = 1.0f + 1e-7f * static_cast<float>(i);
    CHECK(api.set_arg(k, 0, sizeof m, &m));
    CHECK(api.set_arg(k, 1, sizeof n, &n));
    CHECK(api.set_arg(k, 2, sizeof f, &f));
    CHECK(api.enqueue(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr));
  }
  auto t1 = std::chrono::steady_clock::now();
  CHECK(api.finish(q));
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / kBatch;
}

/// Median ns per launch over the batches of `launches` launches.
double measure(cl_command_queue q, cl_kernel k, cl_mem m, int n, int launches) {
  std::vector<double> per;
  for (int done = 0; done < launches; done += kBatch) per.push_back(batch(kApp, q, k, m, n));
  return median(per);
}

/// What a child launches: the kernels "plain" and "annotated" with their buffers.
struct Setup {
  std::string device;
  cl_command_queue q;
  cl_kernel kernel[2];
  cl_mem mem[2];
  int n;
};

Setup setup() {
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
  Setup s;
  s.device = name;
  s.q = clCreateCommandQueueWithProperties(ctx, device, nullptr, &err);
  CHECK(err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &kSource, nullptr, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &device, "", nullptr, nullptr));
  s.kernel[0] = clCreateKernel(p, "plain", &err);
  CHECK(err);
  s.kernel[1] = clCreateKernel(p, "annotated", &err);
  CHECK(err);
  s.n = 256;
  std::vector<float> host(static_cast<size_t>(s.n) * 12, 1.5f);
  for (cl_mem& m : s.mem) {
    m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data(),
                       &err);
    CHECK(err);
  }
  if (const char* cpu = std::getenv("DL_BENCH_CPU"); cpu && *cpu) {
    // This thread alone (the driver's threads, made by now, keep theirs): the launch
    // cost then varies less from process to process.
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(std::atoi(cpu), &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) std::perror("sched_setaffinity");
  }
  return s;
}

int child(int launches) {
  const Setup s = setup();
  for (int k = 0; k < 2; ++k)  // warm up (and, under DL, marshal the annotated buffer once)
    measure(s.q, s.kernel[k], s.mem[k], s.n, 256);
  const double tp = measure(s.q, s.kernel[0], s.mem[0], s.n, launches);
  const double ta = measure(s.q, s.kernel[1], s.mem[1], s.n, launches);
  std::printf("{\"device\": \"%s\", \"plain_ns\": %.1f, \"annotated_ns\": %.1f}\n",
              s.device.c_str(), tp, ta);
  return 0;
}

/// The entry points `handle` gives (RTLD_DEFAULT: those the application's calls reach).
Api lookup(void* handle) {
  Api api;
  api.set_arg = reinterpret_cast<decltype(api.set_arg)>(dlsym(handle, "clSetKernelArg"));
  api.enqueue = reinterpret_cast<decltype(api.enqueue)>(dlsym(handle, "clEnqueueNDRangeKernel"));
  api.finish = reinterpret_cast<decltype(api.finish)>(dlsym(handle, "clFinish"));
  if (!api.set_arg || !api.enqueue || !api.finish) {
    std::fprintf(stderr, "paired mode: an OpenCL entry point is missing (%s)\n", dlerror());
    std::exit(1);
  }
  return api;
}

std::string library_of(void* f) {
  Dl_info info;
  return dladdr(f, &info) && info.dli_fname ? info.dli_fname : "?";
}

/// Under DL: batches through DL's entry points and through the loader's, alternated.
int paired_child(int launches) {
  if (const char* layers = std::getenv("OPENCL_LAYERS"); layers && *layers) {
    std::fprintf(stderr,
                 "paired mode: OPENCL_LAYERS is set (%s): the loader's entry points would "
                 "go through DL as a layer too\n",
                 layers);
    return 1;
  }
  const Setup s = setup();  // (DL, preloaded, has loaded libOpenCL.so.1 by now)
  void* loader = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!loader) {
    std::fprintf(stderr, "paired mode: libOpenCL.so.1 is not loaded (%s)\n", dlerror());
    return 1;
  }
  const Api dl = lookup(RTLD_DEFAULT), real = lookup(loader);
  if (dl.set_arg == real.set_arg || dl.enqueue == real.enqueue || dl.finish == real.finish) {
    std::fprintf(stderr,
                 "paired mode: the application's clSetKernelArg is the loader's own (%s): "
                 "libdl_interpose.so is not preloaded, so there is nothing to compare\n",
                 library_of(reinterpret_cast<void*>(real.set_arg)).c_str());
    return 1;
  }
  nlohmann::json out = {{"device", s.device},
                        {"dl_library", library_of(reinterpret_cast<void*>(dl.set_arg))},
                        {"loader_library", library_of(reinterpret_cast<void*>(real.set_arg))}};
  const char* names[] = {"plain", "annotated"};
  for (int k = 0; k < 2; ++k) {
    cl_command_queue q = s.q;
    cl_kernel kernel = s.kernel[k];
    cl_mem m = s.mem[k];
    for (int i = 0; i < 2; ++i) {  // warm up (and, through DL, marshal the annotated buffer)
      batch(dl, q, kernel, m, s.n);
      batch(real, q, kernel, m, s.n);
    }
    std::vector<double> t_dl, t_real, diff;
    for (int p = 0; p < launches / kBatch; ++p) {
      // Pairs DL-loader, loader-DL, loader-DL, DL-loader: ABBA BAAB ...
      const bool dl_first = p % 4 == 0 || p % 4 == 3;
      const double a = batch(dl_first ? dl : real, q, kernel, m, s.n);
      const double b = batch(dl_first ? real : dl, q, kernel, m, s.n);
      t_dl.push_back(dl_first ? a : b);
      t_real.push_back(dl_first ? b : a);
      diff.push_back(std::round(10 * (t_dl.back() - t_real.back())) / 10);
    }
    const std::string key = names[k];
    out[key + "_dl_ns"] = median(t_dl);
    out[key + "_loader_ns"] = median(t_real);
    out[key + "_diff_ns"] = diff;
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

std::string run_child(const std::string& self, const std::string& env, const char* mode,
                      int launches) {
  std::string cmd = env + " '" + self + "' " + mode + " " + std::to_string(launches);
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
  if (argc >= 3 && std::strcmp(argv[1], "--child-paired") == 0)
    return paired_child(std::atoi(argv[2]));
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr,
                 "usage: %s <out.json> [--launches N] [--processes P] [--cpu C] [--lib "
                 "libdl_interpose.so] [--paired-only]\n",
                 argv[0]);
    return 2;
  }
  std::string out = argv[1], lib = DL_INTERPOSE_LIB_PATH;
  int launches = 20000, processes = 10;
  bool paired_only = false;
  std::string policy = "always";
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--paired-only") == 0) {
      paired_only = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (std::strcmp(argv[i], "--launches") == 0) launches = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--processes") == 0) processes = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--lib") == 0) lib = argv[i + 1];
    if (std::strcmp(argv[i], "--policy") == 0) policy = argv[i + 1];
    if (std::strcmp(argv[i], "--cpu") == 0) setenv("DL_BENCH_CPU", argv[i + 1], 1);
    ++i;
  }
  if (launches < 128 || processes < 1) {
    std::fprintf(stderr, "--launches must be at least 128 and --processes at least 1\n");
    return 2;
  }
  if (policy != "always" && policy != "auto" && policy != "never") {
    std::fprintf(stderr, "--policy must be always, auto or never\n");
    return 2;
  }
  char self[4096] = {0};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return 1;
  const std::string native_env = "env -u LD_PRELOAD -u OPENCL_LAYERS";
  const std::string dl_env = "env DL_POLICY=" + policy + " LD_PRELOAD='" + lib + "'";
  const std::string paired_env =
      "env -u OPENCL_LAYERS DL_POLICY=" + policy + " LD_PRELOAD='" + lib + "'";
  const char* kernels[] = {"plain", "annotated"};
  const std::string annotated_label =
      policy == "always" ? "annotated, buffer in layout" : "annotated, DL_POLICY=" + policy;
  const char* labels[] = {"no annotation", annotated_label.c_str()};
  std::vector<double> native[2], dl[2], diff[2];
  // Paired mode, per kernel: each process's medians, its differences, all pooled.
  std::vector<double> p_real[2], p_dl[2], p_diff[2], pooled[2];
  std::vector<std::vector<double>> p_batches[2];
  std::string device;
  for (int i = 0; i < processes; ++i) {
    if (!paired_only) {
      std::string a, b;  // native, DL: the order alternates from pair to pair
      if (i % 2 == 0) {
        a = run_child(self, native_env, "--child", launches);
        b = run_child(self, dl_env, "--child", launches);
      } else {
        b = run_child(self, dl_env, "--child", launches);
        a = run_child(self, native_env, "--child", launches);
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
    const std::string c = run_child(self, paired_env, "--child-paired", launches);
    if (c.empty()) {
      std::fprintf(stderr, "a paired measurement run failed (process %d)\n", i);
      return 1;
    }
    const auto jp = nlohmann::json::parse(c);
    device = jp["device"].get<std::string>();
    for (int k = 0; k < 2; ++k) {
      const std::string key = kernels[k];
      const auto d = jp[key + "_diff_ns"].get<std::vector<double>>();
      p_real[k].push_back(jp[key + "_loader_ns"].get<double>());
      p_dl[k].push_back(jp[key + "_dl_ns"].get<double>());
      p_diff[k].push_back(median(d));
      pooled[k].insert(pooled[k].end(), d.begin(), d.end());
      p_batches[k].push_back(d);
    }
  }
  nlohmann::json rows = nlohmann::json::array();
  if (!paired_only) {
    std::printf(
        "host cost per clSetKernelArg x3 + clEnqueueNDRangeKernel (%s), %d processes "
        "of each, %d launches per kernel each\n",
        device.c_str(), processes, launches);
    std::printf("%-30s %11s %11s %12s %22s\n", "kernel", "native ns", "DL ns", "DL adds ns",
                "90% interval ns");
    for (int k = 0; k < 2; ++k) {
      const double a = median(native[k]), b = median(dl[k]), d = median(diff[k]);
      const auto [lo, hi] = median_interval(diff[k]);
      std::printf("%-30s %11.1f %11.1f %12.1f %10.1f .. %8.1f\n", labels[k], a, b, d, lo, hi);
      rows.push_back({{"kernel", labels[k]},
                      {"native_ns", a},
                      {"dl_ns", b},
                      {"overhead_ns", d},
                      {"overhead_ci90_ns", {lo, hi}},
                      {"native_ns_per_process", native[k]},
                      {"dl_ns_per_process", dl[k]}});
    }
  }
  std::printf(
      "paired in one process under DL (%s): DL's entry points vs the loader's, %d processes, "
      "%d launches per kernel and way each, batches of %d\n",
      device.c_str(), processes, launches, kBatch);
  std::printf("%-30s %11s %11s %12s %22s %10s %22s\n", "kernel", "loader ns", "DL ns", "DL adds ns",
              "90% interval ns", "pooled ns", "pooled 90% interval");
  nlohmann::json paired_rows = nlohmann::json::array();
  for (int k = 0; k < 2; ++k) {
    const double a = median(p_real[k]), b = median(p_dl[k]), d = median(p_diff[k]);
    const double pd = median(pooled[k]);
    const auto [lo, hi] = median_interval(p_diff[k]);
    const auto [plo, phi] = median_interval(pooled[k]);
    std::printf("%-30s %11.1f %11.1f %12.1f %10.1f .. %8.1f %10.1f %10.1f .. %8.1f\n", labels[k], a,
                b, d, lo, hi, pd, plo, phi);
    paired_rows.push_back({{"kernel", labels[k]},
                           {"loader_ns", a},
                           {"dl_ns", b},
                           {"overhead_ns", d},
                           {"overhead_ci90_ns", {lo, hi}},
                           {"pooled_overhead_ns", pd},
                           {"pooled_overhead_ci90_ns", {plo, phi}},
                           {"loader_ns_per_process", p_real[k]},
                           {"dl_ns_per_process", p_dl[k]},
                           {"overhead_ns_per_process", p_diff[k]},
                           {"overhead_ns_per_batch_pair", p_batches[k]}});
  }
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
  std::time_t t = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  nlohmann::json j = {{"benchmark", "overhead"}, {"device", device},     {"date", date},
                      {"command", cmd},          {"launches", launches}, {"processes", processes},
                      {"dl_policy", policy},     {"target_ns", 1000},    {"results", rows}};
  j["paired"] = {{"batch", kBatch}, {"order", "ABBA BAAB (A = DL)"}, {"results", paired_rows}};
  if (const char* cpu = std::getenv("DL_BENCH_CPU"); cpu && *cpu) j["cpu"] = std::atoi(cpu);
  std::ofstream(out) << j.dump(2) << "\n";
  return 0;
}
