// Event profiling of DL's conversions and the application's kernels: device times for
// the report and the summary, and the Chrome-trace timeline (DL_TRACE), streamed to its
// file as commands complete so that a long run holds no trace in memory.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "runtime.hpp"

namespace dl::rt {
namespace {

struct Pending {
  std::string name, category;
  cl_command_queue queue;
  std::shared_ptr<KernelStats> ks;
  std::shared_ptr<BufferStats> bs;
  cl_event event = nullptr;  // retained until the callback
  bool recorded = false;     // by settle_profiles at exit, before its callback ran
  cl_event first = nullptr;  // where the span starts (retained), or null: `event` alone
};

/// Commands whose completion callback has not run yet (guarded by Runtime::trace_mutex).
/// Never destroyed: callbacks may run at exit.
std::set<Pending*>& in_flight() {
  static auto* s = new std::set<Pending*>();
  return *s;
}

/// The open trace file (guarded by Runtime::trace_mutex).
struct TraceFile {
  std::FILE* f = nullptr;
  bool failed = false;
  std::map<std::uintptr_t, int> tids;  // one track per queue
};

TraceFile& trace_file() {
  static TraceFile* t = new TraceFile();  // never destroyed: callbacks may run at exit
  return *t;
}

/// Appends one event; opens the file on first use. Called with trace_mutex held.
void emit(const nlohmann::json& ev) {
  Runtime& rt = Runtime::get();
  TraceFile& t = trace_file();
  if (t.failed) return;
  if (!t.f) {
    t.f = std::fopen(rt.controls.DL_TRACE.c_str(), "w");
    if (!t.f) {
      t.failed = true;
      log().error("cannot write the trace to {}", rt.controls.DL_TRACE);
      return;
    }
    std::fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", t.f);
    std::fputs(nlohmann::json({{"name", "process_name"},
                               {"ph", "M"},
                               {"pid", 1},
                               {"args", {{"name", "OpenCL device (DL)"}}}})
                   .dump()
                   .c_str(),
               t.f);
  }
  std::fputs(",\n", t.f);
  std::fputs(ev.dump().c_str(), t.f);
  // Nothing stays buffered: a child the application forks would write it again at exit.
  std::fflush(t.f);
}

void trace(const Pending& p, cl_ulong start, cl_ulong end) {
  TraceFile& t = trace_file();
  const auto q = reinterpret_cast<std::uintptr_t>(p.queue);
  auto [it, fresh] = t.tids.emplace(q, static_cast<int>(t.tids.size()) + 1);
  if (fresh)
    emit({{"name", "thread_name"},
          {"ph", "M"},
          {"pid", 1},
          {"tid", it->second},
          {"args", {{"name", fmt::format("queue {}", it->second)}}}});
  // Microseconds of the device's profiling clock.
  emit({{"name", p.name},
        {"cat", p.category},
        {"ph", "X"},
        {"pid", 1},
        {"tid", it->second},
        {"ts", static_cast<double>(start) / 1000.0},
        {"dur", static_cast<double>(end - start) / 1000.0}});
}

/// The device times of a completed command into its stats and the trace. Called with
/// trace_mutex held.
void record(Pending& p) {
  Runtime& rt = Runtime::get();
  p.recorded = true;
  cl_ulong start = 0, end = 0;
  if (real().clGetEventProfilingInfo(p.first ? p.first : p.event, CL_PROFILING_COMMAND_START,
                                     sizeof start, &start, nullptr) != CL_SUCCESS ||
      real().clGetEventProfilingInfo(p.event, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                     nullptr) != CL_SUCCESS)
    return;
  if (end < start) end = start;
  if (p.ks)
    (p.category == "gather"      ? p.ks->gather_ns
     : p.category == "host copy" ? p.ks->host_copy_ns
                                 : p.ks->device_ns) += end - start;
  if (p.bs) p.bs->device_ns += end - start;
  if (!rt.controls.DL_TRACE.empty()) trace(p, start, end);
}

void CL_CALLBACK on_complete(cl_event e, cl_int status, void* data) {
  Runtime& rt = Runtime::get();
  // DL_FAULT=late_profile: as if the callback came after the outputs were written (the
  // command stays in flight; settle_profiles reads it at exit).
  if (rt.controls.fault("late_profile")) return;
  std::unique_ptr<Pending> p(static_cast<Pending*>(data));
  std::lock_guard<std::mutex> lock(rt.trace_mutex);
  if (status == CL_COMPLETE && !p->recorded) record(*p);
  in_flight().erase(p.get());
  rt.pending_profiles--;
  release(p->first);
  release(e);
}

}  // namespace

void Runtime::profile(cl_event e, std::string name, std::string category, cl_command_queue q,
                      std::shared_ptr<KernelStats> ks, std::shared_ptr<BufferStats> bs,
                      cl_event first) {
  if (!e) return;
  retain(e);
  retain(first);
  auto* p = new Pending{
      std::move(name), std::move(category), q, std::move(ks), std::move(bs), e, false, first};
  {
    std::lock_guard<std::mutex> lock(trace_mutex);
    pending_profiles++;
    in_flight().insert(p);
  }
  if (real().clSetEventCallback(e, CL_COMPLETE, &on_complete, p) != CL_SUCCESS) {
    {
      std::lock_guard<std::mutex> lock(trace_mutex);
      in_flight().erase(p);
      pending_profiles--;
    }
    delete p;
    release(first);
    release(e);
  }
}

void settle_profiles() {
  // A driver may run completion callbacks late (PoCL on a loaded machine, after the
  // application's clFinish): completed commands are read here, their callbacks then only
  // free. Commands still running (a user event never set) are left out.
  for (Pending* p : in_flight()) {
    cl_int st = CL_QUEUED;
    if (p->recorded ||
        real().clGetEventInfo(p->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st,
                              nullptr) != CL_SUCCESS ||
        st != CL_COMPLETE)
      continue;
    record(*p);
  }
}

void close_trace() {
  Runtime& rt = Runtime::get();
  if (rt.controls.DL_TRACE.empty()) return;
  TraceFile& t = trace_file();
  if (!t.f && !t.failed) emit({{"name", "DL"}, {"ph", "i"}, {"pid", 1}, {"ts", 0}, {"s", "g"}});
  if (!t.f) return;
  std::fputs("\n]}\n", t.f);
  if (std::fclose(t.f) != 0) log().error("cannot write the trace to {}", rt.controls.DL_TRACE);
  t.f = nullptr;
  t.failed = true;  // nothing more after the closing bracket
}

}  // namespace dl::rt
