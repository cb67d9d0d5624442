// libFuzzer target: dl-annotate's whole rewrite of a source, in-process (Clang parses
// every input, so this target runs far fewer inputs per second than the core one).
// Besides "never crash", it checks what the rewrite promises (docs/annotation.md): when
// the input is accepted, the output's annotations scan without errors (the runtime
// reads them) and the output compiles both as it is and with -DDL_ASTA_T.
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "annotate_action.hpp"
#include "dl/annotation.hpp"

namespace {

void fail(const std::string& why, const std::string& output) {
  std::fprintf(stderr, "dl_fuzz_annotate: %s; the output:\n%s\n", why.c_str(), output.c_str());
  std::abort();
}

/// Clang finds no error in `code` (OpenCL C 1.2, as dl-annotate parses it).
bool compiles(const std::string& code, bool transformed) {
  std::vector<std::string> args{"-x",
                                "cl",
                                "-cl-std=CL1.2",
                                "-fsyntax-only",
                                "--target=spir64-unknown-unknown",
                                "-resource-dir=" DL_CLANG_RESOURCE_DIR,
                                "-w"};
  if (transformed) args.push_back("-DDL_ASTA_T=16");
  return clang::tooling::runToolOnCodeWithArgs(std::make_unique<clang::SyntaxOnlyAction>(), code,
                                               args, "out.cl");
}

/// Whether Clang alone, without dl-annotate, crashes on `code` (compiles() in a child
/// process). Clang 14 has crashes of its own on some malformed sources (a vector literal
/// cut by a comment: clang::Sema::PrepareScalarCast); they are not dl-annotate's, and the
/// in-process run below would stop the fuzzer on them.
bool clang_crashes(const std::string& code) {
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    compiles(code, false);
    _exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return !WIFEXITED(status) || WEXITSTATUS(status) != 0;  // a signal, or a sanitizer's exit
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  // dl-annotate refuses NUL bytes and copies a file without //DL: lines unchanged before
  // Clang ever runs (annotate/main.cpp): such inputs are not interesting here.
  if (source.find('\0') != std::string::npos || source.find("//DL:") == std::string::npos)
    return -1;
  if (clang_crashes(source)) return -1;
  dl::annotate::Options opts;
  opts.input = "fuzz.cl";
  const dl::annotate::Result r = dl::annotate::annotate_source(opts, source);
  if (!r.ok) return 0;
  for (const auto& d : dl::scan_annotations(r.output).diagnostics)
    if (d.error)
      fail("the rewrite's annotations do not scan: " + std::to_string(d.line) + ":" +
               std::to_string(d.column) + ": " + d.message,
           r.output);
  // Identifiers with DL's prefixes are the rewrite's own (helpers, DL_ASTA_T): an input
  // that defines them, such as a rewritten file annotated again, may clash with them.
  const bool reserved = source.find("dl_") != std::string::npos ||
                        source.find("DL_") != std::string::npos ||
                        source.find("__dl") != std::string::npos;
  if (r.output != source && !reserved) {
    if (!compiles(r.output, false)) fail("the rewrite does not compile", r.output);
    if (!compiles(r.output, true)) fail("the rewrite does not compile with DL_ASTA_T", r.output);
  }
  return 0;
}
