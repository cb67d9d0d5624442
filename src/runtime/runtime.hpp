// The DL tracking runtime (paper §5.2): state of programs, kernels, argument bindings
// and buffers, and the hooks that keep the application's view AoS while annotated
// kernels run on transformed layouts. Internal to libdl_interpose.so.
//
// Locking: one mutex guards all state. Every hooked enqueue that touches a tracked
// buffer runs (marshals and the real call, both non-blocking) under it, so that marshals
// and the application's commands reach the queue in one consistent order; blocking
// calls wait for their event after the lock is released.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "controls.hpp"
#include "dl/annotation.hpp"
#include "dl/layout.hpp"
#include "dl/marshal.hpp"

namespace spdlog {
class logger;
}

namespace dl::rt {

/// The real OpenCL entry points (never call cl* by symbol from DL's code).
const cl_icd_dispatch& real();

/// Installs the hooks into `table` (a copy of the real entry points). Reads the
/// controls; with DL_DISABLE nothing is installed.
void install(cl_icd_dispatch& table, const cl_icd_dispatch& real_entry_points);

spdlog::logger& log();

struct ProgramState {
  ProgramState() = default;
  ~ProgramState();
  ProgramState(const ProgramState&) = delete;
  ProgramState& operator=(const ProgramState&) = delete;
  cl_context context = nullptr;
  std::vector<std::string> sources;  // one per compiled input (several after clLinkProgram)
  SourceAnnotations ann;
  bool annotated = false;                  // has kernels whose annotated buffers all have records
  bool transformed = false;                // built with -DDL_ASTA_T
  std::uint32_t tile = 0;                  // the T it was built with
  std::string options;                     // the application's build options
  std::string link_options;                // for linked programs
  std::vector<std::string> input_options;  // compile options of each linked input
  bool always_fallback = false;            // linked from transformed and untransformed inputs
  std::vector<cl_device_id> devices;
  cl_program fallback = nullptr;  // same sources without DL_ASTA_T, built on demand
  bool fallback_failed = false;
  bool linked = false;
};

struct ArgValue {
  bool set = false;
  std::vector<unsigned char> bytes;  // empty with size for __local arguments
  std::size_t size = 0;
  cl_mem mem = nullptr;  // the value, when it names a buffer DL tracks
};

struct KernelStats {
  std::uint64_t launches = 0, transformed_launches = 0, fallbacks = 0, marshals = 0;
  std::uint64_t device_ns = 0;
  std::set<std::string> fallback_reasons;
};

struct KernelState {
  std::string name;
  std::shared_ptr<ProgramState> program;
  int annotation = -1;  // index into program->ann.kernels; -1: not annotated
  std::vector<ArgValue> args;
  cl_kernel fallback = nullptr;  // the same kernel from program->fallback
  std::shared_ptr<KernelStats> stats;
};

struct BufferStats {
  std::uint64_t id = 0;
  std::size_t size = 0;
  bool listed = false;  // in Runtime::buffer_stats (the report lists it)
  std::uint64_t marshals = 0, bytes = 0, device_ns = 0;
  std::uint64_t to_target = 0, to_aos = 0;
  std::set<std::string> algorithms, layouts, kernels;
};

struct BufferState {
  cl_mem mem = nullptr;
  std::uint64_t id = 0;
  cl_context context = nullptr;
  std::size_t size = 0;
  cl_mem_flags flags = 0;
  void* host_ptr = nullptr;
  cl_mem parent = nullptr;  // sub-buffers: the buffer they are a region of
  std::size_t origin = 0;   // offset in the parent
  std::vector<cl_mem> children;
  // Layout state (paper §5.2): the current layout, the n and record it was marshaled for.
  Layout layout = Layout::aos();
  std::size_t n = 0;
  Record record;
  bool annotated = false;       // ever bound to an annotated argument: track its users
  std::vector<cl_event> users;  // commands that touched it since its last marshal (nullptr:
                                // the last command of an in-order queue, no event asked for)
  std::vector<cl_command_queue> user_queues;  // their queues (in-order: the last one only)
  const Record* record_source = nullptr;      // the annotation's record it was marshaled for
  cl_command_queue last_queue = nullptr;
  std::shared_ptr<BufferStats> stats;
};

struct QueueInfo {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  bool in_order = true;
  bool profiling_added = false;
};

/// Wait list under construction: the application's events plus DL's, DL's released at
/// the end.
class WaitList {
 public:
  WaitList(cl_uint n, const cl_event* events) : app_(events, events + n) {}
  ~WaitList();
  WaitList(const WaitList&) = delete;
  WaitList& operator=(const WaitList&) = delete;
  /// Adds `e` (retains it).
  void add(cl_event e);
  /// After a marshal chained on everything so far: the marshal's event replaces the list.
  void replace(cl_event done);
  cl_uint size() const { return static_cast<cl_uint>(list().size()); }
  const cl_event* data() const { return list().empty() ? nullptr : list().data(); }

