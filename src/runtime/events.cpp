// Events that may fail. A command whose wait list holds a failed event is not executed;
// if DL chained a conversion on such an event, the conversion would not run either and
// DL could no longer know the buffer's layout. So DL tracks the events that may still
// fail - user events, and the events of commands that wait on them - and never makes a
// conversion wait on one (docs/runtime.md, "Events that fail").
//
// Every enqueue entry point takes part: the ones DL hooks call propagate_taint(), and
// every other one gets a forwarder that does only that.
#include <spdlog/spdlog.h>

#include <tuple>
#include <type_traits>

#include "runtime.hpp"

namespace dl::rt {

bool Runtime::tainted(cl_event e) {
  auto it = tainted_events.find(e);
  if (it == tainted_events.end()) return false;
  cl_int st = CL_QUEUED;
  if (real().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr) !=
      CL_SUCCESS)
    return true;
  if (st != CL_COMPLETE) return true;  // pending, or failed (negative)
  tainted_events.erase(it);            // completed successfully: it can no longer fail
  tainted_count = tainted_events.size();
  release(e);
  return false;
}

bool Runtime::any_tainted(cl_uint n, const cl_event* list) {
  if (tainted_count == 0 || !list) return false;
  bool any = false;
  for (cl_uint i = 0; i < n; ++i) any = tainted(list[i]) || any;
  return any;
}

void Runtime::taint(cl_event e, bool app_holds) {
  if (!e || !tainted_events.emplace(e, app_holds ? 1u : 0u).second) return;
  retain(e);
  // Now and then, forget the events that completed (and release them).
  if (tainted_events.size() >= 64 && (tainted_events.size() & (tainted_events.size() - 1)) == 0) {
    std::vector<cl_event> all;
    for (const auto& [x, refs] : tainted_events) all.push_back(x);
    for (cl_event x : all) tainted(x);
  }
  tainted_count = tainted_events.size();
}

void propagate_taint(cl_uint n, const cl_event* list, const cl_event* event) {
  Runtime& rt = Runtime::get();
  if (rt.tainted_count == 0 || !event || !*event || !list) return;
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (rt.any_tainted(n, list)) rt.taint(*event, true);
}

namespace {

/// The wait list and event parameters of an enqueue entry point: the three parameters
/// (cl_uint, const cl_event*, cl_event*) at its end, or before a final cl_int* (maps).
template <typename... A>
constexpr std::size_t wait_list_position() {
  constexpr std::size_t n = sizeof...(A);
  using T = std::tuple<A...>;
  if constexpr (n >= 3) {
    if constexpr (std::is_same_v<std::tuple_element_t<n - 3, T>, cl_uint> &&
                  std::is_same_v<std::tuple_element_t<n - 2, T>, const cl_event*> &&
                  std::is_same_v<std::tuple_element_t<n - 1, T>, cl_event*>)
      return n - 3;
  }
  if constexpr (n >= 4) {
    if constexpr (std::is_same_v<std::tuple_element_t<n - 4, T>, cl_uint> &&
                  std::is_same_v<std::tuple_element_t<n - 3, T>, const cl_event*> &&
                  std::is_same_v<std::tuple_element_t<n - 2, T>, cl_event*> &&
                  std::is_same_v<std::tuple_element_t<n - 1, T>, cl_int*>)
      return n - 4;
  }
  return n;  // none
}

template <auto Field>
struct Forwarder;

template <typename R, typename... A, R (CL_API_CALL* cl_icd_dispatch::*Field)(A...)>
struct Forwarder<Field> {
  static constexpr std::size_t at = wait_list_position<A...>();
  static constexpr bool enqueues = at < sizeof...(A);
  static R CL_API_CALL call(A... a) {
    R r = (real().*Field)(a...);
    if constexpr (enqueues) {
      auto t = std::forward_as_tuple(a...);
      guarded(
          [&] {
            return propagate_taint(std::get<at>(t), std::get<at + 1>(t), std::get<at + 2>(t)), 0;
          },
          0);
    }
    return r;
  }
};

}  // namespace

void install_taint_forwarders(cl_icd_dispatch& table) {
  // Every enqueue entry point of the one table (src/clapi/entry_points.def); the hooks
  // installed after this replace the ones DL translates.
#define DL_CL_API(ret, name, params, args)                   \
  if constexpr (Forwarder<&cl_icd_dispatch::name>::enqueues) \
    if (table.name) table.name = &Forwarder<&cl_icd_dispatch::name>::call;
#include "entry_points.def"
}

namespace hook {

cl_event clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  cl_event e = real().clCreateUserEvent(context, errcode_ret);
  if (e)
    guarded(
        [&] {
          Runtime& rt = Runtime::get();
          std::lock_guard<std::mutex> lock(rt.mutex);
          rt.taint(e, true);
          return 0;
        },
        0);
  return e;
}

// The application's references to the events DL tracks as tainted: when it lets go of
// one, DL does too (the application can no longer wait on it).
cl_int clRetainEvent(cl_event event) {
  cl_int st = real().clRetainEvent(event);
  Runtime& rt = Runtime::get();
  if (st == CL_SUCCESS && rt.tainted_count) {
    std::lock_guard<std::mutex> lock(rt.mutex);
    if (auto it = rt.tainted_events.find(event); it != rt.tainted_events.end() && it->second)
      it->second++;
  }
  return st;
}

cl_int clReleaseEvent(cl_event event) {
  Runtime& rt = Runtime::get();
  if (rt.tainted_count) {
    std::lock_guard<std::mutex> lock(rt.mutex);
    auto it = rt.tainted_events.find(event);
    if (it != rt.tainted_events.end() && it->second && --it->second == 0) {
      rt.tainted_events.erase(it);
      rt.tainted_count = rt.tainted_events.size();
      release(event);  // DL's reference; the application's goes below
    }
  }
  return real().clReleaseEvent(event);
}

}  // namespace hook
}  // namespace dl::rt
