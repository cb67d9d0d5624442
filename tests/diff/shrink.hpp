// Minimal reproducers: delta debugging over a differing case's ops (drop ops while the
// difference persists), then the first observation that differs and the command lines
// that re-run it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "process.hpp"

namespace dl_diff {

struct Config {
  std::string app, lib, work, claims;
  std::uint64_t seed = 0, first = 0, last = 0;
  std::string families = "all";
  std::vector<Way> ways;
  int shrink = 1;            // cases shrunk per way and family
  int shrink_seconds = 120;  // the whole run's time for shrinking
  int timeout = 300;         // seconds a process may take to its first digest line
  int hang = 10;             // seconds between two digest lines before it counts as hung
  int max_deaths = 2;        // deaths in one family's cases before the way skips them
};

struct Reproducer {
  bool alone = false;    // differs when run by itself
  std::vector<int> ops;  // the ops kept (all of them when not shrunk)
  std::size_t total_ops = 0;
  bool minimal = false;  // ddmin finished (no single op can be dropped)
  std::string report;    // the text to print
};

using Clock = std::chrono::steady_clock;

Reproducer reproduce(const Config& cfg, const Way& way, std::uint64_t index,
                     Clock::time_point deadline);

/// The command line that re-runs case `index` (with `ops`, unless empty; `repeat` times
/// in one process) the given way.
std::string command_line(const Config& cfg, const Way& way, std::uint64_t index,
                         const std::string& ops, int repeat);

}  // namespace dl_diff
