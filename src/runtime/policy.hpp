// The profitability controller's hooks into the launch path (policy.cpp).
#pragma once

#include <utility>
#include <vector>

#include "runtime.hpp"

namespace dl::rt {

struct Decision {
  bool transform = false;            // run the transformed kernel (converting what it needs)
  bool measure = false;              // time this launch (event profiling) for the rule
  bool sync = false;                 // and wait for that time before the launch returns (the first
                                     // launch of each kind: the rule cannot decide without it)
  std::shared_ptr<KernelPolicy> kp;  // null unless DL_POLICY=auto
  std::string why;
};

/// A buffer a transformed launch would convert: the bytes of its records, and whether the
/// way there is only a state change (its content, Runtime::content_shortcut): then only
/// the way back costs a conversion.
struct Converting {
  cl_mem mem = nullptr;
  std::size_t bytes = 0;
  bool free_there = false;
  double measured_ns = 0;  // > 0: what it cost when last done (a gather), used as it is
};

/// Under DL_POLICY=auto, the controller's rule of this kernel on the queue's device
/// (looked up once per launch, for never_pays() and decide()); otherwise null. Called with
/// the runtime's lock held.
std::shared_ptr<KernelPolicy> auto_policy(Runtime& rt, const KernelState& ks, cl_command_queue q);

/// Whether the rule `kp` (auto_policy()) has judged that converting never pays: decide()
/// then keeps AoS whatever the launch needs, so the launch need not work out its needs
/// first.
bool never_pays(Runtime& rt, const std::shared_ptr<KernelPolicy>& kp);

/// At a launch of a kernel with a shadow: convert the buffers `converting` and run
/// transformed, or keep AoS? `kp` is auto_policy()'s rule. Called with the runtime's lock
/// held.
Decision decide(Runtime& rt, const KernelState& ks, cl_command_queue q,
                const std::vector<Converting>& converting, std::shared_ptr<KernelPolicy> kp);

/// The decision for a launch on a device DL_DEVICES leaves out (Runtime::converts_on):
/// keep AoS, with the reason.
Decision left_aos(const Runtime& rt);

/// At a launch of a kernel whose shadow is not built yet (deferred): build it now
/// (`transform`), the AoS kernel time spent so far paying for `setup_ns`? Never while
/// another launch or a background thread is `building` it. Measures the AoS launches
/// meanwhile. Called with the runtime's lock held.
Decision decide_setup(Runtime& rt, const KernelState& ks, cl_command_queue q, double setup_ns,
                      bool building);

/// At exit: the offset widths this run measured, merged into the cache's widths.json, so
/// that the next run of the same program on the same device needs no trial.
void save_widths();

/// The key of a program's experience: a hash of its sources and build options.
std::string program_key(const ProgramState& ps);

/// Whether an earlier run's experience says that a kernel of `ps` (built, its devices
/// recorded) converts at the first launch of its epochs on one of its devices: its
/// transformed program is then built right away. Takes the runtime's lock.
bool recalls_paying(const ProgramState& ps);

/// At exit (DL_POLICY=auto): what the controller learned of every kernel, merged into
/// the cache's experience.json for the next run.
void save_experience();

/// The offset width of one kernel on one device (DL_OFFSET_WIDTH=measure): its first
/// kTrials transformed launches run the 32-bit, the 64-bit, the 64-bit and the 32-bit build
/// (so that neither width gets only the odd launches of a kernel that alternates its
/// buffers, nor only the early ones), each timed; once the last has run, the faster build
/// (by the best time of each) is kept.
struct WidthTrial {
  static constexpr int kTrials = 4;
  static bool wide_at(int launch) { return launch == 1 || launch == 2; }
  int chosen = -1;                // 0: 32-bit, 1: 64-bit; -1: not settled
  int enqueued = 0;               // trial launches enqueued so far
  cl_event events[kTrials] = {};  // theirs (retained until settled)
  double best_ns[2] = {0, 0};     // the best time of each width (0: none measured)
  std::string why;                // the choice and its numbers (for the report)
  std::weak_ptr<const ProgramState> program;
  std::string kernel;
  std::shared_ptr<KernelStats> stats;   // gets `why` when settled
  std::string device_key, program_key;  // where the choice is remembered (widths.json)
  bool recalled = false;                // settled from an earlier run's times
};

/// Which build a transformed launch of `ks` on `q` runs: true for the 64-bit one. `must`:
/// a buffer is too large for 32-bit offsets. `trial` gets the trial to give the launch's
/// event to (null when the launch is not one). Called with the runtime's lock held.
bool pick_wide(Runtime& rt, const KernelState& ks, cl_command_queue q, bool must,
               std::shared_ptr<WidthTrial>* trial);

/// A launch to time once DL's lock is released (Decision::sync), and the width trial to
/// settle after its last launch.
struct SyncMeasure {
  cl_event e = nullptr;  // retained
  Spans also;            // counted with it (retained)
  std::shared_ptr<KernelPolicy> kp;
  bool transformed = false;
  std::shared_ptr<WidthTrial> width;
  /// Waits for the launch and gives its time to the rule, then settles the width trial
  /// (no lock held).
  void finish();
};

/// After a trial launch was enqueued with event `e` (null: it was not): keeps the event;
/// after the last, asks `sync` to settle the trial. Called with the runtime's lock held.
void width_launched(Runtime& rt, const std::shared_ptr<WidthTrial>& t, bool wide, cl_event e,
                    SyncMeasure* sync);

/// After the launch was enqueued with event `e`: counts it, and feeds its time to the rule
/// when the decision asked to measure it (through `sync` when it must be waited for), with
/// the device time of `also` (the copies of host-visible memory it read, made for it alone).
void count_launch(Runtime& rt, const Decision& d, cl_event e, bool transformed, SyncMeasure* sync,
                  const Spans& also = {});

}  // namespace dl::rt
