// The stub tier's application: calls every entry point of src/clapi/entry_points.def
// through the ICD loader with distinctive arguments, against the stub driver
// (stub_icd.cpp), and checks after each call, from the driver's record, that
//   * the call reached the driver exactly once, with the application's arguments;
//   * the return value and every out-parameter reached the application unchanged;
//   * anything else the driver saw meanwhile is one of DL's own bookkeeping calls
//     (queries, destructor callbacks, event retains and releases) - none natively.
// It runs every entry point three times: where the driver succeeds (with and without
// events asked for) and where every call fails with a code of its own. At the end, when
// the application has released everything it got, no object of the driver may be left
// (DL releases what it retains).
//
//   dl_stub_app --stub <path of the stub driver> [--dl | --report]
//
// --dl: DL is loaded (LD_PRELOAD and/or OPENCL_LAYERS); its bookkeeping calls are
// expected, and each clCreateBuffer must be followed by DL's destructor callback.
// --report: DL is loaded and profiles (DL_REPORT set): it may also ask for events the
// application does not (and must release them), and adds profiling to queues.
// DL_STUB_LOG=1 prints the driver's whole record at the end.
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <vector>

#include "stub_record.hpp"

namespace {

using namespace dlstub;

const Control* ctl = nullptr;
bool under_dl = false;
bool profiling = false;    // DL profiles (a report is asked for)
bool null_events = false;  // the made-up calls ask for no event
int failures = 0;
std::map<std::string, int> dl_calls;  // DL's own calls, by entry point
std::string phase = "set-up";

void fail(const std::string& what) {
  if (++failures <= 50) std::fprintf(stderr, "FAIL [%s] %s\n", phase.c_str(), what.c_str());
}

std::string show(const CallRecord& r) {
  return std::string(r.name) + "(" + r.in + ") = " + r.ret + " {" + r.out + "}";
}

// The entry points the ICD loader answers itself (ocl-icd): they never reach a driver.
const std::set<std::string> kLoaderOwned = {"clGetPlatformIDs", "clUnloadCompiler"};

// DL's own calls may be queries and bookkeeping, nothing that changes what the
// application sees.
bool bookkeeping(const std::string& name) {
  static const std::regex re(
      "clGet\\w*Info|clSetMemObjectDestructorCallback|clRetainEvent|clReleaseEvent|"
      "clSetEventCallback|clWaitForEvents");
  return std::regex_match(name, re);
}

// The objects the application has.
struct Objects {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem mem = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_event events[2] = {nullptr, nullptr};
  cl_sampler sampler = nullptr;
};
Objects objs;
std::vector<std::pair<int, void*>> owned;  // objects the calls made, released at the end

template <class H>
H handle_of() {
  if constexpr (std::is_same_v<H, cl_platform_id>) return objs.platform;
  if constexpr (std::is_same_v<H, cl_device_id>) return objs.device;
  if constexpr (std::is_same_v<H, cl_context>) return objs.context;
  if constexpr (std::is_same_v<H, cl_command_queue>) return objs.queue;
  if constexpr (std::is_same_v<H, cl_mem>) return objs.mem;
  if constexpr (std::is_same_v<H, cl_program>) return objs.program;
  if constexpr (std::is_same_v<H, cl_kernel>) return objs.kernel;
  if constexpr (std::is_same_v<H, cl_event>) return objs.events[0];
  if constexpr (std::is_same_v<H, cl_sampler>) return objs.sampler;
}

template <class H>
void keep(H h) {
  if (h && static_cast<void*>(h) != objs.platform && static_cast<void*>(h) != objs.device)
    owned.push_back({handle_kind<H>::value, h});
}

// A callback of any signature: the driver may call it.
template <class F>
struct Callback;
template <class R, class... A>
struct Callback<R (*)(A...)> {
  static R CL_CALLBACK fn(A...) {
    if constexpr (!std::is_void_v<R>) return R{};
  }
};

using Param = std::pair<std::string, std::string>;  // type and name, from the .def

/// The arguments of one call: every pointer has memory behind it, every out-parameter
/// holds kSentinel bytes until written.
struct Storage {
  alignas(64) unsigned char arena[16][1024];
  alignas(64) unsigned char outs[8][512];
  void* handles[4][64];
  std::string strings[64];
  const char* string_list[64];
  intptr_t properties[3];
  int next_arena = 0, next_out = 0, next_handles = 0;

