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
class Expr;
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

/// How one buffer's reads are staged in local memory (dl-annotate --stage-local): the
/// elements one work-group reads lie in a box, element index = origin + sum of d_j *
/// stride_j with 0 <= d_j < extent_j; the box is copied into a __local array (slot =
/// the digits d_j in mixed radix, the first dimension fastest), and each read becomes a
/// slot whose number is affine in the local ids and the counters of the loops around it.
struct StagePlan {
  std::string buffer;
  bool ok = false;
  std::string why;  // when not ok
  struct Dim {
    std::string stride;  // OpenCL C, group-invariant ("1": the unit stride)
    std::int64_t lo = 0;
    std::uint64_t extent = 1;
  };
  std::vector<Dim> dims;
  std::string origin;  // OpenCL C (long): the index of the box's first element, lo included
  std::string type;    // the element type
  std::uint64_t slots = 0, bytes = 0;
  std::array<unsigned, 3> local_size{1, 1, 1};
  /// One read: its slot = base + sum of lid[d] * get_local_id(d) + sum of loop terms.
  struct Read {
    const clang::Expr* access = nullptr;
    std::int64_t base = 0;
    std::array<std::int64_t, 3> lid{0, 0, 0};
    std::vector<std::pair<std::string, std::int64_t>> loops;  // counter name, coefficient
  };
  std::vector<Read> reads;
};

/// Plans the staging of each of `buffers` (parameter names) of `kernel` for the work-group
/// of `opts` (the reuse analysis's enumeration, every read recorded). A plan is not ok,
/// with why, when the kernel writes the buffer, reads it other than as `p[i]`, in a loop
/// whose trip count is not a constant, through an index the analysis cannot evaluate, or
/// when the box does not fit `opts.local_mem` or is no smaller than the reads.
std::vector<StagePlan> plan_staging(clang::ASTContext& ctx, const clang::FunctionDecl* kernel,
                                    const std::vector<std::string>& buffers,
                                    const ReuseOptions& opts);

}  // namespace dl::annotate
