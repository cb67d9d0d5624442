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
  if (spent_aos_ >= setup_ns) return true;
  reason_ = "kept AoS: preparing the transformed kernel once the AoS kernel time (" +
            ms(spent_aos_) + ") reaches its cost (" + ms(setup_ns) + ")";
  return false;
}

bool ConversionPolicy::convert(double round_trip_ns) {
  c_ = round_trip_ns > 0 ? round_trip_ns : 0;
  switch (verdict_) {
    case Verdict::Never:
      return false;
    case Verdict::Unknown: {
      if (spent_aos_ < c_) {
        reason_ = "kept AoS: exploring once the AoS kernel time (" + ms(spent_aos_) +
                  ") reaches a round trip of conversions (" + ms(c_) + ")";
        return false;
      }
      if (epochs_ > 0 && longest_epoch_ * a_ < c_) {
        reason_ = "kept AoS: the host needs AoS every " +
                  std::to_string(std::lround(longest_epoch_)) +
                  " launches at most, too few to pay for conversions of " + ms(c_);
        return false;
      }
      bought_ = true;
      reason_ = "converted to measure the transformed kernel (AoS kernel time so far " +
                ms(spent_aos_) + ", conversions " + ms(c_) + ")";
      return true;
    }
    case Verdict::Pays: {
      const double s = a_ - t_;
      const double k = std::floor(beta_ * c_ / s);
      if (static_cast<double>(epoch_aos_) < k) {
        reason_ = "kept AoS: conversions " + ms(c_) + ", measured saving " + ms(s) +
                  " per launch after " + std::to_string(epoch_aos_) + " launches of this epoch";
        return false;
      }
      bought_ = true;
      reason_ = "converted: conversions " + ms(c_) + ", measured saving " + ms(s) +
                " per launch after " + std::to_string(epoch_aos_) + " launches";
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

void ConversionPolicy::judge() {
  if (!na_ || !nt_) return;
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
  if (bought_ && verdict_ == Verdict::Pays) {
    const double gain = static_cast<double>(epoch_transformed_) * (a_ - t_) - c_;
    if (gain < 0) {
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
