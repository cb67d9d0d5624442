// The controller's rent-or-buy rule driven with synthetic costs (no device): the bounds
// docs/runtime.md states hold on random and adversarial sequences of epochs.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "dl/policy.hpp"

namespace {

using dl::ConversionPolicy;

struct Costs {
  double a, t, c;  // AoS launch, transformed launch, round trip of conversions
};

struct Totals {
  double ours = 0, native = 0, opt = 0;  // opt: best choice per epoch in hindsight
  std::uint64_t converted_epochs = 0;
};

/// Plays epochs against the rule. `length(e, bought_at)` gives epoch e's length; it may
/// look at when the rule bought in this epoch (an adaptive adversary): it is called
/// before every launch with the launches so far, and the epoch ends when it returns
/// false.
Totals play(ConversionPolicy& p, const Costs& k, int epochs,
            const std::function<bool(int e, int launched, int bought_at)>& more) {
  Totals r;
  for (int e = 0; e < epochs; ++e) {
    bool transformed = false;
    int launched = 0, bought_at = -1;
    double ours = 0;
    while (more(e, launched, bought_at)) {
      if (transformed && p.verdict() == ConversionPolicy::Verdict::Never) {
        transformed = false;  // reverted: the restore was paid with the conversion
      }
      if (!transformed && p.convert(k.c)) {
        transformed = true;
        bought_at = launched;
        ours += k.c;
        r.converted_epochs++;
      }
      ours += transformed ? k.t : k.a;
      p.launched(transformed, transformed ? k.t : k.a);
      ++launched;
    }
    p.epoch_end();
    r.ours += ours;
    r.native += launched * k.a;
    r.opt += std::min(launched * k.a, k.c + launched * std::min(k.a, k.t));
  }
  return r;
}

double slack(const Costs& k, const ConversionPolicy::Params& p) {
  return (p.max_backoff + 2) * k.c + std::max(0.0, k.t - k.a);
}

TEST(Policy, NeverSlowerThanNativePlusBoundOnRandomSequences) {
  std::mt19937 g(7);
  ConversionPolicy::Params params;
  for (int trial = 0; trial < 2000; ++trial) {
    std::uniform_real_distribution<double> u(0.1, 10);
    Costs k{u(g), u(g), u(g) * 5};
    std::uniform_int_distribution<int> len(0, 40);
    std::vector<int> lengths(60);
    for (int& l : lengths) l = len(g);
    ConversionPolicy p(params);
    Totals r = play(p, k, 60, [&](int e, int n, int) { return n < lengths[e]; });
    EXPECT_LE(r.ours, r.native + slack(k, params) + 1e-9)
        << "a=" << k.a << " t=" << k.t << " C=" << k.c << " trial " << trial;
  }
}

TEST(Policy, AdversaryEndingEveryEpochRightAfterTheConversion) {
  // The worst case of rent-or-buy: every epoch ends one launch after the rule converts.
  ConversionPolicy::Params params;
  for (const Costs& k : {Costs{1, 0.2, 3}, Costs{1, 0.9, 0.5}, Costs{5, 1, 40}, Costs{1, 0.5, 1}}) {
    ConversionPolicy p(params);
    Totals r =
        play(p, k, 10000, [](int, int n, int bought) { return bought < 0 ? n < 60 : n <= bought; });
    EXPECT_LE(r.ours, r.native + slack(k, params) + 1e-9) << k.a << " " << k.t << " " << k.c;
    EXPECT_LE(r.ours, 1.05 * r.native) << "long runs stay within 5% of native";
  }
}

TEST(Policy, CompetitiveWithTheBestChoiceOfEachEpoch) {
  // After the verdict, an epoch costs at most (1 + beta) times the best choice for it in
  // hindsight (beta at the epoch's start): twice, as long as no epoch lost (ski rental).
  std::mt19937 g(11);
  for (const Costs& k : {Costs{1, 0.2, 3}, Costs{2, 1, 10}, Costs{1, 0.3, 0.5}, Costs{1, 0.9, 4}}) {
    ConversionPolicy p;
    play(p, k, 1, [](int, int n, int) { return n < 100; });  // exploration
    ASSERT_EQ(p.verdict(), ConversionPolicy::Verdict::Pays);
    std::uniform_int_distribution<int> len(1, 80);
    for (int e = 0; e < 300 && p.verdict() == ConversionPolicy::Verdict::Pays; ++e) {
      const double beta = p.beta();
      const int l = e < 20 ? 200 + e : len(g);  // long epochs first, then anything
      Totals r = play(p, k, 1, [&](int, int n, int) { return n < l; });
      EXPECT_LE(r.ours, (1 + beta) * r.opt + 1e-9) << "length " << l << " C=" << k.c;
      if (e < 20) {
        EXPECT_EQ(beta, 1.0) << "long epochs never raise beta; C=" << k.c << " e=" << e;
      }
    }
  }
}

TEST(Policy, ConvergesToTheBestChoiceOnLongRuns) {
  Costs k{1, 0.25, 2};  // LBM-like: the conversion pays after about three launches
  ConversionPolicy p;
  Totals r = play(p, k, 1, [](int, int n, int) { return n < 1000; });
  EXPECT_LE(r.ours, 1.01 * r.opt);
  EXPECT_LT(r.ours, 0.3 * r.native);
}

TEST(Policy, SlowerTransformedKernelIsRevertedAndRemembered) {
  Costs k{1, 4, 2};  // the MD-kernel case: rewritten 4x slower
  ConversionPolicy p;
  Totals r = play(p, k, 50, [](int, int n, int) { return n < 20; });
  EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Never);
  EXPECT_EQ(r.converted_epochs, 1u);
  EXPECT_LE(r.ours, r.native + k.c + (k.t - k.a) + 1e-9);
  EXPECT_NE(p.reason().find("reverted to AoS"), std::string::npos) << p.reason();
}

