// Kernels and their argument bindings (clSetKernelArg), the inputs of every launch.
//
// For a kernel of a program with a shadow build, DL creates the same kernel from the
// shadow and binds each annotated buffer to an argument by the compiler's view of the
// kernel (argument info: name, address space, type), never by the source text. Any
// mismatch leaves the kernel untransformed, with a warning. Every argument the
// application sets is set on both kernels.
#include <spdlog/spdlog.h>

#include <cstring>

#include "runtime.hpp"

namespace dl::rt {
namespace {

std::string kernel_name(cl_kernel k) {
  return info_string([&](std::size_t size, void* value, std::size_t* ret) {
    return real().clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, value, ret);
  });
}

std::string arg_string(cl_kernel k, cl_uint i, cl_kernel_arg_info what) {
  return info_string([&](std::size_t size, void* value, std::size_t* ret) {
    return real().clGetKernelArgInfo(k, i, what, size, value, ret);
  });
}

/// Whether a kernel parameter of type `type*` can hold records `rec`: a pointer to the
/// scalar of a flat record (one array field of scalars), or to a struct.
bool holds(const std::string& type, const Record& rec) {
  Scalar s;
  if (!parse_scalar(type, s)) return type != "void";
  const auto& f = rec.fields();
  return f.size() == 1 && f[0].vector_width == 1 && f[0].type == s;
}

bool integer(const std::string& type) {
  Scalar s;
  return parse_scalar(type, s) && s != Scalar::Half && s != Scalar::Float && s != Scalar::Double;
}

/// Releases the map kernels of `ks`.
void release_maps(KernelState& ks) {
  bool any = false;
  for (cl_kernel& k : ks.map_kernels)
    if (k) real().clReleaseKernel(k), k = nullptr, any = true;
  if (any && ks.program) Runtime::get().maps_gone(ks.program->shadow);
}

/// Binds the annotation of `ks` to the arguments of its shadow kernel. Empty on success,
/// else why the kernel stays untransformed.
std::string bind(KernelState& ks, cl_uint nargs) {
  const KernelAnnotation& ka = ks.ann();
  cl_uint shadow_args = 0;
  real().clGetKernelInfo(ks.shadow, CL_KERNEL_NUM_ARGS, sizeof shadow_args, &shadow_args, nullptr);
  // The shadow has the application's arguments, then one `ulong dl_whole_<b>` for each
  // buffer annotated [*] that the rewritten kernel addresses (docs/annotation.md).
  if (shadow_args < nargs)
    return fmt::format("its DL build has {} arguments, the application's {}", shadow_args, nargs);
  ks.arg_names.resize(nargs);
  for (cl_uint i = 0; i < nargs; ++i) {
    ks.arg_names[i] = arg_string(ks.shadow, i, CL_KERNEL_ARG_NAME);
    if (ks.arg_names[i].empty())
      return "the implementation gives no argument names (CL_KERNEL_ARG_NAME)";
  }
  ks.whole_args.assign(ka.buffers.size(), -1);
  ks.whole_set.assign(ka.buffers.size(), 0);
  ks.whole_group = whole_groups(ka, ks.program->ann.records);
  ks.gather_args.assign(ka.gathers.size(), -1);
  ks.map_count_args.assign(ka.gathers.size(), -1);
  for (cl_uint i = nargs; i < shadow_args; ++i) {
    const std::string name = arg_string(ks.shadow, i, CL_KERNEL_ARG_NAME);
    // Then one `__global const T* dl_gather_<x>` per gather: clause, `__global const T*
    // dl_map_<x>, ulong dl_mapn_<x>` per map: clause (dl::map_copy_param, map_count_param).
    bool gather = false;
    for (std::size_t g = 0; g < ka.gathers.size(); ++g) {
      const GatherAnnotation& ga = ka.gathers[g];
      if (name == (ga.map ? map_copy_param(ga.name) : "dl_gather_" + ga.name) &&
          ks.gather_args[g] < 0) {
        ks.gather_args[g] = static_cast<int>(i);
        gather = true;
      } else if (ga.map && name == map_count_param(ga.name) && ks.map_count_args[g] < 0 &&
                 arg_string(ks.shadow, i, CL_KERNEL_ARG_TYPE_NAME) == "ulong") {
        ks.map_count_args[g] = static_cast<int>(i);
        gather = true;
      }
    }
    if (gather) continue;
    int which = -1;
    for (std::size_t b = 0; b < ka.buffers.size(); ++b)
      if (ks.whole_group[b] == static_cast<int>(b) && name == "dl_whole_" + ka.buffers[b].name &&
          ks.whole_args[b] < 0)
        which = static_cast<int>(b);
    if (which < 0 || arg_string(ks.shadow, i, CL_KERNEL_ARG_TYPE_NAME) != "ulong")
      return fmt::format(
          "its DL build has {} arguments, the application's {} (argument {} is "
          "'{}', not a record count dl_whole_<buffer> of type ulong)",
          shadow_args, nargs, i, name);
    ks.whole_args[static_cast<std::size_t>(which)] = static_cast<int>(i);
  }
  for (std::size_t b = 0; b < ka.buffers.size(); ++b) {
    const int g = ks.whole_group[b];
    if (g >= 0) ks.whole_args[b] = ks.whole_args[static_cast<std::size_t>(g)];
    if (ka.buffers[b].whole() && ka.buffers[b].target.kind != LayoutKind::AoS &&
        ks.whole_args[b] < 0)
      return fmt::format("'{}' is annotated [*] but its DL build has no argument dl_whole_{}",
                         ka.buffers[b].name, ka.buffers[static_cast<std::size_t>(g)].name);
  }
  auto index = [&](const std::string& name) {
    for (cl_uint i = 0; i < nargs; ++i)
      if (ks.arg_names[i] == name) return static_cast<int>(i);
    return -1;
  };
  ks.gather_params.clear();
  ks.map_params.assign(ka.gathers.size(), {});
  release_maps(ks);
  ks.map_kernels.assign(ka.gathers.size(), nullptr);
  for (std::size_t g = 0; g < ka.gathers.size(); ++g) {
    const GatherAnnotation& ga = ka.gathers[g];
    if (ks.gather_args[g] < 0)
      return fmt::format("'{}' is gathered but its DL build has no argument {}", ga.name,
                         ga.map ? map_copy_param(ga.name) : "dl_gather_" + ga.name);
    if (ga.map && ks.map_count_args[g] < 0)
      return fmt::format("'{}' is mapped but its DL build has no argument ulong {}", ga.name,
                         map_count_param(ga.name));
    if (!ga.elem_size() || (!ga.map && !ga.index_kind().first))
      return fmt::format(
          "{} has no element types (an annotation dl-annotate did "
          "not complete)",
          describe_gather(ga));
    const int x = index(ga.name), c = ga.map ? -1 : index(ga.index);
    if (x < 0 || (!ga.map && c < 0))
      return fmt::format("{} names '{}', not a parameter of the kernel", describe_gather(ga),
                         x < 0 ? ga.name : ga.index);
    if (ga.map) {
      for (const std::string& a : ga.args) {
        const int i = index(a);
        if (i < 0)
          return fmt::format("{} reads '{}', not a parameter of the kernel", describe_gather(ga),
                             a);
        ks.map_params[g].push_back(i);
      }
      const std::string mk = map_kernel_name(ks.name, ga.name);
      cl_int err = CL_SUCCESS;
      ks.map_kernels[g] = real().clCreateKernel(ks.program->shadow, mk.c_str(), &err);
      if (!ks.map_kernels[g])
        return fmt::format("{}: no map kernel {} in its DL build ({})", describe_gather(ga), mk,
                           err);
    }
    // The element types the annotation gives must be the compiler's (argument info).
    std::vector<std::pair<int, std::string>> typed = {{x, ga.type}};
    if (!ga.map) typed.emplace_back(c, ga.index_type);
    for (const auto& [i, want] : typed) {
      std::string type = arg_string(ks.shadow, static_cast<cl_uint>(i), CL_KERNEL_ARG_TYPE_NAME);
      while (!type.empty() && (type.back() == '*' || type.back() == ' ')) type.pop_back();
      if (type != want)
        return fmt::format("the {} {} says '{}' holds {}, the kernel's argument is '{}*'",
                           ga.map ? "map" : "gather", format_gather(ga),
                           ks.arg_names[static_cast<std::size_t>(i)], want, type);
    }
    ks.gather_params.emplace_back(x, c);
  }
  ks.buffer_args.clear();
  for (const auto& b : ka.buffers) {
    const int i = index(b.name);
    if (i < 0)
      return fmt::format("annotated argument '{}' is not a parameter of the kernel", b.name);
    const auto ui = static_cast<cl_uint>(i);
    cl_kernel_arg_address_qualifier as = 0;
    real().clGetKernelArgInfo(ks.shadow, ui, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof as, &as,
                              nullptr);
    if (as != CL_KERNEL_ARG_ADDRESS_GLOBAL && as != CL_KERNEL_ARG_ADDRESS_CONSTANT)
      return fmt::format("argument {} ('{}') is not a __global or __constant pointer", i, b.name);
    std::string type = arg_string(ks.shadow, ui, CL_KERNEL_ARG_TYPE_NAME);
    if (type.empty() || type.back() != '*')
      return fmt::format("argument {} ('{}') has type '{}', not a pointer", i, b.name, type);
    type.pop_back();
    while (!type.empty() && type.back() == ' ') type.pop_back();
    const auto known = ks.program->ann.records.find(b.record);
    const Record rec = known != ks.program->ann.records.end()
                           ? known->second
                           : flat_record(b.record, 1).value();  // S at each launch
    if (!holds(type, rec))
      return fmt::format("argument {} ('{}') has type '{}*', which does not hold record {}", i,
                         b.name, type, rec.name());
    ks.buffer_args.push_back(i);
  }
  for (const auto& b : ka.buffers)
    for (const auto& d : b.dims) {
      for (const auto& f : d.fields())
        if (!f.arg.empty() && index(f.arg) < 0)
          return fmt::format("dimension '{}' of '{}' names '{}', not a parameter of the kernel",
                             d.text(), b.name, f.arg);
      for (const auto& name : d.names()) {
        const int i = index(name);
        if (i < 0)
          return fmt::format("dimension '{}' of '{}' names '{}', not a parameter of the kernel",
                             d.text(), b.name, name);
        const std::string type =
            arg_string(ks.shadow, static_cast<cl_uint>(i), CL_KERNEL_ARG_TYPE_NAME);
        if (!integer(type))
          return fmt::format("dimension '{}' of '{}' names '{}', of type '{}', not an integer",
                             d.text(), b.name, name, type);
      }
    }
  return {};
}

/// Releases DL's kernels of `ks` (its builds and map kernels).
void release_builds(KernelState& ks) {
  if (ks.shadow) real().clReleaseKernel(ks.shadow);
  if (ks.wide) real().clReleaseKernel(ks.wide);
  ks.shadow = ks.wide = nullptr;
  release_maps(ks);
}

void track(cl_kernel k, cl_program program, std::string name) {
  cl_uint nargs = 0;
  real().clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr);
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  KernelState ks;
  ks.name = std::move(name);
  ks.args.resize(nargs);
  ks.stats = rt.stats_for(ks.name);
  auto it = rt.programs.find(program);
  if (it != rt.programs.end()) {
    ks.program = it->second;
    const auto& kernels = ks.program->ann.kernels;
    for (std::size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].kernel == ks.name) ks.annotation = static_cast<int>(i);
    if (ks.annotation >= 0 && !ks.program->shadow && !ks.program->why.empty())
      ks.stats->policy = ks.program->why;  // why it runs untransformed
    attach_shadow(ks);
  }
  auto old = rt.kernels.find(k);
  if (old != rt.kernels.end()) release_builds(old->second);
  rt.kernels.insert_or_assign(k, std::move(ks));
}

}  // namespace

