#include "session.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace dl_diff {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the kernel file " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

Session::Session(const std::string& kernel_dir) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0)
    throw std::runtime_error("no OpenCL platform");
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  // The first platform with a device; every device of it, at most two (PoCL shows two CPU
  // devices with POCL_DEVICES="pthread pthread"): the queues and threads families put
  // queues on both.
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    devices.resize(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
    if (devices.size() > 2) devices.resize(2);
    break;
  }
  if (devices.empty()) throw std::runtime_error("no OpenCL device");
  device = devices[0];
  cl_int err = CL_SUCCESS;
  context = clCreateContext(nullptr, static_cast<cl_uint>(devices.size()), devices.data(), nullptr,
                            nullptr, &err);
  if (!context) throw std::runtime_error("clCreateContext failed: " + std::to_string(err));
  records_ = slurp(kernel_dir + "/records.cl");
  main = build(records_, "records.cl", true);
  plain = build(slurp(kernel_dir + "/plain.cl"), "plain.cl", true);
}

Session::~Session() {
  if (family_) clReleaseProgram(family_);
  if (plain) clReleaseProgram(plain);
  if (main) clReleaseProgram(main);
  if (context) clReleaseContext(context);
}

cl_program Session::build(const std::string& source, const char* what, bool all_devices) {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  if (!p)
    throw std::runtime_error(std::string("clCreateProgramWithSource ") + what + ": " +
                             std::to_string(err));
  err = all_devices ? clBuildProgram(p, static_cast<cl_uint>(devices.size()), devices.data(),
                                     kOptions, nullptr, nullptr)
                    : clBuildProgram(p, 1, &device, kOptions, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t n = 0;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    clReleaseProgram(p);
    throw std::runtime_error(std::string(what) + " failed to build (" + std::to_string(err) +
                             "):\n" + log);
  }
  return p;
}

cl_program Session::family() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!family_) family_ = build(records_, "records.cl (family program)", false);
  return family_;
}

}  // namespace dl_diff
