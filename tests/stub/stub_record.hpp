// The call record shared by the stub driver (stub_icd.cpp) and the test application
// (stub_app.cpp). Both format a call from the types of its parameters alone, so the
// application can compare what it passed and got back with what the driver received and
// returned, whatever DL did in between.
//
//   in:  every argument: numbers and handles by value, pointers by address, an event wait
//        list by its events (DL may pass a copy of the list), an out-parameter only as
//        "out" or "null" (DL may collect a result in its own variable and copy it back)
//   ret: the return value
//   out: what each out-parameter holds after the call ("-": not written), and the first
//        bytes of a query's param_value
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl_icd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace dlstub {

/// The objects of the API, in the order of Control::live().
enum Kind { Platform, Device, Context, Queue, Mem, Program, Kernel, Event, Sampler, NumKinds };
inline const char* kind_name(int k) {
  static const char* const names[] = {"platform", "device", "context", "queue",  "mem",
                                      "program",  "kernel", "event",   "sampler"};
  return k >= 0 && k < NumKinds ? names[k] : "?";
}

template <class T>
struct handle_kind : std::integral_constant<int, -1> {};
template <>
struct handle_kind<cl_platform_id> : std::integral_constant<int, Platform> {};
template <>
struct handle_kind<cl_device_id> : std::integral_constant<int, Device> {};
template <>
struct handle_kind<cl_context> : std::integral_constant<int, Context> {};
template <>
struct handle_kind<cl_command_queue> : std::integral_constant<int, Queue> {};
template <>
struct handle_kind<cl_mem> : std::integral_constant<int, Mem> {};
template <>
struct handle_kind<cl_program> : std::integral_constant<int, Program> {};
template <>
struct handle_kind<cl_kernel> : std::integral_constant<int, Kernel> {};
template <>
struct handle_kind<cl_event> : std::integral_constant<int, Event> {};
template <>
struct handle_kind<cl_sampler> : std::integral_constant<int, Sampler> {};

template <class T>
inline constexpr bool is_handle = handle_kind<T>::value >= 0;

/// An out-parameter: a non-const pointer to a number or a handle (errcode_ret, event,
/// param_value_size_ret, num_kernels_ret, ...).
template <class T>
struct out_param : std::false_type {};
template <class U>
struct out_param<U*>
    : std::bool_constant<!std::is_const_v<U> && (std::is_arithmetic_v<U> || is_handle<U>)> {};
template <class T>
inline constexpr bool is_out = out_param<T>::value;

/// The wait list of an enqueue (or clWaitForEvents): its length is the argument before it.
template <class T>
inline constexpr bool is_event_list = std::is_same_v<T, const cl_event*>;

inline void hex(std::string& s, unsigned long long v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", v);
  s += b;
}

template <class T>
void value(std::string& s, const T& v) {
  if constexpr (is_handle<T>) {
    s += 'h';
    hex(s, reinterpret_cast<std::uintptr_t>(v));
  } else if constexpr (std::is_pointer_v<T>) {
    s += 'p';
    hex(s, reinterpret_cast<std::uintptr_t>(v));
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "a parameter type to format");
    hex(s, static_cast<unsigned long long>(v));
  }
}

/// The largest wait list the record spells out.
constexpr unsigned long long kMaxList = 64;

template <class... A>
std::string format_in(const A&... a) {
  std::string s;
  unsigned long long count = 0;  // the last number: the length of a following wait list
  bool first = true;
  auto one = [&](const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if (!first) s += ',';
    first = false;
    if constexpr (is_event_list<T>) {
      if (!v) {
        s += "null";
      } else {
        s += '[';
        for (unsigned long long i = 0; i < count && i < kMaxList; ++i) {
          if (i) s += ' ';
          value(s, v[i]);
        }
        s += ']';
      }
    } else if constexpr (is_out<T>) {
      s += v ? "out" : "null";
    } else {
      value(s, v);
    }
    if constexpr (std::is_integral_v<T>) count = static_cast<unsigned long long>(v);
  };
  (one(a), ...);
  (void)one;  // no arguments
  return s;
}

template <class R>
std::string format_ret(const R& r) {
  std::string s;
  value(s, r);
  return s;
}

/// `written(p, size)`: whether the callee wrote the out-parameter at `p` (`size` bytes).
template <class Written, class... A>
std::string format_out(Written&& written, const A&... a) {
  std::string s;
  int i = 0;
  unsigned long long size = 0;  // the last number: the size of a following param_value
  auto one = [&](const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (is_out<T>) {
      if (v) {
        s += std::to_string(i) + '=';
        if (written(static_cast<const void*>(v), sizeof *v))
          value(s, *v);
        else
          s += '-';
        s += ';';
      }
    } else if constexpr (std::is_same_v<T, void*>) {
      if (v && size) {
        s += std::to_string(i) + ":";
        const auto* b = static_cast<const unsigned char*>(v);
        for (unsigned long long k = 0; k < size && k < 8; ++k) hex(s, b[k]);
        s += ';';
      }
    }
    size = 0;
    if constexpr (std::is_integral_v<T>) size = static_cast<unsigned long long>(v);
    ++i;
  };
  (one(a), ...);
  (void)one;  // no arguments
  return s;
}

/// One call as the driver saw it.
struct CallRecord {
  const char* name;
  const char* in;
  const char* ret;
  const char* out;
};

/// What the stub driver offers its test application (dlsym "dl_stub_control").
struct Control {
  int version;
  cl_platform_id (*platform)();
  std::size_t (*count)();                   // calls recorded so far
  CallRecord (*record)(std::size_t index);  // one of them
  void (*set_failing)(int on);    // every call fails with its own code (known queries excepted)
  std::size_t (*live)(int kind);  // objects of that kind not released (root objects excepted)
  std::size_t (*error_count)();   // misuse seen: a released object used or released again
  const char* (*error)(std::size_t index);
};
constexpr int kControlVersion = 1;
using ControlFn = const Control* (*)();

/// What the application finds in an out-parameter the driver did not write.
constexpr unsigned char kSentinel = 0xA5;

/// The suffix of the stub's extension functions (CL_PLATFORM_ICD_SUFFIX_KHR).
constexpr const char* kSuffix = "DLSTUB";

}  // namespace dlstub
