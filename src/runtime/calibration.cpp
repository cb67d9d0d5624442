// Device calibration (calibration.hpp): a probe kernel reading two fields of 64-byte
// records, on AoS and on ASTA(T) for T in {16, 32, 64}, and the conversions between the
// two layouts, timed by event profiling on a queue of DL's own.
#include "calibration.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

namespace dl::rt {
namespace {

constexpr unsigned kFields = 16;  // floats per probe record (64 bytes)
// Records probed: 8 MiB on a CPU device; 128 MiB elsewhere, past a GPU's last-level cache
// (50 MB on an H100), where 8 MiB would measure the cache: the probe kernel then ran only
// 1.3x faster on ASTA, the verdict "never pays" a coin toss, and the conversions looked
// faster than they are on application-sized buffers.
constexpr std::size_t kCpuRecords = 1 << 17, kRecords = 1 << 21;
constexpr const char* kProbe = R"CL(
__kernel void dl_probe_aos(__global const float* p, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = p[i * 16] * 2.0f + p[i * 16 + 9];
}
__kernel void dl_probe_asta(__global const float* p, __global float* out, uint log2t) {
  size_t i = get_global_id(0);
  size_t t = (size_t)1 << log2t;
  size_t b = ((i >> log2t) << log2t) * 16 + (i & (t - 1));
  out[i] = p[b] * 2.0f + p[b + 9 * t];
}
)CL";

constexpr const char* kCacheFile = "calibration.json";

void write_cache(const DeviceProfile& p) {
  nlohmann::json j = read_cache_file(kCacheFile);
  j["format"] = 1;
  j["devices"][p.key] = {{"may_pay", p.may_pay},
                         {"tile", p.tile},
                         {"to_layout_bytes_per_ns", p.to_layout_bytes_per_ns},
                         {"to_aos_bytes_per_ns", p.to_aos_bytes_per_ns},
                         {"aos_probe_ns", p.aos_probe_ns},
                         {"asta_probe_ns", p.asta_probe_ns},
                         {"seconds", p.seconds}};
  write_cache_file(kCacheFile, j);
}

bool from_cache(DeviceProfile& p) {
  const nlohmann::json j = read_cache_file(kCacheFile);
  if (j.value("format", 0) != 1 || !j.contains("devices") || !j["devices"].contains(p.key))
    return false;
  const auto& d = j["devices"][p.key];
  try {
    p.may_pay = d.at("may_pay").get<bool>();
    p.tile = d.at("tile").get<std::uint32_t>();
    p.to_layout_bytes_per_ns = d.at("to_layout_bytes_per_ns").get<double>();
    p.to_aos_bytes_per_ns = d.at("to_aos_bytes_per_ns").get<double>();
    p.aos_probe_ns = d.at("aos_probe_ns").get<double>();
    p.asta_probe_ns = d.at("asta_probe_ns").get<double>();
    p.seconds = d.value("seconds", 0.0);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
  p.valid = p.to_layout_bytes_per_ns > 0 && p.to_aos_bytes_per_ns > 0 && p.tile > 0;
  p.cached = p.valid;
  return p.valid;
}

/// Device time of `e` (profiling), 0 when not available.
double elapsed(cl_event e) {
  const double ns = real().clWaitForEvents(1, &e) == CL_SUCCESS ? device_ns(e) : 0;
  return ns > 0 ? ns : 0;
}

/// The resources of one calibration, released at the end.
struct Probe {
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q = nullptr;
  cl_program prog = nullptr;
  cl_kernel aos = nullptr, asta = nullptr;
  cl_mem recs = nullptr, out = nullptr;
  std::size_t records = kCpuRecords;
  ~Probe() {
    if (aos) real().clReleaseKernel(aos);
    if (asta) real().clReleaseKernel(asta);
    if (prog) real().clReleaseProgram(prog);
    if (recs) real().clReleaseMemObject(recs);
    if (out) real().clReleaseMemObject(out);
    if (q) real().clReleaseCommandQueue(q);
  }

  bool setup(std::string* why) {
    cl_int err = CL_SUCCESS;
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    q = real().clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    if (!q) return *why = "no profiling queue (" + std::to_string(err) + ")", false;
    const char* src = kProbe;
    prog = real().clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    if (!prog || real().clBuildProgram(prog, 1, &dev, "", nullptr, nullptr) != CL_SUCCESS)
      return *why = "the probe kernels did not build", false;
    aos = real().clCreateKernel(prog, "dl_probe_aos", &err);
    asta = real().clCreateKernel(prog, "dl_probe_asta", &err);
    cl_device_type type = 0;
    cl_ulong max_alloc = 0;
    real().clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    real().clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                           nullptr);
    records = (type & CL_DEVICE_TYPE_CPU) || max_alloc < 4 * kRecords * kFields * sizeof(float)
                  ? kCpuRecords
                  : kRecords;
    const std::size_t bytes = records * kFields * sizeof(float);
    recs = real().clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    out = real().clCreateBuffer(ctx, CL_MEM_READ_WRITE, records * sizeof(float), nullptr, &err);
    if (!aos || !asta || !recs || !out) return *why = "no memory for the probe", false;
    const float one = 1.0f;  // the values do not matter to the times
    if (real().clEnqueueFillBuffer(q, recs, &one, sizeof one, 0, bytes, 0, nullptr, nullptr) !=
            CL_SUCCESS ||
        real().clFinish(q) != CL_SUCCESS)
      return *why = "the probe's records could not be filled", false;
    real().clSetKernelArg(aos, 0, sizeof recs, &recs);
    real().clSetKernelArg(aos, 1, sizeof out, &out);
    real().clSetKernelArg(asta, 0, sizeof recs, &recs);
    real().clSetKernelArg(asta, 1, sizeof out, &out);
    return true;
  }

  /// The fastest of `reps` runs of kernel `k`.
  double time(cl_kernel k, int reps = 5) {
    double best = 0;
    const std::size_t g = records;
    for (int r = 0; r < reps; ++r) {
      cl_event e = nullptr;
      if (real().clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, &e) !=
          CL_SUCCESS)
        return 0;
      const double t = elapsed(e);
      release(e);
      if (t > 0 && (best == 0 || t < best)) best = t;
    }
    return best;
  }

