// The run report (DL_REPORT) and the Chrome-trace timeline (DL_TRACE), from OpenCL
// event profiling collected as commands complete.
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "runtime.hpp"

namespace dl::rt {
namespace {

struct Pending {
  std::string name, category;
  cl_command_queue queue;
  std::shared_ptr<KernelStats> ks;
  std::shared_ptr<BufferStats> bs;
};

void CL_CALLBACK on_complete(cl_event e, cl_int status, void* data) {
  std::unique_ptr<Pending> p(static_cast<Pending*>(data));
  Runtime& rt = Runtime::get();
  cl_ulong start = 0, end = 0;
  if (status == CL_COMPLETE &&
      real().clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                     nullptr) == CL_SUCCESS &&
      real().clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) ==
          CL_SUCCESS) {
    std::lock_guard<std::mutex> lock(rt.trace_mutex);
    const std::uint64_t ns = end > start ? end - start : 0;
    if (p->ks) p->ks->device_ns += ns;
    if (p->bs) p->bs->device_ns += ns;
    rt.trace.push_back(
        {p->name, p->category, start, end, reinterpret_cast<std::uintptr_t>(p->queue)});
  }
  {
    std::lock_guard<std::mutex> lock(rt.trace_mutex);
    rt.pending_profiles--;
  }
  release(e);
}

}  // namespace

void Runtime::profile(cl_event e, std::string name, std::string category, cl_command_queue q,
                      std::shared_ptr<KernelStats> ks, std::shared_ptr<BufferStats> bs) {
  if (!e) return;
  retain(e);
  auto* p = new Pending{std::move(name), std::move(category), q, std::move(ks), std::move(bs)};
  {
    std::lock_guard<std::mutex> lock(trace_mutex);
    pending_profiles++;
  }
  if (real().clSetEventCallback(e, CL_COMPLETE, &on_complete, p) != CL_SUCCESS) {
    delete p;
    std::lock_guard<std::mutex> lock(trace_mutex);
    pending_profiles--;
    release(e);
  }
}

namespace {

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : s)
    if (c == '\0') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

template <typename S>
nlohmann::json list(const S& set) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& x : set) a.push_back(x);
  return a;
}

}  // namespace

void Runtime::summary() {
  std::uint64_t launches = 0, transformed = 0, fallbacks = 0, marshals = 0, bytes = 0, ns = 0;
  for (const auto& [name, k] : kernel_stats) {
    launches += k->launches;
    transformed += k->transformed_launches;
    fallbacks += k->fallbacks;
  }
  for (const auto& b : buffer_stats) {
    marshals += b->marshals;
    bytes += b->bytes;
    ns += b->device_ns;
  }
  std::fprintf(stderr,
               "[dl] summary: %llu kernel launches (%llu transformed, %llu fallbacks), %llu "
               "marshals, %.1f MB moved, %.3f ms marshal device time\n",
               (unsigned long long)launches, (unsigned long long)transformed,
               (unsigned long long)fallbacks, (unsigned long long)marshals, bytes / 1e6, ns / 1e6);
  for (const auto& [name, k] : kernel_stats)
    if (k->transformed_launches || k->fallbacks)
      std::fprintf(stderr,
                   "[dl]   kernel %s: %llu launches, %llu transformed, %llu marshals before "
                   "launches, %.3f ms\n",
                   name.c_str(), (unsigned long long)k->launches,
                   (unsigned long long)k->transformed_launches, (unsigned long long)k->marshals,
                   k->device_ns / 1e6);
  for (const auto& b : buffer_stats) {
    std::string conv, algo;
    for (const auto& c : b->layouts) conv += (conv.empty() ? "" : ", ") + c;
    for (const auto& a : b->algorithms) algo += (algo.empty() ? "" : ", ") + a;
    std::fprintf(stderr, "[dl]   buffer #%llu (%zu bytes): %llu marshals (%s; %s), %.3f ms\n",
                 (unsigned long long)b->id, b->size, (unsigned long long)b->marshals, conv.c_str(),
                 algo.c_str(), b->device_ns / 1e6);
  }
}

