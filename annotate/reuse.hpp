// Data reuse across a work-group (dl-annotate --report): for each buffer a kernel reads,
// how many element reads one work-group makes, counted with multiplicity, over how many
// distinct elements it reads (the reuse factor), and the bytes of those elements (the
// footprint a kernel would stage in local memory). docs/annotation.md ("Reuse").
//
// The count is exact for the index expressions it accepts: it enumerates every work-item
// of one work-group and every trip of the counted for-loops around each access, and
// evaluates each index as a polynomial over what is the same for the whole group (kernel
// arguments, group ids): two reads are of the same element when their polynomials are
// equal, so symbolic strides (a row width passed as an argument) are taken as large
// enough to keep rows apart.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace dl::annotate {

struct ArgReuse {
  std::string name;
  bool read = false, written = false;
  bool analysed = false;
  std::string why;                       // why not, when not analysed
  std::uint64_t reads = 0;               // element reads of one work-group, with multiplicity
  std::uint64_t elements = 0;            // distinct elements read
  std::uint64_t footprint = 0;           // their bytes
  double reuse_factor = 0;               // reads / elements
  bool fits_local = false;               // footprint <= ReuseOptions::local_mem
  std::vector<std::string> assumptions;  // loops counted with a nominal trip count, ...
};

struct KernelReuse {
  std::string name;
  unsigned line = 0;
  std::array<unsigned, 3> local_size{1, 1, 1};
  unsigned dims = 1;  // the dimensions the kernel asks for ids of
  std::uint64_t local_mem = 0;
  std::vector<ArgReuse> args;  // one per __global or __constant pointer parameter
};

KernelReuse analyse_reuse(clang::ASTContext& ctx, const clang::FunctionDecl* kernel,
                          const ReuseOptions& opts);

}  // namespace dl::annotate