  /// The fastest of `reps` conversions from -> to of the records, both ways (the buffer
  /// ends where it began).
  std::pair<double, double> convert(Marshaler& m, const Record& rec, const Layout& to) {
    double there = 0, back = 0;
    for (int r = 0; r < 3; ++r)
      for (int dir = 0; dir < 2; ++dir) {
        cl_event e = nullptr;
        MarshalResult res = m.enqueue(q, recs, 0, rec, records, dir ? to : Layout::aos(),
                                      dir ? Layout::aos() : to, Algorithm::Auto, 0, nullptr, &e);
        if (res.status != CL_SUCCESS) return {0, 0};
        double t = elapsed(e);
        if (res.first && t > 0) {  // a conversion of several commands: from the first's start
          cl_ulong first = 0, last = 0;
          if (real().clGetEventProfilingInfo(res.first, CL_PROFILING_COMMAND_START, sizeof first,
                                             &first, nullptr) == CL_SUCCESS &&
              real().clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof last, &last,
                                             nullptr) == CL_SUCCESS &&
              last > first)
            t = static_cast<double>(last - first);
        }
        release(res.first);
        release(e);
        double& best = dir ? back : there;
        if (t > 0 && (best == 0 || t < best)) best = t;
      }
    return {there, back};
  }
};

