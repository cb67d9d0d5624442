// The whole rewrite of one OpenCL C file: parse with Clang, read the //DL: annotations,
// analyse and rewrite each annotated kernel, emit the completed annotations.
#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "report.hpp"
#include "reuse.hpp"

namespace dl::annotate {

struct Result {
  bool ok = false;      // no errors (Clang's or DL's)
  std::string output;   // rewritten source
  std::string marshal;  // marshaling kernels (for --marshal-out)
  std::vector<KernelReport> report;
  std::vector<KernelReuse> reuse;  // every kernel of the file, with --report
  std::vector<std::string> deps;   // files the input includes (absolute; Clang's own excluded)
};

/// Runs dl-annotate on `source` (the contents of opts.input). Diagnostics go to stderr.
Result annotate_source(const Options& opts, const std::string& source);

}  // namespace dl::annotate
