// Command line of dl-annotate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dl/layout.hpp"

namespace dl::annotate {

enum class ReportFormat { None, Text, Json };

/// What the reuse analysis of --report assumes (docs/annotation.md, "Reuse").
struct ReuseOptions {
  bool enabled = true;  // with --report; --no-reuse leaves it out
  /// Work-group size (--local-size); empty: 256 work-items over the dimensions the kernel
  /// uses (256, 16x16 or 8x8x4). Dimensions not given are 1.
  std::vector<unsigned> local_size;
  std::uint64_t local_mem = 32768;  // --local-mem: OpenCL's minimum for a full profile
  unsigned trip_count = 16;         // --trip-count: trips of a loop with no constant bound
  /// --stage-local: the buffers of `local:` clauses are read from local memory, staged
  /// for the work-group above (docs/annotation.md, "Staging in local memory").
  bool stage_local = false;
};

struct Options {
  std::string input;           // the .cl file
  std::string output;          // rewritten source ("" or "-" = stdout)
  std::string marshal_output;  // marshaling kernels (.cl), "" = not written
  std::string report_output;   // report file ("" = stderr)
  std::string deps_output;     // files the input includes, one per line ("" = not written)
  ReportFormat report = ReportFormat::None;
  std::optional<Layout> force_layout;  // --layout=asta|asta(T)|da
  bool werror = false;                 // DL warnings become errors
  /// Kernels with no //DL: annotation get an inferred one (docs/annotation.md): --auto
  /// rewrites them, --infer prints the annotations instead of the rewritten source.
  bool infer = false, auto_annotate = false;
  ReuseOptions reuse;
  std::string resource_dir;             // Clang resource dir (opencl-c.h)
  std::vector<std::string> clang_args;  // -I/-D/-U/-include and everything after `--`
};

/// Parses argv. Returns nullopt on a usage error (message in `error`); `help` is set for
/// --help (print usage(), exit 0).
std::optional<Options> parse_options(int argc, const char* const* argv, std::string& error,
                                     bool& help);
std::string usage();

}  // namespace dl::annotate
