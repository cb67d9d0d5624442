// Programs. The application's program is built exactly as the application asks, so its
// binaries, options and logs are its own. For a program with transformable annotations
// DL builds a second program from the same sources, the *shadow*, with
// -DDL_ASTA_T=<T> (the rewritten path) and -cl-kernel-arg-info (to bind annotations to
// arguments as the compiler sees them). Shadows are built outside the runtime's lock.
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <chrono>
#include <thread>

#include "auto_rewrite.hpp"
#include "calibration.hpp"
#include "disk_cache.hpp"
#include "policy.hpp"
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
      if (b.marshaler.empty() && b.target.kind != LayoutKind::AoS) {
        // The application's own annotation, not dl-annotate's output: the kernel reads
        // AoS whatever DL_ASTA_T says, so converting its buffer would change its bytes.
        *why = fmt::format(
            "kernel {} argument {}: the //DL: line names no marshaling kernel, so the "
            "source is not dl-annotate's output (run dl-annotate on it, or dl-run --auto)",
            k.kernel, b.name);
        return false;
      } else if (ann.records.find(b.record) == ann.records.end() && !is_flat_scalar(b.record)) {
        *why = fmt::format("kernel {} argument {}: no '//DL: record {}' line (run dl-annotate)",
                           k.kernel, b.name, b.record.empty() ? "<name>" : b.record);
        return false;
      } else if (b.swap >= 0 && !is_flat_scalar(b.record)) {
        *why = fmt::format(
            "kernel {} argument {}: a swap of dimensions needs an array of scalars, not "
            "records of {}",
            k.kernel, b.name, b.record);
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

/// The shadow's options: the application's, the tile, argument info.
std::string shadow_options(const ProgramState& ps, const char* options) {
  std::string o = options ? options : "";
  return o + (o.empty() ? "" : " ") + "-DDL_ASTA_T=" + std::to_string(ps.tile) +
         " -cl-kernel-arg-info";
}

/// The program's devices (queried while the application's handle is surely alive).
void record_devices(ProgramState& ps, cl_program p, cl_uint n, const cl_device_id* list) {
  std::vector<cl_device_id> devices = program_devices(p, n, list);
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  ps.devices = std::move(devices);
}

/// The calibrations of the program's devices (DL_POLICY=auto; measured outside the lock
/// when not cached), and T (from the first device).
void prepare_devices(ProgramState& ps) {
  Runtime& rt = Runtime::get();
  std::vector<cl_device_id> devices;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    devices = ps.devices;
  }
  // The controller needs the calibration; DL_CALIBRATE asks for it under any policy.
  if (rt.controls.DL_POLICY == "auto" || rt.controls.DL_CALIBRATE)
    for (cl_device_id d : devices) {
      {
        std::lock_guard<std::mutex> lock(rt.mutex);
        if (rt.profiles.count(d)) continue;
      }
      auto profile = std::make_shared<const DeviceProfile>(device_profile(ps.context, d));
      std::lock_guard<std::mutex> lock(rt.mutex);
      rt.profiles.emplace(d, std::move(profile));
    }
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (!ps.tile) ps.tile = ps.devices.empty() ? 32 : rt.tile_for(ps.context, ps.devices[0]);
}

/// Why DL builds no shadow for `ps` on its devices: under DL_POLICY=auto, when the
/// calibration says converting never pays on any of them; under never, always.
std::string not_worth_building(const ProgramState& ps) {
  Runtime& rt = Runtime::get();
  if (rt.controls.DL_POLICY == "never") return "DL_POLICY=never";
  if (rt.controls.DL_POLICY != "auto") return {};
  std::lock_guard<std::mutex> lock(rt.mutex);
  std::string why;
  for (cl_device_id d : ps.devices) {
    auto p = rt.profile(d);
    if (p && p->may_pay) return {};
    why = !p || !p->valid ? "the device could not be calibrated"
                          : fmt::format(
                                "converting never pays on {} (calibration: probe kernel "
                                "{:.3f} ms on AoS, {:.3f} ms on ASTA)",
                                p->key, p->aos_probe_ns / 1e6, p->asta_probe_ns / 1e6);
  }
  return why;
}