  void reset() {
    std::memset(arena, 0, sizeof arena);
    std::memset(outs, kSentinel, sizeof outs);
    next_arena = next_out = next_handles = 0;
    for (int i = 0; i < 64; ++i) {
      strings[i] = "arg" + std::to_string(i) + "_" + kSuffix;  // names of the stub's extensions
      string_list[i] = strings[i].c_str();
    }
    properties[0] = CL_CONTEXT_PLATFORM;
    properties[1] = reinterpret_cast<intptr_t>(objs.platform);
    properties[2] = 0;
  }

  /// A distinctive argument of type T at position `pos`; a number before an event wait
  /// list is that list's length, a cl_bool is CL_TRUE, a work_dim 1 (DL times the launch).
  template <class T>
  T make(std::size_t pos, bool list_follows, const Param& param) {
    if constexpr (is_handle<T>) {
      return handle_of<T>();
    } else if constexpr (is_event_list<T>) {
      return objs.events;
    } else if constexpr (is_out<T>) {
      if constexpr (std::is_same_v<T, cl_event*>)
        if (null_events) return nullptr;
      return reinterpret_cast<T>(outs[next_out++]);
    } else if constexpr (std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>) {
      return &Callback<T>::fn;
    } else if constexpr (std::is_same_v<T, const char*>) {
      return string_list[pos];
    } else if constexpr (std::is_same_v<T, const char**>) {
      return string_list;
    } else if constexpr (std::is_pointer_v<T> &&
                         is_handle<std::remove_const_t<std::remove_pointer_t<T>>>) {
      using H = std::remove_const_t<std::remove_pointer_t<T>>;
      auto* list = reinterpret_cast<H*>(handles[next_handles++]);
      for (int i = 0; i < 64; ++i) list[i] = handle_of<H>();
      return list;
    } else if constexpr (std::is_same_v<T, const intptr_t*>) {
      return properties;  // context properties (and the other intptr_t lists): the platform
    } else if constexpr (std::is_pointer_v<T>) {
      return reinterpret_cast<T>(arena[next_arena++]);
    } else {
      static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "an argument type to make");
      if (list_follows) return 2;
      if (param.first == "cl_bool") return CL_TRUE;
      if (param.second == "work_dim") return 1;
      return static_cast<T>(0x10 + pos);
    }
  }
};
Storage storage;

/// Type and name of each parameter in the text of a parameter list, "(cl_bool blocking, ...)".
std::vector<std::pair<std::string, std::string>> param_list(std::string params) {
  std::vector<std::pair<std::string, std::string>> out;
  params = params.substr(1, params.size() - 2);
  int depth = 0;
  std::string cur;
  auto trim = [](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    return t;
  };
  auto flush = [&] {
    cur = trim(cur);
    const auto name = cur.find_last_of(" *");
    if (name == std::string::npos || cur.find('(') != std::string::npos)
      out.push_back({cur, ""});  // a function pointer: only its type matters
    else
      out.push_back({trim(cur.substr(0, name + 1)), cur.substr(name + 1)});
    cur.clear();
  };
  for (char ch : params) {
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    if (ch == ',' && depth == 0)
      flush();
    else
      cur += ch;
  }
  flush();
  return out;
}

template <class... A, std::size_t... I>
std::tuple<A...> make_args(const std::vector<std::pair<std::string, std::string>>& params,
                           std::index_sequence<I...>) {
  using Next = std::tuple<A..., void*>;
  return std::tuple<A...>{storage.make<A>(I, is_event_list<std::tuple_element_t<I + 1, Next>>,
                                          I < params.size() ? params[I] : Param{})...};
}

bool sentinel(const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i)
    if (b[i] != kSentinel) return false;
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char ch : s) {
    if (ch == sep)
      out.emplace_back();
    else
      out.back() += ch;
  }
  return out;
}

/// How the driver's view of an argument may differ from the application's when DL
/// profiles (--report): DL asks for an event the application did not, and passes its own
/// queue properties (CL_QUEUE_PROFILING_ENABLE added, hidden from the application).
enum Relax { Exact, NullMayBeOut, Any };

struct Expected {
  std::string name, in, ret, out;
  std::vector<Relax> relax;  // per argument
};

bool same_in(const Expected& e, const std::string& got) {
  if (got == e.in) return true;
  const auto a = split(e.in, ','), b = split(got, ',');
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Relax r = i < e.relax.size() ? e.relax[i] : Exact;
    if (a[i] == b[i] || r == Any || (r == NullMayBeOut && a[i] == "null" && b[i] == "out"))
      continue;
    return false;
  }
  return true;
}

