// Reading the DL_* environment variables of controls.def.
#include "controls.hpp"

#include <cstdlib>
#include <sstream>

namespace dl::rt {
namespace {

bool parse(const char* text, bool& out) {
  std::string s(text);
  if (s == "1" || s == "on" || s == "ON" || s == "true" || s == "yes") return out = true, true;
  if (s == "0" || s == "off" || s == "OFF" || s == "false" || s == "no" || s.empty())
    return out = false, true;
  return false;
}

bool parse(const char* text, std::uint64_t& out) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') return false;
  out = v;
  return true;
}

bool parse(const char* text, std::string& out) {
  out = text;
  return true;
}

}  // namespace

Controls Controls::from_env(std::vector<std::string>* errors) {
  Controls c;
#define DL_CONTROL(type, name, def, doc)                                                \
  if (const char* v = std::getenv(#name)) {                                             \
    if (!parse(v, c.name) && errors)                                                    \
      errors->push_back(std::string(#name "='") + v + "' is not a " #type ", ignored"); \
  }
#include "controls.def"
#undef DL_CONTROL
  std::stringstream in(c.DL_FAULT);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) c.faults.push_back(item);
  return c;
}

bool Controls::fault(const char* what) const {
  for (const auto& f : faults)
    if (f == what) return true;
  return false;
}

const std::vector<ControlInfo>& control_table() {
  static const std::vector<ControlInfo> table = {
#define DL_CONTROL(type, name, def, doc) {#type, #name, #def, doc},
#include "controls.def"
#undef DL_CONTROL
  };
  return table;
}

std::string controls_markdown() {
  std::ostringstream o;
  o << "# DL run-time controls\n\n"
    << "<!-- Generated from src/runtime/controls.def by dl_controls_doc. Do not edit. -->\n\n"
    << "Environment variables read once, at the first OpenCL call, by `libdl_interpose.so`.\n"
    << "`dl-run` sets them from its options (`dl-run --help`).\n\n"
    << "| Variable | Type | Default | Meaning |\n|---|---|---|---|\n";
  for (const auto& c : control_table()) {
    std::string def = c.default_text;
    if (def == "\"\"") def = "(empty)";
    o << "| `" << c.name << "` | " << c.type << " | `" << def << "` | " << c.doc << " |\n";
  }
  return o.str();
}

}  // namespace dl::rt
