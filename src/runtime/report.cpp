// The run report (DL_REPORT) and the summary (DL_SUMMARY), written at exit from the
// statistics the runtime keeps and the device times of event profiling (trace.cpp).
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "calibration.hpp"
#include "disk_cache.hpp"
#include "runtime.hpp"

namespace dl::rt {
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
nlohmann::json json_list(const S& set) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& x : set) a.push_back(x);
  return a;
}

}  // namespace

void Runtime::list(BufferState& b) {
  if (b.stats->listed) return;
  b.stats->listed = true;
  buffer_stats.emplace(b.id, b.stats);
}

void Runtime::retire(BufferState& b) {
  if (!b.stats->listed || buffer_stats.size() <= kListedBuffers) return;
  BufferStats& o = other_buffers;
  const BufferStats& s = *b.stats;
  other_buffer_count++;
  o.size += s.size;
  o.marshals += s.marshals;
  o.bytes += s.bytes;
  o.device_ns += s.device_ns;
  o.to_target += s.to_target;
  o.to_aos += s.to_aos;
  o.state_only += s.state_only;
  o.uploads += s.uploads;
  o.upload_chunks += s.upload_chunks;
  o.algorithms.insert(s.algorithms.begin(), s.algorithms.end());
  o.layouts.insert(s.layouts.begin(), s.layouts.end());
  o.kernels.insert(s.kernels.begin(), s.kernels.end());
  buffer_stats.erase(b.id);
}

namespace {

nlohmann::json buffer_row(const BufferStats& s) {
  return {{"id", s.id},
          {"size", s.size},
          {"marshals", s.marshals},
          {"to_target", s.to_target},
          {"to_aos", s.to_aos},
          {"state_only", s.state_only},
          {"uploads", s.uploads},
          {"upload_chunks", s.upload_chunks},
          {"bytes", s.bytes},
          {"device_ns", s.device_ns},
          {"algorithms", json_list(s.algorithms)},
          {"conversions", json_list(s.layouts)},
          {"kernels", json_list(s.kernels)}};
}

std::string joined(const std::set<std::string>& set) {
  std::string o;
  for (const auto& x : set) o += (o.empty() ? "" : ", ") + x;
  return o;
}

}  // namespace

nlohmann::json Runtime::policy_report() {
  using nlohmann::json;
  json devices = json::array();
  for (const auto& [d, p] : profiles)
    devices.push_back({{"device", p->key},
                       {"calibrated", p->valid},
                       {"cached", p->cached},
                       {"may_pay", p->may_pay},
                       {"tile", p->tile},
                       {"to_layout_GBps", p->to_layout_bytes_per_ns},
                       {"to_aos_GBps", p->to_aos_bytes_per_ns},
                       {"probe_aos_ms", p->aos_probe_ns / 1e6},
                       {"probe_asta_ms", p->asta_probe_ns / 1e6},
                       {"calibration_s", p->seconds}});
  json rules = json::array();
  std::lock_guard<std::mutex> lock(policy_mutex);
  for (const auto& [key, kp] : policies) {
    const ConversionPolicy& r = kp->rule;
    const char* verdict = r.verdict() == ConversionPolicy::Verdict::Pays    ? "pays"
                          : r.verdict() == ConversionPolicy::Verdict::Never ? "never"
                                                                            : "unknown";
    rules.push_back({{"kernel", kp->kernel},
                     {"verdict", verdict},
                     {"aos_ms", r.aos_ns() / 1e6},
                     {"transformed_ms", r.transformed_ns() / 1e6},
                     {"round_trip_ms", r.round_trip_ns() / 1e6},
                     {"beta", r.beta()},
                     {"recalled", r.recalled()},
                     {"predicts_long_epochs", r.predicts_long_epochs()},
                     {"kept_aos", kp->kept_aos},
                     {"decision", kp->last_reason}});
  }
  return {{"mode", controls.DL_POLICY}, {"devices", devices}, {"kernels", rules}};
}