/// Under DL_POLICY=auto, whether the program can be settled at its build from cached
/// calibrations alone: every device has one (read now, nothing measured) and, by
/// not_worth_building's rule, converting pays on none. Then there is no shadow and nothing
/// deferred, and its launches are neither measured nor counted.
bool never_pays_cached(const ProgramState& ps) {
  Runtime& rt = Runtime::get();
  if (rt.controls.DL_POLICY != "auto" || rt.controls.DL_CALIBRATE) return false;
  std::vector<cl_device_id> devices;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    devices = ps.devices;
  }
  if (devices.empty()) return false;
  for (cl_device_id d : devices) {
    {
      std::lock_guard<std::mutex> lock(rt.mutex);
      if (rt.profile(d)) continue;
    }
    // A profile that may pay is not kept here: a launch reads it again (or measures)
    // when it first needs it, so that the report lists only calibrations consulted.
    auto cached = std::make_shared<const DeviceProfile>(cached_profile(d));
    if (!cached->valid || cached->may_pay) return false;
    std::lock_guard<std::mutex> lock(rt.mutex);
    rt.profiles.emplace(d, std::move(cached));
  }
  return !not_worth_building(ps).empty();
}

/// Builds the marshaling programs of the program's records on its devices, so that no
/// launch compiles them under the runtime's lock.
void prepare_marshalers(const ProgramState& ps) {
  Runtime& rt = Runtime::get();
  std::vector<Marshaler*> ms;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    for (cl_device_id d : ps.devices)
      if (Marshaler* m = rt.marshaler(ps.context, d)) ms.push_back(m);
  }
  std::vector<Record> recs;
  for (const auto& [name, rec] : ps.ann.records) recs.push_back(rec);
  // Flat arrays whose S is an argument: one program serves every S of a scalar type.
  for (const auto& k : ps.ann.kernels)
    for (const auto& b : k.buffers)
      if (!ps.ann.records.count(b.record))
        if (auto r = flat_record(b.record, 2)) recs.push_back(*r);
  for (Marshaler* m : ms)
    for (const Record& rec : recs) {
      std::string err;
      if (m->prepare(rec, &err) != CL_SUCCESS)
        log().warn("record {}: marshaling kernels failed to build: {}", rec.name(), err);
    }
}

/// Replaces the shadow of `ps` and its 64-bit build (under the lock); releases the old ones.
void set_shadow(ProgramState& ps, cl_program shadow, std::string why, cl_program wide = nullptr) {
  Runtime& rt = Runtime::get();
  cl_program old = nullptr, old_wide = nullptr;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    old = ps.shadow;
    old_wide = ps.wide;
    ps.shadow = shadow;
    ps.wide = wide;
    ps.why = std::move(why);
  }
  if (old) real().clReleaseProgram(old);
  if (old_wide) real().clReleaseProgram(old_wide);
}

/// The inputs of a clCompileProgram the shadow repeats.
struct CompileInputs {
  cl_uint num_headers = 0;
  const cl_program* headers = nullptr;
  const char** header_names = nullptr;
};

