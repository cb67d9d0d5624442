// DL's run-time controls, read once from the environment (table: controls.def).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dl::rt {

struct Controls {
#define DL_TYPE_bool bool
#define DL_TYPE_uint std::uint64_t
#define DL_TYPE_string std::string
#define DL_CONTROL(type, name, def, doc) DL_TYPE_##type name = def;
#include "controls.def"
#undef DL_CONTROL
#undef DL_TYPE_bool
#undef DL_TYPE_uint
#undef DL_TYPE_string

  /// Reads every DL_* variable; malformed values keep the default and are listed in `errors`.
  static Controls from_env(std::vector<std::string>* errors = nullptr);
  /// True when DL_FAULT lists `what` (parsed once by from_env()).
  bool fault(const char* what) const;
  std::vector<std::string> faults;
  /// Report, summary or trace asked for: the runtime needs profiling events.
  bool profiling() const {
    return !DL_REPORT.empty() || !DL_TRACE.empty() || DL_SUMMARY;
  }
};

/// One row of the table, for documentation.
struct ControlInfo {
  const char* type;
  const char* name;
  const char* default_text;
  const char* doc;
};
const std::vector<ControlInfo>& control_table();

/// docs/controls.md, generated from the table.
std::string controls_markdown();

}  // namespace dl::rt
