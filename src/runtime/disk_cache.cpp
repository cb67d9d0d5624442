// DL's on-disk caches (disk_cache.hpp). An entry is one file, <kind>/<key>.bin: the
// header (the cache's kind, DL's version, the identity of what it holds), a line with
// the payload's length and hash, the payload. The key hashes the header; an entry is used
// only when its header equals the one asked for and its payload matches its hash, so a
// truncated or damaged file never reaches a driver (PoCL aborts the process on a
// truncated binary) nor a conversion. What the payload then proves to be (a binary the
// driver refuses, a build from it that fails, a plan that does not parse) is checked by
// the caller's `use`; an entry it refuses is removed, and the thing made again and stored.
#include "disk_cache.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "calibration.hpp"
#include "runtime.hpp"

namespace dl::rt {
namespace {

namespace fs = std::filesystem;

/// The payload's length and hash (std::hash: fast; a mismatch after a change of the C++
/// library costs the entry, never a wrong one).
std::string checksum(std::string_view payload) {
  return std::to_string(payload.size()) + " " + hex(std::hash<std::string_view>{}(payload));
}

std::uintmax_t limit_bytes() {
  return std::uintmax_t(Runtime::get().controls.DL_CACHE_MIB) << 20;
}

}  // namespace

bool DiskCache::enabled() {
  return Runtime::get().controls.DL_CACHE_MIB > 0;
}

std::string DiskCache::header(const std::string& identity) const {
  return "DL " + kind_ + "\nDL " DL_VERSION "\n" + identity + "\n";
}

std::string DiskCache::path(const std::string& header) const {
  return cache_dir() + "/" + kind_ + "/" + hex(fnv1a(header)) + ".bin";
}

bool DiskCache::load(const std::string& identity,
                     const std::function<bool(const std::string&, std::string*)>& use) {
  if (!enabled()) return false;
  const std::string h = header(identity), p = path(h);
  std::string file;
  if (!read_file(p, file)) return false;
  const std::size_t eol = file.compare(0, h.size(), h) == 0 ? file.find('\n', h.size()) : 0;
  if (!eol || eol == std::string::npos ||
      file.compare(h.size(), eol - h.size(), checksum(std::string_view(file).substr(eol + 1))) !=
          0) {
    reject(p, "its bytes do not match their header and checksum");
    return false;
  }
  std::string why;
  if (!use(file.substr(eol + 1), &why)) {
    reject(p, why);
    return false;
  }
  std::error_code ec;  // most recently used: the last to go
  fs::last_write_time(p, fs::file_time_type::clock::now(), ec);
  ++loaded_;
  return true;
}

void DiskCache::reject(const std::string& p, const std::string& why) {
  ++rejected_;
  log().info("{} entry {} did not hold, {}: made again", kind_, p, why);
  std::remove(p.c_str());
}

void DiskCache::store(const std::string& identity, const std::string& payload) {
  const std::uintmax_t limit = limit_bytes();
  const std::string h = header(identity);
  if (!limit || payload.size() + h.size() > limit) return;
  const std::string p = path(h);
  mkdirs(cache_dir() + "/" + kind_);
  if (!write_file(p, h + checksum(payload) + "\n" + payload)) {
    log().info("cannot write DL's cache entry {}", p);
    return;
  }
  ++stored_;
  evict(limit);
}

/// Removes the least recently used entries while the directory holds more than `limit`
/// bytes (down to three quarters of it, so that not every store scans again).
void DiskCache::evict(std::uintmax_t limit) {
  const std::string dir = cache_dir() + "/" + kind_;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  std::uintmax_t total = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".bin") continue;
    const std::uintmax_t size = it->file_size(ec);
    if (ec) continue;
    total += size;
    files.emplace_back(it->last_write_time(ec), it->path());
  }
  if (total <= limit) return;
  std::sort(files.begin(), files.end());
  for (const auto& [time, file] : files) {
    if (total <= limit / 4 * 3) break;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (!ec && fs::remove(file, ec)) {
      total -= size;
      ++evicted_;
    }
  }
}

DiskCacheStats DiskCache::stats() const {
  return {loaded_.load(), stored_.load(), rejected_.load(), evicted_.load()};
}

DiskCache& program_cache() {
  static auto* c = new DiskCache("programs");  // never destroyed: used by exit handlers
  return *c;
}

DiskCache& plan_cache() {
  static auto* c = new DiskCache("plans");
  return *c;
}