TEST(Policy, HostTouchingEveryLaunchNeverConverts) {
  // The stream-clustering case: the host rewrites the buffer before every launch.
  Costs k{1, 0.5, 3};
  ConversionPolicy p;
  Totals r = play(p, k, 1000, [](int, int n, int) { return n < 1; });
  EXPECT_EQ(r.converted_epochs, 0u);
  EXPECT_EQ(r.ours, r.native);
  EXPECT_NE(p.reason().find("too few to pay"), std::string::npos) << p.reason();
}

TEST(Policy, ExplorationWaitsForARoundTripOfKernelTime) {
  Costs k{1, 0.2, 10};
  ConversionPolicy p;
  int converted_at = -1;
  for (int i = 0; i < 30 && converted_at < 0; ++i) {
    if (p.convert(k.c)) converted_at = i;
    p.launched(false, k.a);
  }
  EXPECT_EQ(converted_at, 10);  // after 10 AoS launches (10 = C / a)
}

// --- Experience: what an earlier run measured, recalled by the next one -----------------

ConversionPolicy::Experience experience(double a, double t, double c, double epoch) {
  ConversionPolicy::Experience e;
  e.aos_ns = a;
  e.transformed_ns = t;
  e.round_trip_ns = c;
  e.epoch_launches = epoch;
  return e;
}

TEST(Experience, LongEpochsConvertAtTheFirstLaunch) {
  // An earlier run measured a = 1, t = 0.25, C = 2 in epochs of 10: the conversion pays
  // within an epoch, so this run converts before its first launch: the best choice.
  Costs k{1, 0.25, 2};
  ConversionPolicy p;
  p.recall(experience(1, 0.25, 2, 10));
  ASSERT_TRUE(p.recalled());
  EXPECT_TRUE(p.predicts_long_epochs());
  EXPECT_TRUE(p.prepare(1e9)) << "the transformed kernel is built at once, whatever it costs";
  Totals r = play(p, k, 1, [](int, int n, int) { return n < 10; });
  EXPECT_EQ(r.converted_epochs, 1u);
  EXPECT_DOUBLE_EQ(r.ours, r.opt);
  EXPECT_NE(p.reason().find("earlier run"), std::string::npos) << p.reason();
}

TEST(Experience, ScaledToThisRunBySizeOfTheConversions) {
  // The same kernel on data 8 times larger: C is 8 times larger, and so are a and t.
  ConversionPolicy p;
  p.recall(experience(1, 0.25, 2, 10));
  EXPECT_TRUE(p.convert(16));
  EXPECT_DOUBLE_EQ(p.aos_ns(), 8);
  EXPECT_DOUBLE_EQ(p.transformed_ns(), 2);
  p.launched(true, 2.1);  // measured as the experience said: still pays
  EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Pays);
  EXPECT_DOUBLE_EQ(p.transformed_ns(), 2.1);
}

