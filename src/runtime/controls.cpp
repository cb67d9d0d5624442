// Reading and checking the DL_* environment variables of controls.def.
#include "controls.hpp"

#include <charconv>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace dl::rt {
namespace {

const char* values_of(std::string_view control) {
#define DL_CONTROL(type, name, def, doc)
#define DL_CONTROL_VALUES(name, values) \
  if (control == #name) return values;
#include "controls.def"
#undef DL_CONTROL_VALUES
#undef DL_CONTROL
  return "";
}

/// The words of a values spec ("a|b|c" or "a,b,c").
std::vector<std::string> words(std::string_view spec, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::stringstream in{std::string(spec)};
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : sep) + w;
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

/// Default text of a control for messages: `"warn"` -> `warn`, `""` -> `(empty)`.
std::string default_text(std::string d) {
  if (d.size() >= 2 && d.front() == '"' && d.back() == '"') d = d.substr(1, d.size() - 2);
  return d.empty() ? "(empty)" : d;
}

// Each reader: true and `out` set, or false and `expected` says what the control takes.
bool read(const std::string& text, const char*, bool& out, std::string& expected) {
  for (const char* t : {"1", "on", "ON", "true", "yes"})
    if (text == t) return out = true, true;
  for (const char* f : {"0", "off", "OFF", "false", "no"})
    if (text == f) return out = false, true;
  expected = "a boolean (1, 0, on, off, true, false, yes, no)";
  return false;
}

bool read(const std::string& text, const char* spec, std::uint64_t& out, std::string& expected) {
  std::uint64_t lo = 0, hi = UINT64_MAX;
  const std::string_view s(spec);
  if (const auto dots = s.find(".."); dots != std::string_view::npos) {
    std::from_chars(s.data(), s.data() + dots, lo);
    std::from_chars(s.data() + dots + 2, s.data() + s.size(), hi);
  }
  expected = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v, 10);  // digits only: no sign, no blanks
  if (r.ec != std::errc() || r.ptr != end || v < lo || v > hi) return false;
  out = v;
  return true;
}

bool read(const std::string& text, const char* spec, std::string& out, std::string& expected) {
  const std::string_view s(spec);
  if (s.find('|') != std::string_view::npos) {  // one of the names
    const auto names = words(s, '|');
    for (const auto& n : names)
      if (text == n) return out = text, true;
    expected = "one of " + join(names, ", ");
    return false;
  }
  out = text;  // a list is checked item by item in from(); anything else is free text
  return true;
}

}  // namespace

Controls Controls::from(const std::function<const char*(const char*)>& lookup,
                        std::vector<std::string>* errors) {
  Controls c;
  auto complain = [&](std::string line) {
    if (errors) errors->push_back(std::move(line));
  };
#define DL_CONTROL(type, name, def, doc)                                                       \
  if (const char* v = lookup(#name); v && *v) {                                                \
    std::string expected;                                                                      \
    if (!read(v, values_of(#name), c.name, expected))                                          \
      complain(std::string(#name "='") + v + "' is not " + expected + "; using the default " + \
               default_text(#def));                                                            \
  }
#include "controls.def"
#undef DL_CONTROL
  // DL_FAULT: a list of names; unknown ones are reported and dropped.
  const auto known = words(values_of("DL_FAULT"), ',');
  std::vector<std::string> kept;
  for (const auto& raw : words(c.DL_FAULT, ',')) {
    const std::string item = trim(raw);
    bool ok = false;
    for (const auto& k : known) ok = ok || item == k;
    if (ok)
      kept.push_back(item);
    else if (!item.empty())
      complain("DL_FAULT='" + c.DL_FAULT + "': '" + item + "' is not one of " + join(known, ", ") +
               "; ignored");
  }
  c.faults = kept;
  c.DL_FAULT = join(kept, ",");
  return c;
}

Controls Controls::from_env(std::vector<std::string>* errors) {
  return from([](const char* name) { return static_cast<const char*>(std::getenv(name)); }, errors);
}

bool Controls::fault(const char* what) const {
  for (const auto& f : faults)
    if (f == what) return true;
  return false;
}

const std::vector<ControlInfo>& control_table() {
  static const std::vector<ControlInfo> table = {
#define DL_CONTROL(type, name, def, doc) {#type, #name, #def, doc, values_of(#name)},
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
    << "`dl-run` sets them from its options (`dl-run --help`). An empty value is the default.\n"
    << "A value that is malformed or not among the accepted ones is reported with a warning\n"
    << "that names the variable and the value, and the default is used instead.\n\n"
    << "| Variable | Type | Default | Accepted values | Meaning |\n|---|---|---|---|---|\n";
  for (const auto& c : control_table()) {
    std::string def = c.default_text;
    if (def == "\"\"") def = "(empty)";
    const std::string_view spec = c.values;
    std::string values;
    auto quoted = [](const std::vector<std::string>& w) { return "`" + join(w, "`, `") + "`"; };
    if (std::string_view(c.type) == "bool")
      values = "`1`, `0`, `on`, `off`, `true`, `false`, `yes`, `no`";
    else if (const auto dots = spec.find(".."); dots != std::string_view::npos)
      values = std::string(spec.substr(0, dots)) + " to " + std::string(spec.substr(dots + 2));
    else if (spec.find('|') != std::string_view::npos)
      values = "one of " + quoted(words(spec, '|'));
    else if (spec.find(',') != std::string_view::npos)
      values = "comma-separated list of " + quoted(words(spec, ','));
    else
      values = std::string(c.type) == "uint" ? "a whole number" : "any text";
    o << "| `" << c.name << "` | " << c.type << " | `" << def << "` | " << values << " | " << c.doc
      << " |\n";
  }
  return o.str();
}

}  // namespace dl::rt
