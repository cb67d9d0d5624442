// The runtime singleton, installation of the hooks, logging, wait lists.
#include "runtime.hpp"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "policy.hpp"

namespace dl::rt {
namespace {

cl_icd_dispatch g_real{};

pid_t g_pid = 0;                  // the process DL was loaded into
std::atomic<bool> g_used{false};  // an OpenCL call reached DL in this process (install)

void at_exit() {
  // A child the application forked inherits this handler: the report, summary and trace
  // belong to the process DL was loaded into, as does the controller's experience (for
  // the next run).
  if (::getpid() != g_pid) return;
  // A program the application runs (a shell, the linker an OpenCL implementation calls)
  // inherits LD_PRELOAD and so loads DL, but never calls OpenCL: it has nothing to
  // report, and its outputs would replace the application's (a trace the application is
  // still writing, truncated under it).
  if (!g_used.load()) return;
  Runtime& rt = Runtime::get();
  if (rt.controls.profiling()) rt.write_outputs();
  save_experience();
  save_widths();
}

}  // namespace

const cl_icd_dispatch& real() {
  return g_real;
}

spdlog::logger& log() {
  return dl::logger();
}

Runtime& Runtime::get() {
  // Never destroyed: hooks may run from driver threads and exit handlers.
  static Runtime* r = new Runtime();
  return *r;
}

void start() {
  static std::once_flag once;
  std::call_once(once, [] {
    Runtime& rt = Runtime::get();
    std::vector<std::string> errors;
    rt.controls = Controls::from_env(&errors);
    log().set_level(spdlog::level::from_str(rt.controls.DL_LOG_LEVEL));
    for (const auto& e : errors) log().warn("{}", e);
    // The report, summary and trace are written at exit even when no OpenCL call went
    // through DL (DL_DISABLE): they say so. (Not by a process in which no OpenCL call
    // reached DL, at_exit.)
    g_pid = ::getpid();
    if (rt.controls.profiling() || rt.controls.DL_POLICY == "auto") std::atexit(at_exit);
  });
}

void install(cl_icd_dispatch& table, const cl_icd_dispatch& real_entry_points) {
  g_real = real_entry_points;
  start();
  g_used = true;
  Runtime& rt = Runtime::get();
  if (rt.controls.DL_DISABLE) {
    log().info("DL_DISABLE set: pass-through");
    return;
  }
  if (!parse_algorithm(rt.controls.DL_ALGORITHM, rt.algorithm) &&
      rt.controls.DL_ALGORITHM != "auto") {
    log().warn("DL_ALGORITHM='{}' is not an algorithm, using auto", rt.controls.DL_ALGORITHM);
    rt.algorithm = Algorithm::Auto;
  }
  if (rt.controls.DL_ALGORITHM == "auto") rt.algorithm = Algorithm::Auto;
#define DL_HOOK(name) table.name = &hook::name;
  install_taint_forwarders(table);  // every enqueue; the hooks below replace some
  DL_HOOK(clCreateProgramWithSource)
  DL_HOOK(clBuildProgram)
  DL_HOOK(clCompileProgram)
  DL_HOOK(clLinkProgram)
  DL_HOOK(clRetainProgram)
  DL_HOOK(clReleaseProgram)
  DL_HOOK(clCreateKernel)
  DL_HOOK(clCreateKernelsInProgram)
  DL_HOOK(clCloneKernel)
  DL_HOOK(clSetKernelArg)
  DL_HOOK(clRetainKernel)
  DL_HOOK(clReleaseKernel)
  DL_HOOK(clCreateBuffer)
  DL_HOOK(clCreateBufferWithProperties)
  DL_HOOK(clCreateSubBuffer)
  DL_HOOK(clCreateImage)
  DL_HOOK(clCreateImageWithProperties)
  DL_HOOK(clCreateUserEvent)
  DL_HOOK(clRetainEvent)
  DL_HOOK(clReleaseEvent)
  DL_HOOK(clCreateCommandQueue)
  DL_HOOK(clCreateCommandQueueWithProperties)
  DL_HOOK(clGetCommandQueueInfo)
  DL_HOOK(clRetainCommandQueue)
  DL_HOOK(clReleaseCommandQueue)
  DL_HOOK(clEnqueueNDRangeKernel)
  DL_HOOK(clEnqueueTask)
  DL_HOOK(clEnqueueNativeKernel)
  DL_HOOK(clEnqueueReadBuffer)
  DL_HOOK(clEnqueueReadBufferRect)
  DL_HOOK(clEnqueueWriteBuffer)
  DL_HOOK(clEnqueueWriteBufferRect)
  DL_HOOK(clEnqueueFillBuffer)
  DL_HOOK(clEnqueueCopyBuffer)
  DL_HOOK(clEnqueueCopyBufferRect)
  DL_HOOK(clEnqueueCopyBufferToImage)
  DL_HOOK(clEnqueueCopyImageToBuffer)
  DL_HOOK(clEnqueueMapBuffer)
  DL_HOOK(clEnqueueUnmapMemObject)
#undef DL_HOOK
  log().info("DL runtime active (tile {}, algorithm {})", rt.controls.DL_TILE,
             rt.controls.DL_ALGORITHM);
}

void retain(cl_event e) {
  if (e) real().clRetainEvent(e);
}
void release(cl_event e) {
  if (e) real().clReleaseEvent(e);
}

void release(Spans& s) {
  for (auto& [first, last] : s) {
    release(first);
    release(last);
  }
  s.clear();
}

double device_ns(cl_event e) {
  return span_ns(e, e);
}

double span_ns(cl_event first, cl_event last) {
  cl_int status = CL_COMPLETE;
  cl_ulong start = 0, end = 0;
  if (real().clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                            nullptr) != CL_SUCCESS ||
      status != CL_COMPLETE ||
      real().clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                     nullptr) != CL_SUCCESS ||
      real().clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
          CL_SUCCESS ||
      end < start)
    return -1;
  return static_cast<double>(end - start);
}

cl_int finish_blocking(cl_event e, bool app_keeps) {
  cl_int st = real().clWaitForEvents(1, &e);
  if (st == CL_SUCCESS) {
    cl_int exec = CL_COMPLETE;
    real().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, nullptr);
    if (exec < 0) st = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  if (!app_keeps) release(e);
  return st;
}

EventSlot::~EventSlot() {
  release(e);
}

WaitList::~WaitList() {
  for (cl_event e : own_) release(e);
}

void WaitList::add(cl_event e) {
  if (!e) return;
  retain(e);
  own_.push_back(e);
}

const std::vector<cl_event>& WaitList::all() const {
  if (app_.empty()) return own_;
  merged_ = app_;
  merged_.insert(merged_.end(), own_.begin(), own_.end());
  return merged_;
}

void WaitList::settle_before_failure() {
  if (app_may_fail_ && !own_.empty())
    real().clWaitForEvents(static_cast<cl_uint>(own_.size()), own_.data());
}

void WaitList::converted(cl_event done) {
  for (cl_event e : own_) release(e);
  own_.clear();
  if (done) own_.push_back(done);  // takes the reference
}

std::shared_ptr<KernelStats> Runtime::stats_for(const std::string& kernel) {
  auto& s = kernel_stats[kernel];
  if (!s) s = std::make_shared<KernelStats>();
  return s;
}

}  // namespace dl::rt
