// libFuzzer target: dl-annotate's whole rewrite of a source, in-process (Clang parses
// every input, so this target runs far fewer inputs per second than the core one).
// Besides "never crash", it checks that a successful rewrite's annotations scan
// without errors: they are what the runtime reads.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "annotate_action.hpp"
#include "dl/annotation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  // dl-annotate refuses NUL bytes and copies a file without //DL: lines unchanged before
  // Clang ever runs (annotate/main.cpp): such inputs are not interesting here.
  if (source.find('\0') != std::string::npos || source.find("//DL:") == std::string::npos)
    return -1;
  dl::annotate::Options opts;
  opts.input = "fuzz.cl";
  const dl::annotate::Result r = dl::annotate::annotate_source(opts, source);
  if (r.ok) {
    const auto out = dl::scan_annotations(r.output);
    for (const auto& d : out.diagnostics)
      if (d.error) {
        std::fprintf(stderr, "dl_fuzz_annotate: the rewrite's annotations do not scan: %d:%d: %s\n",
                     d.line, d.column, d.message.c_str());
        std::abort();
      }
  }
  return 0;
}