void Runtime::write_outputs() {
  using nlohmann::json;
  // Commands still in flight at exit: give their completion callbacks a moment.
  for (int i = 0; i < 100; ++i) {
    {
      std::lock_guard<std::mutex> lock(trace_mutex);
      if (pending_profiles == 0) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::lock_guard<std::mutex> lock(mutex);
  std::lock_guard<std::mutex> tlock(trace_mutex);
  if (!controls.DL_REPORT.empty()) {
    json r;
    r["tool"] = "DL libdl_interpose";
    r["command"] = command_line();
    r["date"] = now_iso();
    json c;
#define DL_CONTROL(type, name, def, doc) c[#name] = controls.name;
#include "controls.def"
#undef DL_CONTROL
    r["controls"] = c;
    json ks = json::array();
    std::uint64_t launches = 0, transformed = 0, fallbacks = 0;
    for (const auto& [name, s] : kernel_stats) {
      launches += s->launches;
      transformed += s->transformed_launches;
      fallbacks += s->fallbacks;
      ks.push_back({{"name", name},
                    {"launches", s->launches},
                    {"transformed_launches", s->transformed_launches},
                    {"fallbacks", s->fallbacks},
                    {"fallback_reasons", list(s->fallback_reasons)},
                    {"marshals", s->marshals},
                    {"device_ns", s->device_ns}});
    }
    json bs = json::array();
    std::uint64_t marshals = 0, bytes = 0, mns = 0;
    for (const auto& s : buffer_stats) {
      marshals += s->marshals;
      bytes += s->bytes;
      mns += s->device_ns;
      bs.push_back({{"id", s->id},
                    {"size", s->size},
                    {"marshals", s->marshals},
                    {"to_target", s->to_target},
                    {"to_aos", s->to_aos},
                    {"bytes", s->bytes},
                    {"device_ns", s->device_ns},
                    {"algorithms", list(s->algorithms)},
                    {"conversions", list(s->layouts)},
                    {"kernels", list(s->kernels)}});
    }
    r["totals"] = {{"kernel_launches", launches}, {"transformed_launches", transformed},
                   {"fallbacks", fallbacks},      {"marshals", marshals},
                   {"marshal_bytes", bytes},      {"marshal_device_ns", mns}};
    r["kernels"] = ks;
    r["buffers"] = bs;
    std::ofstream out(controls.DL_REPORT);
    out << r.dump(2) << "\n";
    if (!out) log().error("cannot write the report to {}", controls.DL_REPORT);
  }
  if (controls.DL_SUMMARY) summary();
  if (!controls.DL_TRACE.empty()) {
    std::uint64_t t0 = ~std::uint64_t(0);
    for (const auto& e : trace) t0 = std::min(t0, e.start);
    std::map<std::uintptr_t, int> tids;
    json evs = json::array();
    evs.push_back({{"name", "process_name"},
                   {"ph", "M"},
                   {"pid", 1},
                   {"args", {{"name", "OpenCL device (DL)"}}}});
    for (const auto& e : trace) {
      auto [it, fresh] = tids.emplace(e.queue, static_cast<int>(tids.size()) + 1);
      if (fresh)
        evs.push_back({{"name", "thread_name"},
                       {"ph", "M"},
                       {"pid", 1},
                       {"tid", it->second},
                       {"args", {{"name", fmt::format("queue {}", it->second)}}}});
      evs.push_back({{"name", e.name},
                     {"cat", e.category},
                     {"ph", "X"},
                     {"pid", 1},
                     {"tid", it->second},
                     {"ts", static_cast<double>(e.start - t0) / 1000.0},
                     {"dur", static_cast<double>(e.end - e.start) / 1000.0}});
    }
    json t = {{"traceEvents", evs}, {"displayTimeUnit", "ns"}};
    std::ofstream out(controls.DL_TRACE);
    out << t.dump() << "\n";
    if (!out) log().error("cannot write the trace to {}", controls.DL_TRACE);
  }
}

}  // namespace dl::rt
