// libFuzzer target: the annotation parsers of dl::core in-process (scan_annotations,
// Expr::parse/eval, Record::parse, Layout::parse). Besides "never crash, never undefined
// behaviour" (ASan, UBSan), it checks that what the parsers accept round-trips.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <string_view>

#include "dl/annotation.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "dl_fuzz_annotations: invariant broken: %s\n", what);
    std::abort();
  }
}

/// Scalar values chosen from the name, extreme ones included, so that evaluation meets
/// overflow as often as ordinary values.
std::optional<std::int64_t> scalar(const std::string& name) {
  static const std::int64_t values[] = {0,
                                        1,
                                        -1,
                                        7,
                                        std::int64_t{1} << 31,
                                        std::int64_t{1} << 33,
                                        std::numeric_limits<std::int64_t>::max(),
                                        std::numeric_limits<std::int64_t>::min()};
  if (name.size() % 9 == 8) return std::nullopt;  // an unset argument
  return values[name.size() % 8];
}

dl::Expr::Env env() {
  dl::Expr::Env e;
  e.global_size = {1024, std::uint64_t{1} << 40, 3};
  e.local_size = {64, 0, 1};
  e.num_groups = {16, 1, std::uint64_t{1} << 63};
  e.scalar = scalar;
  return e;
}

/// What the parser accepts parses again from its own text, to the same value.
void expression(const dl::Expr& e, const dl::Expr::Env& en) {
  std::string err1, err2;
  const auto v = e.eval(en, &err1);
  check(v || !err1.empty(), "a failed evaluation says why");
  const auto again = dl::Expr::parse(e.text());
  check(again.has_value(), "an accepted expression parses from its own text");
  check(again->eval(en, &err2) == v, "the reparsed expression evaluates the same");
  check(again->is_constant() == e.is_constant(), "constness survives reparsing");
  (void)e.to_cl();
  (void)e.names();
}

bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

void record(const dl::Record& r) {
  const std::string text = r.describe();
  dl::Record again;
  try {
    again = dl::Record::parse(text);
  } catch (const dl::LayoutError&) {
    check(false, "Record::describe() parses back");
  }
  check(again == r, "Record::parse(describe()) is the same record");
  check(r.size() <= dl::kMaxRecordSize, "records stay within kMaxRecordSize");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const dl::Expr::Env en = env();

  // A whole source: annotations, records, kernels.
  const dl::SourceAnnotations s = dl::scan_annotations(text);
  for (const auto& [name, r] : s.records) record(r);
  for (const auto& k : s.kernels)
    for (const auto& b : k.buffers) {
      std::vector<std::int64_t> dims;
      for (const auto& d : b.dims) {
        expression(d, en);
        if (auto v = d.eval(en)) dims.push_back(*v);
      }
      auto it = s.records.find(b.record);
      std::string why;
      const auto n = dl::record_count(dims, it == s.records.end() ? nullptr : &it->second, &why);
      check(n || !why.empty(), "a failed record count says why");
      // A clause formats to text that scans back to the same clause (for a kernel with
      // the same parameters; the kernel finder is a text heuristic, so keep only the
      // identifiers it found: a clause names nothing else).
      // When the text list is not the compiled one (params_exact false), the scanner does
      // not check names against it: the clause's own names are parameters then.
      std::vector<std::string> names;
      for (const auto& q : k.params)
        if (identifier(q)) names.push_back(q);
      if (!k.params_exact) {
        names.push_back(b.name);
        for (const auto& d : b.dims)
          for (const auto& q : d.names()) names.push_back(q);
      }
      std::string params;
      std::set<std::string> seen;
      for (const auto& q : names)
        if (seen.insert(q).second) params += (params.empty() ? "" : ", ") + q;
      const std::string again =
          "//DL: AoS: " + dl::format_clause(b) + "\n__kernel void k(" + params + ") {}\n";
      const auto s2 = dl::scan_annotations(again);
      check(!s2.has_errors() && s2.kernels.size() == 1 && s2.kernels[0].buffers.size() == 1,
            "a formatted clause scans back");
      check(dl::format_clause(s2.kernels[0].buffers[0]) == dl::format_clause(b),
            "a formatted clause scans back to itself");
    }

  // The input as one expression, one record description, one layout.
  std::string err;
  std::size_t pos = 0;
  if (auto e = dl::Expr::parse(text, &err, &pos))
    expression(*e, en);
  else
    check(!err.empty() && pos <= text.size(), "a parse error says why and where");
  try {
    record(dl::Record::parse(text));
  } catch (const dl::LayoutError&) {
  }
  try {
    const dl::Layout l = dl::Layout::parse(text);
    check(dl::Layout::parse(l.str()) == l, "Layout::parse(str()) is the same layout");
  } catch (const dl::LayoutError&) {
  }
  return 0;
}
