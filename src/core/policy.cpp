// The rent-or-buy rule of the profitability controller (see dl/policy.hpp).
#include "dl/policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dl {
namespace {

std::string ms(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f ms", ns / 1e6);
  return b;
}

}  // namespace

bool ConversionPolicy::prepare(double setup_ns) {
  if (verdict_ == Verdict::Never) return false;
  if (verdict_ == Verdict::Pays) {  // recalled: build when this epoch would convert
    if (predict_long_) {
      reason_ = "preparing the transformed kernel now: an earlier run measured " +
                ms(prior_.transformed_ns) + " per launch against AoS " + ms(prior_.aos_ns) +
                ", in epochs of " + std::to_string(std::lround(prior_.epoch_launches)) +
                " launches";
      return true;
    }
    const double k = launches_before_buying();
    if (spent_aos_ >= setup_ns && static_cast<double>(epoch_aos_) >= k) return true;
    reason_ = "kept AoS: an earlier run measured a saving of " +
              ms(prior_.aos_ns - prior_.transformed_ns) + " per launch against conversions of " +
              ms(prior_.round_trip_ns) + "; converting after " + std::to_string(std::lround(k)) +
              " launches of an epoch";
    return false;
  }
  if (unjudged_epochs_short() && static_cast<double>(epoch_launches()) <= unjudged_epoch()) {
    reason_ = "kept AoS: earlier runs needed AoS every " +
              std::to_string(std::lround(unjudged_epoch())) +
              " launches, too few to pay for conversions of " + ms(prior_.round_trip_ns);
    return false;
  }
  if (spent_aos_ >= setup_ns) return true;
  reason_ = "kept AoS: preparing the transformed kernel once the AoS kernel time (" +
            ms(spent_aos_) + ") reaches its cost (" + ms(setup_ns) + ")";
  return false;
}

bool ConversionPolicy::convert(double round_trip_ns) {
  c_ = round_trip_ns > 0 ? round_trip_ns : 0;
  if (recalled_ && verdict_ == Verdict::Pays && prior_.round_trip_ns > 0 && c_ > 0) {
    // The experience in this run's sizes: kernel times scale like the conversions.
    const double f = c_ / prior_.round_trip_ns;
    if (!na_) a_ = prior_.aos_ns * f;
    if (!nt_) t_ = prior_.transformed_ns * f;
    if (!nt_ && t_ >= (1.0 - p_.min_gain) * a_) {
      // This run's AoS kernel is faster than the experience says: explore as usual.
      verdict_ = Verdict::Unknown;
      t_ = 0;
      predict_long_ = false;
    }
  }
  switch (verdict_) {
    case Verdict::Never:
      return false;
    case Verdict::Unknown: {
      if (spent_aos_ < c_) {
        reason_ = "kept AoS: exploring once the AoS kernel time (" + ms(spent_aos_) +
                  ") reaches a round trip of conversions (" + ms(c_) + ")";
        return false;
      }
      if (!na_) {
        // The AoS time that pays for the trial is earlier runs': this run's AoS kernel is
        // measured first, so that the trial is judged against it.
        reason_ = "kept AoS for a launch: measuring the AoS kernel before the trial";
        return false;
      }
      const double longest = std::max(longest_epoch_, unjudged_epoch());
      if ((epochs_ > 0 || unjudged_epoch() > 0) && longest * a_ < c_) {
        reason_ = "kept AoS: the host needs AoS every " + std::to_string(std::lround(longest)) +
                  " launches at most, too few to pay for conversions of " + ms(c_);
        return false;
      }
      bought_ = true;
      reason_ = "converted to measure the transformed kernel (AoS kernel time so far " +
                ms(spent_aos_) + ", conversions " + ms(c_) + ")";
      return true;
    }
    case Verdict::Pays: {
      if (recalled_ && !na_ && epochs_ > 0 && epoch_aos_ == 0) {
        // a is still the experience's: this epoch's first launch measures it.
        reason_ =
            "kept AoS for a launch: measuring the AoS kernel, whose time so far is an "
            "earlier run's (" +
            ms(a_) + ")";
        return false;
      }
      const double s = a_ - t_;
      const double k = launches_before_buying();
      if (static_cast<double>(epoch_aos_) < k) {
        reason_ = "kept AoS: conversions " + ms(c_) + ", measured saving " + ms(s) +
                  " per launch after " + std::to_string(epoch_aos_) + " launches of this epoch";
        return false;
      }
      bought_ = true;
      reason_ = "converted: conversions " + ms(c_) + ", " + (nt_ ? "measured" : "earlier run's") +
                " saving " + ms(s) + " per launch after " + std::to_string(epoch_aos_) +
                " launches" + (predict_long_ ? " (an earlier run's epochs were long enough)" : "");
      return true;
    }
  }
  return false;
}