TEST(Experience, ShortEpochsWaitAsTheRuleSays) {
  // Epochs of 2 launches saved 1.5 against C = 2: no conversion at the first launch; the
  // rent-or-buy rule with the experience's saving (k = floor(C / s) = 2).
  ConversionPolicy p;
  p.recall(experience(1, 0.25, 2, 2));
  EXPECT_FALSE(p.predicts_long_epochs());
  EXPECT_FALSE(p.prepare(0)) << "not built before an epoch reaches k launches";
  p.launched(false, 1);
  p.launched(false, 1);
  EXPECT_TRUE(p.prepare(0));
  EXPECT_TRUE(p.convert(2));
}

TEST(Experience, NeverKeepsAoSFromTheFirstLaunch) {
  Costs k{1, 4, 2};
  ConversionPolicy p;
  ConversionPolicy::Experience e = experience(1, 4, 2, 100);
  e.never = true;
  p.recall(e);
  EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Never);
  EXPECT_FALSE(p.prepare(0));
  Totals r = play(p, k, 20, [](int, int n, int) { return n < 50; });
  EXPECT_EQ(r.converted_epochs, 0u);
  EXPECT_EQ(r.ours, r.native);
  // Numbers that say "not faster" without the flag mean the same.
  ConversionPolicy q;
  q.recall(experience(1, 0.99, 2, 100));
  EXPECT_EQ(q.verdict(), ConversionPolicy::Verdict::Never);
}

TEST(Experience, NothingUsefulIsIgnored) {
  ConversionPolicy p;
  p.recall(experience(1, 0, 2, 10));  // t never measured
  EXPECT_FALSE(p.recalled());
  EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Unknown);
}

TEST(Experience, WhatARunLearnedIsWhatTheNextRecalls) {
  Costs k{1, 0.25, 2};
  ConversionPolicy first;
  play(first, k, 3, [](int, int n, int) { return n < 12; });
  ConversionPolicy::Experience e = first.experience();
  EXPECT_TRUE(e.useful());
  EXPECT_DOUBLE_EQ(e.aos_ns, 1);
  EXPECT_DOUBLE_EQ(e.transformed_ns, 0.25);
  EXPECT_DOUBLE_EQ(e.round_trip_ns, 2);
  EXPECT_DOUBLE_EQ(e.epoch_launches, 12);
  ConversionPolicy second;
  second.recall(e);
  EXPECT_TRUE(second.predicts_long_epochs());
  // A run that never converted leaves nothing useful.
  ConversionPolicy cold;
  play(cold, Costs{1, 0.25, 100}, 1, [](int, int n, int) { return n < 5; });
  EXPECT_FALSE(cold.experience().useful());
}

TEST(Experience, WrongExperienceCostsAtMostOneMoreRoundTrip) {
  // Adversarial runs against every kind of lie: the experience says long epochs and a
  // fast transformed kernel; the run has one-launch epochs, or a transformed kernel
  // slower than AoS, or an AoS kernel much faster than recalled. The total stays within
  // the bound of a cold run plus one more round trip and the difference over the first
  // epoch that has launches.
  std::mt19937 g(5);
  ConversionPolicy::Params params;
  for (int trial = 0; trial < 3000; ++trial) {
    std::uniform_real_distribution<double> u(0.1, 10);
    Costs k{u(g), u(g), u(g) * 5};
    // One draw after the other (the order of a call's arguments is the compiler's).
    const double ra = u(g), rt = u(g) / 4, rc = u(g), repoch = u(g) * 20;
    const ConversionPolicy::Experience e = experience(ra, rt, rc, repoch);
    std::uniform_int_distribution<int> len(0, 40);
    std::vector<int> lengths(60);
    for (int& l : lengths) l = len(g);
    if (trial % 3 == 0) std::fill(lengths.begin(), lengths.end(), 1);
    ConversionPolicy p(params);
    p.recall(e);
    Totals r = play(p, k, 60, [&](int ep, int n, int) { return n < lengths[ep]; });
    // The first epoch with a launch is where the recalled numbers are acted on before
    // any is measured (an empty epoch teaches nothing): its whole difference may be lost.
    const auto first = std::find_if(lengths.begin(), lengths.end(), [](int l) { return l > 0; });
    const double first_epoch = (first == lengths.end() ? 0 : *first) * std::max(0.0, k.t - k.a);
    EXPECT_LE(r.ours, r.native + slack(k, params) + k.c + first_epoch + 1e-9)
        << "a=" << k.a << " t=" << k.t << " C=" << k.c << " recalled a=" << e.aos_ns
        << " t=" << e.transformed_ns << " C=" << e.round_trip_ns << " trial " << trial;
  }
}

