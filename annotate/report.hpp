// --report: per kernel argument, the access pattern found, the layout chosen and why.
#pragma once

#include <string>
#include <vector>

namespace dl::annotate {

struct ArgReport {
  std::string name;
  std::string record;                                                        // Record::describe()
  std::string count;                                                         // n as an expression
  unsigned unit = 0, strided = 0, invariant = 0, gather = 0, irregular = 0;  // by pattern
  unsigned unknown = 0;  // of the irregular: index not seen (moved pointer, helper)
  unsigned reads = 0, writes = 0, whole = 0;
  std::string pattern;  // the dominant pattern, in words
  std::string layout;   // "ASTA (T = DL_ASTA_T)", "ASTA(16)", "DA"
  std::string reason;
};

struct KernelReport {
  std::string name;
  unsigned line = 0;
  bool transformed = false;
  std::string status;  // why not, when not transformed
  std::vector<ArgReport> args;
};

std::string report_text(const std::string& file, const std::vector<KernelReport>& kernels);
/// JSON (empty string when dl-annotate was built without nlohmann_json).
std::string report_json(const std::string& file, const std::vector<KernelReport>& kernels);

}  // namespace dl::annotate
