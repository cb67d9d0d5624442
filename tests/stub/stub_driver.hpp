// The stub driver's object model and default behaviour (stub_icd.cpp adds the semantics
// of the calls the ICD loader, DL and the test's set-up rely on, and the entry points).
//
// Objects carry the dispatch table as their first member (cl_khr_icd). A call without
// semantics of its own succeeds: creation gives a fresh object, every out-parameter gets
// a value of its own, a query's param_value bytes of its own. With set_failing(1) every
// call fails with a code of its own instead.
#pragma once

#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "stub_record.hpp"

namespace dlstub {

struct Object {
  const cl_icd_dispatch* dispatch = nullptr;
  int kind = 0;
  int refs = 1;
  bool root = false;  // the platform and its device: never released
  bool dead = false;  // released to zero
  Object* context = nullptr;
  Object* device = nullptr;
  Object* program = nullptr;
  Object* queue = nullptr;
};

}  // namespace dlstub

struct _cl_platform_id : dlstub::Object {};
struct _cl_device_id : dlstub::Object {};
struct _cl_context : dlstub::Object {};
struct _cl_command_queue : dlstub::Object {};
struct _cl_mem : dlstub::Object {};
struct _cl_program : dlstub::Object {};
struct _cl_kernel : dlstub::Object {};
struct _cl_event : dlstub::Object {};
struct _cl_sampler : dlstub::Object {};
static_assert(offsetof(_cl_mem, dispatch) == 0, "the dispatch table comes first (cl_khr_icd)");

