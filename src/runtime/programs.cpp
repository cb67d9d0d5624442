// Programs: annotations from the sources, -DDL_ASTA_T=<T> added to the builds of
// programs DL will marshal for, and the untransformed fallback built on demand.
#include <spdlog/spdlog.h>

#include "programs.hpp"
#include "runtime.hpp"

namespace dl::rt {
namespace {

/// A program DL can transform: every annotated kernel's buffers name a known record
/// and the source has no annotation errors (a rewritten kernel with a broken
/// annotation must not be compiled with DL_ASTA_T: nothing would marshal for it).
bool transformable(const SourceAnnotations& ann, std::string* why) {
  if (ann.kernels.empty()) return false;
  if (ann.has_errors()) {
    *why = "the program has annotation errors";
    return false;
  }
  for (const auto& k : ann.kernels)
    for (const auto& b : k.buffers)
      if (ann.records.find(b.record) == ann.records.end()) {
        *why = fmt::format("kernel {} argument {}: no '//DL: record {}' line (run dl-annotate)",
                           k.kernel, b.name, b.record.empty() ? "<name>" : b.record);
        return false;
      }
  return true;
}

void report_diagnostics(const SourceAnnotations& ann) {
  for (const auto& d : ann.diagnostics) {
    if (d.error)
      log().warn("program source {}:{}: {} (the kernel runs untransformed)", d.line, d.column,
                 d.message);
    else
      log().info("program source {}:{}: {}", d.line, d.column, d.message);
  }
}

std::vector<cl_device_id> program_devices(cl_program p, cl_uint n, const cl_device_id* list) {
  if (n && list) return {list, list + n};
  cl_uint count = 0;
  real().clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, nullptr);
  std::vector<cl_device_id> d(count);
  if (count)
    real().clGetProgramInfo(p, CL_PROGRAM_DEVICES, count * sizeof(cl_device_id), d.data(), nullptr);
  return d;
}

std::shared_ptr<ProgramState> find(cl_program p) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto it = rt.programs.find(p);
  return it == rt.programs.end() ? nullptr : it->second;
}

/// Options with the tile define for `ps`, deciding T on first use.
std::string transformed_options(ProgramState& ps, const char* options) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (!ps.tile) ps.tile = ps.devices.empty() ? 32 : rt.tile_for(ps.context, ps.devices[0]);
  std::string o = options ? options : "";
  return o + (o.empty() ? "" : " ") + "-DDL_ASTA_T=" + std::to_string(ps.tile);
}

std::string build_log(cl_program p, cl_device_id d) {
  std::size_t n = 0;
  real().clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string s(n, '\0');
  if (n) real().clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == '\n')) s.pop_back();
  return s;
}

}  // namespace

ProgramState::~ProgramState() {
  if (fallback) real().clReleaseProgram(fallback);
}

cl_program build_fallback(ProgramState& ps, std::string* error) {
  if (ps.fallback || ps.fallback_failed) return ps.fallback;
  cl_int st = CL_SUCCESS;
  cl_program p = nullptr;
  const cl_device_id* devs = ps.devices.empty() ? nullptr : ps.devices.data();
  const auto ndev = static_cast<cl_uint>(ps.devices.size());
  if (!ps.linked) {
    const char* src = ps.sources.at(0).c_str();
    p = real().clCreateProgramWithSource(ps.context, 1, &src, nullptr, &st);
    if (p) st = real().clBuildProgram(p, ndev, devs, ps.options.c_str(), nullptr, nullptr);
  } else {
    std::vector<cl_program> inputs;
    for (std::size_t i = 0; i < ps.sources.size() && st == CL_SUCCESS; ++i) {
      const char* src = ps.sources[i].c_str();
      cl_program in = real().clCreateProgramWithSource(ps.context, 1, &src, nullptr, &st);
      if (!in) break;
      inputs.push_back(in);
      st = real().clCompileProgram(in, ndev, devs, ps.input_options.at(i).c_str(), 0, nullptr,
                                   nullptr, nullptr, nullptr);
    }
    if (st == CL_SUCCESS)
      p = real().clLinkProgram(ps.context, ndev, devs, ps.link_options.c_str(),
                               static_cast<cl_uint>(inputs.size()), inputs.data(), nullptr, nullptr,
                               &st);
    for (cl_program in : inputs) real().clReleaseProgram(in);
  }
  if (st != CL_SUCCESS || !p) {
    if (error) *error = fmt::format("the untransformed program failed to build ({})", st);
    if (p) real().clReleaseProgram(p);
    ps.fallback_failed = true;
    return nullptr;
  }
  ps.fallback = p;
  return p;
}

