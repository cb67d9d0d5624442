// A fake OpenCL driver (ICD) for the stub tier of the tests: every entry point of
// cl_icd_dispatch (generated from src/clapi/entry_points.def) records its call with its
// arguments, return value and out-parameters (stub_record.hpp), answers the queries the
// ICD loader and DL make, and keeps the reference counts of its objects. The test
// application (stub_app.cpp) drives it through the loader, natively and under
// libdl_interpose.so, and reads the record through dl_stub_control().
#include <cstring>

#include "stub_driver.hpp"

namespace dlstub {
namespace {

// ---- semantics: what the loader, DL and the test's set-up rely on ----------------

template <Id id>
struct Sem {};
template <Id id, class = void>
struct has_sem : std::false_type {};
template <Id id>
struct has_sem<id, std::void_t<decltype(&Sem<id>::run)>> : std::true_type {};

cl_int answer(Call& c, size_t size, void* value, size_t* size_ret, const void* data, size_t n) {
  if (value) {
    if (size < n) return CL_INVALID_VALUE;
    std::memcpy(value, data, n);
  }
  if (size_ret) *size_ret = n, c.wrote(size_ret);
  return CL_SUCCESS;
}
template <class T>
cl_int answer(Call& c, size_t size, void* value, size_t* size_ret, T v) {
  return answer(c, size, value, size_ret, &v, sizeof v);
}
cl_int answer(Call& c, size_t size, void* value, size_t* size_ret, const char* s) {
  return answer(c, size, value, size_ret, s, std::strlen(s) + 1);
}
cl_uint refs(const Object* o) {
  return o ? static_cast<cl_uint>(o->refs) : 0;
}

// A query answers the names it knows (whatever set_failing says); others are generic.
#define DL_QUERY(name, Handle, Info)                                                           \
  template <>                                                                                  \
  struct Sem<id_##name> {                                                                      \
    static cl_int known(Call& c, Object* o, Info n, size_t size, void* v, size_t* r, bool& k); \
    static cl_int run(Call& c, Handle h, Info n, size_t size, void* v, size_t* r) {            \
      bool k = true;                                                                           \
      cl_int st = known(c, obj(h), n, size, v, r, k);                                          \
      return k ? st : generic<cl_int>(c, h, n, size, v, r);                                    \
    }                                                                                          \
  };                                                                                           \
  cl_int Sem<id_##name>::known(Call& c, Object* o, Info n, size_t size, void* v, size_t* r, bool& k)

DL_QUERY(clGetPlatformInfo, cl_platform_id, cl_platform_info) {
  (void)o;
  switch (n) {
    case CL_PLATFORM_PROFILE:
      return answer(c, size, v, r, "FULL_PROFILE");
    case CL_PLATFORM_VERSION:
      return answer(c, size, v, r, "OpenCL 3.0 DL stub");
    case CL_PLATFORM_NAME:
      return answer(c, size, v, r, "DL stub driver");
    case CL_PLATFORM_VENDOR:
      return answer(c, size, v, r, "DL tests");
    case CL_PLATFORM_EXTENSIONS:
      return answer(c, size, v, r, "cl_khr_icd");
    case CL_PLATFORM_ICD_SUFFIX_KHR:
      return answer(c, size, v, r, kSuffix);
  }
  k = false;
  return 0;
}

DL_QUERY(clGetDeviceInfo, cl_device_id, cl_device_info) {
  switch (n) {
    case CL_DEVICE_TYPE:
      return answer(c, size, v, r, cl_device_type(CL_DEVICE_TYPE_CPU));
    case CL_DEVICE_PLATFORM:
      return answer(c, size, v, r, cl_platform_id(state().platform));
    case CL_DEVICE_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_DEVICE_NAME:
      return answer(c, size, v, r, "DL stub device");
    case CL_DEVICE_VERSION:
      return answer(c, size, v, r, "OpenCL 3.0 DL stub");
  }
  k = false;
  return 0;
}

DL_QUERY(clGetContextInfo, cl_context, cl_context_info) {
  switch (n) {
    case CL_CONTEXT_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_CONTEXT_NUM_DEVICES:
      return answer(c, size, v, r, cl_uint(1));
    case CL_CONTEXT_DEVICES:
      return answer(c, size, v, r, cl_device_id(state().device));
  }
  k = false;
  return 0;
}

DL_QUERY(clGetCommandQueueInfo, cl_command_queue, cl_command_queue_info) {
  switch (n) {
    case CL_QUEUE_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_QUEUE_CONTEXT:
      return answer(c, size, v, r, static_cast<cl_context>(o ? o->context : nullptr));
    case CL_QUEUE_DEVICE:
      return answer(c, size, v, r, static_cast<cl_device_id>(o ? o->device : nullptr));
    case CL_QUEUE_PROPERTIES:
      return answer(c, size, v, r, cl_command_queue_properties(0));
  }
  k = false;
  return 0;
}

DL_QUERY(clGetMemObjectInfo, cl_mem, cl_mem_info) {
  switch (n) {
    case CL_MEM_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_MEM_CONTEXT:
      return answer(c, size, v, r, static_cast<cl_context>(o ? o->context : nullptr));
  }
  k = false;
  return 0;
}

DL_QUERY(clGetProgramInfo, cl_program, cl_program_info) {
  switch (n) {
    case CL_PROGRAM_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_PROGRAM_CONTEXT:
      return answer(c, size, v, r, static_cast<cl_context>(o ? o->context : nullptr));
    case CL_PROGRAM_NUM_DEVICES:
      return answer(c, size, v, r, cl_uint(1));
    case CL_PROGRAM_DEVICES:
      return answer(c, size, v, r, cl_device_id(state().device));
  }
  k = false;
  return 0;
}

DL_QUERY(clGetKernelInfo, cl_kernel, cl_kernel_info) {
  switch (n) {
    case CL_KERNEL_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_KERNEL_FUNCTION_NAME:
      return answer(c, size, v, r, "stub_kernel");
    case CL_KERNEL_NUM_ARGS:
      return answer(c, size, v, r, cl_uint(3));
    case CL_KERNEL_CONTEXT:
      return answer(c, size, v, r, static_cast<cl_context>(o ? o->context : nullptr));
    case CL_KERNEL_PROGRAM:
      return answer(c, size, v, r, static_cast<cl_program>(o ? o->program : nullptr));
  }
  k = false;
  return 0;
}

DL_QUERY(clGetEventInfo, cl_event, cl_event_info) {
  switch (n) {
    case CL_EVENT_REFERENCE_COUNT:
      return answer(c, size, v, r, refs(o));
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
      return answer(c, size, v, r, cl_int(CL_COMPLETE));
    case CL_EVENT_CONTEXT:
      return answer(c, size, v, r, static_cast<cl_context>(o ? o->context : nullptr));
    case CL_EVENT_COMMAND_QUEUE:
      return answer(c, size, v, r, static_cast<cl_command_queue>(o ? o->queue : nullptr));
  }
  k = false;
  return 0;
}

DL_QUERY(clGetSamplerInfo, cl_sampler, cl_sampler_info) {
  if (n == CL_SAMPLER_REFERENCE_COUNT) return answer(c, size, v, r, refs(o));
  k = false;
  return 0;
}

// Reference counts. Releasing to zero runs the object's destructor callbacks, last
// registered first.
template <class H>
cl_int retain(Call& c, H h) {
  if (state().failing) return failed<cl_int>(c);
  Object* o = obj(h);
  if (!o || o->dead) return failure_code(c.id);  // check_args has recorded the error
  if (!o->root) o->refs++;
  return CL_SUCCESS;
}

template <class H>
cl_int release(Call& c, H h) {
  if (state().failing) return failed<cl_int>(c);
  Object* o = obj(h);
  if (!o || o->dead) return failure_code(c.id);
  if (o->root || --o->refs > 0) return CL_SUCCESS;
  o->dead = true;
  auto it = state().destructors.find(o);
  if (it != state().destructors.end()) {
    for (auto cb = it->second.rbegin(); cb != it->second.rend(); ++cb) {
      auto [fn, data] = *cb;
      c.after.push_back([h, fn = fn, data = data] {
        reinterpret_cast<void(CL_CALLBACK*)(H, void*)>(fn)(h, data);
      });
    }
    state().destructors.erase(it);
  }
  return CL_SUCCESS;
}

#define DL_REFS(Name, Handle)                                      \
  template <>                                                      \
  struct Sem<id_clRetain##Name> {                                  \
    static cl_int run(Call& c, Handle h) { return retain(c, h); }  \
  };                                                               \
  template <>                                                      \
  struct Sem<id_clRelease##Name> {                                 \
    static cl_int run(Call& c, Handle h) { return release(c, h); } \
  };