namespace {

/// Whether a source has an #include directive (also one in a comment: a miss costs a
/// build from source, a stale hit a wrong program).
bool includes_files(const std::vector<const char*>& sources) {
  for (const char* s : sources)
    for (const char* h = s ? std::strchr(s, '#') : nullptr; h; h = std::strchr(h + 1, '#')) {
      const char* w = h + 1;
      while (*w == ' ' || *w == '\t') ++w;
      if (std::strncmp(w, "include", 7) == 0) return true;
    }
  return false;
}

/// Everything a program's binary is made from: the device, its driver and OpenCL
/// version, the options, two hashes of the sources.
std::string program_identity(cl_device_id device, const std::vector<const char*>& sources,
                             const std::string& options) {
  std::string text;
  for (const char* s : sources) {
    const std::string_view one = s ? s : "";
    text += std::to_string(one.size()) + ":";
    text += one;
  }
  return device_key(device) + " | " + device_string(device, CL_DEVICE_VERSION) + "\n" + options +
         "\n" + hex(fnv1a(text)) + hex(fnv1a(text, 0x84222325cbf29ce4ull));
}

/// Whether the kernels of `p` answer clGetKernelArgInfo (asked for by -cl-kernel-arg-info;
/// an implementation may drop argument information from a program made from a binary).
bool has_arg_info(cl_program p) {
  cl_uint n = 0;
  if (real().clCreateKernelsInProgram(p, 0, nullptr, &n) != CL_SUCCESS) return false;
  std::vector<cl_kernel> ks(n);
  if (n && real().clCreateKernelsInProgram(p, n, ks.data(), nullptr) != CL_SUCCESS) return false;
  bool ok = true;
  for (cl_kernel k : ks) {
    cl_uint args = 0;
    real().clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
    std::size_t len = 0;
    if (ok && args &&
        real().clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, nullptr, &len) != CL_SUCCESS)
      ok = false;
    real().clReleaseKernel(k);
  }
  return ok;
}

/// The program built from `binary`; null with `*why` when the driver refuses it.
cl_program from_binary(cl_context context, cl_device_id device, const std::string& binary,
                       const std::string& options, std::string* why) {
  const auto* bin = reinterpret_cast<const unsigned char*>(binary.data());
  const std::size_t len = binary.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p = real().clCreateProgramWithBinary(context, 1, &device, &len, &bin, &status, &err);
  *why = "the driver refused it (" + std::to_string(err) + ", " + std::to_string(status) + ")";
  if (p && err == CL_SUCCESS && status == CL_SUCCESS) {
    *why = "its build failed";
    if (real().clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr) == CL_SUCCESS) {
      *why = "its kernels lost their arguments' names";
      if (options.find("-cl-kernel-arg-info") == std::string::npos || has_arg_info(p)) return p;
    }
  }
  if (p) real().clReleaseProgram(p);
  return nullptr;
}

}  // namespace

std::string build_log(cl_program p, cl_device_id d) {
  std::string s = info_string([&](std::size_t size, void* value, std::size_t* ret) {
    return real().clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, size, value, ret);
  });
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

cl_program build_program(cl_context context, cl_device_id device,
                         const std::vector<const char*>& sources, const std::string& options,
                         std::string* log_text) {
  DiskCache& cache = program_cache();
  const bool cached = DiskCache::enabled() && !includes_files(sources);
  const std::string identity = cached ? program_identity(device, sources, options) : "";
  cl_program p = nullptr;
  if (cached && cache.load(identity, [&](const std::string& binary, std::string* why) {
        return (p = from_binary(context, device, binary, options, why)) != nullptr;
      }))
    return p;
  cl_int err = CL_SUCCESS;
  p = real().clCreateProgramWithSource(context, static_cast<cl_uint>(sources.size()),
                                       const_cast<const char**>(sources.data()), nullptr, &err);
  if (!p) {
    *log_text = "clCreateProgramWithSource failed (" + std::to_string(err) + ")";
    return nullptr;
  }
  if (real().clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    *log_text = build_log(p, device);
    real().clReleaseProgram(p);
    return nullptr;
  }
  std::size_t len = 0;
  if (cached &&
      real().clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, nullptr) ==
          CL_SUCCESS &&
      len > 0) {
    std::string binary(len, '\0');
    auto* bin = reinterpret_cast<unsigned char*>(binary.data());
    if (real().clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, nullptr) == CL_SUCCESS)
      cache.store(identity, binary);
  }
  return p;
}

}  // namespace dl::rt
