// DL's on-disk caches of what it makes in every process otherwise (docs/runtime.md,
// "On-disk caches"): the binaries of the programs DL builds itself (transformed programs,
// marshaling kernels) and the host-side plans of its conversions (segment tables).
#pragma once

#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dl::rt {

/// What a cache did in this process (the report's "disk_cache").
struct DiskCacheStats {
  std::uint64_t loaded = 0;    // entries used
  std::uint64_t stored = 0;    // entries written
  std::uint64_t rejected = 0;  // entries that did not hold (removed; made again)
  std::uint64_t evicted = 0;   // entries removed to keep the cache within its size
};

/// The entries of one kind, files under DL_CACHE_DIR/<kind>: a header naming everything
/// the payload was made from (`identity`, with DL's version), a line with the payload's
/// length and hash, the payload. An entry holds only when its header is the one asked
/// for and its bytes match their hash. Writes are atomic (a temporary renamed over the
/// entry); past DL_CACHE_MIB MiB the least recently used entries go. Thread-safe.
class DiskCache {
 public:
  explicit DiskCache(std::string kind) : kind_(std::move(kind)) {}
  /// Whether the cache is on (DL_CACHE_MIB > 0).
  static bool enabled();
  /// Calls `use` with the payload stored for `identity`: true when there is one, whole,
  /// and `use` took it; an entry that does not hold (its bytes, or `use` refusing them
  /// with a reason in `*why`) is removed, counted and logged.
  bool load(const std::string& identity,
            const std::function<bool(const std::string& payload, std::string* why)>& use);
  void store(const std::string& identity, const std::string& payload);
  DiskCacheStats stats() const;
  const std::string& kind() const { return kind_; }

 private:
  std::string header(const std::string& identity) const;
  std::string path(const std::string& header) const;
  void reject(const std::string& path, const std::string& why);
  void evict(std::uintmax_t limit);
  std::string kind_;
  std::atomic<std::uint64_t> loaded_{0}, stored_{0}, rejected_{0}, evicted_{0};
};

DiskCache& program_cache();  // DL_CACHE_DIR/programs
DiskCache& plan_cache();     // DL_CACHE_DIR/plans

/// Builds the program of `sources` for `device` with `options`: from the binary an
/// earlier build stored in program_cache() for exactly these sources, options, device,
/// driver and DL version, else from source (its binary stored for the next run). A
/// source that includes files is always built from source (the cache cannot see them
/// change). Null on a failed build, with the build log in `*log`.
cl_program build_program(cl_context context, cl_device_id device,
                         const std::vector<const char*>& sources, const std::string& options,
                         std::string* log);

/// The build log of `program` on `device`, without trailing blanks.
std::string build_log(cl_program program, cl_device_id device);

}  // namespace dl::rt
