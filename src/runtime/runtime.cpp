// The runtime singleton, installation of the hooks, logging, wait lists.
#include "runtime.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>

namespace dl::rt {
namespace {

cl_icd_dispatch g_real{};

std::shared_ptr<spdlog::logger> make_logger() {
  auto l = spdlog::stderr_color_mt("dl");
  l->set_pattern("[dl] [%l] %v");
  l->set_level(spdlog::level::warn);
  return l;
}

void at_exit() {
  Runtime::get().write_outputs();
}

}  // namespace

const cl_icd_dispatch& real() {
  return g_real;
}

spdlog::logger& log() {
  static std::shared_ptr<spdlog::logger> l = make_logger();
  return *l;
}

Runtime& Runtime::get() {
  // Never destroyed: hooks may run from driver threads and exit handlers.
  static Runtime* r = new Runtime();
  return *r;
}

void install(cl_icd_dispatch& table, const cl_icd_dispatch& real_entry_points) {
  g_real = real_entry_points;
  Runtime& rt = Runtime::get();
  std::vector<std::string> errors;
  rt.controls = Controls::from_env(&errors);
  log().set_level(spdlog::level::from_str(rt.controls.DL_LOG_LEVEL));
  for (const auto& e : errors) log().warn("{}", e);
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
  DL_HOOK(clCreateProgramWithSource)
  DL_HOOK(clBuildProgram)
  DL_HOOK(clCompileProgram)
  DL_HOOK(clLinkProgram)
  DL_HOOK(clReleaseProgram)
  DL_HOOK(clCreateKernel)
  DL_HOOK(clCreateKernelsInProgram)
  DL_HOOK(clCloneKernel)
  DL_HOOK(clSetKernelArg)
  DL_HOOK(clReleaseKernel)
  DL_HOOK(clCreateBuffer)
  DL_HOOK(clCreateBufferWithProperties)
  DL_HOOK(clCreateSubBuffer)
  DL_HOOK(clReleaseMemObject)
  DL_HOOK(clCreateCommandQueue)
  DL_HOOK(clCreateCommandQueueWithProperties)
  DL_HOOK(clGetCommandQueueInfo)
  DL_HOOK(clReleaseCommandQueue)
  DL_HOOK(clEnqueueNDRangeKernel)
  DL_HOOK(clEnqueueTask)
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
#undef DL_HOOK
  static bool at_exit_registered = false;  // install() runs again when a layer follows preload
  if (rt.controls.profiling() && !at_exit_registered) {
    std::atexit(at_exit);
    at_exit_registered = true;
  }
  log().info("DL runtime active (tile {}, algorithm {})", rt.controls.DL_TILE,
             rt.controls.DL_ALGORITHM);
}

void retain(cl_event e) {
  if (e) real().clRetainEvent(e);
}
void release(cl_event e) {
  if (e) real().clReleaseEvent(e);
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

WaitList::~WaitList() {
  for (cl_event e : own_) release(e);
}

void WaitList::add(cl_event e) {
  if (!e) return;
  retain(e);
  own_.push_back(e);
}

const std::vector<cl_event>& WaitList::merged() const {
  merged_ = app_;
  merged_.insert(merged_.end(), own_.begin(), own_.end());
  return merged_;
}

void WaitList::replace(cl_event done) {
  for (cl_event e : own_) release(e);
  own_.clear();
  own_.push_back(done);  // takes the reference
  replaced_ = true;
}

std::shared_ptr<KernelStats> Runtime::stats_for(const std::string& kernel) {
  auto& s = kernel_stats[kernel];
  if (!s) s = std::make_shared<KernelStats>();
  return s;
}

}  // namespace dl::rt