DL_REFS(Context, cl_context)
DL_REFS(CommandQueue, cl_command_queue)
DL_REFS(MemObject, cl_mem)
DL_REFS(Sampler, cl_sampler)
DL_REFS(Program, cl_program)
DL_REFS(Kernel, cl_kernel)
DL_REFS(Event, cl_event)
DL_REFS(Device, cl_device_id)
DL_REFS(DeviceEXT, cl_device_id)

template <class H, class F>
cl_int on_destroy(Call& c, H h, F fn, void* data) {
  if (state().failing) return failed<cl_int>(c);
  Object* o = obj(h);
  if (!o || o->dead || !fn) return CL_INVALID_VALUE;
  state().destructors[o].push_back({reinterpret_cast<void (*)()>(fn), data});
  return CL_SUCCESS;
}

template <>
struct Sem<id_clSetMemObjectDestructorCallback> {
  static cl_int run(Call& c, cl_mem m, void(CL_CALLBACK* fn)(cl_mem, void*), void* data) {
    return on_destroy(c, m, fn, data);
  }
};
template <>
struct Sem<id_clSetContextDestructorCallback> {
  static cl_int run(Call& c, cl_context x, void(CL_CALLBACK* fn)(cl_context, void*), void* data) {
    return on_destroy(c, x, fn, data);
  }
};
template <>
struct Sem<id_clSetProgramReleaseCallback> {
  static cl_int run(Call& c, cl_program p, void(CL_CALLBACK* fn)(cl_program, void*), void* data) {
    return on_destroy(c, p, fn, data);
  }
};