namespace hook {

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                     const size_t* lengths, cl_int* errcode_ret) {
  cl_program p = real().clCreateProgramWithSource(context, count, strings, lengths, errcode_ret);
  if (!p || !strings) return p;
  return guarded(
      [&] {
        std::string text;
        for (cl_uint i = 0; i < count; ++i) {
          if (!strings[i]) continue;
          if (lengths && lengths[i])
            text.append(strings[i], lengths[i]);
          else
            text.append(strings[i]);
        }
        if (text.find("//DL:") == std::string::npos) return p;
        auto ps = std::make_shared<ProgramState>();
        ps->context = context;
        ps->ann = scan_annotations(text);
        ps->sources.push_back(std::move(text));
        report_diagnostics(ps->ann);
        std::string why;
        ps->annotated = transformable(ps->ann, &why);
        if (!ps->annotated && !why.empty()) log().warn("{}: the program runs untransformed", why);
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        rt.programs[p] = std::move(ps);
        return p;
      },
      p);
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                      const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                      void* user_data) {
  auto ps = find(program);
  if (!ps || !ps->annotated)
    return real().clBuildProgram(program, num_devices, device_list, options, pfn_notify, user_data);
  ps->devices = program_devices(program, num_devices, device_list);
  ps->options = options ? options : "";
  const std::string opts = transformed_options(*ps, options);
  Runtime& rt = Runtime::get();
  cl_int st = CL_BUILD_PROGRAM_FAILURE;
  if (!rt.controls.fault("program"))
    st = real().clBuildProgram(program, num_devices, device_list, opts.c_str(), nullptr, nullptr);
  if (st == CL_SUCCESS) {
    ps->transformed = true;
    log().info("program built with -DDL_ASTA_T={}", ps->tile);
  } else {
    if (st == CL_BUILD_PROGRAM_FAILURE && !ps->devices.empty())
      log().warn("program failed to build with -DDL_ASTA_T={} (runs untransformed): {}", ps->tile,
                 rt.controls.fault("program") ? "forced by DL_FAULT=program"
                                              : build_log(program, ps->devices[0]));
    ps->transformed = false;
    st = real().clBuildProgram(program, num_devices, device_list, options, nullptr, nullptr);
  }
  if (pfn_notify) pfn_notify(program, user_data);
  return st;
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_headers,
                        const cl_program* input_headers, const char** header_include_names,
                        void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
  auto ps = find(program);
  if (!ps || !ps->annotated)
    return real().clCompileProgram(program, num_devices, device_list, options, num_input_headers,
                                   input_headers, header_include_names, pfn_notify, user_data);
  ps->devices = program_devices(program, num_devices, device_list);
  ps->options = options ? options : "";
  const std::string opts = transformed_options(*ps, options);
  Runtime& rt = Runtime::get();
  cl_int st = CL_COMPILE_PROGRAM_FAILURE;
  if (!rt.controls.fault("program"))
    st = real().clCompileProgram(program, num_devices, device_list, opts.c_str(), num_input_headers,
                                 input_headers, header_include_names, nullptr, nullptr);
  ps->transformed = st == CL_SUCCESS;
  if (st != CL_SUCCESS)
    st = real().clCompileProgram(program, num_devices, device_list, options, num_input_headers,
                                 input_headers, header_include_names, nullptr, nullptr);
  if (pfn_notify) pfn_notify(program, user_data);
  return st;
}

cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                         const char* options, cl_uint num_input_programs,
                         const cl_program* input_programs,
                         void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                         cl_int* errcode_ret) {
  cl_program p =
      real().clLinkProgram(context, num_devices, device_list, options, num_input_programs,
                           input_programs, pfn_notify, user_data, errcode_ret);
  if (!p || !input_programs) return p;
  return guarded(
      [&] {
        auto ps = std::make_shared<ProgramState>();
        ps->context = context;
        ps->linked = true;
        ps->link_options = options ? options : "";
        bool any_transformed = false, any_plain = false;
        for (cl_uint i = 0; i < num_input_programs; ++i) {
          auto in = find(input_programs[i]);
          if (!in) return p;  // an input DL knows nothing of (binary, IL): leave it alone
          ps->sources.push_back(in->sources.at(0));
          ps->input_options.push_back(in->options);
          for (const auto& k : in->ann.kernels) ps->ann.kernels.push_back(k);
          for (const auto& [name, r] : in->ann.records) ps->ann.records.emplace(name, r);
          if (in->annotated) (in->transformed ? any_transformed : any_plain) = true;
          if (in->transformed) ps->tile = in->tile;
        }
        ps->annotated = any_transformed;
        ps->transformed = any_transformed;
        ps->always_fallback = any_transformed && any_plain;
        ps->devices = program_devices(p, num_devices, device_list);
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        rt.programs[p] = std::move(ps);
        return p;
      },
      p);
}

cl_int clReleaseProgram(cl_program program) {
  Runtime& rt = Runtime::get();
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    auto it = rt.programs.find(program);
    if (it != rt.programs.end()) {
      cl_uint refs = 0;
      real().clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
      if (refs == 1) rt.programs.erase(it);  // kernels keep their own reference to the state
    }
  }
  return real().clReleaseProgram(program);
}

}  // namespace hook
}  // namespace dl::rt
