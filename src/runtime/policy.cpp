// The profitability controller in the runtime (docs/runtime.md, "Never slower"): one
// ConversionPolicy per (kernel, device), fed with kernel times from event profiling and
// with conversion costs from the device's calibration, asked at every launch of a
// transformed kernel whether its buffers should be converted; and its experience, kept
// on disk from one run to the next.
#include "policy.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "calibration.hpp"

namespace dl::rt {
namespace {

using Experience = ConversionPolicy::Experience;

constexpr const char* kExperienceFile = "experience.json";
constexpr const char* kWidthsFile = "widths.json";

nlohmann::json to_json(const Experience& e) {
  return {{"aos_ns", e.aos_ns},
          {"transformed_ns", e.transformed_ns},
          {"round_trip_ns", e.round_trip_ns},
          {"epoch_launches", e.epoch_launches},
          {"spent_ns", e.spent_ns},
          {"never", e.never}};
}

Experience from_json(const nlohmann::json& j) {
  Experience e;
  if (!j.is_object()) return e;
  auto num = [&](const char* k) {
    const auto it = j.find(k);
    return it != j.end() && it->is_number() && it->get<double>() >= 0 ? it->get<double>() : 0.0;
  };
  e.aos_ns = num("aos_ns");
  e.transformed_ns = num("transformed_ns");
  e.round_trip_ns = num("round_trip_ns");
  e.epoch_launches = num("epoch_launches");
  e.spent_ns = num("spent_ns");
  const auto never = j.find("never");
  e.never = never != j.end() && never->is_boolean() && never->get<bool>();
  return e;
}

/// Calls fn(device, kernel, entry) for every entry of cache file `name`, DL's per-device
/// files ({"format": 1, "devices": {device key: {program key/kernel: entry}}}); a file
/// that is not one has none.
template <class F>
void for_each_entry(const char* name, F fn) {
  const nlohmann::json j = read_cache_file(name);
  const auto devices = j.find("devices");
  if (j.value("format", 0) != 1 || devices == j.end() || !devices->is_object()) return;
  for (const auto& [device, kernels] : devices->items())
    if (kernels.is_object())
      for (const auto& [kernel, e] : kernels.items()) fn(device, kernel, e);
}

/// Cache file `name` as it is, or an empty one of DL's per-device format where it is not.
nlohmann::json entries_document(const char* name) {
  nlohmann::json j = read_cache_file(name);
  if (j.value("format", 0) != 1 || !j.contains("devices") || !j["devices"].is_object())
    j = {{"format", 1}, {"devices", nlohmann::json::object()}};
  return j;
}

/// Reads the experience file once (called with the runtime's lock held). DL_CALIBRATE
/// starts from nothing: the run measures again and its experience replaces the old.
void load_experience(Runtime& rt) {
  if (rt.experience_loaded) return;
  rt.experience_loaded = true;
  if (rt.controls.DL_CALIBRATE) return;
  for_each_entry(kExperienceFile,
                 [&](const std::string& device, const std::string& kernel,
                     const nlohmann::json& e) { rt.experience[device][kernel] = from_json(e); });
}

/// The experience of `kernel` of a program with key `program` on device key `device`.
const Experience* recalled(Runtime& rt, const std::string& device, const std::string& program,
                           const std::string& kernel) {
  load_experience(rt);
  const auto d = rt.experience.find(device);
  if (d == rt.experience.end()) return nullptr;
  const auto k = d->second.find(program + "/" + kernel);
  return k == d->second.end() ? nullptr : &k->second;
}

struct Measured {
  std::shared_ptr<KernelPolicy> kp;
  bool transformed;
  Spans also;  // retained
};

/// Gives the device time of completed launch `e`, and of the commands `also` it needed, to
/// the rule (releasing `also`).
void give_time(cl_event e, cl_int status, KernelPolicy& kp, bool transformed, Spans& also) {
  double ns = status == CL_COMPLETE ? device_ns(e) : -1;
  for (const auto& [first, last] : also) {
    const double s = ns < 0 ? -1 : span_ns(first, last);
    ns = s < 0 ? -1 : ns + s;
  }
  release(also);
  if (ns < 0) return;
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  kp.rule.measured(transformed, ns);
}

void CL_CALLBACK on_kernel_done(cl_event e, cl_int status, void* data) {
  std::unique_ptr<Measured> m(static_cast<Measured*>(data));
  give_time(e, status, *m->kp, m->transformed, m->also);
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

std::string program_key(const ProgramState& ps) {
  std::uint64_t h = fnv1a(ps.options);
  for (const std::string& s : ps.sources) h = fnv1a(s, fnv1a("\n//DL source\n", h));
  return hex(h);
}

std::shared_ptr<KernelPolicy> Runtime::policy_for(const KernelState& ks, cl_device_id d) {
  // Per program: kernels of one name in two programs are two kernels. (A program released
  // and another made at its address: the rule's program has expired.)
  auto& p = policies[{ks.program.get(), ks.name, d}];
  if (!p || p->program.expired()) {
    p = std::make_shared<KernelPolicy>();
    p->program = ks.program;
    p->kernel = ks.name;
    p->device = d;
    if (controls.DL_POLICY == "auto" && ks.program) {
      p->device_key = device_key(d);
      p->program_key = program_key(*ks.program);
      if (const Experience* e = recalled(*this, p->device_key, p->program_key, ks.name)) {
        p->rule.recall(*e);
        if (p->rule.recalled())
          log().info("kernel {}: recalled an earlier run's experience: {}", ks.name,
                     to_json(*e).dump());
      }
    }
  }
  return p;
}

bool recalls_paying(const ProgramState& ps) {
  Runtime& rt = Runtime::get();
  if (rt.controls.DL_POLICY != "auto") return false;
  const std::string program = program_key(ps);
  std::lock_guard<std::mutex> lock(rt.mutex);
  for (cl_device_id d : ps.devices) {
    const std::string device = device_key(d);
    for (const KernelAnnotation& k : ps.ann.kernels)
      if (const Experience* e = recalled(rt, device, program, k.kernel)) {
        ConversionPolicy rule;
        rule.recall(*e);
        if (rule.predicts_long_epochs()) return true;
      }
  }
  return false;
}

void save_experience() {
  Runtime& rt = Runtime::get();
  if (rt.controls.DL_POLICY != "auto") return;
  std::map<std::string, std::map<std::string, Experience>> learned;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    std::lock_guard<std::mutex> plock(rt.policy_mutex);
    for (const auto& [key, kp] : rt.policies) {
      if (kp->program_key.empty()) continue;
      const Experience e = kp->rule.experience();
      if (e.aos_ns > 0 || e.never) learned[kp->device_key][kp->program_key + "/" + kp->kernel] = e;
    }
  }
  if (learned.empty()) return;
  nlohmann::json j = entries_document(kExperienceFile);
  for (const auto& [device, kernels] : learned)
    for (const auto& [kernel, e] : kernels) {
      nlohmann::json& slot = j["devices"][device][kernel];
      // A run that measured less (no transformed launch) keeps what an earlier one knew.
      if (!e.useful() && from_json(slot).useful() && !rt.controls.DL_CALIBRATE) continue;
      slot = to_json(e);
    }
  write_cache_file(kExperienceFile, j);
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

/// The round trip the rule is given for a kernel with nothing to convert: any AoS launch
/// time spent pays for it, so the trial follows the first measured launch.
constexpr double kNothingToConvertNs = 1;

Decision left_aos(const Runtime& rt) {
  Decision d;
  d.why = "DL_DEVICES=" + rt.controls.DL_DEVICES + " leaves the device's launches AoS";
  return d;
}

Decision decide(Runtime& rt, const KernelState& ks, cl_command_queue q,
                const std::vector<Converting>& converting, std::shared_ptr<KernelPolicy> kp) {
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
  d.kp = kp ? std::move(kp) : rt.policy_for(ks, rt.queue(q).device);
  d.kp->launches++;
  auto profile = rt.profile(d.kp->device);
  double round_trip = 0;
  for (const Converting& c : converting)
    if (c.measured_ns > 0)
      round_trip += c.measured_ns;
    else if (profile && profile->valid)
      round_trip += c.free_there ? profile->to_aos_ns(c.bytes) : profile->round_trip_ns(c.bytes);
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  ConversionPolicy& rule = d.kp->rule;
  if (rule.verdict() == ConversionPolicy::Verdict::Never) {
    d.transform = false;
  } else if (!converting.empty()) {
    d.transform = rule.convert(round_trip);
  } else if (ks.ann().buffers.empty() && (!ks.ann().locals.empty() || !ks.ann().gathers.empty())) {
    // A kernel DL converts nothing for, whose DL build stages buffers in local memory
    // (`local:` clauses) or reads gathered copies that are up to date: judged against the
    // application's kernel like a conversion that costs nothing, so the first launch
    // measures the original and the next the DL build.
    d.transform = rule.convert(kNothingToConvertNs);
  } else {
    d.transform = true;  // already in the kernel's layouts: staying costs nothing
  }
  d.why = rule.reason();
  // The first transformed launch of a run is waited for even when an earlier run's
  // experience gave t: a wrong experience is judged before a second launch follows.
  // A kernel judged never to pay is not measured any more (no event, no callback).
  const bool never = rule.verdict() == ConversionPolicy::Verdict::Never;
  d.measure = (sampled(*d.kp) && !never) || (d.transform && rule.transformed_measured() == 0);
  d.sync = d.transform
               ? rule.transformed_measured() == 0
               : rule.aos_measured() == 0 && rule.verdict() != ConversionPolicy::Verdict::Never;
  if (!d.transform) d.kp->kept_aos++;
  note(*d.kp, ks.name, d);
  return d;
}

bool Runtime::converts_on(cl_device_id d) {
  auto it = device_converts.find(d);
  if (it != device_converts.end()) return it->second;
  const std::string& which = controls.DL_DEVICES;
  bool yes = true;
  cl_device_type type = 0;
  if (which == "gpu" || which == "cpu") {
    real().clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    yes = which == "gpu" ? (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0
                         : (type & CL_DEVICE_TYPE_CPU) != 0;
  } else if (which != "all") {
    // Indices of the device in its platform's list.
    std::vector<std::size_t> listed;
    bool ok = !which.empty();
    std::size_t v = 0;
    bool digit = false;
    for (char c : which + ",") {
      if (c >= '0' && c <= '9' && v < 1000000) {
        v = v * 10 + static_cast<std::size_t>(c - '0');
        digit = true;
      } else if (c == ',' && digit) {
        listed.push_back(v);
        v = 0;
        digit = false;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) {
      log().warn(
          "DL_DEVICES='{}' is not all, gpu, cpu or a list of device indices (0,2): DL "
          "converts on every device",
          which);
    } else {
      cl_platform_id p = nullptr;
      cl_uint count = 0;
      real().clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, nullptr);
      real().clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
      std::vector<cl_device_id> all(count);
      if (count) real().clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, all.data(), nullptr);
      const auto at = std::find(all.begin(), all.end(), d);
      const std::size_t index = static_cast<std::size_t>(at - all.begin());
      yes = at != all.end() && std::find(listed.begin(), listed.end(), index) != listed.end();
    }
  }
  log().info("DL_DEVICES={}: {} launches on device {}", which, yes ? "converts for" : "leaves AoS",
             static_cast<const void*>(d));
  device_converts[d] = yes;
  return yes;
}

std::shared_ptr<KernelPolicy> auto_policy(Runtime& rt, const KernelState& ks, cl_command_queue q) {
  if (rt.controls.DL_POLICY != "auto") return nullptr;
  return rt.policy_for(ks, rt.queue(q).device);
}

bool never_pays(Runtime& rt, const std::shared_ptr<KernelPolicy>& kp) {
  if (!kp) return false;
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  return kp->rule.verdict() == ConversionPolicy::Verdict::Never;
}

Decision decide_setup(Runtime& rt, const KernelState& ks, cl_command_queue q, double setup_ns,
                      bool building) {
  if (!rt.converts_on(rt.queue(q).device)) return left_aos(rt);  // no build for it either
  Decision d;
  d.kp = rt.policy_for(ks, rt.queue(q).device);
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  ConversionPolicy& rule = d.kp->rule;
  if (building && !rule.predicts_long_epochs()) {
    // (An experience of long epochs waits for the build instead: launches.cpp.)
    d.why = "kept AoS: its DL build is under way";
  } else {
    d.transform = rule.prepare(setup_ns);
    d.why = rule.reason();
  }
  if (d.transform) return d;  // the launch is decided again once the shadow exists
  d.kp->launches++;
  d.kp->kept_aos++;
  const bool never = rule.verdict() == ConversionPolicy::Verdict::Never;
  d.measure = sampled(*d.kp) && !never;
  d.sync = rule.aos_ns() == 0 && !never;
  note(*d.kp, ks.name, d);
  return d;
}

void count_launch(Runtime& rt, const Decision& d, cl_event e, bool transformed, SyncMeasure* sync,
                  const Spans& also) {
  if (!d.kp) return;
  {
    std::lock_guard<std::mutex> lock(rt.policy_mutex);
    d.kp->rule.enqueued(transformed);
  }
  if (!d.measure || !e) return;
  retain(e);
  Spans kept = also;
  for (auto& [first, last] : kept) {
    retain(first);
    retain(last);
  }
  if (d.sync && sync) {
    sync->e = e;
    sync->also = std::move(kept);
    sync->kp = d.kp;
    sync->transformed = transformed;
    return;
  }
  auto* m = new Measured{d.kp, transformed, std::move(kept)};
  if (real().clSetEventCallback(e, CL_COMPLETE, &on_kernel_done, m) == CL_SUCCESS) return;
  release(m->also);
  delete m;
  release(e);
}

namespace {

/// Keeps the faster build of `t` from its best times (`how`: where they come from).
void choose(WidthTrial& t, const std::string& how) {
  const double b32 = t.best_ns[0], b64 = t.best_ns[1];
  t.chosen = b32 > 0 && b64 > 0 && b64 < b32 ? 1 : 0;
  t.why = b32 > 0 && b64 > 0
              ? fmt::format("{}-bit offsets: {:.4f} ms against {:.4f} ms with {}-bit ({})",
                            t.chosen ? 64 : 32, (t.chosen ? b64 : b32) / 1e6,
                            (t.chosen ? b32 : b64) / 1e6, t.chosen ? 32 : 64, how)
              : "32-bit offsets: the trial launches were not timed";
  t.stats->offsets = t.why;
  log().info("kernel {}: {}", t.kernel, t.why);
}

/// Settles `t` from its launches' times (all complete); under the runtime's lock and
/// Runtime::policy_mutex.
void settle(WidthTrial& t) {
  for (int i = 0; i < WidthTrial::kTrials; ++i) {
    const double ns = device_ns(t.events[i]);
    double& best = t.best_ns[WidthTrial::wide_at(i) ? 1 : 0];
    if (ns > 0 && (best == 0 || ns < best)) best = ns;
    release(t.events[i]);
    t.events[i] = nullptr;
  }
  choose(t, "measured, the best of " + std::to_string(WidthTrial::kTrials / 2) + " launches each");
}

/// Reads widths.json once (not under DL_CALIBRATE: measure again).
void load_widths(Runtime& rt) {
  if (rt.widths_loaded) return;
  rt.widths_loaded = true;
  if (rt.controls.DL_CALIBRATE) return;
  for_each_entry(kWidthsFile, [&](const std::string& device, const std::string& kernel,
                                  const nlohmann::json& w) {
    const auto time = [&w](const char* k) {
      return w.is_object() && w.contains(k) && w[k].is_number() ? w[k].get<double>() : 0.0;
    };
    if (time("ns32") > 0 && time("ns64") > 0)
      rt.recalled_widths[device][kernel] = {time("ns32"), time("ns64")};
  });
}

/// A new trial of `ks` on `dev`, settled at once when an earlier run measured it.
std::shared_ptr<WidthTrial> new_trial(Runtime& rt, const KernelState& ks, cl_device_id dev) {
  auto t = std::make_shared<WidthTrial>();
  t->program = ks.program;
  t->kernel = ks.name;
  t->stats = ks.stats;
  t->device_key = device_key(dev);
  t->program_key = program_key(*ks.program);
  load_widths(rt);
  const auto d = rt.recalled_widths.find(t->device_key);
  if (d == rt.recalled_widths.end()) return t;
  const auto k = d->second.find(t->program_key + "/" + ks.name);
  if (k == d->second.end()) return t;
  t->best_ns[0] = k->second.first;
  t->best_ns[1] = k->second.second;
  t->recalled = true;
  choose(*t, "measured by an earlier run");
  return t;
}

}  // namespace

bool pick_wide(Runtime& rt, const KernelState& ks, cl_command_queue q, bool must,
               std::shared_ptr<WidthTrial>* trial) {
  trial->reset();
  if (!ks.wide) return false;
  const std::string& mode = rt.controls.DL_OFFSET_WIDTH;
  if (must || mode == "64") {
    ks.stats->offsets =
        must ? "64-bit offsets: a buffer of more than 4 GiB" : "64-bit offsets: DL_OFFSET_WIDTH=64";
    return true;
  }
  if (mode != "measure") return false;
  const cl_device_id dev = rt.queue(q).device;
  // Per program, as the controller's rule (Runtime::policy_for).
  auto& t = rt.widths[{ks.program.get(), ks.name, dev}];
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  if (!t || t->program.expired()) t = new_trial(rt, ks, dev);
  if (t->chosen >= 0) return t->chosen == 1;
  // The last trial launch's thread settles it (SyncMeasure::finish); until then 32-bit.
  if (t->enqueued >= WidthTrial::kTrials) return false;
  *trial = t;
  return WidthTrial::wide_at(t->enqueued);
}

void width_launched(Runtime& rt, const std::shared_ptr<WidthTrial>& t, bool wide, cl_event e,
                    SyncMeasure* sync) {
  if (!t) return;
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  // A launch of another thread took the slot meanwhile, or the event is missing: it is
  // not a trial launch.
  if (!e || t->chosen >= 0 || t->enqueued >= WidthTrial::kTrials ||
      WidthTrial::wide_at(t->enqueued) != wide)
    return;
  retain(e);
  t->events[t->enqueued++] = e;
  if (t->enqueued == WidthTrial::kTrials && sync) sync->width = t;
}

void save_widths() {
  Runtime& rt = Runtime::get();
  std::map<std::string, std::map<std::string, std::pair<double, double>>> measured;
  {
    std::lock_guard<std::mutex> lock(rt.mutex);
    std::lock_guard<std::mutex> plock(rt.policy_mutex);
    for (const auto& [key, t] : rt.widths)
      if (t->chosen >= 0 && !t->recalled && t->best_ns[0] > 0 && t->best_ns[1] > 0)
        measured[t->device_key][t->program_key + "/" + t->kernel] = {t->best_ns[0], t->best_ns[1]};
  }
  if (measured.empty()) return;
  nlohmann::json j = entries_document(kWidthsFile);
  for (const auto& [device, kernels] : measured)
    for (const auto& [kernel, ns] : kernels)
      j["devices"][device][kernel] = {{"ns32", ns.first}, {"ns64", ns.second}};
  write_cache_file(kWidthsFile, j);
}

void SyncMeasure::finish() {
  if (e) {
    cl_int status = CL_COMPLETE;
    if (real().clWaitForEvents(1, &e) == CL_SUCCESS)
      real().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    give_time(e, status, *kp, transformed, also);
    release(e);
    e = nullptr;
  }
  if (!width) return;
  // The trial's last launch: wait for the four, then keep the faster build.
  Runtime& rt = Runtime::get();
  std::vector<cl_event> events;
  {
    std::lock_guard<std::mutex> lock(rt.policy_mutex);
    if (width->chosen < 0)
      for (cl_event x : width->events) {
        retain(x);
        events.push_back(x);
      }
  }
  if (!events.empty()) {
    real().clWaitForEvents(static_cast<cl_uint>(events.size()), events.data());
    {
      std::lock_guard<std::mutex> lock(rt.mutex);
      std::lock_guard<std::mutex> plock(rt.policy_mutex);
      if (width->chosen < 0) settle(*width);
    }
    for (cl_event x : events) release(x);
  }
  width.reset();
}

}  // namespace dl::rt
