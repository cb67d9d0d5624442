// Per-device calibration of the profitability controller: what conversions cost on a
// device, which ASTA tile width its kernels read fastest, and whether converting can pay
// there at all. Measured once per device (name, driver, DL version) and cached on disk.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "runtime.hpp"

namespace dl::rt {

struct DeviceProfile {
  bool valid = false;
  std::string key;                    // device name | driver version | DL version
  bool may_pay = false;               // a layout-friendly kernel ran faster on ASTA than on AoS
  std::uint32_t tile = 32;            // the tile width the probe kernel read fastest
  double to_layout_bytes_per_ns = 0;  // AoS -> ASTA(tile), bytes read + written per ns
  double to_aos_bytes_per_ns = 0;     // ASTA(tile) -> AoS
  double aos_probe_ns = 0, asta_probe_ns = 0;  // the probe kernel on each layout
  double seconds = 0;                          // how long the calibration took
  bool cached = false;                         // read from the cache (not measured in this process)

  /// Estimated device time of converting `bytes` to a layout and back.
  double round_trip_ns(std::size_t bytes) const;
  /// ... and of the way back alone.
  double to_aos_ns(std::size_t bytes) const;
};

/// The profile of `device`: from the cache, or measured now (and cached) when absent or
/// when DL_CALIBRATE is set. Never throws; an invalid profile means "measure nothing,
/// convert nothing" (the controller keeps AoS).
DeviceProfile device_profile(cl_context context, cl_device_id device);

/// The cached profile of `device`, measuring nothing (invalid when there is none).
DeviceProfile cached_profile(cl_device_id device);

/// Where the cache lives (DL_CACHE_DIR, $XDG_CACHE_HOME/dl, ~/.cache/dl).
std::string cache_dir();
/// Makes `path` and its parents (mkdir -p), quietly.
void mkdirs(const std::string& path);
/// The JSON object in cache file `name` (an empty object when absent or malformed).
nlohmann::json read_cache_file(const std::string& name);
/// Writes `j` to cache file `name` at once (a temporary file renamed over it: a reader
/// sees the old or the new whole); false with a warning when it cannot.
bool write_cache_file(const std::string& name, const nlohmann::json& j);
/// The bytes of file `path` into `out`; false when it cannot be read.
bool read_file(const std::string& path, std::string& out);
/// Writes `text` to `path` through a temporary in the same directory renamed over it (a
/// reader sees the old or the new whole, also while other threads or processes write
/// the same path); false when it cannot.
bool write_file(const std::string& path, const std::string& text);
/// A string property of a device (name, driver version, ...); empty when unknown.
std::string device_string(cl_device_id d, cl_device_info what);
/// What identifies a device's measurements: name | driver version | DL version.
std::string device_key(cl_device_id d);

std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 14695981039346656037ull);
std::string hex(std::uint64_t v);

}  // namespace dl::rt