/// The driver's out-record without the out-parameters the application did not ask for.
std::string strip_unasked(const Expected& e, const std::string& got) {
  const auto a = split(e.in, ',');
  std::string out;
  for (const auto& item : split(got, ';')) {
    if (item.empty()) continue;
    const auto i = std::stoul(item.substr(0, item.find_first_of("=:")));
    if (i < a.size() && a[i] == "null") continue;
    out += item + ';';
  }
  return out;
}

// Results the driver gave that do not reach the application as they were, found by this
// test in DL (src/runtime) and not fixed yet: reported, not counted as failures. Remove
// an entry when its fix lands.
const std::map<std::string, std::string> kKnown = {};

/// Checks the driver's record of the calls [from, to) against one call of the application.
void check(const Expected& e, std::size_t from, std::size_t to) {
  const bool loader = kLoaderOwned.count(e.name) > 0;
  int forwarded = 0;
  std::vector<std::string> problems, others;
  for (std::size_t i = from; i < to; ++i) {
    CallRecord r = ctl->record(i);
    if (e.name == r.name && same_in(e, r.in)) {
      ++forwarded;
      if (e.ret != r.ret)
        problems.push_back("the driver returned " + std::string(r.ret) + ", the application got " +
                           e.ret);
      const std::string out = strip_unasked(e, r.out);
      if (e.out != out)
        problems.push_back("out-parameters: the driver wrote {" + out + "}, the application got {" +
                           e.out + "}");
      continue;
    }
    if (under_dl && bookkeeping(r.name)) {
      dl_calls[r.name]++;
      continue;
    }
    others.push_back(show(r));
  }
  const int expected = loader ? 0 : 1;
  // DL's own retains and releases of an event look like the application's: one or more.
  const bool dl_may_repeat = under_dl && bookkeeping(e.name) && forwarded > expected;
  if (forwarded != expected && !dl_may_repeat)
    problems.push_back("(" + e.in + ") reached the driver " + std::to_string(forwarded) +
                       " times with the application's arguments (expected " +
                       std::to_string(expected) + ")");
  for (const auto& o : others)
    problems.push_back("the driver also saw " + o + (under_dl ? "" : " (natively!)"));
  if (loader && e.ret != "0") problems.push_back("the loader returned " + e.ret);
  auto known = kKnown.find(phase + "/" + e.name);
  for (const auto& p : problems) {
    if (known != kKnown.end())
      std::printf("known [%s] %s: %s (%s)\n", phase.c_str(), e.name.c_str(), p.c_str(),
                  known->second.c_str());
    else
      fail(e.name + ": " + p);
  }
}

/// After a call to `name` that returned `ret`: checks what the driver saw since `from`
/// and keeps the objects the out-parameters got.
template <class... A>
void after(const char* name, const std::string& ret, const std::tuple<A...>& args,
           std::size_t from) {
  const std::size_t to = ctl->count();
  Expected e;
  e.name = name;
  e.ret = ret;
  e.in = std::apply([](const auto&... a) { return format_in(a...); }, args);
  auto written = [](const void* p, std::size_t n) { return !sentinel(p, n); };
  e.out = std::apply([&](const auto&... a) { return format_out(written, a...); }, args);
  const bool queue_props =
      e.name == "clCreateCommandQueue" || e.name == "clCreateCommandQueueWithProperties";
  static const std::regex blocking_re("clEnqueue(Read|Write|Map)Buffer(Rect)?");
  const bool blocking_flag = std::regex_match(e.name, blocking_re);
  std::apply(
      [&](const auto&... a) {
        auto one = [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          Relax r = Exact;
          if ((profiling || (under_dl && blocking_flag)) && std::is_same_v<T, cl_event*>)
            r = NullMayBeOut;  // DL asks for the event it profiles or waits for
          if (profiling && queue_props && e.relax.size() == 2) r = Any;
          // DL enqueues a blocking read, write or map non-blocking under its lock and waits
          // for the command's event after releasing it (docs/runtime.md): same semantics.
          if (under_dl && blocking_flag && std::is_same_v<T, cl_bool> && e.relax.size() == 2)
            r = Any;
          e.relax.push_back(r);
          if constexpr (is_out<T>) {
            if constexpr (is_handle<std::remove_pointer_t<T>>)
              if (v && !sentinel(v, sizeof *v)) keep(*v);  // the application's to release
          }
        };
        (one(a), ...);
        (void)one;
      },
      args);
  check(e, from, to);
}

