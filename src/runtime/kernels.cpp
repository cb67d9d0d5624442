// Kernels and their argument bindings (clSetKernelArg), the inputs of every launch.
#include <spdlog/spdlog.h>

#include <cstring>

#include "runtime.hpp"

namespace dl::rt {
namespace {

std::string kernel_name(cl_kernel k) {
  std::size_t n = 0;
  real().clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &n);
  std::string s(n, '\0');
  if (n) real().clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

void track(cl_kernel k, cl_program program, std::string name) {
  cl_uint nargs = 0;
  real().clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr);
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  KernelState ks;
  ks.name = std::move(name);
  ks.args.resize(nargs);
  auto it = rt.programs.find(program);
  if (it != rt.programs.end()) {
    ks.program = it->second;
    const auto& kernels = ks.program->ann.kernels;
    for (std::size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].kernel == ks.name) ks.annotation = static_cast<int>(i);
  }
  ks.stats = rt.stats_for(ks.name);
  rt.kernels.insert_or_assign(k, std::move(ks));
}

}  // namespace

namespace hook {

cl_kernel clCreateKernel(cl_program program, const char* kernel_name_, cl_int* errcode_ret) {
  cl_kernel k = real().clCreateKernel(program, kernel_name_, errcode_ret);
  if (k) guarded([&] { return track(k, program, kernel_name_), 0; }, 0);
  return k;
}

cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                cl_uint* num_kernels_ret) {
  cl_uint made = 0;
  cl_int st = real().clCreateKernelsInProgram(program, num_kernels, kernels, &made);
  if (num_kernels_ret) *num_kernels_ret = made;
  if (st == CL_SUCCESS && kernels)
    for (cl_uint i = 0; i < made; ++i)
      guarded([&] { return track(kernels[i], program, kernel_name(kernels[i])), 0; }, 0);
  return st;
}

cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  cl_kernel k = real().clCloneKernel(source_kernel, errcode_ret);
  if (!k) return k;
  return guarded(
      [&] {
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        auto it = rt.kernels.find(source_kernel);
        if (it != rt.kernels.end()) {
          KernelState copy = it->second;
          copy.fallback = nullptr;
          rt.kernels.insert_or_assign(k, std::move(copy));
        }
        return k;
      },
      k);
}

cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
  cl_int st = real().clSetKernelArg(kernel, arg_index, arg_size, arg_value);
  if (st != CL_SUCCESS) return st;
  return guarded(
      [&] {
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        auto it = rt.kernels.find(kernel);
        if (it == rt.kernels.end() || arg_index >= it->second.args.size()) return st;
        ArgValue& a = it->second.args[arg_index];
        a.set = true;
        a.size = arg_size;
        a.mem = nullptr;
        if (arg_value) {
          auto* p = static_cast<const unsigned char*>(arg_value);
          a.bytes.assign(p, p + arg_size);
          if (arg_size == sizeof(cl_mem)) {
            cl_mem m = nullptr;
            std::memcpy(&m, arg_value, sizeof m);
            if (rt.buffers.count(m)) a.mem = m;
          }
        } else {
          a.bytes.clear();
        }
        return st;
      },
      st);
}

cl_int clReleaseKernel(cl_kernel kernel) {
  Runtime& rt = Runtime::get();
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    auto it = rt.kernels.find(kernel);
    if (it != rt.kernels.end()) {
      cl_uint refs = 0;
      real().clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
      if (refs == 1) {
        if (it->second.fallback) real().clReleaseKernel(it->second.fallback);
        rt.kernels.erase(it);
      }
    }
  }
  return real().clReleaseKernel(kernel);
}

}  // namespace hook
}  // namespace dl::rt