DeviceProfile measure(cl_context ctx, cl_device_id dev, Marshaler& m, std::string key) {
  DeviceProfile p;
  p.key = std::move(key);
  const auto start = std::chrono::steady_clock::now();
  Probe probe{ctx, dev};
  std::string why;
  if (!probe.setup(&why)) {
    log().warn("device calibration failed: {}; DL keeps AoS on this device", why);
    return p;
  }
  p.aos_probe_ns = probe.time(probe.aos);
  double best = 0;
  for (cl_uint lt : {4u, 5u, 6u}) {
    real().clSetKernelArg(probe.asta, 2, sizeof lt, &lt);
    const double t = probe.time(probe.asta);
    if (t > 0 && (best == 0 || t < best)) {
      best = t;
      p.tile = 1u << lt;
    }
  }
  p.asta_probe_ns = best;
  const Record rec = Record::uniform("dl_calibration", Scalar::Float, kFields);
  const auto [there, back] = probe.convert(m, rec, Layout::asta(p.tile));
  const double bytes = 2.0 * static_cast<double>(probe.records * rec.size());  // read + written
  p.to_layout_bytes_per_ns = there > 0 ? bytes / there : 0;
  p.to_aos_bytes_per_ns = back > 0 ? bytes / back : 0;
  p.valid = p.aos_probe_ns > 0 && p.asta_probe_ns > 0 && there > 0 && back > 0;
  p.may_pay = p.valid && p.asta_probe_ns < 0.8 * p.aos_probe_ns;
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

}  // namespace

double DeviceProfile::round_trip_ns(std::size_t bytes) const {
  if (!valid) return 0;
  const double moved = 2.0 * static_cast<double>(bytes);
  return moved / to_layout_bytes_per_ns + moved / to_aos_bytes_per_ns;
}

double DeviceProfile::to_aos_ns(std::size_t bytes) const {
  if (!valid) return 0;
  return 2.0 * static_cast<double>(bytes) / to_aos_bytes_per_ns;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  return info_string([&](std::size_t size, void* value, std::size_t* ret) {
    return real().clGetDeviceInfo(d, what, size, value, ret);
  });
}

std::uint64_t fnv1a(const std::string& s, std::uint64_t h) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex(std::uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

std::string device_key(cl_device_id d) {
  return device_string(d, CL_DEVICE_NAME) + " | " + device_string(d, CL_DRIVER_VERSION) +
         " | DL " DL_VERSION;
}

nlohmann::json read_cache_file(const std::string& name) {
  std::ifstream in(cache_dir() + "/" + name);
  if (!in) return nlohmann::json::object();
  auto j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

bool write_cache_file(const std::string& name, const nlohmann::json& j) {
  const std::string dir = cache_dir(), path = dir + "/" + name;
  mkdirs(dir);
  if (write_file(path, j.dump(2) + "\n")) return true;
  log().warn("cannot write DL's cache file {}", path);
  return false;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return !in.bad();
}

bool write_file(const std::string& path, const std::string& text) {
  // The pid and the thread: two threads may write the same path at once.
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!(out << text) || !out.flush()) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) == 0) return true;
  std::remove(tmp.c_str());
  return false;
}

void mkdirs(const std::string& path) {
  for (std::size_t i = 1; i <= path.size(); ++i)
    if (i == path.size() || path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0755);
}

std::string cache_dir() {
  const Runtime& rt = Runtime::get();
  if (!rt.controls.DL_CACHE_DIR.empty()) return rt.controls.DL_CACHE_DIR;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/dl";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/dl";
  return "/tmp/dl-cache";
}

DeviceProfile cached_profile(cl_device_id device) {
  DeviceProfile p;
  p.key = device_key(device);
  from_cache(p);
  return p;
}

DeviceProfile device_profile(cl_context context, cl_device_id device) {
  Runtime& rt = Runtime::get();
  DeviceProfile p;
  p.key = device_key(device);
  if (!rt.controls.DL_CALIBRATE && from_cache(p)) return p;
  Marshaler* m = nullptr;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    m = rt.marshaler(context, device);
  }
  if (!m) return p;
  p = measure(context, device, *m, p.key);
  if (p.valid) write_cache(p);
  log().info(
      "calibrated {} in {:.2f} s: probe AoS {:.3f} ms, ASTA({}) {:.3f} ms, conversions "
      "{:.1f} / {:.1f} GB/s: {}",
      p.key, p.seconds, p.aos_probe_ns / 1e6, p.tile, p.asta_probe_ns / 1e6,
      p.to_layout_bytes_per_ns, p.to_aos_bytes_per_ns,
      p.may_pay ? "converting may pay" : "converting never pays here");
  return p;
}

}  // namespace dl::rt
