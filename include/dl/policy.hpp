// The decision rule of DL's profitability controller ("never slower", docs/runtime.md):
// when converting a kernel's buffers pays for itself. Pure C++, no OpenCL: the runtime
// feeds it measured times, tests feed it synthetic ones.
//
// Model, per kernel on one device. Launches come in *epochs*: runs of launches between
// two points where the host needs the buffers in AoS (a read, a partial write, the end).
// A launch costs a (AoS) or t (transformed); running an epoch transformed costs one round
// trip of conversions C (to the kernel's layouts and back). The rule:
//
//  * explore: while t is unknown, convert once the AoS kernel time spent so far reaches
//    C (so the trial at most doubles what was spent), unless the epochs seen are too
//    short for any transform to pay (L·a < C);
//  * judge: t measured not faster than (1 - min_gain)·a means never again;
//  * rent or buy: with saving s = a - t > 0, convert after k = floor(β·C / s) AoS
//    launches of the epoch (the deterministic ski-rental rule);
//  * learn: an epoch that bought and lost (its transformed launches saved less than C)
//    doubles β; one that gained at least C halves it (not below 1); beyond max_backoff
//    doublings the kernel stays AoS.
//
// Bounds (proved in docs/runtime.md, checked by tests/unit/policy_test.cpp): with β = 1
// each epoch costs at most 2x the best choice for that epoch in hindsight; and over any
// sequence the total is at most native + (max_backoff + 2)·C + one slower trial launch.
//
// Experience: what an earlier run of the same kernel on the same device measured (a, t,
// C, launches per epoch), kept on disk by the runtime. Recalled, it stands in for the
// exploration: "never" keeps AoS from the first launch; "pays" starts the rule with the
// verdict, a and t scaled to this run's sizes (by the ratio of C, which is linear in the
// bytes), and, when the earlier run's epochs were long enough for a conversion to pay
// (L·s ≥ C), converts at the first launch of each epoch until one such epoch loses. The
// transformed kernel is measured at its first launch and judged against the scaled a;
// the first launch of the second epoch runs AoS to measure a itself. A wrong experience
// costs at most the first epoch's difference and one more round trip, after which the
// rule is back to the rule above.
#pragma once

#include <cstdint>
#include <string>

namespace dl {

class ConversionPolicy {
 public:
  struct Params {
    double min_gain = 0.05;    // transformed must be this much faster (fraction of a)
    unsigned max_backoff = 6;  // doublings of beta before the kernel stays AoS for good
  };
  enum class Verdict { Unknown, Pays, Never };

  /// What a run learned about the kernel on the device (recall() in a later run).
  struct Experience {
    double aos_ns = 0;          // a, per launch
    double transformed_ns = 0;  // t, per launch (0: never measured)
    double round_trip_ns = 0;   // C of the buffers that run converted or would have
    double epoch_launches = 0;  // mean launches per epoch (the last one ended by the exit)
    double spent_ns = 0;        // AoS kernel time spent while the verdict was unknown (all runs)
    bool never = false;         // the transformed kernel was judged not faster
    /// Whether it says anything the rule can use.
    bool useful() const { return never || (aos_ns > 0 && transformed_ns > 0 && round_trip_ns > 0); }
  };

  ConversionPolicy() = default;
  explicit ConversionPolicy(const Params& p) : p_(p) {}

  /// Before the transformed kernel exists: is the one-time cost of making it (`setup_ns`,
  /// e.g. building a program) paid for by the AoS kernel time spent so far?
  bool prepare(double setup_ns);
  /// At a launch whose buffers are not in the kernel's layouts: convert now? `round_trip_ns`
  /// is the estimated cost of the conversions to the layouts and back.
  bool convert(double round_trip_ns);
  /// A launch (transformed or not) was enqueued: it counts in its epoch, with the current
  /// estimate of its time.
  void enqueued(bool transformed);
  /// A launch's measured time (event profiling; it may arrive after later launches were
  /// enqueued): refines the estimates and judges the transformed kernel.
  void measured(bool transformed, double kernel_ns);
  /// Both at once (a launch measured as it ran).
  void launched(bool transformed, double kernel_ns) {
    measured(transformed, kernel_ns);
    enqueued(transformed);
  }
  /// The host needed the buffers in AoS: the epoch ends.
  void epoch_end();

  /// Starts from an earlier run's experience (before this run's first decision). One
  /// without a verdict still counts its AoS time spent towards the build and the trial.
  void recall(const Experience& e);
  /// What this run learned so far (for the next run): useful() only once both kernels
  /// were measured, or the verdict is never.
  Experience experience() const;
  /// An experience was recalled and is still trusted to say epochs are long (convert at
  /// the first launch of each).
  bool predicts_long_epochs() const { return predict_long_; }
  bool recalled() const { return recalled_; }

  Verdict verdict() const { return verdict_; }
  double aos_ns() const { return a_; }          // estimate, 0 before the first
  double transformed_ns() const { return t_; }  // estimate, 0 before the first
  double round_trip_ns() const { return c_; }   // the last estimate given to convert()
  /// Launches of each kind measured in this run (an experience's a and t are not).
  std::uint64_t transformed_measured() const { return nt_; }
  std::uint64_t aos_measured() const { return na_; }
  double beta() const { return beta_; }
  std::uint64_t epoch_launches() const { return epoch_aos_ + epoch_transformed_; }
  /// Why the last decision was what it was (for the report), e.g. "kept AoS: conversion
  /// 0.80 ms, measured saving 0.05 ms per launch after 4 launches".
  const std::string& reason() const { return reason_; }

 private:
  void judge();
  /// A verdict "pays" from experience: k, the AoS launches of an epoch before buying.
  double launches_before_buying() const;
  /// An experience without a verdict (prior_, not recalled_): its launches per epoch, 0
  /// when none; and whether those epochs were too short for the conversions it measured.
  double unjudged_epoch() const { return recalled_ ? 0 : prior_.epoch_launches; }
  bool unjudged_epochs_short() const {
    return !recalled_ && prior_.round_trip_ns > 0 && prior_.aos_ns > 0 &&
           prior_.epoch_launches * prior_.aos_ns < prior_.round_trip_ns;
  }
  Params p_;
  Verdict verdict_ = Verdict::Unknown;
  double a_ = 0, t_ = 0, c_ = 0;
  std::uint64_t na_ = 0, nt_ = 0;  // measured launches of each kind
  double spent_aos_ = 0;           // AoS kernel time so far (all epochs)
  std::uint64_t epoch_aos_ = 0, epoch_transformed_ = 0;
  double longest_epoch_ = 0;  // in launches, over finished epochs
  std::uint64_t epochs_ = 0;
  bool bought_ = false;  // this epoch converted
  double beta_ = 1;
  unsigned backoffs_ = 0;
  std::string reason_;
  // Experience recalled: its numbers (scaled to this run by the first C), whether it
  // still predicts long epochs, and this run's launches and epochs for the next run. An
  // experience without a verdict is kept in prior_ too, with recalled_ false.
  bool recalled_ = false, predict_long_ = false;
  Experience prior_;
  std::uint64_t launches_total_ = 0;
};

}  // namespace dl
