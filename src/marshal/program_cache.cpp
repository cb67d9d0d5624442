// Per-Marshaler caches: one program per unit type (all marshaling kernels in it, so a
// device compiles DL's kernels at most five times per context), kernels by name, and
// slot-table buffers by record.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "marshal_impl.hpp"

namespace dl {

Marshaler::Impl::~Impl() {
  for (auto& k : kernels) api->clReleaseKernel(k.second);
  for (auto& p : programs) api->clReleaseProgram(p.second);
  for (auto& t : tables) api->clReleaseMemObject(t.second.first);
  for (auto& s : seg_plans)
    if (s.second.table) api->clReleaseMemObject(s.second.table);
}

std::string Marshaler::Impl::program_options(unsigned unit) const {
  std::string options = "-DDL_UNIT_BYTES=" + std::to_string(unit) + " -DDL_SEG_K=" +
                        std::to_string(std::max<std::size_t>(1, opt.segment_batch));
  if (!opt.build_options.empty()) options += " " + opt.build_options;
  return options;
}

cl_int Marshaler::Impl::build(const std::string& options, cl_program* out, std::string* log) const {
  const std::vector<const char*> sources = {
      kernels::dl_index,       kernels::copy_map,   kernels::tile_local, kernels::tile_instance,
      kernels::tile_transpose, kernels::tail_shift, kernels::transpose3, kernels::tile_square,
      kernels::tile_oop,       kernels::diagonal,   kernels::gather};
  std::string text;
  cl_program prog = opt.build_program ? opt.build_program(ctx, dev, sources, options, &text)
                                      : build_from_source(sources, options, &text);
  if (!prog) {
    dl::logger().warn("marshaling kernels failed to build ({}): {}", options, text);
    if (log) *log = text;
    return CL_BUILD_PROGRAM_FAILURE;
  }
  dl::logger().debug("built marshaling kernels ({})", options);
  *out = prog;
  return CL_SUCCESS;
}

cl_program Marshaler::Impl::build_from_source(const std::vector<const char*>& sources,
                                              const std::string& options, std::string* log) const {
  cl_int err = CL_SUCCESS;
  cl_program prog =
      api->clCreateProgramWithSource(ctx, static_cast<cl_uint>(sources.size()),
                                     const_cast<const char**>(sources.data()), nullptr, &err);
  if (err != CL_SUCCESS) {
    *log = "clCreateProgramWithSource failed (" + std::to_string(err) + ")";
    return nullptr;
  }
  if (api->clBuildProgram(prog, 1, &dev, options.c_str(), nullptr, nullptr) == CL_SUCCESS)
    return prog;
  std::size_t len = 0;
  api->clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
  log->assign(len, '\0');
  api->clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log->data(), nullptr);
  api->clReleaseProgram(prog);
  return nullptr;
}

cl_int Marshaler::Impl::program(unsigned unit, cl_program* out, std::string* log) {
  const std::string options = program_options(unit);
  if (auto it = programs.find(options); it != programs.end()) return *out = it->second, CL_SUCCESS;
  if (auto it = failed.find(options); it != failed.end()) {
    if (log) *log = it->second;
    return CL_BUILD_PROGRAM_FAILURE;
  }
  std::string text;
  cl_int err = build(options, out, &text);
  if (err == CL_SUCCESS)
    programs.emplace(options, *out);
  else
    failed.emplace(options, text);
  if (log) *log = text;
  return err;
}

cl_int Marshaler::Impl::kernel(unsigned unit, const std::string& name, cl_kernel* out,
                               std::string* log) {
  const std::string key = std::to_string(unit) + ":" + name;
  if (auto it = kernels.find(key); it != kernels.end()) return *out = it->second, CL_SUCCESS;
  cl_program prog = nullptr;
  cl_int err = program(unit, &prog, log);
  if (err != CL_SUCCESS) return err;
  cl_kernel k = api->clCreateKernel(prog, name.c_str(), &err);
  if (err != CL_SUCCESS) return err;
  kernels.emplace(key, k);
  *out = k;
  return CL_SUCCESS;
}

std::size_t Marshaler::Impl::work_group(cl_kernel k) const {
  std::size_t wg = opt.work_group_size ? opt.work_group_size : 256;
  wg = std::min(wg, lim.max_work_group_size);
  std::size_t kmax = 0;
  if (k &&
      api->clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kmax), &kmax,
                                    nullptr) == CL_SUCCESS &&
      kmax > 0)
    wg = std::min(wg, kmax);
  std::size_t p = 1;
  while (p * 2 <= wg) p *= 2;
  return p;
}

cl_int Marshaler::Impl::slot_table_buffer(const Record& rec, unsigned unit, cl_mem* out,
                                          bool* uniform) {
  const std::string key = std::to_string(unit) + ":" + rec.describe();
  std::vector<std::uint32_t> t = detail::slot_table(rec, unit, uniform);
  if (auto it = tables.find(key); it != tables.end()) return *out = it->second.first, CL_SUCCESS;
  cl_int err = CL_SUCCESS;
  cl_mem mem = api->clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                   t.size() * sizeof(std::uint32_t), t.data(), &err);
  if (err != CL_SUCCESS) return err;
  tables.emplace(key, std::make_pair(mem, t.size() * sizeof(std::uint32_t)));
  *out = mem;
  return CL_SUCCESS;
}

}  // namespace dl