// Every event is complete: a callback for a reached status runs at once.
template <>
struct Sem<id_clSetEventCallback> {
  static cl_int run(Call& c, cl_event e, cl_int type,
                    void(CL_CALLBACK* fn)(cl_event, cl_int, void*), void* data) {
    cl_int st = generic<cl_int>(c, e, type, fn, data);
    if (st == CL_SUCCESS && fn &&
        (type == CL_COMPLETE || type == CL_RUNNING || type == CL_SUBMITTED))
      c.after.push_back([=] { fn(e, type, data); });
    return st;
  }
};

// Discovery: one platform with one device.
template <>
struct Sem<id_clGetPlatformIDs> {
  static cl_int run(Call& c, cl_uint n, cl_platform_id* platforms, cl_uint* num) {
    if (state().failing) return failed<cl_int>(c);
    if (platforms && n) platforms[0] = state().platform, c.wrote(platforms);
    if (num) *num = 1, c.wrote(num);
    return CL_SUCCESS;
  }
};
template <>
struct Sem<id_clIcdGetPlatformIDsKHR> {
  static cl_int run(Call& c, cl_uint n, cl_platform_id* platforms, cl_uint* num) {
    return Sem<id_clGetPlatformIDs>::run(c, n, platforms, num);
  }
};
template <>
struct Sem<id_clGetDeviceIDs> {
  static cl_int run(Call& c, cl_platform_id, cl_device_type, cl_uint n, cl_device_id* devices,
                    cl_uint* num) {
    if (state().failing) return failed<cl_int>(c);
    if (devices && n) devices[0] = state().device, c.wrote(devices);
    if (num) *num = 1, c.wrote(num);
    return CL_SUCCESS;
  }
};

// Calls that make a list of objects make one.
template <class H, class Parent>
cl_int one_of(Call& c, Parent parent, cl_uint n, H* out, cl_uint* num) {
  if (state().failing) return failed<cl_int>(c);
  if (out && n) out[0] = create<H>(parent), c.wrote(out);
  if (num) *num = 1, c.wrote(num);
  return CL_SUCCESS;
}
template <>
struct Sem<id_clCreateKernelsInProgram> {
  static cl_int run(Call& c, cl_program p, cl_uint n, cl_kernel* kernels, cl_uint* num) {
    return one_of(c, p, n, kernels, num);
  }
};
template <>
struct Sem<id_clCreateSubDevices> {
  static cl_int run(Call& c, cl_device_id d, const cl_device_partition_property*, cl_uint n,
                    cl_device_id* out, cl_uint* num) {
    return one_of(c, d, n, out, num);
  }
};
template <>
struct Sem<id_clCreateSubDevicesEXT> {
  static cl_int run(Call& c, cl_device_id d, const cl_device_partition_property_ext*, cl_uint n,
                    cl_device_id* out, cl_uint* num) {
    return one_of(c, d, n, out, num);
  }
};

cl_int CL_API_CALL icd_platforms(cl_uint n, cl_platform_id* platforms, cl_uint* num);
cl_int CL_API_CALL stub_clGetPlatformInfo(cl_platform_id, cl_platform_info, size_t, void*, size_t*);