 private:
  const std::vector<cl_event>& list() const { return replaced_ ? own_ : merged(); }
  const std::vector<cl_event>& merged() const;
  std::vector<cl_event> app_;
  std::vector<cl_event> own_;  // retained by DL
  mutable std::vector<cl_event> merged_;
  bool replaced_ = false;
};

class Runtime {
 public:
  static Runtime& get();

  Controls controls;
  std::mutex mutex;
  std::unordered_map<cl_program, std::shared_ptr<ProgramState>> programs;
  std::unordered_map<cl_kernel, KernelState> kernels;
  std::unordered_map<cl_mem, BufferState> buffers;
  std::unordered_map<cl_command_queue, QueueInfo> queues;
  std::map<std::pair<cl_context, cl_device_id>, std::unique_ptr<Marshaler>> marshalers;
  std::atomic<std::size_t> transformed_buffers{0};  // buffers not in AoS right now
  std::uint64_t next_buffer_id = 1;
  Algorithm algorithm = Algorithm::Auto;

  // Everything below is called with `mutex` held.
  BufferState* buffer(cl_mem m);
  QueueInfo& queue(cl_command_queue q);
  Marshaler* marshaler(cl_context c, cl_device_id d);
  std::uint32_t tile_for(cl_context c, cl_device_id d);

  /// Sets the layout state of `b` (keeps transformed_buffers in step).
  void set_layout(BufferState& b, const Layout& l, std::size_t n, const Record* rec);
  /// Enqueues one marshal of `b` from its current layout to `to` on `q`, chained after
  /// `wait` (replaced by the marshal's event). Returns an error text, empty on success.
  std::string marshal(BufferState& b, cl_command_queue q, const Record& rec, std::size_t n,
                      const Layout& to, WaitList& wait, const std::string& why);
  /// Brings every buffer overlapping `m` (itself, its parent, sub-buffers) back to AoS.
  /// `skip_self`: leave `m` itself (its contents are about to be replaced). False when a
  /// marshal failed (the buffer could not be restored; logged).
  bool ensure_aos(cl_mem m, cl_command_queue q, WaitList& wait, const char* why,
                  bool skip_self = false);
  /// Adds to `wait` what a command on `q` must wait for: the users of `m` (and of
  /// overlapping buffers).
  void wait_users(cl_mem m, cl_command_queue q, WaitList& wait);
  /// The event a command on `q` waits for to follow user i of `b`; nullptr when `q` is that
  /// user's in-order queue (queue order suffices).
  cl_event user_event(BufferState& b, std::size_t i, cl_command_queue q);
  /// Records `e`, enqueued on `q`, as a user of `m` (only for buffers that are annotated).
  void add_user(cl_mem m, cl_event e, cl_command_queue q);
  /// Marks `m`'s contents as replaced by a whole-buffer write: AoS without a marshal.
  void reset_to_aos(cl_mem m);
  /// True when `m` or a buffer overlapping it is tracked closely (annotated).
  bool watched(cl_mem m);