/// One DL build of the source of `ps` on `devs` with `opts` (only compiled when `compile`
/// is given): the program, or null with `*why` the build log. DL_FAULT=`fault` forces the
/// failure: the same build, of the source and a line the compiler refuses, so that it
/// takes the way a real failure takes.
cl_program build_shadow(const ProgramState& ps, const std::vector<cl_device_id>& devs,
                        const std::string& opts, const char* fault, const CompileInputs* compile,
                        std::string* why) {
  const std::string refused = std::string("\n#error forced by DL_FAULT=") + fault + "\n";
  std::vector<const char*> sources{ps.sources.at(0).c_str()};
  if (Runtime::get().controls.fault(fault)) sources.push_back(refused.c_str());
  if (!compile && devs.size() == 1) {  // the common case: through the cache
    cl_program p = build_program(ps.context, devs[0], sources, opts, why);
    if (!p && why->empty()) *why = "the build failed";
    return p;
  }
  cl_int st = CL_SUCCESS;
  cl_program p = real().clCreateProgramWithSource(ps.context, static_cast<cl_uint>(sources.size()),
                                                  sources.data(), nullptr, &st);
  const auto ndev = static_cast<cl_uint>(devs.size());
  if (p && compile)
    st = real().clCompileProgram(p, ndev, devs.data(), opts.c_str(), compile->num_headers,
                                 compile->headers, compile->header_names, nullptr, nullptr);
  else if (p)
    st = real().clBuildProgram(p, ndev, devs.data(), opts.c_str(), nullptr, nullptr);
  if (st == CL_SUCCESS) return p;
  *why = p && !devs.empty() ? build_log(p, devs[0]) : std::to_string(st);
  if (p) real().clReleaseProgram(p);
  return nullptr;
}

/// Builds (or compiles, for clCompileProgram) the shadow of `ps` with the options and
/// devices the application's own call had, which succeeded; beside it, in a thread of its
/// own, the same with 64-bit offsets (docs/runtime.md, "Offset width"; compiled inputs,
/// and so linked programs, have none).
void build_now(ProgramState& ps, const CompileInputs* compile = nullptr) {
  Runtime& rt = Runtime::get();
  prepare_devices(ps);
  if (std::string why = not_worth_building(ps); !why.empty()) {
    log().info("program not transformed: {}", why);
    set_shadow(ps, nullptr, why);
    return;
  }
  std::vector<cl_device_id> devs;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    devs = ps.devices;
  }
  const std::string opts = shadow_options(ps, ps.options.c_str());
  cl_program wide = nullptr;
  std::string wide_why;
  const auto build_wide = [&] {
    wide = build_shadow(ps, devs, opts + " -DDL_OFFSET64", "offset64", nullptr, &wide_why);
  };
  const bool want_wide = !compile && rt.controls.DL_OFFSET_WIDTH != "32";
  std::thread wide_build;
  if (want_wide) {
    try {
      wide_build = std::thread(build_wide);
    } catch (...) {  // no thread: built after the 32-bit one
    }
  }
  std::string why;
  cl_program s = build_shadow(ps, devs, opts, "program", compile, &why);
  if (wide_build.joinable())
    wide_build.join();
  else if (want_wide && s)
    build_wide();
  if (!s) {
    if (wide) real().clReleaseProgram(wide);
    log().warn("program failed to build with -DDL_ASTA_T={} (runs untransformed): {}", ps.tile,
               why);
    set_shadow(ps, nullptr, "the program failed to build with -DDL_ASTA_T");
    return;
  }
  if (!wide_why.empty())
    log().warn("program failed to build with -DDL_OFFSET64 (its kernels keep 32-bit offsets): {}",
               wide_why);
  log().info("program built with -DDL_ASTA_T={}{}", ps.tile,
             wide ? ", with 32-bit and with 64-bit offsets" : "");
  set_shadow(ps, s, {}, wide);
  prepare_marshalers(ps);
}

