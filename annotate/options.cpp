// Command line of dl-annotate: own parser, so that usage errors exit with 2 and Clang
// options (-I, -D, ... or anything after `--`) pass through untouched.
#include "options.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace dl::annotate {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// A whole number in [lo, hi] written in decimal digits alone.
std::optional<std::uint64_t> whole(const std::string& s, std::uint64_t lo, std::uint64_t hi) {
  if (s.empty() || s.size() > 15 || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const std::uint64_t n = std::stoull(s);
  if (n < lo || n > hi) return std::nullopt;
  return n;
}

}  // namespace

std::string usage() {
  return "usage: dl-annotate [options] <input.cl> [-- <clang options>]\n"
         "\n"
         "Rewrites the //DL:-annotated kernels of an OpenCL C file so that, when built with\n"
         "-DDL_ASTA_T=<T>, they read their annotated buffers in ASTA(T) or DA layout, and\n"
         "otherwise compile to exactly the original code. See docs/annotation.md.\n"
         "\n"
         "options:\n"
         "  -o <file>               write the rewritten source to <file> (default: stdout)\n"
         "  --marshal-out=<file>    write the AOS2ASTA_/ASTA2AOS_ marshaling kernels\n"
         "  --report[=text|json]    per argument of each annotated kernel: access pattern,\n"
         "                          layout and why; per buffer of every kernel: its reuse\n"
         "                          across a work-group (reuse factor, footprint)\n"
         "  --report-out=<file>     write the report to <file> (default: stderr)\n"
         "  --local-size=X[,Y[,Z]]  the work-group the report's reuse analysis counts\n"
         "                          (default: 256 work-items: 256, 16x16 or 8x8x4)\n"
         "  --local-mem=<bytes>     local memory a footprint must fit (default 32768)\n"
         "  --trip-count=<n>        trips counted of a loop whose bound is not a constant\n"
         "                          (default 16)\n"
         "  --no-reuse              leave the reuse analysis out of the report\n"
         "  --stage-local           stage the buffers of `local:` clauses in local memory\n"
         "                          for the work-group of --local-size (default as above)\n"
         "  --deps-out=<file>       write the files the input includes, one path per line\n"
         "  --layout=<l>            force the target layout: asta, asta(T) or da\n"
         "  --auto                  infer the annotation of every kernel that has none\n"
         "                          (records of structs, flat arrays g[S*e + c], n = the\n"
         "                          whole buffer) and rewrite those kernels too\n"
         "  --infer                 print the annotations --auto would infer (and why not)\n"
         "                          instead of the rewritten source\n"
         "  --Werror                make DL warnings (untransformed kernels) errors\n"
         "  --resource-dir=<dir>    Clang resource directory (opencl-c.h)\n"
         "  -I<dir> -D<m>[=v] -U<m> -include <f>   passed to the OpenCL C parser\n"
         "  -- <options>            everything after -- is passed to the parser\n"
         "\n"
         "exit status: 0 success, 1 errors in the input, 2 usage error\n";
}

