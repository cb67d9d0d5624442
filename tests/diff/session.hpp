// The process-wide OpenCL objects of dl_diff_app: one device, one context, and the
// programs, each built once per process (cases vary arguments, never sources).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <mutex>
#include <string>
#include <vector>

namespace dl_diff {

class Session {
 public:
  /// `kernel_dir` holds records.cl (dl-annotate output) and plain.cl. Throws
  /// std::runtime_error with the reason when there is no device or a build fails.
  explicit Session(const std::string& kernel_dir);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  cl_device_id device = nullptr;      // the first device: the family and binary programs'
  std::vector<cl_device_id> devices;  // every device of the platform, at most two
  cl_context context = nullptr;       // on all of them
  cl_program main = nullptr;          // records.cl
  cl_program plain = nullptr;         // plain.cl (no annotation)
  /// The build options of every program (DL adds its own to the programs it transforms;
  /// the application must still see these).
  static constexpr const char* kOptions = "-DDL_DIFF_APP=1";

  /// A second program from records.cl, built on first use: the program family queries
  /// and rebuilds it, so the other families' program stays as it was.
  cl_program family();

  /// The device of a queue description's index (modulo the number of devices).
  cl_device_id device_of(int index) const {
    return devices[static_cast<std::size_t>(index) % devices.size()];
  }

 private:
  cl_program build(const std::string& source, const char* what, bool all_devices);
  std::string records_;
  std::mutex mu_;
  cl_program family_ = nullptr;
};

}  // namespace dl_diff