/// DL_AUTO: the annotations of `ps` inferred for a build with `options` (its source has
/// no //DL: line): from dl-annotate --auto, run in a child process or cached. The
/// program stays untransformed on any failure.
void infer(ProgramState& ps, const char* options) {
  const AutoRewrite a = auto_rewrite(ps.auto_source, options ? options : "");
  AutoRecord rec;
  rec.cached = a.cached;
  rec.seconds = a.seconds;
  rec.report = a.report;
  SourceAnnotations ann;
  std::string why = a.why;
  if (a.ok) {
    ann = scan_annotations(a.source);
    for (const auto& k : ann.kernels) rec.kernels.push_back(k.kernel);
    if (ann.kernels.empty())
      why = "dl-annotate --auto inferred no annotation (its report says why, per argument)";
    else if (!transformable(ann, &why))
      why = "dl-annotate --auto: " + why;
  }
  rec.why = why;
  rec.ok = why.empty();
  const std::string how = a.cached ? fmt::format("cached, {:.1f} ms", a.seconds * 1e3)
                                   : fmt::format("dl-annotate ran {:.2f} s", a.seconds);
  if (!why.empty()) {
    (a.ok ? log().info("program not rewritten ({}): {}", how, why)
          : log().warn("program not rewritten by dl-annotate --auto ({}): {}; it runs "
                       "untransformed",
                       how, why));
  } else {
    std::string names;
    for (const auto& k : rec.kernels) names += (names.empty() ? "" : ", ") + k;
    log().info("program rewritten by dl-annotate --auto ({}): inferred annotations of {}", how,
               names);
  }
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  rt.auto_rewrites.push_back(std::move(rec));
  ps.annotated = why.empty();
  ps.why = why;
  ps.ann = why.empty() ? std::move(ann) : SourceAnnotations{};
  ps.sources.assign(1, why.empty() ? a.source : ps.auto_source);
}

}  // namespace

ProgramState::~ProgramState() {
  if (shadow) real().clReleaseProgram(shadow);
  if (wide) real().clReleaseProgram(wide);
}

void build_deferred(ProgramState& ps) {
  guarded(
      [&] {
        build_now(ps);
        return 0;
      },
      0);
  Runtime& rt = Runtime::get();
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    ps.deferred = false;
    ps.building = false;
  }
  rt.built.notify_all();
}

void wait_for_build(const ProgramState& ps) {
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  rt.built.wait(lock, [&] { return !ps.building; });
}

namespace {

/// Whether the shadow of `ps` is built in the background (DL_SHADOW_BUILD).
bool in_background(const ProgramState& ps) {
  const std::string& mode = Runtime::get().controls.DL_SHADOW_BUILD;
  if (mode != "auto") return mode == "background";
  for (cl_device_id d : ps.devices) {
    cl_device_type t = 0;
    if (real().clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, nullptr) != CL_SUCCESS ||
        (t & CL_DEVICE_TYPE_CPU))
      return false;
  }
  return !ps.devices.empty();
}

pid_t g_build_owner = 0;  // the process whose exit waits for the background builds

/// At exit, in the process that started them: background builds still running end first
/// (a build thread inside the driver while the driver tears down would crash the exit).
void await_background_builds() {
  if (::getpid() != g_build_owner) return;  // a forked child has no build threads
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  if (!rt.built.wait_for(lock, std::chrono::seconds(120),
                         [&] { return rt.background_builds == 0; }))
    log().warn("exit: {} background build(s) of DL still running after 120 s",
               rt.background_builds);
}