  // Report and trace.
  void profile(cl_event e, std::string name, std::string category, cl_command_queue q,
               std::shared_ptr<KernelStats> ks, std::shared_ptr<BufferStats> bs);
  void write_outputs();
  void summary();

  std::vector<std::shared_ptr<KernelStats>> kernel_stats_order;
  std::map<std::string, std::shared_ptr<KernelStats>> kernel_stats;  // by kernel name
  std::vector<std::shared_ptr<BufferStats>> buffer_stats;
  std::shared_ptr<KernelStats> stats_for(const std::string& kernel);

  struct TraceEvent {
    std::string name, category;
    std::uint64_t start = 0, end = 0;
    std::uintptr_t queue = 0;
  };
  std::mutex trace_mutex;
  std::vector<TraceEvent> trace;
  std::uint64_t pending_profiles = 0;

 private:
  Runtime() = default;
  std::vector<BufferState*> family(cl_mem m);
};

/// Retains `e` through the real table (null-safe).
void retain(cl_event e);
void release(cl_event e);
/// Waits for `e` and releases it unless the application keeps it.
cl_int finish_blocking(cl_event e, bool app_keeps);

// The hooks (one file per concept). They keep the exact signatures of the entry points.
namespace hook {
// programs.cpp
decltype(::clCreateProgramWithSource) clCreateProgramWithSource;
decltype(::clBuildProgram) clBuildProgram;
decltype(::clCompileProgram) clCompileProgram;
decltype(::clLinkProgram) clLinkProgram;
decltype(::clReleaseProgram) clReleaseProgram;
// kernels.cpp
decltype(::clCreateKernel) clCreateKernel;
decltype(::clCreateKernelsInProgram) clCreateKernelsInProgram;
decltype(::clCloneKernel) clCloneKernel;
decltype(::clSetKernelArg) clSetKernelArg;
decltype(::clReleaseKernel) clReleaseKernel;
// buffers.cpp
decltype(::clCreateBuffer) clCreateBuffer;
decltype(::clCreateBufferWithProperties) clCreateBufferWithProperties;
decltype(::clCreateSubBuffer) clCreateSubBuffer;
decltype(::clReleaseMemObject) clReleaseMemObject;
// queues.cpp
decltype(::clCreateCommandQueue) clCreateCommandQueue;
decltype(::clCreateCommandQueueWithProperties) clCreateCommandQueueWithProperties;
decltype(::clGetCommandQueueInfo) clGetCommandQueueInfo;
decltype(::clReleaseCommandQueue) clReleaseCommandQueue;
// launch.cpp
decltype(::clEnqueueNDRangeKernel) clEnqueueNDRangeKernel;
decltype(::clEnqueueTask) clEnqueueTask;
// transfers.cpp
decltype(::clEnqueueReadBuffer) clEnqueueReadBuffer;
decltype(::clEnqueueReadBufferRect) clEnqueueReadBufferRect;
decltype(::clEnqueueWriteBuffer) clEnqueueWriteBuffer;
decltype(::clEnqueueWriteBufferRect) clEnqueueWriteBufferRect;
decltype(::clEnqueueFillBuffer) clEnqueueFillBuffer;
// copies.cpp
decltype(::clEnqueueCopyBuffer) clEnqueueCopyBuffer;
decltype(::clEnqueueCopyBufferRect) clEnqueueCopyBufferRect;
decltype(::clEnqueueCopyBufferToImage) clEnqueueCopyBufferToImage;
decltype(::clEnqueueCopyImageToBuffer) clEnqueueCopyImageToBuffer;
// maps.cpp
decltype(::clEnqueueMapBuffer) clEnqueueMapBuffer;
}  // namespace hook

/// Runs `f`, turning any C++ exception into `error` (never let one cross the C ABI).
template <typename F, typename R>
R guarded(F&& f, R error) {
  try {
    return f();
  } catch (...) {
    return error;
  }
}

}  // namespace dl::rt