namespace dlstub {

enum Id {
#define DL_CL_API(ret, name, params, args) id_##name,
#define DL_CL_EXT(name) id_##name,
#include "entry_points.def"
  id_clIcdGetPlatformIDsKHR,
};

inline cl_int failure_code(Id id) {
  return -1000 - static_cast<cl_int>(id);
}

struct Stored {
  std::string name, in, ret, out;
};

using Callback = std::pair<void (*)(), void*>;

struct State {
  std::mutex mutex;
  bool failing = false;
  std::deque<Stored> log;
  std::vector<std::string> errors;
  std::vector<Object*> objects;
  std::set<const void*> known;
  std::map<const Object*, std::vector<Callback>> destructors;  // mem, context, program
  _cl_platform_id* platform = nullptr;
  _cl_device_id* device = nullptr;
};

inline State& state() {
  static State* s = new State();  // never destroyed: DL may call in from exit handlers
  return *s;
}

/// One call in progress.
struct Call {
  Id id;
  const char* name;
  std::set<const void*> written;
  std::vector<std::function<void()>> after;  // callbacks, run once the stub's lock is free
  void wrote(const void* p) { written.insert(p); }
};

extern const cl_icd_dispatch kTable;

template <class H>
H make(int kind) {
  auto* o = new std::remove_pointer_t<H>();
  o->dispatch = &kTable;
  o->kind = kind;
  state().objects.push_back(o);
  state().known.insert(o);
  return o;
}

inline Object* obj(const void* h) {
  if (!h || !state().known.count(h)) return nullptr;
  return static_cast<Object*>(const_cast<void*>(h));
}

inline void error(const Call& c, const std::string& what) {
  state().errors.push_back(std::string(c.name) + ": " + what);
}

/// Every handle argument (and every event of a wait list) must be a live object.
template <class... A>
void check_args(const Call& c, const A&... a) {
  int i = 0;
  unsigned long long count = 0;
  auto check = [&](const void* h, int kind) {
    if (!h) return;
    Object* o = obj(h);
    if (!o)
      error(c, "argument " + std::to_string(i) + " is not an object of this driver");
    else if (o->dead)
      error(c, "argument " + std::to_string(i) + " is a released " + kind_name(o->kind));
    else if (o->kind != kind)
      error(c, "argument " + std::to_string(i) + " is a " + kind_name(o->kind));
  };
  auto one = [&](const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (is_handle<T>) check(v, handle_kind<T>::value);
    if constexpr (is_event_list<T>) {
      if (v)
        for (unsigned long long k = 0; k < count && k < kMaxList; ++k) check(v[k], Event);
    }
    if constexpr (std::is_integral_v<T>) count = static_cast<unsigned long long>(v);
    ++i;
  };
  (one(a), ...);
  (void)one;  // no arguments
}

/// A new object of handle type H, linked to the context, device, program and queue
/// among the arguments.
template <class H, class... A>
H create(const A&... a) {
  H h = make<H>(handle_kind<H>::value);
  Object* o = h;
  auto link = [&](const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (is_handle<T>) {
      Object* x = obj(v);
      if (!x) return;
      if (x->kind == Context && !o->context) o->context = x;
      if (x->kind == Device && !o->device) o->device = x;
      if (x->kind == Program && !o->program) o->program = x;
      if (x->kind == Queue && !o->queue) o->queue = x;
      if (!o->context && x->context) o->context = x->context;
    }
  };
  (link(a), ...);
  return h;
}

template <class F, std::size_t... I>
void for_each_index(F&& f, std::index_sequence<I...>) {
  (f(std::integral_constant<std::size_t, I>{}), ...);
}
template <std::size_t N, class F>
void for_each_index(F&& f) {
  for_each_index(f, std::make_index_sequence<N>{});
}

/// What a call returns when it succeeds without semantics of its own.
template <class R, class... A>
R made(const Call& c, const A&... a) {
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (is_handle<R>) {
    return create<R>(a...);
  } else if constexpr (std::is_pointer_v<R>) {
    return reinterpret_cast<R>(static_cast<std::uintptr_t>(0x5eed0000u + 16u * c.id));
  } else {
    return CL_SUCCESS;
  }
}

template <class R>
R failed(const Call& c) {
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (std::is_pointer_v<R>) {
    return nullptr;
  } else {
    return failure_code(c.id);
  }
}

/// Any entry point: success (or the failure code) and a value in every out-parameter;
/// a query's param_value gets bytes of its own.
template <class R, class... A>
R generic(Call& c, A... a) {
  auto t = std::make_tuple(a...);
  constexpr std::size_t N = sizeof...(A);
  using Tup = std::tuple<A...>;
  if (state().failing) {
    for_each_index<N>([&](auto I) {
      using T = std::tuple_element_t<I, Tup>;
      if constexpr (std::is_same_v<T, cl_int*>) {
        if (T p = std::get<I>(t)) *p = failure_code(c.id), c.wrote(p);
      }
    });
    return failed<R>(c);
  }
  for_each_index<N>([&](auto I) {
    using T = std::tuple_element_t<I, Tup>;
    if constexpr (is_out<T>) {
      using U = std::remove_pointer_t<T>;
      T p = std::get<I>(t);
      if (!p) return;
      if constexpr (is_handle<U>)
        *p = create<U>(a...);
      else if constexpr (std::is_same_v<U, cl_int>)
        *p = CL_SUCCESS;
      else
        *p = static_cast<U>(0x6000u + 16u * c.id + I);
      c.wrote(p);
    } else if constexpr (std::is_same_v<T, void*> && I > 0 && I + 1 < N) {
      // param_value between param_value_size and param_value_size_ret
      using Size = std::tuple_element_t<I - 1, Tup>;
      using Ret = std::tuple_element_t<I + 1, Tup>;
      if constexpr (std::is_same_v<Size, size_t> && std::is_same_v<Ret, size_t*>) {
        auto* v = static_cast<unsigned char*>(std::get<I>(t));
        const size_t size = std::get<I - 1>(t);
        for (size_t k = 0; v && k < size && k < 8; ++k)
          v[k] = static_cast<unsigned char>(0xC0 + k + c.id);
      }
    }
  });
  return made<R>(c, a...);
}

}  // namespace dlstub
