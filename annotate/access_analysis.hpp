// Finds every access of a function to its annotated buffers and registers the rewrite
// of each with the Splicer; reports what it cannot prove it rewrites correctly.
//
// Pointers keep their AoS values: only dereferences change. A pointer derived from a
// buffer (the parameter itself, p + k, &p[k], an alias variable assigned only such
// values) designates record `index(p)`; an lvalue f[e].m[k].x becomes the slot
// (offset, size) of record e in the tiled layout, through DL_REF(...) and dl_tiled().
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen.hpp"
#include "dl/layout.hpp"
#include "splicer.hpp"

namespace dl::annotate {

/// How consecutive work-items reach a buffer's records in one access:
///   UnitStride  each reads its own whole record (or a flat array indexed by the id);
///   StridedAoS  each reads a field of its own record: fields of R bytes apart;
///   Invariant   the same record in every iteration of an enclosing loop (the compiler
///               keeps it in registers; the layout matters once per loop, not per trip);
///   Gather      a record index loaded from memory (`c[nbr[i]]`): data-dependent;
///   Irregular   any other index: one the analysis cannot name, perhaps a stride.
///   Uniform     the same record for every work-item (an index of constants, kernel
///               arguments, group ids and loop counters over them): a broadcast;
enum class Pattern { UnitStride, StridedAoS, Invariant, Gather, Irregular, Uniform };
const char* pattern_name(Pattern p);

struct AccessStat {
  Pattern pattern = Pattern::Irregular;
  bool write = false;
  bool rmw = false;    // read and written: a compound assignment, ++ or --
  bool whole = false;  // a whole record (or nested struct) copied
  /// The pattern is what the index shows. False where dl-annotate could not see the
  /// index (a pointer moved or aliased, or the access inside a helper the buffer reaches
  /// through a pointer argument): Irregular then means "not known".
  bool known = true;
  unsigned line = 0;
  /// A flat-array access addressed through dl_flat (a division per access): why the
  /// record and scalar could not be named apart. Empty otherwise.
  std::string division;
};

/// A buffer a function accesses: an annotated kernel parameter, or a parameter of a
/// specialised helper.
struct Binding {
  std::string name;  // parameter name
  const clang::ParmVarDecl* root = nullptr;
  clang::QualType elem;     // pointee type, unqualified
  std::string as;           // "__global" or "__constant"
  bool flat = false;        // flat scalar array, records of S scalars
  unsigned flat_count = 0;  // S; 0: S is the annotation's last dimension at run time
  const clang::ParmVarDecl* flat_param = nullptr;  // that dimension, when one parameter
  std::string s;                                   // S in generated code
  /// A swap of rows (BufferAnnotation::rows): the scalars per row in generated code (the
  /// records are S rows of c scalars, accesses through dl_rows_at or dl_flat_rows); else
  /// empty.
  std::string c;
  /// The annotation's texts of those two (spaces removed; c_dim empty where the rows are
  /// several dimensions): which factors of an index to read as them (dl_rows_at).
  std::string s_dim, c_dim;
  /// A swap of two dimensions that are not neighbours ([A][d1][B][d2][C],
  /// BufferAnnotation::distant): B and D (= d2) in generated code, the rows of a record
  /// read as a B x D matrix (s = B * D, c = C); else empty. b_dims the texts of the
  /// dimensions of B, d_dim D's, c_dim C's where C is one dimension; c_one where there is
  /// no dimension after d2 (C = 1: an index has no scalar term).
  std::string swap_b, swap_d, d_dim;
  std::vector<std::string> b_dims;
  bool c_one = false;
  Record rec;
  bool natural = true;     // slots naturally aligned
  std::string base, w, n;  // their texts in generated code
  bool da = false;         // leaves through dl_da (kernel with DA)
  /// Planes of w rows diagonalized (a flat array, Layout::diag): 1 along the secondary
  /// diagonal, 2 along the main one, 0 not; addresses through dl_diag / dl_diag_main.
  int diag = 0;
  bool root_is_base = false;  // the parameter is never reassigned
  /// The buffer stays AoS (its target is AoS): its accesses keep their original text, so
  /// the compiler sees exactly the application's address arithmetic. Set after the
  /// analysis (the choice needs its statistics); the rewrites read it when rendered.
  bool keep_aos = false;
  std::vector<AccessStat> stats;
};

struct Problem {
  clang::SourceLocation loc;
  std::string message;
};

/// A helper function specialised for buffer-derived pointer arguments.
struct Spec {
  const clang::FunctionDecl* fd = nullptr;
  unsigned mask = 0;            // which parameters are buffer pointers
  std::string name;             // helper__dl<mask>
  std::vector<Binding> params;  // one per set bit, bindings for the helper's parameters
  Binding* origin = nullptr;    // where its access statistics go
};

struct FunctionResult {
  std::vector<Problem> problems;
  std::set<std::string> needs;  // Codegen item keys the function's text uses
  std::vector<Spec> specs;      // helpers it calls with buffer pointers
  bool param_reassigned = false;
};

/// Analyses `fd`'s body for accesses through `bindings` and registers rewrites.
/// `bindings` must have elem/as/flat/rec/natural/base/w/n/da filled in; the analysis
/// sets root_is_base and appends statistics.
FunctionResult analyse_function(clang::ASTContext& ctx, Splicer& sp, Codegen& cg,
                                const clang::FunctionDecl* fd, std::vector<Binding>& bindings);

}  // namespace dl::annotate