TEST(Experience, AoSTimeOfEarlierRunsPaysForTheBuild) {
  // Short runs that never reach their build: each keeps what it spent, and a later run
  // builds (and explores) once the runs together have spent the build's cost.
  ConversionPolicy first;
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(first.prepare(8));
    first.launched(false, 1);
  }
  const ConversionPolicy::Experience e = first.experience();
  EXPECT_FALSE(e.useful());
  EXPECT_DOUBLE_EQ(e.spent_ns, 5);
  ConversionPolicy second;
  second.recall(e);
  EXPECT_FALSE(second.recalled());
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(second.prepare(8)) << i;
    second.launched(false, 1);
  }
  EXPECT_TRUE(second.prepare(8));
  EXPECT_TRUE(second.convert(2)) << "the trial too: 8 spent against a round trip of 2";
}

TEST(Experience, ATrialPaidByEarlierRunsIsJudgedAgainstThisRunsAoS) {
  // Earlier runs spent enough for the build and the trial; this run measures its AoS
  // kernel at its first launch, then converts, and judges the transformed kernel by it.
  for (double epoch : {0.0, 10.0}) {  // (0: an experience that does not say)
    ConversionPolicy::Experience e;
    e.aos_ns = 1;
    e.epoch_launches = epoch;
    e.spent_ns = 50;
    ConversionPolicy p;
    p.recall(e);
    EXPECT_TRUE(p.prepare(8));
    EXPECT_FALSE(p.convert(2)) << "no AoS launch measured in this run yet";
    p.launched(false, 1);
    ASSERT_TRUE(p.convert(2)) << p.reason();
    p.launched(true, 1.5);  // slower than AoS
    EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Never) << p.reason();
    EXPECT_TRUE(p.experience().useful()) << "the next run recalls the verdict";
  }
}

TEST(Experience, EpochsTooShortInEarlierRunsAreNotBuiltForAgain) {
  // A run built, and found its two-launch epochs too short for conversions of 10: the
  // next run, with the same epochs, neither builds nor explores, however much the runs
  // together have spent; one whose epoch grows longer than the earlier ones builds.
  ConversionPolicy first;
  for (int ep = 0; ep < 20; ++ep) {
    for (int i = 0; i < 2; ++i) {
      if (first.prepare(3)) {
        EXPECT_FALSE(first.convert(10));
      }
      first.launched(false, 1);
    }
    first.epoch_end();
  }
  const ConversionPolicy::Experience e = first.experience();
  EXPECT_FALSE(e.useful());
  EXPECT_DOUBLE_EQ(e.round_trip_ns, 10);
  ConversionPolicy second;
  second.recall(e);
  for (int ep = 0; ep < 5; ++ep) {
    for (int i = 0; i < 2; ++i) {
      EXPECT_FALSE(second.prepare(3)) << "epoch " << ep << " launch " << i;
      second.launched(false, 1);
    }
    second.epoch_end();
  }
  ConversionPolicy third;
  third.recall(second.experience());
  for (int i = 0; i < 3; ++i) third.launched(false, 1);
  EXPECT_TRUE(third.prepare(3)) << third.reason();
}

TEST(Experience, OneLosingEpochEndsTheTrust) {
  // The experience said long epochs; this run's are one launch long. The first epoch
  // converts and loses; from then on the rule waits k = floor(beta C / s) launches, which
  // one-launch epochs never reach.
  Costs k{1, 0.25, 2};
  ConversionPolicy p;
  p.recall(experience(1, 0.25, 2, 10));
  Totals r = play(p, k, 20, [](int, int n, int) { return n < 1; });
  EXPECT_FALSE(p.predicts_long_epochs());
  EXPECT_EQ(r.converted_epochs, 1u);
  EXPECT_LE(r.ours, r.native + k.c);
}

TEST(Experience, AoSIsMeasuredAtTheSecondEpoch) {
  // The recalled a stands until the run measures its own: the first launch of the second
  // epoch runs AoS, and a kernel the experience flattered is judged by it.
  Costs k{1, 1.5, 0.5};  // in truth the transformed kernel is slower
  ConversionPolicy p;
  p.recall(experience(4, 1.5, 0.5, 10));  // an AoS time 4x too high
  Totals first = play(p, k, 1, [](int, int n, int) { return n < 10; });
  EXPECT_EQ(first.converted_epochs, 1u);
  EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Pays) << "not yet found out";
  play(p, k, 1, [](int, int n, int) { return n < 10; });
  EXPECT_GE(p.aos_measured(), 1u);
  EXPECT_EQ(p.verdict(), ConversionPolicy::Verdict::Never) << p.reason();
}

}  // namespace