template <class R, class... A>
R invoke(const char* name, R(CL_API_CALL* fn)(A...), std::tuple<A...> args) {
  const std::size_t from = ctl->count();
  if constexpr (std::is_void_v<R>) {
    std::apply(fn, args);
    after(name, "void", args, from);
  } else {
    R r = std::apply(fn, args);
    after(name, format_ret(r), args, from);
    if constexpr (is_handle<R>) keep(r);  // what the call made is the application's to release
    return r;
  }
}

/// Every DL_CL_API, DL_CL_KHR and DL_CL_GL entry point, with made-up arguments.
template <class R, class... A>
void call_made_up(const char* name, const char* params, R(CL_API_CALL* fn)(A...)) {
  storage.reset();
  auto args = make_args<A...>(param_list(params), std::index_sequence_for<A...>{});
  const std::size_t before = ctl->count();
  invoke(name, fn, args);
  // Under DL, a buffer made by clCreateBuffer gets DL's destructor callback, once.
  if (under_dl && phase == "success" &&
      (std::strcmp(name, "clCreateBuffer") == 0 ||
       std::strcmp(name, "clCreateBufferWithProperties") == 0)) {
    int seen = 0;
    for (std::size_t i = before; i < ctl->count(); ++i)
      seen += std::strcmp(ctl->record(i).name, "clSetMemObjectDestructorCallback") == 0;
    if (seen != 1)
      fail(std::string(name) + ": DL registered " + std::to_string(seen) +
           " destructor callbacks (expected 1: is DL in, and in only once?)");
  }
}

struct Entry {
  const char* name;
  void (*call)();
};
const Entry kEntries[] = {
#define DL_CL_API(ret, name, params, args) {#name, [] { call_made_up(#name, #params, &::name); }},
#include "entry_points.def"
};

template <class R, class... A>
R call(const char* name, R(CL_API_CALL* fn)(A...), A... a) {
  return invoke(name, fn, std::make_tuple(a...));
}
#define CALL(name, ...) call(#name, &::name, __VA_ARGS__)

void set_up() {
  cl_uint n = 0;
  CALL(clGetPlatformIDs, cl_uint(1), &objs.platform, &n);
  if (objs.platform != ctl->platform()) fail("clGetPlatformIDs did not give the stub's platform");
  CALL(clGetDeviceIDs, objs.platform, cl_device_type(CL_DEVICE_TYPE_ALL), cl_uint(1), &objs.device,
       static_cast<cl_uint*>(nullptr));
  cl_int err = 0;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(objs.platform), 0};
  objs.context =
      CALL(clCreateContext, static_cast<const cl_context_properties*>(props), cl_uint(1),
           const_cast<const cl_device_id*>(&objs.device),
           static_cast<void(CL_CALLBACK*)(const char*, const void*, size_t, void*)>(nullptr),
           static_cast<void*>(nullptr), &err);
  objs.queue = CALL(clCreateCommandQueueWithProperties, objs.context, objs.device,
                    static_cast<const cl_queue_properties*>(nullptr), &err);
  const std::size_t before = ctl->count();
  objs.mem = CALL(clCreateBuffer, objs.context, cl_mem_flags(CL_MEM_READ_WRITE), size_t(64),
                  static_cast<void*>(nullptr), &err);
  int callbacks = 0;
  for (std::size_t i = before; i < ctl->count(); ++i)
    callbacks += std::strcmp(ctl->record(i).name, "clSetMemObjectDestructorCallback") == 0;
  if (callbacks != (under_dl ? 1 : 0))
    fail("clCreateBuffer: " + std::to_string(callbacks) + " destructor callbacks registered " +
         (under_dl ? "(is DL in, and in only once?)" : "natively"));
  const char* src = "kernel void stub_kernel(global int* p) { p[0] = 1; }";
  objs.program = CALL(clCreateProgramWithSource, objs.context, cl_uint(1), &src,
                      static_cast<const size_t*>(nullptr), &err);
  objs.kernel = CALL(clCreateKernel, objs.program, static_cast<const char*>("stub_kernel"), &err);
  // Every argument set: DL follows (and, profiling, times) the kernel's launches.
  for (cl_uint i = 0; i < 3; ++i)
    CALL(clSetKernelArg, objs.kernel, i, sizeof(cl_mem), static_cast<const void*>(&objs.mem));
  for (cl_event& e : objs.events) e = CALL(clCreateUserEvent, objs.context, &err);
  objs.sampler = CALL(clCreateSamplerWithProperties, objs.context,
                      static_cast<const cl_sampler_properties*>(nullptr), &err);
  owned.clear();  // the set-up's objects are released last, below
}

