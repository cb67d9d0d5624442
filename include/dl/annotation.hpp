// The //DL: annotation: the contract between dl-annotate and the runtime.
// Grammar and meaning: docs/annotation.md. Parsing here is shared by both sides.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dl/layout.hpp"

namespace dl {

/// Limits that keep the parsers' work bounded whatever the input (docs/annotation.md).
inline constexpr std::size_t kMaxExprLength = 4096;         // characters of one expression
inline constexpr int kMaxExprDepth = 256;                   // nesting: ( ), signs, operators
inline constexpr std::size_t kMaxAnnotationLine = 1 << 16;  // characters of one //DL: line

/// A dimension expression: global_size(d), local_size(d), num_groups(d), integer
/// literals, kernel scalar-argument names, fields of by-value struct arguments
/// (`d.boxes`, completed by dl-annotate as `d.boxes@16:int`), `sizeof(type)` (replaced by
/// dl-annotate), + - * / %, unary -, parentheses; or `*` alone, the records of the whole
/// bound buffer. Arithmetic is on 64-bit signed integers and
/// checked: an overflow is an error, never a wrap.
class Expr {
 public:
  struct Env {
    std::array<std::uint64_t, 3> global_size{1, 1, 1};
    std::array<std::uint64_t, 3> local_size{1, 1, 1};  // 0 = not given by the launch
    std::array<std::uint64_t, 3> num_groups{1, 1, 1};
    /// Value of a scalar kernel argument by name; nullopt if unknown or unset.
    std::function<std::optional<std::int64_t>(const std::string&)> scalar;
    /// Value of `*`: the records the bound buffer holds (its size over the record size).
    std::optional<std::int64_t> whole;
    /// Bytes of a by-value argument by name (for `arg.field@offset:type`); null if unset.
    std::function<const std::vector<unsigned char>*(const std::string&)> bytes;
  };

  /// A `sizeof(type)` (arg empty, path = the type, offset -2) or a field of a by-value
  /// argument `arg.path` (offset -1 until dl-annotate completes it, type char ... ulong).
  struct FieldRef {
    std::string arg, path;
    std::int64_t offset = -1;
    std::string type;
  };

  Expr();
  ~Expr();
  Expr(const Expr&);
  Expr& operator=(const Expr&);
  Expr(Expr&&) noexcept;
  Expr& operator=(Expr&&) noexcept;