std::optional<Options> parse_options(int argc, const char* const* argv, std::string& error,
                                     bool& help) {
  Options o;
  help = false;
  auto value = [&](int& i, std::string_view arg, std::string_view name,
                   std::string& out) -> int {  // 1 matched, 0 no match, -1 error
    if (arg == name) {
      if (i + 1 >= argc) {
        error = "option '" + std::string(name) + "' needs a value";
        return -1;
      }
      out = argv[++i];
    } else if (starts_with(arg, std::string(name) + "=")) {
      out = std::string(arg.substr(name.size() + 1));
    } else {
      return 0;
    }
    if (out.empty()) {
      error = "option '" + std::string(name) + "' needs a value, not an empty one";
      return -1;
    }
    return 1;
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string v;
    int r = 0;
    if (a == "--") {
      for (++i; i < argc; ++i) o.clang_args.emplace_back(argv[i]);
      break;
    }
    if (a == "-h" || a == "--help") {
      help = true;
      return o;
    }
    if (a == "-o") {
      if (i + 1 >= argc || !*argv[i + 1])
        return error = "option '-o' needs a file name (or - for stdout)", std::nullopt;
      o.output = argv[++i];
      continue;
    }
    if ((r = value(i, a, "--marshal-out", o.marshal_output))) {
      if (r < 0) return std::nullopt;
      continue;
    }
    if ((r = value(i, a, "--report-out", o.report_output))) {
      if (r < 0) return std::nullopt;
      if (o.report == ReportFormat::None) o.report = ReportFormat::Text;
      continue;
    }
    if ((r = value(i, a, "--deps-out", o.deps_output))) {
      if (r < 0) return std::nullopt;
      continue;
    }
    if ((r = value(i, a, "--resource-dir", o.resource_dir))) {
      if (r < 0) return std::nullopt;
      continue;
    }
    if (a == "--report" || a == "--report=text") {
      o.report = ReportFormat::Text;
      continue;
    }
    if (a == "--report=json") {
      o.report = ReportFormat::Json;
      continue;
    }
    if (starts_with(a, "--report=")) {
      error = "unknown report format '" + std::string(a.substr(9)) + "' (text or json)";
      return std::nullopt;
    }
    if (a == "--no-reuse") {
      o.reuse.enabled = false;
      continue;
    }
    if (a == "--stage-local") {
      o.reuse.stage_local = true;
      continue;
    }
    if (a == "--auto") {
      o.auto_annotate = true;
      continue;
    }
    if (a == "--infer") {
      o.infer = true;
      continue;
    }
    if (a == "--Werror" || a == "-Werror") {
      o.werror = true;
      continue;
    }
    if ((r = value(i, a, "--layout", v))) {
      if (r < 0) return std::nullopt;
      std::string l;
      for (char c : v) l += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      if (l == "ASTA") {
        o.force_layout = Layout::asta(0);
      } else if (l == "DA") {
        o.force_layout = Layout::da();
      } else {
        try {
          Layout parsed = Layout::parse(l);
          if (parsed.kind != LayoutKind::ASTA || parsed.tile == 0) throw LayoutError("");
          o.force_layout = parsed;
        } catch (const LayoutError&) {
          if (starts_with(l, "ASTA(") && l.size() > 5 && l.back() == ')')
            error = "bad tile width '" + l.substr(5, l.size() - 6) + "' in --layout=" + v +
                    ": T is a whole number from 1 to " + std::to_string(kMaxTile);
          else
            error = "unknown layout '" + v + "' (asta, asta(T) or da)";
          return std::nullopt;
        }
      }
      continue;
    }
    if ((r = value(i, a, "--local-size", v))) {
      if (r < 0) return std::nullopt;
      o.reuse.local_size.clear();
      std::uint64_t items = 1;
      for (std::size_t at = 0; at <= v.size();) {
        const std::size_t comma = std::min(v.find(',', at), v.size());
        const auto n = whole(v.substr(at, comma - at), 1, 1024);
        if (!n || o.reuse.local_size.size() == 3)
          return error = "bad --local-size=" + v +
                         ": one to three whole numbers from 1 to 1024, comma-separated",
                 std::nullopt;
        o.reuse.local_size.push_back(static_cast<unsigned>(*n));
        items *= *n;
        at = comma + 1;
      }
      if (items > 1024)
        return error = "--local-size=" + v + " makes " + std::to_string(items) +
                       " work-items; dl-annotate counts work-groups of at most 1024",
               std::nullopt;
      continue;
    }
    if ((r = value(i, a, "--local-mem", v))) {
      if (r < 0) return std::nullopt;
      const auto n = whole(v, 1, std::uint64_t{1} << 40);
      if (!n) return error = "bad --local-mem=" + v + ": a number of bytes", std::nullopt;
      o.reuse.local_mem = *n;
      continue;
    }
    if ((r = value(i, a, "--trip-count", v))) {
      if (r < 0) return std::nullopt;
      const auto n = whole(v, 1, 4096);
      if (!n)
        return error = "bad --trip-count=" + v + ": a whole number from 1 to 4096", std::nullopt;
      o.reuse.trip_count = static_cast<unsigned>(*n);
      continue;
    }
    if (a == "-include" || a == "-isystem" || a == "-I" || a == "-D" || a == "-U") {
      if (i + 1 >= argc)
        return error = "option '" + std::string(a) + "' needs a value", std::nullopt;
      o.clang_args.emplace_back(a);
      o.clang_args.emplace_back(argv[++i]);
      continue;
    }
    if (starts_with(a, "-I") || starts_with(a, "-D") || starts_with(a, "-U") ||
        starts_with(a, "-cl-") || starts_with(a, "-W")) {
      o.clang_args.emplace_back(a);
      continue;
    }
    if (starts_with(a, "-") && a != "-") {
      error = "unknown option '" + std::string(a) + "'";
      return std::nullopt;
    }
    if (!o.input.empty()) {
      error = "more than one input file ('" + o.input + "' and '" + std::string(a) + "')";
      return std::nullopt;
    }
    o.input = a;
  }
  if (o.input.empty()) {
    error = "no input file";
    return std::nullopt;
  }
  // Two outputs into one file would leave only the last one written.
  const std::pair<const char*, const std::string*> outs[] = {{"-o", &o.output},
                                                             {"--marshal-out", &o.marshal_output},
                                                             {"--report-out", &o.report_output},
                                                             {"--deps-out", &o.deps_output}};
  for (std::size_t x = 0; x < 4; ++x)
    for (std::size_t y = x + 1; y < 4; ++y)
      if (!outs[x].second->empty() && *outs[x].second != "-" &&
          *outs[x].second == *outs[y].second) {
        error = std::string(outs[x].first) + " and " + outs[y].first + " name the same file '" +
                *outs[x].second + "'";
        return std::nullopt;
      }
  return o;
}

}  // namespace dl::annotate
