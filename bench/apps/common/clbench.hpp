// Small OpenCL helpers shared by DL's benchmarks and benchmark applications.
//
// Nothing here calls DL: the applications in bench/apps are plain OpenCL programs (their
// host code keeps the AoS layout), so that DL can be applied to them from outside.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace dlb {

class ClError : public std::runtime_error {
 public:
  ClError(const std::string& what, cl_int code)
      : std::runtime_error(what + " failed: OpenCL error " + std::to_string(code)), code_(code) {}
  cl_int code() const { return code_; }

 private:
  cl_int code_;
};

inline void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw ClError(what, err);
}

/// Prints a loud failure line and exits non-zero (result mismatches).
[[noreturn]] inline void fail(const std::string& msg) {
  std::fprintf(stderr, "\n*** FAIL: %s\n", msg.c_str());
  std::exit(1);
}

inline std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t size = 0;
  clGetDeviceInfo(d, what, 0, nullptr, &size);
  std::string s(size, '\0');
  clGetDeviceInfo(d, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

/// One device with a context and an in-order profiling queue.
struct Device {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string name, vendor, driver, version, platform_name;
  bool gpu = false;
  cl_ulong global_mem = 0, max_alloc = 0, local_mem = 0;
  std::size_t max_work_group = 0;

  Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
};

inline void open_device(Device& d, unsigned platform_index, unsigned device_index) {
  cl_uint np = 0;
  check(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
  if (platform_index >= np)
    throw std::runtime_error("no OpenCL platform " + std::to_string(platform_index));
  std::vector<cl_platform_id> ps(np);
  check(clGetPlatformIDs(np, ps.data(), nullptr), "clGetPlatformIDs");
  // $DL_BENCH_PLATFORM (a part of the platform name, e.g. NVIDIA) overrides the index.
  if (const char* want = std::getenv("DL_BENCH_PLATFORM"); want && *want) {
    bool found = false;
    for (cl_uint i = 0; i < np && !found; ++i) {
      char name[256] = {};
      clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
      if (std::strstr(name, want)) platform_index = i, found = true;
    }
    if (!found) throw std::runtime_error(std::string("no OpenCL platform named like ") + want);
  }
  d.platform = ps[platform_index];
  cl_uint nd = 0;
  check(clGetDeviceIDs(d.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd), "clGetDeviceIDs");
  if (device_index >= nd)
    throw std::runtime_error("no OpenCL device " + std::to_string(device_index));
  std::vector<cl_device_id> ds(nd);
  check(clGetDeviceIDs(d.platform, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr), "clGetDeviceIDs");
  d.device = ds[device_index];
  std::size_t size = 0;
  clGetPlatformInfo(d.platform, CL_PLATFORM_NAME, 0, nullptr, &size);
  d.platform_name.assign(size, '\0');
  clGetPlatformInfo(d.platform, CL_PLATFORM_NAME, size, d.platform_name.data(), nullptr);
  while (!d.platform_name.empty() && d.platform_name.back() == '\0') d.platform_name.pop_back();
  d.name = device_string(d.device, CL_DEVICE_NAME);
  d.vendor = device_string(d.device, CL_DEVICE_VENDOR);
  d.driver = device_string(d.device, CL_DRIVER_VERSION);
  d.version = device_string(d.device, CL_DEVICE_VERSION);
  d.gpu = (device_value<cl_device_type>(d.device, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
  d.global_mem = device_value<cl_ulong>(d.device, CL_DEVICE_GLOBAL_MEM_SIZE);
  d.max_alloc = device_value<cl_ulong>(d.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  d.local_mem = device_value<cl_ulong>(d.device, CL_DEVICE_LOCAL_MEM_SIZE);
  d.max_work_group = device_value<std::size_t>(d.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  cl_int err = CL_SUCCESS;
  d.context = clCreateContext(nullptr, 1, &d.device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  d.queue = clCreateCommandQueueWithProperties(d.context, d.device, props, &err);
  check(err, "clCreateCommandQueueWithProperties");
}

/// Builds a program; throws with the build log on failure.
inline cl_program build_program(const Device& d, const std::string& src, const std::string& opts) {
  const char* text = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(d.context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(p, 1, &d.device, opts.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t size = 0;
    clGetProgramBuildInfo(p, d.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(p, d.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    clReleaseProgram(p);
    throw std::runtime_error("program build failed (" + opts + "):\n" + log);
  }
  return p;
}

inline cl_kernel make_kernel(cl_program p, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name, &err);
  check(err, name);
  return k;
}

template <class T>
void set_arg(cl_kernel k, cl_uint i, const T& v) {
  check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg");
}

inline cl_mem make_buffer(const Device& d, std::size_t bytes,
                          cl_mem_flags flags = CL_MEM_READ_WRITE) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(d.context, flags, bytes, nullptr, &err);
  check(err, "clCreateBuffer");
  return m;
}

inline void write(const Device& d, cl_mem m, const void* src, std::size_t bytes) {
  check(clEnqueueWriteBuffer(d.queue, m, CL_TRUE, 0, bytes, src, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}
/// FNV-1a of the bytes the last read() returned: an application's result, to compare
/// runs byte for byte (native and under DL).
inline std::string& last_read_fnv() {
  static std::string h;
  return h;
}

inline void read(const Device& d, cl_mem m, void* dst, std::size_t bytes) {
  check(clEnqueueReadBuffer(d.queue, m, CL_TRUE, 0, bytes, dst, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < bytes; ++i)
    h = (h ^ static_cast<unsigned char*>(dst)[i]) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  last_read_fnv() = buf;
}

inline cl_ulong event_time(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  check(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr), "clGetEventProfilingInfo");
  return t;
}
/// Device time of one command, in milliseconds.
inline double event_ms(cl_event e) {
  return 1e-6 * double(event_time(e, CL_PROFILING_COMMAND_END) -
                       event_time(e, CL_PROFILING_COMMAND_START));
}

/// Launches a 1-D kernel, waits, and returns its device time in ms.
inline double run_timed(const Device& d, cl_kernel k, std::size_t global, std::size_t local) {
  cl_event e = nullptr;
  const std::size_t* lp = local ? &local : nullptr;
  check(clEnqueueNDRangeKernel(d.queue, k, 1, nullptr, &global, lp, 0, nullptr, &e),
        "clEnqueueNDRangeKernel");
  check(clWaitForEvents(1, &e), "clWaitForEvents");
  const double ms = event_ms(e);
  clReleaseEvent(e);
  return ms;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Directory of the running executable (kernels are copied next to it by the build).
inline std::string exe_dir() {
  std::vector<char> buf(4096);
  const ssize_t len = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (len <= 0) return ".";
  std::string p(buf.data(), std::size_t(len));
  const auto slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

inline std::string now_utc() {
  std::time_t t = std::time(nullptr);
  char s[32];
  std::strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return s;
}

inline std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

/// `--key value` and `--flag` options.
class Args {
 public:
  Args(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) throw std::runtime_error("unexpected argument " + a);
      a = a.substr(2);
      const auto eq = a.find('=');
      if (eq != std::string::npos) {
        kv_[a.substr(0, eq)] = a.substr(eq + 1);
      } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
        kv_[a] = argv[++i];
      } else {
        kv_[a] = "";
      }
    }
  }
  bool has(const std::string& k) const { return kv_.count(k) != 0; }
  std::string str(const std::string& k, const std::string& def) const {
    auto it = kv_.find(k);
    return it == kv_.end() ? def : it->second;
  }
  long long num(const std::string& k, long long def) const {
    auto it = kv_.find(k);
    return it == kv_.end() ? def : std::stoll(it->second);
  }
  double real(const std::string& k, double def) const {
    auto it = kv_.find(k);
    return it == kv_.end() ? def : std::stod(it->second);
  }
  std::vector<long long> list(const std::string& k, const std::vector<long long>& def) const {
    auto it = kv_.find(k);
    if (it == kv_.end()) return def;
    std::vector<long long> out;
    std::stringstream ss(it->second);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (!item.empty()) out.push_back(std::stoll(item));
    }
    return out;
  }
  std::vector<std::string> words(const std::string& k, const std::vector<std::string>& def) const {
    auto it = kv_.find(k);
    if (it == kv_.end()) return def;
    std::vector<std::string> out;
    std::stringstream ss(it->second);
    std::string item;
    while (std::getline(ss, item, ',')) {
      if (!item.empty()) out.push_back(item);
    }
    return out;
  }

 private:
  std::map<std::string, std::string> kv_;
};

/// Deterministic non-zero random words (xorshift64*).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545f4914f6cdd1dull;
  }
  /// Uniform float in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * float(next() >> 40) * (1.0f / 16777216.0f);
  }
  /// Fills bytes with random data in which no 4-byte word is zero.
  void fill_nonzero(void* data, std::size_t bytes) {
    auto* p = static_cast<unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      std::uint64_t v = next() | 0x0000000100000001ull;
      std::memcpy(p + i, &v, 8);
    }
    for (; i < bytes; ++i) p[i] = static_cast<unsigned char>(next() | 1);
  }

 private:
  std::uint64_t s_;
};

// ---- Hand-written layouts of the applications ------------------------------------------
// An application that was rewritten by hand for DA or ASTA(T) keeps its records in that
// layout on the host too. Element k of record i of n records of S words, tile width W
// (AoS: W = 1, DA: W = n, ASTA: W = T; the last partial tile holds n % W records):
inline std::size_t tiled_index(std::size_t W, std::size_t n, std::size_t S, std::size_t i,
                               std::size_t k) {
  const std::size_t base = i / W * W;
  const std::size_t w = std::min(W, n - base);
  return base * S + k * w + (i - base);
}

template <class T>
std::vector<T> to_tiled(const std::vector<T>& aos, std::size_t S, std::size_t n, std::size_t W) {
  std::vector<T> out(aos.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < S; ++k) out[tiled_index(W, n, S, i, k)] = aos[i * S + k];
  return out;
}

template <class T>
std::vector<T> from_tiled(const std::vector<T>& t, std::size_t S, std::size_t n, std::size_t W) {
  std::vector<T> out(t.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < S; ++k) out[i * S + k] = t[tiled_index(W, n, S, i, k)];
  return out;
}

}  // namespace dlb
