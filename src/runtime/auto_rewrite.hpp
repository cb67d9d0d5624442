// Zero-touch mode (DL_AUTO): the rewrite of a program nobody annotated, by dl-annotate
// --auto in a child process, cached on disk (auto_rewrite.cpp, docs/runtime.md).
#pragma once

#include <string>

namespace dl::rt {

struct AutoRewrite {
  bool ok = false;
  std::string source;  // the rewritten program (inferred //DL: lines included)
  std::string why;     // why there is none
  bool cached = false;
  double seconds = 0;   // to get it: the annotator's run, or the cache lookup
  std::string report;   // dl-annotate's JSON report (what was inferred, per argument)
  std::string options;  // the options the annotator saw (-D/-U/-I/-cl-std of the build)
};

/// The options of a build that matter to the annotator (-D, -U, -I, -cl-std=), -I paths
/// made absolute, as separate arguments joined by '\n'.
std::string annotator_options(const std::string& build_options);

/// The rewrite of `source` built with `build_options`: from the cache (valid only for
/// the same source, the same annotator options, the same DL version and unchanged
/// included files), else from a run of dl-annotate (DL_ANNOTATE or PATH) whose result,
/// success or failure, goes into the cache. Never throws.
AutoRewrite auto_rewrite(const std::string& source, const std::string& build_options);

}  // namespace dl::rt