void ConversionPolicy::measured(bool transformed, double kernel_ns) {
  if (kernel_ns < 0) kernel_ns = 0;
  // Running means over the last 16 launches or so: the first value counts in full.
  auto update = [&](double& est, std::uint64_t& n) {
    ++n;
    est += (kernel_ns - est) / static_cast<double>(std::min<std::uint64_t>(n, 16));
  };
  if (transformed) {
    update(t_, nt_);
    judge();
  } else {
    update(a_, na_);
    // This run's first AoS measurement replaces an experience's a: judge again.
    if (recalled_ && na_ == 1 && verdict_ == Verdict::Pays) judge();
  }
}

void ConversionPolicy::enqueued(bool transformed) {
  if (transformed) {
    ++epoch_transformed_;
  } else {
    ++epoch_aos_;
    spent_aos_ += a_;
  }
}

double ConversionPolicy::launches_before_buying() const {
  if (predict_long_) return 0;
  // Before this run's first conversion estimate, the experience's own numbers (C and s
  // in the same sizes).
  const bool own = c_ > 0 || !recalled_;
  const double c = own ? c_ : prior_.round_trip_ns;
  const double s = own ? a_ - t_ : prior_.aos_ns - prior_.transformed_ns;
  return s > 0 ? std::floor(beta_ * c / s) : INFINITY;
}

void ConversionPolicy::recall(const Experience& e) {
  if (!e.useful()) {
    // No verdict yet: the AoS time earlier runs spent pays for the build and the trial
    // as this run's does (rent or buy across runs).
    if (e.spent_ns > 0 && verdict_ == Verdict::Unknown) spent_aos_ += e.spent_ns;
    // And how long their epochs were: when they were too short for the conversions they
    // measured, neither the build nor the trial is worth making again for epochs as short.
    prior_ = e;
    return;
  }
  recalled_ = true;
  prior_ = e;
  if (e.never || e.transformed_ns >= (1.0 - p_.min_gain) * e.aos_ns) {
    verdict_ = Verdict::Never;
    a_ = e.aos_ns;  // (not measured again: the next run recalls the same)
    t_ = e.transformed_ns;
    c_ = e.round_trip_ns;
    reason_ =
        "kept AoS: an earlier run on this device found that converting does not pay "
        "(transformed " +
        ms(e.transformed_ns) + ", AoS " + ms(e.aos_ns) + " per launch)";
    return;
  }
  verdict_ = Verdict::Pays;
  a_ = e.aos_ns;
  t_ = e.transformed_ns;
  predict_long_ = e.epoch_launches * (e.aos_ns - e.transformed_ns) >= e.round_trip_ns;
}

ConversionPolicy::Experience ConversionPolicy::experience() const {
  const std::uint64_t now = epoch_aos_ + epoch_transformed_;
  const std::uint64_t launches = launches_total_ + now;
  const std::uint64_t epochs = epochs_ + (now ? 1 : 0);
  if (!launches) return recalled_ ? prior_ : Experience{};
  Experience e;
  e.never = verdict_ == Verdict::Never;
  e.aos_ns = a_;
  e.transformed_ns = t_;
  e.round_trip_ns = c_ > 0 ? c_ : prior_.round_trip_ns;
  e.epoch_launches = static_cast<double>(launches) / static_cast<double>(epochs);
  if (verdict_ == Verdict::Unknown) e.spent_ns = spent_aos_;
  return e;
}

void ConversionPolicy::judge() {
  if (!nt_ || (!na_ && !recalled_)) return;
  const Verdict before = verdict_;
  verdict_ = t_ < (1.0 - p_.min_gain) * a_ ? Verdict::Pays : Verdict::Never;
  if (verdict_ == Verdict::Never && before != Verdict::Never)
    reason_ = "reverted to AoS: the transformed kernel took " + ms(t_) + ", AoS " + ms(a_);
}

void ConversionPolicy::epoch_end() {
  const double launches = static_cast<double>(epoch_aos_ + epoch_transformed_);
  if (launches == 0) return;
  longest_epoch_ = std::max(longest_epoch_, launches);
  ++epochs_;
  launches_total_ += epoch_aos_ + epoch_transformed_;
  if (bought_ && verdict_ == Verdict::Pays) {
    const double gain = static_cast<double>(epoch_transformed_) * (a_ - t_) - c_;
    if (gain < 0) {
      predict_long_ = false;  // the experience was wrong about this run's epochs
      beta_ *= 2;
      if (++backoffs_ > p_.max_backoff) {
        verdict_ = Verdict::Never;
        reason_ = "kept AoS: epochs too short for conversions to pay (" +
                  std::to_string(backoffs_) + " losing epochs)";
      }
    } else if (gain >= c_ && beta_ > 1) {
      beta_ /= 2;
      if (backoffs_) --backoffs_;
    }
  }
  bought_ = false;
  epoch_aos_ = epoch_transformed_ = 0;
}

}  // namespace dl