namespace {

/// Sets the arguments the application gave `ks` so far on `k`, DL's build of it. Empty on
/// success, else why not.
std::string replay_args(const KernelState& ks, cl_kernel k) {
  for (std::size_t i = 0; i < ks.args.size(); ++i) {
    const ArgValue& a = ks.args[i];
    if (!a.set) continue;
    cl_int s = real().clSetKernelArg(k, static_cast<cl_uint>(i), a.size,
                                     a.bytes.empty() ? nullptr : a.bytes.data());
    if (s != CL_SUCCESS) return fmt::format("its DL build refused argument {} ({})", i, s);
  }
  return {};
}

void drop_wide(KernelState& ks, const std::string& why) {
  log().warn("kernel {}: {}; it keeps 32-bit offsets", ks.name, why);
  ks.stats->offsets = "32-bit offsets: " + why;
  real().clReleaseKernel(ks.wide);
  ks.wide = nullptr;
}

}  // namespace

cl_int KernelState::set_builds_arg(cl_uint at, std::size_t size, const void* value) const {
  cl_int st = real().clSetKernelArg(shadow, at, size, value);
  if (st == CL_SUCCESS && wide) st = real().clSetKernelArg(wide, at, size, value);
  return st;
}

bool attach_shadow(KernelState& ks) {
  if (ks.shadow || ks.shadow_failed || !ks.program || !ks.program->shadow || ks.annotation < 0)
    return ks.shadow != nullptr;
  cl_int err = CL_SUCCESS;
  ks.shadow = real().clCreateKernel(ks.program->shadow, ks.name.c_str(), &err);
  std::string why = ks.shadow ? bind(ks, static_cast<cl_uint>(ks.args.size()))
                              : fmt::format("no kernel {} in its DL build ({})", ks.name, err);
  // A kernel created before the shadow existed: its arguments so far go on the shadow too.
  if (why.empty()) why = replay_args(ks, ks.shadow);
  if (!why.empty()) {
    log().warn("kernel {}: {}; it runs untransformed", ks.name, why);
    ks.stats->fallback_reasons.insert(why);
    if (ks.shadow) real().clReleaseKernel(ks.shadow);
    ks.shadow = nullptr;
    ks.shadow_failed = true;
    release_maps(ks);
    return false;
  }
  if (ks.program->wide) {
    ks.wide = real().clCreateKernel(ks.program->wide, ks.name.c_str(), &err);
    if (!ks.wide) {
      ks.stats->offsets =
          fmt::format("32-bit offsets: no kernel {} in the 64-bit build ({})", ks.name, err);
    } else if (std::string w = replay_args(ks, ks.wide); !w.empty()) {
      drop_wide(ks, "the 64-bit build: " + w);
    }
  }
  return true;
}

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
  if (num_kernels_ret && st == CL_SUCCESS) *num_kernels_ret = made;
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
          copy.app_refs = 1;
          if (copy.shadow) {
            cl_int err = CL_SUCCESS;
            copy.shadow = real().clCloneKernel(it->second.shadow, &err);
            if (!copy.shadow)
              log().warn("kernel {}: clone of its DL build failed ({})", copy.name, err);
          }
          // (A 64-bit build that does not clone: the copy keeps 32-bit offsets.)
          if (copy.wide)
            copy.wide = copy.shadow ? real().clCloneKernel(it->second.wide, nullptr) : nullptr;
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
        KernelState& ks = it->second;
        if (ks.shadow) {
          cl_int s = real().clSetKernelArg(ks.shadow, arg_index, arg_size, arg_value);
          if (s != CL_SUCCESS) {
            const std::string why =
                fmt::format("its DL build refused argument {} ({})", arg_index, s);
            log().warn("kernel {}: {}; it runs untransformed", ks.name, why);
            ks.stats->fallback_reasons.insert(why);
            real().clReleaseKernel(ks.shadow);
            ks.shadow = nullptr;
            ks.shadow_failed = true;
          }
        }
        if (ks.wide && !ks.shadow) {  // untransformed for good
          real().clReleaseKernel(ks.wide);
          ks.wide = nullptr;
        } else if (ks.wide) {
          cl_int s = real().clSetKernelArg(ks.wide, arg_index, arg_size, arg_value);
          if (s != CL_SUCCESS)
            drop_wide(ks, fmt::format("the 64-bit build refused argument {} ({})", arg_index, s));
        }
        ArgValue& a = ks.args[arg_index];
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

cl_int clRetainKernel(cl_kernel kernel) {
  cl_int st = real().clRetainKernel(kernel);
  if (st == CL_SUCCESS) {
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.mutex);
    if (auto it = rt.kernels.find(kernel); it != rt.kernels.end()) it->second.app_refs++;
  }
  return st;
}

cl_int clReleaseKernel(cl_kernel kernel) {
  {
    // The application's last reference: DL's state (and the shadow kernel) goes; the
    // handle may be recycled.
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.mutex);
    auto it = rt.kernels.find(kernel);
    if (it != rt.kernels.end() && --it->second.app_refs == 0) {
      release_builds(it->second);
      rt.kernels.erase(it);
    }
  }
  return real().clReleaseKernel(kernel);
}

}  // namespace hook
}  // namespace dl::rt
