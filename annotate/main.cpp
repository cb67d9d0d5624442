// dl-annotate: rewrites //DL:-annotated OpenCL C kernels (docs/annotation.md).
//   exit status 0: success, 1: errors in the input, 2: usage error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "annotate_action.hpp"
#include "dl/annotation.hpp"
#include "options.hpp"

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return !in.bad();
}

bool write_file(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return static_cast<bool>(std::cout.flush());
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out || !(out << text) || !out.flush()) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dl::annotate;
  std::string error;
  bool help = false;
  auto opts = parse_options(argc, argv, error, help);
  if (help) {
    std::cout << usage();
    return 0;
  }
  if (!opts) {
    std::cerr << "dl-annotate: error: " << error << "\n" << usage();
    return 2;
  }
  std::string source;
  if (!read_file(opts->input, source)) {
    std::cerr << "dl-annotate: error: cannot read '" << opts->input << "'\n";
    return 1;
  }
  if (source.find('\0') != std::string::npos) {
    std::cerr << opts->input << ":1:1: error: input is not a text file (it contains NUL bytes)\n";
    return 1;
  }
  Result r;
  if (source.find("//DL:") == std::string::npos) {
    r.ok = true;  // nothing annotated: the output is the input
    r.output = source;
  } else {
    r = annotate_source(*opts, source);
  }
  if (opts->report != ReportFormat::None) {
    std::string text = opts->report == ReportFormat::Json ? report_json(opts->input, r.report)
                                                          : report_text(opts->input, r.report);
    if (opts->report == ReportFormat::Json && text.empty()) {
      std::cerr << "dl-annotate: error: built without JSON support; use --report=text\n";
      return 2;
    }
    if (opts->report_output.empty())
      std::cerr << text;
    else if (!write_file(opts->report_output, text)) {
      std::cerr << "dl-annotate: error: cannot write '" << opts->report_output << "'\n";
      return 1;
    }
  }
  if (!r.ok) {
    // Never leave a stale output that looks good: remove it.
    if (!opts->output.empty() && opts->output != "-") std::remove(opts->output.c_str());
    return 1;
  }
  if (!write_file(opts->output, r.output)) {
    std::cerr << "dl-annotate: error: cannot write '" << opts->output << "'\n";
    return 1;
  }
  if (!opts->marshal_output.empty() && !write_file(opts->marshal_output, r.marshal)) {
    std::cerr << "dl-annotate: error: cannot write '" << opts->marshal_output << "'\n";
    return 1;
  }
  return 0;
}