/// Starts the shadow build of `ps` in a thread of its own. Launches meanwhile run the
/// application's kernels (and are measured). The context stays retained until it ends.
void build_in_background(const std::shared_ptr<ProgramState>& ps) {
  Runtime& rt = Runtime::get();
  static std::once_flag once;
  std::call_once(once, [] {
    g_build_owner = ::getpid();
    std::atexit(await_background_builds);
  });
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    if (ps->building) return;
    ps->building = true;
    rt.background_builds++;
  }
  const cl_context context = ps->context;
  real().clRetainContext(context);
  // The last reference to the program's state may be the thread's (the application
  // released its program and kernels): it goes, and the shadow with it, before the count
  // of running builds drops, which the exit waits for.
  auto finish = [context] {
    Runtime& r = Runtime::get();
    real().clReleaseContext(context);
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      r.background_builds--;
    }
    r.built.notify_all();
  };
  try {
    std::thread([keep = ps, finish]() mutable {
      const auto start = std::chrono::steady_clock::now();
      build_deferred(*keep);
      log().info("DL build of a program ready after {:.1f} ms (in the background)",
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
      keep.reset();
      finish();
    }).detach();
  } catch (...) {  // no thread: the first launch that pays for it builds the shadow
    {
      std::lock_guard<std::mutex> lock(rt.mutex);
      ps->building = false;
    }
    rt.built.notify_all();
    finish();
  }
}

}  // namespace

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
        Runtime& rt = Runtime::get();
        const bool lines = text.find("//DL:") != std::string::npos;
        if (!lines && !rt.controls.DL_AUTO) return p;
        auto ps = std::make_shared<ProgramState>();
        ps->context = context;
        if (lines) ps->ann = scan_annotations(text);
        std::string why;
        ps->annotated = lines && transformable(ps->ann, &why);
        if (!ps->annotated && rt.controls.DL_AUTO) {
          // DL_AUTO: a program that is not dl-annotate output (no annotation, or the
          // user's own not yet rewritten) goes through dl-annotate --auto when built.
          ps->ann = {};
          ps->auto_source = text;
          ps->sources.push_back(std::move(text));
          std::lock_guard<std::mutex> lock(rt.mutex);
          rt.programs[p] = std::move(ps);
          return p;
        }
        ps->sources.push_back(std::move(text));
        report_diagnostics(ps->ann);
        if (!ps->annotated && !why.empty()) log().warn("{}: the program runs untransformed", why);
        std::lock_guard<std::mutex> lock(rt.mutex);
        rt.programs[p] = std::move(ps);
        return p;
      },
      p);
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                      const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                      void* user_data) {
  const auto start = std::chrono::steady_clock::now();
  cl_int st =
      real().clBuildProgram(program, num_devices, device_list, options, pfn_notify, user_data);
  if (st != CL_SUCCESS) return st;  // DL's state changes only when the real call succeeds
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  auto ps = find(program);
  if (!ps || (!ps->annotated && ps->auto_source.empty()) || ps->sources.empty()) return st;
  guarded(
      [&] {
        wait_for_build(*ps);  // a rebuild while DL builds the previous shadow
        if (!ps->auto_source.empty()) infer(*ps, options);
        if (!ps->annotated) return 0;
        record_devices(*ps, program, num_devices, device_list);
        Runtime& rt = Runtime::get();
        {
          std::lock_guard<std::mutex> lock(rt.mutex);
          ps->options = options ? options : "";
          ps->build_ns = ns;
          // Under the profitability controller the shadow is built when a launch first
          // wants it (launch.cpp), so that an application that never gains pays nothing
          // for it; or, with DL_SHADOW_BUILD=background (auto: on GPUs), in a thread of
          // its own from now on, off the application's path.
          ps->deferred = rt.controls.DL_POLICY == "auto";
        }
        // A device calibrated earlier as one where converting never pays: settled now.
        if (ps->deferred && never_pays_cached(*ps)) {
          std::lock_guard<std::mutex> lock(rt.mutex);
          ps->deferred = false;
        }
        // An earlier run's experience that a kernel converts from its first launch:
        // build now, with the application's build, so that the first launch finds it.
        if (!ps->deferred) {
          build_now(*ps);
        } else if (recalls_paying(*ps)) {
          {
            std::lock_guard<std::mutex> lock(rt.mutex);
            ps->building = true;
          }
          build_deferred(*ps);
        } else if (in_background(*ps)) {
          build_in_background(ps);
        }
        return 0;
      },
      0);
  return st;
}

cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_headers,
                        const cl_program* input_headers, const char** header_include_names,
                        void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
  cl_int st = real().clCompileProgram(program, num_devices, device_list, options, num_input_headers,
                                      input_headers, header_include_names, pfn_notify, user_data);
  if (st != CL_SUCCESS) return st;
  auto ps = find(program);
  if (ps && (ps->annotated || !ps->auto_source.empty()) && !ps->sources.empty())
    guarded(
        [&] {
          wait_for_build(*ps);
          if (!ps->auto_source.empty()) infer(*ps, options);
          if (!ps->annotated) return 0;
          record_devices(*ps, program, num_devices, device_list);
          {
            std::lock_guard<std::mutex> lock(Runtime::get().mutex);
            ps->options = options ? options : "";
          }
          // Compiled inputs are linked later: their shadows are compiled now.
          const CompileInputs inputs{num_input_headers, input_headers, header_include_names};
          build_now(*ps, &inputs);
          return 0;
        },
        0);
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
        // The shadow links the inputs' shadows, and the application's own compiled inputs
        // where DL knows nothing of an input (they are not transformed).
        auto ps = std::make_shared<ProgramState>();
        ps->context = context;
        std::vector<cl_program> inputs;
        bool any = false;
        for (cl_uint i = 0; i < num_input_programs; ++i) {
          auto in = find(input_programs[i]);
          if (!in || !in->annotated) {
            inputs.push_back(input_programs[i]);
            continue;
          }
          if (!in->shadow) return p;  // an annotated input without its shadow: untransformed
          any = true;
          inputs.push_back(in->shadow);
          ps->sources.insert(ps->sources.end(), in->sources.begin(), in->sources.end());
          for (const auto& k : in->ann.kernels) ps->ann.kernels.push_back(k);
          for (const auto& [name, r] : in->ann.records) ps->ann.records.emplace(name, r);
          ps->tile = in->tile;
        }
        if (!any) return p;
        ps->annotated = true;
        cl_int st = CL_SUCCESS;
        record_devices(*ps, p, num_devices, device_list);
        prepare_devices(*ps);
        // Argument info is a compile option; some implementations (PoCL) want it again at
        // the link to keep it, others may refuse it there.
        std::string opts = options ? options : "";
        opts += (opts.empty() ? "" : " ") + std::string("-cl-kernel-arg-info");
        auto link = [&](const char* o) {
          return real().clLinkProgram(context, num_devices, device_list, o,
                                      static_cast<cl_uint>(inputs.size()), inputs.data(), nullptr,
                                      nullptr, &st);
        };
        cl_program s = link(opts.c_str());
        if (!s && st == CL_INVALID_LINKER_OPTIONS) s = link(options);
        if (!s || st != CL_SUCCESS) {
          log().warn("the linked program's DL build failed ({}); it runs untransformed", st);
          if (s) real().clReleaseProgram(s);
          return p;
        }
        ps->shadow = s;
        prepare_marshalers(*ps);
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        rt.programs[p] = std::move(ps);
        return p;
      },
      p);
}

cl_int clRetainProgram(cl_program program) {
  cl_int st = real().clRetainProgram(program);
  if (st == CL_SUCCESS) {
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.mutex);
    if (auto it = rt.programs.find(program); it != rt.programs.end()) it->second->app_refs++;
  }
  return st;
}

cl_int clReleaseProgram(cl_program program) {
  std::shared_ptr<ProgramState> building;
  {
    // The application's last reference: forget the handle (it may be recycled); its
    // kernels keep the state (and the shadow) alive.
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.mutex);
    auto it = rt.programs.find(program);
    if (it != rt.programs.end() && --it->second->app_refs == 0) {
      if (it->second->building) building = it->second;
      rt.programs.erase(it);
    }
  }
  // A background build of the program still under way ends here, in the application's
  // thread, while the driver is whole: an application that releases its program and
  // exits would otherwise leave it running into the driver's teardown at exit (a crash
  // seen on the H100 when the build outlasted a short run).
  if (building) wait_for_build(*building);
  return real().clReleaseProgram(program);
}

}  // namespace hook
}  // namespace dl::rt
