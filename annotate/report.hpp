// --report: per kernel argument, the access pattern found, the layout chosen and why.
#pragma once

#include <string>
#include <vector>

#include "reuse.hpp"

namespace dl::annotate {

struct ArgReport {
  std::string name;
  std::string record;                                                        // Record::describe()
  std::string count;                                                         // n as an expression
  unsigned unit = 0, strided = 0, invariant = 0, gather = 0, irregular = 0;  // by pattern
  unsigned uniform = 0;
  unsigned unknown = 0;  // of the irregular: index not seen (moved pointer, helper)
  unsigned reads = 0, writes = 0, whole = 0;
  std::string pattern;  // the dominant pattern, in words
  std::string layout;   // "ASTA (T = DL_ASTA_T)", "ASTA(16)", "DA"
  std::string reason;
  unsigned divisions = 0;  // flat-array accesses through dl_flat (a division each)
  std::string division;    // why (of the first such access)
};

/// What was inferred for one pointer parameter of a kernel nobody annotated (--infer,
/// --auto), or why nothing was.
struct ArgInference {
  std::string name;
  bool inferred = false;
  std::string what;  // the records found, or why not
};

/// A buffer of a `local:` clause: staged in local memory (--stage-local), or why not.
struct ArgStaging {
  std::string name;
  bool staged = false;
  std::string what;  // the box staged, or why not
};

struct KernelReport {
  std::string name;
  unsigned line = 0;
  bool transformed = false;
  std::string status;  // why not, when not transformed
  std::vector<ArgReport> args;
  bool inferred = false;                // the annotation was inferred (no //DL: lines)
  std::vector<ArgInference> inference;  // per pointer parameter, when inferred
  std::string annotation;               // the inferred annotation, as a user writes it
  std::vector<ArgStaging> staging;      // per buffer of its `local:` clauses
};

std::string report_text(const std::string& file, const std::vector<KernelReport>& kernels,
                        const std::vector<KernelReuse>& reuse = {});
/// The inferred annotations of the kernels that had none (dl-annotate --infer): per kernel
/// a comment line, what each pointer parameter holds or why not, and the //DL: line.
std::string infer_text(const std::string& file, const std::vector<KernelReport>& kernels);
/// JSON (empty string when dl-annotate was built without nlohmann_json).
std::string report_json(const std::string& file, const std::vector<KernelReport>& kernels,
                        const std::vector<KernelReuse>& reuse = {});

}  // namespace dl::annotate
