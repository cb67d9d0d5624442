// dl-bench-overhead: host cost of clSetKernelArg x3 + clEnqueueNDRangeKernel, natively
// and under libdl_interpose.so (LD_PRELOAD), for a kernel without annotation and for an
// annotated kernel whose buffer is already in its layout (no marshal on the hot path).
//
//   dl-bench-overhead <out.json> [--launches N] [--lib path/libdl_interpose.so]
//
// DL_BENCH_PLATFORM=<part of a platform name> picks the OpenCL platform (default: the first).
//
// The parent runs itself twice as a child (native, DL) and prints a table; the JSON
// holds the device, date and command. Target: DL adds <= 1 us per launch.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

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
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
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

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--child") == 0) return child(std::atoi(argv[2]));
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: %s <out.json> [--launches N] [--lib libdl_interpose.so]\n",
                 argv[0]);
    return 2;
  }
  std::string out = argv[1], lib = DL_INTERPOSE_LIB_PATH;
  int launches = 20000;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--launches") == 0) launches = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--lib") == 0) lib = argv[i + 1];
  }
  char self[4096] = {0};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return 1;
  const std::string native = run_child(self, "env -u LD_PRELOAD -u OPENCL_LAYERS", launches);
  const std::string dl = run_child(self, "env LD_PRELOAD='" + lib + "'", launches);
  if (native.empty() || dl.empty()) {
    std::fprintf(stderr, "a measurement run failed\n");
    return 1;
  }
  auto jn = nlohmann::json::parse(native), jd = nlohmann::json::parse(dl);
  std::printf("pass-through overhead per clSetKernelArg x3 + clEnqueueNDRangeKernel (%s)\n",
              jn["device"].get<std::string>().c_str());
  std::printf("%-34s %12s %12s %12s\n", "kernel", "native ns", "DL ns", "DL adds ns");
  nlohmann::json rows = nlohmann::json::array();
  for (const char* k : {"plain", "annotated"}) {
    const double a = jn[std::string(k) + "_ns"], b = jd[std::string(k) + "_ns"];
    const char* label =
        std::strcmp(k, "plain") == 0 ? "no annotation" : "annotated, buffer in layout";
    std::printf("%-34s %12.1f %12.1f %12.1f\n", label, a, b, b - a);
    rows.push_back({{"kernel", label}, {"native_ns", a}, {"dl_ns", b}, {"overhead_ns", b - a}});
  }
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
  std::time_t t = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  nlohmann::json j = {{"benchmark", "overhead"}, {"device", jn["device"]}, {"date", date},
                      {"command", cmd},          {"launches", launches},   {"target_ns", 1000},
                      {"results", rows}};
  std::ofstream(out) << j.dump(2) << "\n";
  return 0;
}
