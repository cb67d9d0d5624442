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
};

/// At a launch of a kernel with a shadow: convert the buffers `converting` and run
/// transformed, or keep AoS? Called with the runtime's lock held.
Decision decide(Runtime& rt, const KernelState& ks, cl_command_queue q,
                const std::vector<Converting>& converting);

/// At a launch of a kernel whose shadow is not built yet (deferred): build it now
/// (`transform`), the AoS kernel time spent so far paying for `setup_ns`? Never while
/// another launch or a background thread is `building` it. Measures the AoS launches
/// meanwhile. Called with the runtime's lock held.
Decision decide_setup(Runtime& rt, const KernelState& ks, cl_command_queue q, double setup_ns,
                      bool building);

/// The key of a program's experience: a hash of its sources and build options.
std::string program_key(const ProgramState& ps);

/// Whether an earlier run's experience says that a kernel of `ps` (built, its devices
/// recorded) converts at the first launch of its epochs on one of its devices: its
/// transformed program is then built right away. Takes the runtime's lock.
bool recalls_paying(const ProgramState& ps);

/// At exit (DL_POLICY=auto): what the controller learned of every kernel, merged into
/// the cache's experience.json for the next run.
void save_experience();

/// A launch to time once DL's lock is released (Decision::sync).
struct SyncMeasure {
  cl_event e = nullptr;  // retained
  std::shared_ptr<KernelPolicy> kp;
  bool transformed = false;
  /// Waits for the launch and gives its time to the rule (no lock held).
  void finish();
};

/// After the launch was enqueued with event `e`: counts it, and feeds its time to the rule
/// when the decision asked to measure it (through `sync` when it must be waited for).
void count_launch(Runtime& rt, const Decision& d, cl_event e, bool transformed, SyncMeasure* sync);

}  // namespace dl::rt
