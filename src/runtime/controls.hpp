// DL's run-time controls, read once from the environment (table: controls.def).
#pragma once

#include <cstdint>
#include <functional>
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

  /// Reads every DL_* variable. A value that is malformed or not among the control's
  /// values (controls.def) keeps the default, and `errors` gets a line naming the
  /// variable, the value and what it accepts. An empty value is the default.
  static Controls from_env(std::vector<std::string>* errors = nullptr);
  /// The same, from `lookup` (a variable's value, or nullptr when it is not set).
  static Controls from(const std::function<const char*(const char*)>& lookup,
                       std::vector<std::string>* errors = nullptr);
  /// True when DL_FAULT lists `what` (parsed once by from_env(); unknown names dropped).
  bool fault(const char* what) const;
  std::vector<std::string> faults;
  /// Report, summary or trace asked for: the runtime needs profiling events.
  bool profiling() const {
    return !DL_REPORT.empty() || !DL_TRACE.empty() || DL_SUMMARY;
  }
  /// Queues get CL_QUEUE_PROFILING_ENABLE (hidden from the application): for the report
  /// and trace, and for the profitability controller's and the offset width's measurements.
  bool queue_profiling() const {
    return profiling() || DL_POLICY == "auto" || DL_OFFSET_WIDTH == "measure";
  }
};

/// One row of the table, for documentation.
struct ControlInfo {
  const char* type;
  const char* name;
  const char* default_text;
  const char* doc;
  const char* values;  // DL_CONTROL_VALUES, "" for any value of the type
};
const std::vector<ControlInfo>& control_table();

/// docs/controls.md, generated from the table.
std::string controls_markdown();

}  // namespace dl::rt