  /// Parses `text`. On error returns nullopt and sets `error` (with `error_pos`, the
  /// 0-based column in `text`). Errors: syntax, an expression longer than
  /// kMaxExprLength or nested deeper than kMaxExprDepth, and constant parts that
  /// overflow or divide by zero (`9223372036854775807 * 2`, `n / (2 - 2)`).
  static std::optional<Expr> parse(std::string_view text, std::string* error = nullptr,
                                   std::size_t* error_pos = nullptr);
  /// Evaluates; on failure (unknown name, division by zero, overflow, local_size not
  /// given) returns nullopt and says why in `error`.
  std::optional<std::int64_t> eval(const Env& env, std::string* error = nullptr) const;
  /// Names of scalar arguments the expression reads.
  std::vector<std::string> names() const;
  /// The `sizeof(type)` and `arg.field` terms, in order.
  std::vector<FieldRef> fields() const;
  /// True when the expression reads no scalar argument and no work size (a constant).
  bool is_constant() const;
  /// True for `*`, the whole buffer.
  bool is_whole() const;
  const std::string& text() const { return text_; }
  /// The expression in OpenCL C (get_global_size(0) ...), for generated kernels; `whole`
  /// is the OpenCL C expression that stands for `*`.
  std::string to_cl(const std::string& whole = "0") const;

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

/// One annotated buffer argument of a kernel.
struct BufferAnnotation {
  std::string name;                 // parameter name
  std::vector<Expr> dims;           // [E1][E2]...: n is their product (see record_count())
  Layout target = Layout::asta(0);  // ASTA with tile 0 = "ASTA with the runtime's T"
  /// `-> ASTA(E)` with E an expression of the kernel's integer arguments: the tile width
  /// is E's value at each launch (target is then ASTA with tile 0). A constant E is folded
  /// into target instead.
  std::optional<Expr> tile;
  bool target_given = false;  // written after `->` (else dl-annotate may choose)
  std::string marshaler;      // AOS2ASTA_foo / AOS2DA_foo, empty before dl-annotate
  std::string record;         // record name (from the marshaler name or name:rec)
  bool read_only = false;     // `const`: the kernel never writes it
  bool write_only = false;    // `write_only`: the kernel never reads it
  /// `-> [..]`, the dimensions with dims[swap] and dims[swap_with] exchanged (a flat
  /// array; swap < swap_with): for neighbours ASTA with tile width dims[swap], otherwise
  /// SWAP(dims[swap], B) with B the product of the dimensions between the two (the tile
  /// width in `tile` or `target`, B evaluated at each launch). -1: no swap.
  int swap = -1;
  int swap_with = -1;
  /// Annotated `[*]`: n is the bound buffer's records, given to the kernel at each launch.
  bool whole() const { return !dims.empty() && dims[0].is_whole(); }
  /// A swap of two dimensions that are not neighbours.
  bool distant() const { return swap >= 0 && swap_with > swap + 1; }
  /// A swap of two dimensions that are not the fastest two: the records are
  /// dims[0..swap] (n their product), each the product of dims[swap + 1..swap_with] rows of
  /// the product of the dimensions after swap_with, a row one slot (flat_record's `block`).
  bool rows() const {
    return swap >= 0 && (distant() || static_cast<std::size_t>(swap_with) + 1 < dims.size());
  }
  int line = 0, column = 0;  // 1-based position of the name in the source
};

/// A buffer named in a `local:` clause: its reads are staged in local memory by
/// dl-annotate --stage-local (docs/annotation.md, "Staging in local memory").
struct LocalAnnotation {
  std::string name;  // parameter name
  Expr extent;       // the number of elements the buffer holds
  int line = 0, column = 0;
};

/// A `gather:` clause, `x[col]`: the kernel's reads `x[col[e]]` take element e of a copy
/// of x gathered through col (docs/remappings.md, "Indirect copies"). dl-annotate completes
/// it with both element types (`x:float[col:int]`), which the runtime reads.
///
/// A `map:` clause, `x[fn]`, is a gather through a function of the program instead of an
/// index array: the reads `x[fn(e, ...)]` take element e of a copy holding x[fn(i, ...)]
/// at i (docs/remappings.md, "User-defined maps"). `index` is then fn, and dl-annotate
/// completes the clause with x's element type and the kernel parameters fn's other
/// arguments read (`x:float[fn(n, s)]`), whose values the runtime passes to the map kernel
/// it emits (`dl_map<len>_<kernel>_<x>`).
struct GatherAnnotation {
  std::string name;   // the gathered array (a parameter)
  std::string index;  // the index array (a parameter), or the function of a map
  std::string type;   // element type of `name`: a scalar or vector type; empty before dl-annotate
  std::string index_type;  // integer type of `index`'s elements; empty before dl-annotate
  bool map = false;        // a `map:` clause
  /// A map's parameters (in the kernel's order) its function's other arguments read;
  /// meaningful once completed (`type` not empty).
  std::vector<std::string> args;
  int line = 0, column = 0;
  /// Bytes of one element of `type` (a 3-vector takes 4 elements' room), 0 when `type`
  /// is not an OpenCL C scalar or vector type.
  std::size_t elem_size() const;
  /// Bytes of one index and its signedness; {0, false} when `index_type` is not an
  /// integer scalar type.
  std::pair<unsigned, bool> index_kind() const;
};

/// All annotations of one kernel.
///
/// Annotations name parameters; they bind by name to the parameters the compiler sees
/// (the preprocessed source under the build's options): dl-annotate against Clang's
/// FunctionDecl, the runtime against CL_KERNEL_ARG_NAME. The scanner reads source text
/// only, so its parameter list is best effort, for messages and for checks where the
/// text is the compiled list (docs/annotation.md).
struct KernelAnnotation {
  std::string kernel;
  /// Parameter names as the source text spells them, in order, preprocessor directive
  /// lines skipped (both branches of a conditional are listed).
  std::vector<std::string> params;
  /// True when `params` is the compiled parameter list under any build options: no
  /// directive inside the list and every parameter a declaration `type name` (no macro
  /// standing for parameters).
  bool params_exact = true;
  std::vector<BufferAnnotation> buffers;
  std::vector<LocalAnnotation> locals;    // `local:` clauses
  std::vector<GatherAnnotation> gathers;  // `gather:` and `map:` clauses
  int line = 0;                           // line of the first //DL: line
  /// Index of parameter `name` in the compiled list when the text gives it
  /// (params_exact), else -1: never an index that depends on build options.
  int param_index(const std::string& name) const;
};

struct AnnotationDiagnostic {
  int line = 0, column = 0;  // 1-based
  bool error = true;
  std::string message;
};

/// Everything found in one program source.
struct SourceAnnotations {
  std::vector<KernelAnnotation> kernels;
  std::map<std::string, Record> records;  // from `//DL: record` lines
  std::vector<AnnotationDiagnostic> diagnostics;
  bool has_errors() const;
  const KernelAnnotation* find(const std::string& kernel) const;
};

/// Scans an OpenCL C source for //DL: lines and the kernels (by name) they precede. Never
/// throws on bad input: problems become diagnostics, and a kernel with an erroneous
/// annotation is left out of `kernels` (it runs untransformed). Names that are not
/// parameters are errors only where the text is the compiled list (params_exact).
/// `is_macro` (dl-annotate, which knows the preprocessor's macros) says which names in
/// dimension expressions are macros, to be expanded before the runtime reads them.
SourceAnnotations scan_annotations(std::string_view source,
                                   const std::function<bool(const std::string&)>& is_macro = {});

/// Number of records a buffer holds for evaluated dims: the product of all dims, except
/// that for a flat record (one array field of S scalars) whose last dim equals S the
/// last dim is the record itself. nullopt (and why, in `error`) for a negative dim, or
/// when the product, or its size in bytes with `rec`, does not fit in 64 bits.
std::optional<std::uint64_t> record_count(const std::vector<std::int64_t>& dims, const Record* rec,
                                          std::string* error = nullptr);

/// A flat array whose record length S is a kernel argument names its scalar type as its
/// record (`val:float[rows][K]`, no `//DL: record` line): true for such a record name.
bool is_flat_scalar(const std::string& record);
/// The record of S scalars of that type (`flat_float_62`, one array field `v`), made at
/// each launch from S; nullopt (and why) when S is outside [1, kMaxRecordSize / scalar size].
/// With `block` > 1, S rows of `block` scalars, each row one slot (`flat_float_62x16`): the
/// record of a dimension swap (BufferAnnotation::swap); the record is at most 1 MiB.
std::optional<Record> flat_record(const std::string& scalar, std::int64_t s, std::int64_t block = 1,
                                  std::string* error = nullptr);

/// For a swap of rows (`b.rows()`), with every dimension of `b` evaluated (`dims`): the
/// record made at launch (flat_record of the product of dims[swap + 1..swap_with] rows of
/// the product of the dimensions after swap_with) and the record count (the product of
/// dims[0..swap]); nullopt (and why) when either does not fit.
/// For a swap of dimensions that are not neighbours (`b.distant()`), its layout at a
/// launch: SWAP(dims[swap], B), B the product of the dimensions between the two.
std::optional<std::pair<Record, std::uint64_t>> swap_rows(const BufferAnnotation& b,
                                                          const std::vector<std::int64_t>& dims,
                                                          std::string* error = nullptr);
std::optional<Layout> distant_swap(const BufferAnnotation& b, const std::vector<std::int64_t>& dims,
                                   std::string* error = nullptr);

/// Buffers of one kernel annotated `[*]`, not kept in AoS, whose records have one size
/// (`records` gives it; a flat array whose S is an argument: the same S expression and
/// scalar size) share one record count, the smallest of their buffers' (records past it
/// stay AoS): the rewritten kernel then computes their addresses once. Per buffer, the
/// index of the first buffer of its group (itself when alone), or -1 when not `[*]`.
std::vector<int> whole_groups(const KernelAnnotation& ka,
                              const std::map<std::string, Record>& records);

/// Formats one buffer clause back to text (`f[global_size(0)] -> ASTA AOS2ASTA_foo`).
std::string format_clause(const BufferAnnotation& b);
/// Formats one buffer of a `local:` clause back to text (`in[w * h]`).
std::string format_local(const LocalAnnotation& l);
/// Formats one array of a `gather:` or `map:` clause back to text (`x:float[col:int]`,
/// `x:float[fn(n)]`).
std::string format_gather(const GatherAnnotation& g);
/// What a message calls it: `the gather x[col]`, `the map x[fn]`.
std::string describe_gather(const GatherAnnotation& g);
/// The names of what dl-annotate adds for a `map:` clause of array `x` in kernel `kernel`:
/// the copy parameter (`dl_map_x`), its element count (`dl_mapn_x`) and the map kernel
/// (`dl_map6_reduce_x` for kernel `reduce`: the kernel name's length keeps the names of
/// two kernels' maps apart, as the prefixes keep copies and counts).
std::string map_copy_param(const std::string& x);
std::string map_count_param(const std::string& x);
std::string map_kernel_name(const std::string& kernel, const std::string& x);

}  // namespace dl