void Runtime::summary() {
  // A process that never built a program or launched a kernel (a compiler the OpenCL
  // implementation runs, which inherits LD_PRELOAD) has nothing to say.
  if (kernel_stats.empty() && buffer_stats.empty() && auto_rewrites.empty()) return;
  std::uint64_t launches = 0, transformed = 0, fallbacks = 0;
  std::uint64_t marshals = other_buffers.marshals, bytes = other_buffers.bytes,
                ns = other_buffers.device_ns, state_only = other_buffers.state_only;
  for (const auto& [name, k] : kernel_stats) {
    launches += k->launches;
    transformed += k->transformed_launches;
    fallbacks += k->fallbacks;
  }
  for (const auto& [id, b] : buffer_stats) {
    marshals += b->marshals;
    bytes += b->bytes;
    ns += b->device_ns;
    state_only += b->state_only;
  }
  std::fprintf(stderr,
               "[dl] summary: %llu kernel launches (%llu transformed, %llu fallbacks), %llu "
               "marshals, %.1f MB moved, %.3f ms marshal device time\n",
               (unsigned long long)launches, (unsigned long long)transformed,
               (unsigned long long)fallbacks, (unsigned long long)marshals, bytes / 1e6, ns / 1e6);
  if (state_only)
    std::fprintf(stderr,
                 "[dl]   %llu layout changes without a conversion (content uniform, or "
                 "undefined and not read)\n",
                 (unsigned long long)state_only);
  for (const auto& a : auto_rewrites) {
    std::string names;
    for (const auto& k : a.kernels) names += (names.empty() ? "" : ", ") + k;
    std::fprintf(stderr, "[dl]   auto: program %s (%s, %.3f s)%s%s\n",
                 a.ok ? "rewritten" : "not rewritten", a.cached ? "cached" : "dl-annotate ran",
                 a.seconds, names.empty() ? "" : ": inferred annotations of ",
                 names.empty() ? (" - " + a.why).c_str() : names.c_str());
  }
  for (const auto& [name, k] : kernel_stats) {
    if (k->transformed_launches || k->fallbacks)
      std::fprintf(stderr,
                   "[dl]   kernel %s: %llu launches, %llu transformed, %llu marshals before "
                   "launches, %.3f ms\n",
                   name.c_str(), (unsigned long long)k->launches,
                   (unsigned long long)k->transformed_launches, (unsigned long long)k->marshals,
                   k->device_ns / 1e6);
    if (k->gathers || k->gathers_reused)
      std::fprintf(stderr, "[dl]     gathered copies: %llu gathered (%.3f ms), %llu read again\n",
                   (unsigned long long)k->gathers, k->gather_ns / 1e6,
                   (unsigned long long)k->gathers_reused);
    if (k->host_copies || k->host_copies_reused)
      std::fprintf(stderr,
                   "[dl]     layout copies (read-only arguments, host-visible memory): %llu made "
                   "(%.3f ms), %llu read again\n",
                   (unsigned long long)k->host_copies, k->host_copy_ns / 1e6,
                   (unsigned long long)k->host_copies_reused);
    if (k->copies_freed)
      std::fprintf(stderr, "[dl]     kept copies freed to make room (DL_COPY_BUDGET): %llu\n",
                   (unsigned long long)k->copies_freed);
    for (const auto& why : k->fallback_reasons)
      std::fprintf(stderr, "[dl]     untransformed: %s\n", why.c_str());
    if (k->kept_aos || !k->policy.empty())
      std::fprintf(stderr, "[dl]     policy %s: %llu launches kept AoS; %s\n",
                   controls.DL_POLICY.c_str(), (unsigned long long)k->kept_aos, k->policy.c_str());
    if (!k->offsets.empty()) std::fprintf(stderr, "[dl]     %s\n", k->offsets.c_str());
  }
  for (const auto& [id, b] : buffer_stats) {
    std::string extra;
    if (b->state_only) extra += fmt::format(", {} without a conversion", b->state_only);
    if (b->uploads)
      extra += fmt::format(", {} as uploads landed ({} chunks)", b->uploads, b->upload_chunks);
    std::fprintf(stderr, "[dl]   buffer #%llu (%zu bytes): %llu marshals (%s; %s), %.3f ms%s\n",
                 (unsigned long long)b->id, b->size, (unsigned long long)b->marshals,
                 joined(b->layouts).c_str(), joined(b->algorithms).c_str(), b->device_ns / 1e6,
                 extra.c_str());
  }
  if (other_buffer_count)
    std::fprintf(stderr, "[dl]   %llu other released buffers: %llu marshals, %.3f ms\n",
                 (unsigned long long)other_buffer_count, (unsigned long long)other_buffers.marshals,
                 other_buffers.device_ns / 1e6);
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
  settle_profiles();
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
    std::uint64_t launches = 0, transformed = 0, fallbacks = 0, host_copies = 0;
    for (const auto& [name, s] : kernel_stats) {
      host_copies += s->host_copies;
      launches += s->launches;
      transformed += s->transformed_launches;
      fallbacks += s->fallbacks;
      ks.push_back({{"name", name},
                    {"launches", s->launches},
                    {"transformed_launches", s->transformed_launches},
                    {"kept_aos", s->kept_aos},
                    {"policy", s->policy},
                    {"offsets", s->offsets},
                    {"fallbacks", s->fallbacks},
                    {"fallback_reasons", json_list(s->fallback_reasons)},
                    {"marshals", s->marshals},
                    {"gathers", s->gathers},
                    {"gathers_reused", s->gathers_reused},
                    {"gather_ns", s->gather_ns},
                    {"host_copies", s->host_copies},
                    {"host_copies_reused", s->host_copies_reused},
                    {"host_copy_ns", s->host_copy_ns},
                    {"copies_freed", s->copies_freed},
                    {"device_ns", s->device_ns}});
    }
    r["policy"] = policy_report();
    json bs = json::array();
    std::uint64_t marshals = other_buffers.marshals, bytes = other_buffers.bytes,
                  mns = other_buffers.device_ns, state_only = other_buffers.state_only,
                  uploads = other_buffers.uploads;
    for (const auto& [id, s] : buffer_stats) {
      state_only += s->state_only;
      uploads += s->uploads;
      marshals += s->marshals;
      bytes += s->bytes;
      mns += s->device_ns;
      bs.push_back(buffer_row(*s));
    }
    r["totals"] = {{"kernel_launches", launches}, {"transformed_launches", transformed},
                   {"fallbacks", fallbacks},      {"marshals", marshals},
                   {"marshal_bytes", bytes},      {"marshal_device_ns", mns},
                   {"state_only", state_only},    {"uploads", uploads},
                   {"host_copies", host_copies}};
    r["kernels"] = ks;
    r["buffers"] = bs;
    json caches = {{"mib", controls.DL_CACHE_MIB}};
    for (const DiskCache* dc : {&program_cache(), &plan_cache()}) {
      const DiskCacheStats s = dc->stats();
      caches[dc->kind()] = {{"loaded", s.loaded},
                            {"stored", s.stored},
                            {"rejected", s.rejected},
                            {"evicted", s.evicted}};
    }
    r["disk_cache"] = caches;
    if (controls.DL_AUTO) {
      json a = json::array();
      for (const auto& x : auto_rewrites) {
        json ann = json::parse(x.report, nullptr, false);
        a.push_back({{"rewritten", x.ok},
                     {"cached", x.cached},
                     {"seconds", x.seconds},
                     {"why", x.why},
                     {"kernels", x.kernels},
                     {"dl_annotate_report", ann.is_discarded() ? json() : ann}});
      }
      r["auto"] = a;
    }
    if (other_buffer_count) {
      json o = buffer_row(other_buffers);
      o.erase("id");
      o["count"] = other_buffer_count;
      r["other_buffers"] = o;
    }
    std::ofstream out(controls.DL_REPORT);
    out << r.dump(2) << "\n";
    if (!out) log().error("cannot write the report to {}", controls.DL_REPORT);
  }
  if (controls.DL_SUMMARY) summary();
  close_trace();
}

}  // namespace dl::rt