void release(int kind, void* h) {
  switch (kind) {
    case Device:
      CALL(clReleaseDevice, static_cast<cl_device_id>(h));
      break;
    case Context:
      CALL(clReleaseContext, static_cast<cl_context>(h));
      break;
    case Queue:
      CALL(clReleaseCommandQueue, static_cast<cl_command_queue>(h));
      break;
    case Mem:
      CALL(clReleaseMemObject, static_cast<cl_mem>(h));
      break;
    case Program:
      CALL(clReleaseProgram, static_cast<cl_program>(h));
      break;
    case Kernel:
      CALL(clReleaseKernel, static_cast<cl_kernel>(h));
      break;
    case Event:
      CALL(clReleaseEvent, static_cast<cl_event>(h));
      break;
    case Sampler:
      CALL(clReleaseSampler, static_cast<cl_sampler>(h));
      break;
    default:
      fail(std::string("an object of kind ") + kind_name(kind) + " to release");
  }
}

void clean_up() {
  for (auto it = owned.rbegin(); it != owned.rend(); ++it) release(it->first, it->second);
  release(Kernel, objs.kernel);
  release(Program, objs.program);
  release(Mem, objs.mem);
  release(Sampler, objs.sampler);
  for (cl_event e : objs.events) release(Event, e);
  release(Queue, objs.queue);
  release(Context, objs.context);
  for (int k = Device; k < NumKinds; ++k)
    if (std::size_t n = ctl->live(k))
      fail(std::to_string(n) + " " + kind_name(k) +
           " object(s) left after the application released everything (retained and not released)");
  for (std::size_t i = 0; i < ctl->error_count(); ++i)
    fail(std::string("the driver saw: ") + ctl->error(i));
}

}  // namespace

int main(int argc, char** argv) {
  const char* stub = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--stub") && i + 1 < argc)
      stub = argv[++i];
    else if (!std::strcmp(argv[i], "--dl"))
      under_dl = true;
    else if (!std::strcmp(argv[i], "--report"))
      under_dl = profiling = true;
    else
      return std::fprintf(stderr, "usage: %s --stub <driver> [--dl|--report]\n", argv[0]), 2;
  }
  if (!stub) return std::fprintf(stderr, "usage: %s --stub <driver> [--dl|--report]\n", argv[0]), 2;
  // The first call makes the loader load its drivers; the stub must be one of them.
  cl_uint n = 0;
  clGetPlatformIDs(0, nullptr, &n);
  void* lib = dlopen(stub, RTLD_NOW | RTLD_NOLOAD);
  auto control = lib ? reinterpret_cast<ControlFn>(dlsym(lib, "dl_stub_control")) : nullptr;
  if (!control || control()->version != kControlVersion) {
    std::fprintf(stderr,
                 "the ICD loader did not load the stub driver %s (set OCL_ICD_VENDORS to the "
                 "directory of its .icd file)\n",
                 stub);
    return 2;
  }
  ctl = control();

  set_up();
  phase = "success";
  for (const Entry& e : kEntries) e.call();
  phase = "success, no event asked for";
  null_events = true;
  for (const Entry& e : kEntries) e.call();
  null_events = false;
  phase = "failure";
  ctl->set_failing(1);
  for (const Entry& e : kEntries) e.call();
  ctl->set_failing(0);
  phase = "clean-up";
  clean_up();

  std::printf(
      "%zu entry points, each called three times (driver succeeds, with and without "
      "events asked for; driver fails), %s\n",
      sizeof kEntries / sizeof kEntries[0],
      profiling  ? "under DL profiling"
      : under_dl ? "under DL"
                 : "natively");
  if (under_dl) {
    std::printf("DL's own calls:");
    for (const auto& [name, count] : dl_calls) std::printf(" %s x%d", name.c_str(), count);
    std::printf("\n");
  }
  if (std::getenv("DL_STUB_LOG"))  // the driver's whole record, to read
    for (std::size_t i = 0; i < ctl->count(); ++i)
      std::fprintf(stderr, "%zu %s\n", i, show(ctl->record(i)).c_str());
  if (failures) std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
