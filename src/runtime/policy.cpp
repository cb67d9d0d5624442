// The profitability controller in the runtime (docs/runtime.md, "Never slower"): one
// ConversionPolicy per (kernel, device), fed with kernel times from event profiling and
// with conversion costs from the device's calibration, asked at every launch of a
// transformed kernel whether its buffers should be converted.
#include "policy.hpp"

#include <spdlog/spdlog.h>

#include "calibration.hpp"

namespace dl::rt {
namespace {

struct Measured {
  std::shared_ptr<KernelPolicy> kp;
  bool transformed;
};

/// Gives the device time of completed launch `e` to the rule.
void give_time(cl_event e, cl_int status, KernelPolicy& kp, bool transformed) {
  cl_ulong start = 0, end = 0;
  if (status != CL_COMPLETE ||
      real().clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                     nullptr) != CL_SUCCESS ||
      real().clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
          CL_SUCCESS ||
      end < start)
    return;
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  kp.rule.measured(transformed, static_cast<double>(end - start));
}

void CL_CALLBACK on_kernel_done(cl_event e, cl_int status, void* data) {
  std::unique_ptr<Measured> m(static_cast<Measured*>(data));
  give_time(e, status, *m->kp, m->transformed);
  release(e);
}

/// Launches timed for the rule: the first 8 of a kernel, then one in 32 (an event and a
/// callback each).
bool sampled(const KernelPolicy& kp) {
  return kp.launches <= 8 || kp.launches % 32 == 0;
}

/// Keeps the decision's reason; logs it when the decision or the verdict changes.
void note(KernelPolicy& kp, const std::string& kernel, const Decision& d) {
  const int state = (d.transform ? 1 : 0) | (static_cast<int>(kp.rule.verdict()) << 1);
  if (state != kp.last_state) log().info("kernel {}: {}", kernel, d.why);
  kp.last_state = state;
  kp.last_reason = d.why;
}

}  // namespace

std::shared_ptr<KernelPolicy> Runtime::policy_for(const std::string& kernel, cl_device_id d) {
  auto& p = policies[{kernel, d}];
  if (!p) {
    p = std::make_shared<KernelPolicy>();
    p->kernel = kernel;
    p->device = d;
  }
  return p;
}

std::shared_ptr<const DeviceProfile> Runtime::profile(cl_device_id d) {
  auto it = profiles.find(d);
  return it == profiles.end() ? nullptr : it->second;
}

void Runtime::epoch_end(cl_mem m) {
  std::vector<std::shared_ptr<KernelPolicy>> ended;
  for (BufferState* x : family(m))
    for (const auto& kp : x->policies) ended.push_back(kp);
  if (ended.empty()) return;
  std::lock_guard<std::mutex> lock(policy_mutex);
  for (const auto& kp : ended) kp->rule.epoch_end();
}

Decision decide(Runtime& rt, const KernelState& ks, cl_command_queue q,
                const std::vector<Converting>& converting) {
  Decision d;
  const std::string& mode = rt.controls.DL_POLICY;
  if (mode == "never") {
    d.why = "DL_POLICY=never";
    return d;
  }
  if (mode == "always") {
    d.transform = true;
    return d;
  }
  const cl_device_id dev = rt.queue(q).device;
  d.kp = rt.policy_for(ks.name, dev);
  d.kp->launches++;
  auto profile = rt.profile(dev);
  double round_trip = 0;
  for (const Converting& c : converting)
    if (profile && profile->valid)
      round_trip += c.free_there ? profile->to_aos_ns(c.bytes) : profile->round_trip_ns(c.bytes);
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  ConversionPolicy& rule = d.kp->rule;
  if (rule.verdict() == ConversionPolicy::Verdict::Never) {
    d.transform = false;
  } else if (!converting.empty()) {
    d.transform = rule.convert(round_trip);
  } else {
    d.transform = true;  // already in the kernel's layouts: staying costs nothing
  }
  d.why = rule.reason();
  d.measure = sampled(*d.kp) || (d.transform && rule.transformed_ns() == 0);
  d.sync = d.transform ? rule.transformed_ns() == 0 : rule.aos_ns() == 0;
  if (!d.transform) d.kp->kept_aos++;
  note(*d.kp, ks.name, d);
  return d;
}

Decision decide_setup(Runtime& rt, const KernelState& ks, cl_command_queue q, double setup_ns,
                      bool building) {
  Decision d;
  d.kp = rt.policy_for(ks.name, rt.queue(q).device);
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  ConversionPolicy& rule = d.kp->rule;
  if (building) {
    d.why = "kept AoS: its DL build is under way";
  } else {
    d.transform = rule.prepare(setup_ns);
    d.why = rule.reason();
  }
  if (d.transform) return d;  // the launch is decided again once the shadow exists
  d.kp->launches++;
  d.kp->kept_aos++;
  d.measure = sampled(*d.kp);
  d.sync = rule.aos_ns() == 0;
  note(*d.kp, ks.name, d);
  return d;
}

void count_launch(Runtime& rt, const Decision& d, cl_event e, bool transformed, SyncMeasure* sync) {
  if (!d.kp) return;
  {
    std::lock_guard<std::mutex> lock(rt.policy_mutex);
    d.kp->rule.enqueued(transformed);
  }
  if (!d.measure || !e) return;
  retain(e);
  if (d.sync && sync) {
    *sync = {e, d.kp, transformed};
    return;
  }
  auto* m = new Measured{d.kp, transformed};
  if (real().clSetEventCallback(e, CL_COMPLETE, &on_kernel_done, m) == CL_SUCCESS) return;
  delete m;
  release(e);
}

void SyncMeasure::finish() {
  if (!e) return;
  cl_int status = CL_COMPLETE;
  if (real().clWaitForEvents(1, &e) == CL_SUCCESS)
    real().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
  give_time(e, status, *kp, transformed);
  release(e);
  e = nullptr;
}

}  // namespace dl::rt