// The loader asks for these two by name.
void* extension(Call& c, const char* name) {
  if (name && !std::strcmp(name, "clIcdGetPlatformIDsKHR"))
    return reinterpret_cast<void*>(&icd_platforms);
  if (name && !std::strcmp(name, "clGetPlatformInfo"))
    return reinterpret_cast<void*>(&stub_clGetPlatformInfo);
  return generic<void*>(c, name);
}
template <>
struct Sem<id_clGetExtensionFunctionAddress> {
  static void* run(Call& c, const char* name) { return extension(c, name); }
};
template <>
struct Sem<id_clGetExtensionFunctionAddressForPlatform> {
  static void* run(Call& c, cl_platform_id, const char* name) { return extension(c, name); }
};

// ---- the entry points ----------------------------------------------------------------

template <class R, Id id, class... A>
R enter(const char* name, std::tuple<A...> args) {
  State& st = state();
  std::unique_lock<std::mutex> lock(st.mutex);
  Call c{id, name, {}, {}};
  std::apply([&](const auto&... a) { check_args(c, a...); }, args);
  Stored rec;
  rec.name = name;
  rec.in = std::apply([](const auto&... a) { return format_in(a...); }, args);
  auto body = [&](auto... a) -> R {
    if constexpr (has_sem<id>::value)
      return Sem<id>::run(c, a...);
    else
      return generic<R>(c, a...);
  };
  auto written = [&](const void* p, std::size_t) { return c.written.count(p) > 0; };
  auto finish = [&] {
    rec.out = std::apply([&](const auto&... a) { return format_out(written, a...); }, args);
    st.log.push_back(std::move(rec));
    lock.unlock();
    for (auto& f : c.after) f();
  };
  if constexpr (std::is_void_v<R>) {
    std::apply(body, args);
    rec.ret = "void";
    finish();
  } else {
    R r = std::apply(body, args);
    rec.ret = format_ret(r);
    finish();
    return r;
  }
}

#define DL_CL_API(ret, name, params, args)                     \
  ret CL_API_CALL stub_##name params {                         \
    return enter<ret, id_##name>(#name, std::make_tuple args); \
  }
#include "entry_points.def"

void stub_unexpected() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().errors.push_back("a dispatch slot without an entry point on this system was called");
}

cl_int CL_API_CALL icd_platforms(cl_uint n, cl_platform_id* platforms, cl_uint* num) {
  return enter<cl_int, id_clIcdGetPlatformIDsKHR>("clIcdGetPlatformIDsKHR",
                                                  std::make_tuple(n, platforms, num));
}

cl_icd_dispatch make_table() {
  cl_icd_dispatch d{};
#define DL_CL_API(ret, name, params, args) d.name = &stub_##name;
#define DL_CL_EXT(name) d.name = reinterpret_cast<void*>(&stub_unexpected);
#include "entry_points.def"
  return d;
}
}  // namespace

const cl_icd_dispatch kTable = make_table();

namespace {

// ---- the test application's view -------------------------------------------------------

cl_platform_id ctl_platform() {
  return state().platform;
}
std::size_t ctl_count() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().log.size();
}
CallRecord ctl_record(std::size_t i) {
  std::lock_guard<std::mutex> lock(state().mutex);
  const Stored& s = state().log.at(i);
  return {s.name.c_str(), s.in.c_str(), s.ret.c_str(), s.out.c_str()};
}
void ctl_set_failing(int on) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().failing = on != 0;
}
std::size_t ctl_live(int kind) {
  std::lock_guard<std::mutex> lock(state().mutex);
  std::size_t n = 0;
  for (const Object* o : state().objects) n += o->kind == kind && !o->root && !o->dead;
  return n;
}
std::size_t ctl_error_count() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().errors.size();
}
const char* ctl_error(std::size_t i) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().errors.at(i).c_str();
}

const Control kControl = {kControlVersion, ctl_platform, ctl_count,       ctl_record,
                          ctl_set_failing, ctl_live,     ctl_error_count, ctl_error};

struct Init {
  Init() {
    State& s = state();
    s.platform = make<_cl_platform_id*>(Platform);
    s.device = make<_cl_device_id*>(Device);
    s.platform->root = s.device->root = true;
  }
} init;

}  // namespace
}  // namespace dlstub

// The driver's only symbols: what the ICD loader looks up, and the test's control.
#define DL_STUB_EXPORT extern "C" __attribute__((visibility("default")))

DL_STUB_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id* platforms,
                                                         cl_uint* num) {
  return dlstub::icd_platforms(n, platforms, num);
}

DL_STUB_EXPORT void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  return dlstub::stub_clGetExtensionFunctionAddress(name);
}

DL_STUB_EXPORT const dlstub::Control* dl_stub_control() {
  return &dlstub::kControl;
}
