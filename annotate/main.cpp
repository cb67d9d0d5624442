// dl-annotate: rewrites //DL:-annotated OpenCL C kernels (docs/annotation.md).
//   exit status 0: success, 1: errors in the input, 2: usage error.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "annotate_action.hpp"
#include "dl/annotation.hpp"
#include "options.hpp"

namespace {

namespace fs = std::filesystem;

bool to_stdout(const std::string& path) {
  return path.empty() || path == "-";
}

/// Reads the input file; false with the reason in `why`.
bool read_file(const std::string& path, std::string& out, std::string& why) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) return why = ec.message(), false;
  if (fs::is_directory(st)) return why = "it is a directory", false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return why = std::strerror(errno), false;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return why = "read error", false;
  out = s.str();
  return true;
}

/// The files one run writes, all or none: each is written to a temporary beside it and
/// renamed into place only once every one of them is written. An output that exists and
/// is not a regular file (/dev/null, a pipe, a terminal) is written into directly at the
/// commit: renaming over it would replace the device with a file.
class Outputs {
 public:
  Outputs() = default;
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;
  ~Outputs() {
    for (const auto& f : files_)
      if (!f.tmp.empty()) std::remove(f.tmp.c_str());
  }

  /// Writes `text` for `path` (to its temporary); false with the reason in `why`.
  bool add(const std::string& path, const std::string& text, std::string& why) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (fs::is_directory(st)) return why = "it is a directory", false;
    if (fs::exists(st) && !fs::is_regular_file(st)) {
      files_.push_back({path, "", text});
      return true;
    }
    File f{path, path + ".dl-annotate." + std::to_string(::getpid()) + ".tmp", {}};
    std::ofstream out(f.tmp, std::ios::binary);
    if (!out) return why = std::strerror(errno), false;
    files_.push_back(f);
    if (!(out << text) || !out.flush()) return why = std::strerror(errno), false;
    return true;
  }
  /// Renames every temporary into place; false with the file and reason on failure.
  bool commit(std::string& failed, std::string& why) {
    for (auto& f : files_) {
      if (f.tmp.empty()) {  // not a regular file: written in place
        std::ofstream out(f.path, std::ios::binary);
        if (!out || !(out << f.text) || !out.flush()) {
          failed = f.path;
          why = std::strerror(errno);
          return false;
        }
        continue;
      }
      if (std::rename(f.tmp.c_str(), f.path.c_str()) != 0) {
        failed = f.path;
        why = std::strerror(errno);
        return false;
      }
      f.tmp.clear();
    }
    return true;
  }

 private:
  struct File {
    std::string path, tmp;  // tmp empty: written into path at the commit
    std::string text;
  };
  std::vector<File> files_;
};

int run(int argc, char** argv) {
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
  // On any error no output is left behind, not even a stale one from an earlier run.
  auto fail = [&](const std::string& message) {
    if (!message.empty()) std::cerr << "dl-annotate: error: " << message << "\n";
    for (const std::string* f : {&opts->output, &opts->marshal_output, &opts->deps_output}) {
      std::error_code ec;
      if (!to_stdout(*f) && fs::is_regular_file(*f, ec)) fs::remove(*f, ec);
    }
    return 1;
  };
  std::string source, why;
  if (!read_file(opts->input, source, why))
    return fail("cannot read '" + opts->input + "': " + why);
  if (source.find('\0') != std::string::npos) {
    std::cerr << opts->input << ":1:1: error: input is not a text file (it contains NUL bytes)\n";
    return fail("");
  }
  Result r;
  // Without annotations there is nothing to rewrite; the report still analyses every
  // kernel's reuse.
  if (source.find("//DL:") == std::string::npos && !opts->infer && !opts->auto_annotate &&
      opts->report == ReportFormat::None) {
    r.ok = true;  // nothing annotated: the output is the input
    r.output = source;
  } else {
    r = annotate_source(*opts, source);
  }
  Outputs out;
  if (opts->report != ReportFormat::None) {
    std::string text = opts->report == ReportFormat::Json
                           ? report_json(opts->input, r.report, r.reuse)
                           : report_text(opts->input, r.report, r.reuse);
    if (opts->report_output.empty())
      std::cerr << text;
    else if (opts->report_output == "-")
      std::cout << text;
    else if (!out.add(opts->report_output, text, why))
      return fail("cannot write '" + opts->report_output + "': " + why);
  }
  // --infer: the inferred annotations are the output.
  if (opts->infer) r.output = infer_text(opts->input, r.report);
  if (r.ok) {
    if (!to_stdout(opts->output) && !out.add(opts->output, r.output, why))
      return fail("cannot write '" + opts->output + "': " + why);
    if (!opts->marshal_output.empty() && !out.add(opts->marshal_output, r.marshal, why))
      return fail("cannot write '" + opts->marshal_output + "': " + why);
    std::string deps;
    for (const auto& d : r.deps) deps += d + "\n";
    if (!opts->deps_output.empty() && !out.add(opts->deps_output, deps, why))
      return fail("cannot write '" + opts->deps_output + "': " + why);
  }
  std::string failed;
  if (!out.commit(failed, why)) return fail("cannot write '" + failed + "': " + why);
  if (!r.ok) return fail("");
  if (to_stdout(opts->output) && !(std::cout << r.output).flush())
    return fail("cannot write the output to stdout");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Nothing the input holds may end the tool by a signal: an escaping exception would
  // (std::terminate), so it becomes an error.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "dl-annotate: error: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "dl-annotate: error: internal error\n";
  }
  return 1;
}
