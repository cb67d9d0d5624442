// Runs dl_diff_app as a child process in one of the four ways (native, and DL loaded by
// LD_PRELOAD, as an OpenCL layer, or both) and collects its digest lines.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dl_diff {

/// A way to run the application: mode native|preload|layer|both, and DL's tile
/// ("default": DL_TILE unset).
struct Way {
  std::string mode = "native";
  std::string tile = "default";
  std::string width = "measure";  // DL_OFFSET_WIDTH
  std::string label() const;      // "native", "preload DL_TILE=4", "layer DL_OFFSET_WIDTH=64", ...
  /// The environment assignments of this way, as a shell prefix.
  std::string env_prefix(const std::string& lib) const;
};

/// Parses "preload:4,layer:32:64,both:default" (mode:tile[:width]); throws
/// std::invalid_argument.
std::vector<Way> parse_ways(const std::string& text);

struct Line {
  std::string family, digest;
  std::uint64_t size = 0;
};

struct Outcome {
  int status = 0;  // exit code, or 128 + signal
  bool timed_out = false;
  std::map<std::string, Line> lines;  // by label (case number, or subset index)
  std::vector<std::string> order;     // labels in the order printed
  std::string err;                    // the end of stderr
  bool ok() const { return status == 0 && !timed_out; }
  std::string what() const;  // "exit 1", "signal 6 (Aborted)", "timed out"
};

/// Runs `args` (argv, the program first) the given way; stdout parsed as digest lines.
/// Killed (timed_out) when the first line takes more than `first_s` seconds or a later
/// one more than `idle_s` after the previous.
Outcome run_app(const std::vector<std::string>& args, const Way& way, const std::string& lib,
                int first_s, int idle_s, const std::string& err_file);

/// The last `count` lines of `text` (each shortened to 200 characters), indented.
std::string last_lines(const std::string& text, std::size_t count, const std::string& indent);

/// Quotes a word for a shell command line.
std::string shell_quote(const std::string& s);

}  // namespace dl_diff
