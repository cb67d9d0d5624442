// Driver of one rewrite (see annotate_action.hpp).
#include "annotate_action.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <list>
#include <map>
#include <set>

#include "access_analysis.hpp"
#include "codegen.hpp"
#include "count_terms.hpp"
#include "dl/annotation.hpp"
#include "dl/marshal.hpp"
#include "infer.hpp"
#include "record_builder.hpp"
#include "reuse.hpp"
#include "skipped_regions.hpp"
#include "splicer.hpp"

namespace dl::annotate {
namespace {

using namespace clang;

/// Offsets of the starts of lines (line 1 at index 1).
std::vector<std::size_t> line_starts(const std::string& s) {
  std::vector<std::size_t> v{0, 0};
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n') v.push_back(i + 1);
  return v;
}

struct Edit {
  std::size_t begin, end;
  std::string text;
  int order = 0;  // among edits at the same offset
};

struct KernelWork {
  const KernelAnnotation* ann = nullptr;
  const FunctionDecl* fd = nullptr;
  std::vector<Binding> bindings;
  std::vector<BufferAnnotation> clauses;  // completed
  std::vector<Spec*> specs;
  std::set<std::string> needs;
  bool ok = true;
  bool error = false;
  bool inferred = false;  // the annotation is dl-annotate's (--auto, --infer)
  std::string why;
  KernelReport report;
  struct Staged {
    StagePlan plan;
    const LocalAnnotation* clause;
    std::string load;  // the copy's read of element dl_g (through DL's layout if it converts it)
  };
  std::vector<Staged> staged;           // buffers of `local:` clauses read from local memory
  std::vector<LocalAnnotation> locals;  // the `local:` clauses, completed
  /// The `gather:` and `map:` clauses, completed, whose reads x[col[e]] (x[fn(e, ...)])
  /// were rewritten (a clause with none is dropped with a warning: there is nothing to
  /// gather for).
  std::vector<GatherAnnotation> gathers;
  std::string map_kernels;  // the map kernels of its `map:` clauses (dl::map_kernel_name)
};

/// The OpenCL C name of a scalar or vector type (`float`, `uint4`), or empty.
std::string opencl_type_name(QualType t) {
  t = t.getCanonicalType().getUnqualifiedType();
  unsigned width = 1;
  if (const auto* v = t->getAs<ExtVectorType>()) {
    width = v->getNumElements();
    t = v->getElementType().getCanonicalType().getUnqualifiedType();
  }
  const auto* b = t->getAs<BuiltinType>();
  if (!b) return {};
  std::string n;
  switch (b->getKind()) {
    case BuiltinType::Char_S:
    case BuiltinType::SChar:
      n = "char";
      break;
    case BuiltinType::Char_U:
    case BuiltinType::UChar:
      n = "uchar";
      break;
    case BuiltinType::Short:
      n = "short";
      break;
    case BuiltinType::UShort:
      n = "ushort";
      break;
    case BuiltinType::Int:
      n = "int";
      break;
    case BuiltinType::UInt:
      n = "uint";
      break;
    case BuiltinType::Long:
      n = "long";
      break;
    case BuiltinType::ULong:
      n = "ulong";
      break;
    case BuiltinType::Half:
      n = "half";
      break;
    case BuiltinType::Float:
      n = "float";
      break;
    case BuiltinType::Double:
      n = "double";
      break;
    default:
      return {};
  }
  return width == 1 ? n : n + std::to_string(width);
}

class Consumer : public ASTConsumer {
 public:
  Consumer(const Options& o, const std::string& src, Result& r, Preprocessor* pp)
      : opts_(o), src_(src), res_(r), pp_(pp) {}
  /// Filled while the preprocessor runs (SkippedRanges).
  std::vector<SourceRange>& skipped() { return skipped_; }

  void HandleTranslationUnit(ASTContext& ctx) override {
    ctx_ = &ctx;
    sm_ = &ctx.getSourceManager();
    de_ = &ctx.getDiagnostics();
    file_ = sm_->getMainFileID();
    const bool clang_errors = de_->hasErrorOccurred();
    err_id_ = de_->getCustomDiagID(DiagnosticsEngine::Error, "%0");
    warn_id_ = de_->getCustomDiagID(
        opts_.werror ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, "%0");
    note_id_ = de_->getCustomDiagID(DiagnosticsEngine::Note, "%0");
    remark_id_ = de_->getCustomDiagID(DiagnosticsEngine::Remark, "%0");

    SourceAnnotations ann =
        scan_annotations(src_, [this](const std::string& n) { return macro_text(n).has_value(); });
    for (const auto& d : ann.diagnostics)
      de_->Report(at(d.line, d.column), d.error ? err_id_ : warn_id_) << d.message;
    if (clang_errors) return;  // never analyse an AST with errors
    // dl-annotate's own output holds transformed copies of its kernels and completed
    // annotations: rewriting it again would annotate each kernel twice.
    if (const std::size_t own = src_.find("#define DL_ANNOTATE_HELPERS");
        own != std::string::npos) {
      const int line = static_cast<int>(std::count(src_.begin(), src_.begin() + own, '\n')) + 1;
      de_->Report(at(line, 1), err_id_)
          << "this file is dl-annotate's output (it defines DL_ANNOTATE_HELPERS): run "
             "dl-annotate on the original source";
      return;
    }

    // Kernel definitions by name.
    std::map<std::string, const FunctionDecl*> defs;
    for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
      if (const auto* fd = dyn_cast<FunctionDecl>(d))
        if (fd->hasAttr<OpenCLKernelAttr>() && fd->doesThisDeclarationHaveABody() &&
            sm_->isInMainFile(fd->getLocation()))
          defs[fd->getNameAsString()] = fd;
    // The reuse of every kernel's buffers across a work-group (--report), in source order.
    if (opts_.report != ReportFormat::None && opts_.reuse.enabled) {
      for (const auto& [name, fd] : defs) res_.reuse.push_back(analyse_reuse(ctx, fd, opts_.reuse));
      std::sort(res_.reuse.begin(), res_.reuse.end(),
                [](const KernelReuse& a, const KernelReuse& b) { return a.line < b.line; });
    }

    // Kernels nobody annotated: inferred annotations (--auto, --infer), in source order.
    std::list<KernelAnnotation> inferred;
    std::map<std::string, KernelInference> inference;
    if (opts_.auto_annotate || opts_.infer) {
      std::vector<const FunctionDecl*> order;
      for (const auto& [name, fd] : defs)
        if (!ann.find(name)) order.push_back(fd);
      std::sort(order.begin(), order.end(), [&](const FunctionDecl* a, const FunctionDecl* b) {
        return sm_->isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc());
      });
      for (const FunctionDecl* fd : order) {
        KernelInference ki = infer_kernel(ctx, fd);
        const std::string name = fd->getNameAsString();
        const unsigned line = sm_->getPresumedLineNumber(sm_->getFileLoc(fd->getBeginLoc()));
        if (ki.buffers.empty() && ki.gathers.empty()) {
          KernelReport r;
          r.name = name;
          r.line = line;
          r.inferred = true;
          r.status = ki.args.empty() ? "no pointer parameters" : "no record buffers";
          r.inference = ki.args;
          res_.report.push_back(std::move(r));
          continue;
        }
        KernelAnnotation& k = inferred.emplace_back();
        k.kernel = name;
        k.line = static_cast<int>(line);
        for (const ParmVarDecl* p : fd->parameters()) k.params.push_back(p->getNameAsString());
        k.buffers = std::move(ki.buffers);
        k.gathers = std::move(ki.gathers);
        inference[name] = std::move(ki);
      }
    }

    Splicer sp(ctx, file_);
    sp_ = &sp;
    std::list<KernelWork> work;
    std::vector<const KernelAnnotation*> all;
    for (const auto& k : ann.kernels) all.push_back(&k);
    for (const auto& k : inferred) all.push_back(&k);
    std::stable_sort(
        all.begin(), all.end(),
        [](const KernelAnnotation* a, const KernelAnnotation* b) { return a->line < b->line; });
    for (const KernelAnnotation* kp : all) {
      const KernelAnnotation& k = *kp;
      KernelWork& w = work.emplace_back();
      w.ann = &k;
      if (auto it = inference.find(k.kernel); it != inference.end() &&
                                              (kp->buffers.size() || kp->gathers.size()) &&
                                              !ann.find(k.kernel)) {
        w.inferred = true;
        w.report.inferred = true;
        w.report.inference = it->second.args;
      }
      w.report.name = k.kernel;
      w.report.line = static_cast<unsigned>(k.line);
      auto it = defs.find(k.kernel);
      if (it == defs.end()) {
        de_->Report(at(k.line, 1), err_id_)
            << "no definition of kernel '" + k.kernel + "' follows this annotation";
        w.ok = false;
        w.error = true;
        w.why = "no kernel definition";
        continue;
      }
      w.fd = it->second;
      prepare(w);
      if (w.ok) analyse(w);
      if (w.ok) check_qualifiers(w);
      if (w.ok) choose_layouts(w);
      if (w.ok) stage_locals(w);
      if (w.ok) gather_reads(w);
    }
    emit(work);
    std::stable_sort(res_.report.begin(), res_.report.end(),
                     [](const KernelReport& a, const KernelReport& b) { return a.line < b.line; });
    res_.ok = !de_->hasErrorOccurred();
    for (auto it = sm_->fileinfo_begin(); it != sm_->fileinfo_end(); ++it)
      if (it->first && it->first != sm_->getFileEntryForID(file_))
        res_.deps.push_back(std::string(it->first->tryGetRealPathName().empty()
                                            ? it->first->getName()
                                            : it->first->tryGetRealPathName()));
  }

 private:
  SourceLocation at(int line, int col) {
    if (line < 1) line = 1;
    if (col < 1) col = 1;
    SourceLocation l =
        sm_->translateLineCol(file_, static_cast<unsigned>(line), static_cast<unsigned>(col));
    return l.isValid() ? l : sm_->getLocForStartOfFile(file_);
  }
  std::size_t offset(SourceLocation l) { return sm_->getFileOffset(sm_->getFileLoc(l)); }

  /// Bindings of the kernel's annotated parameters; errors for ill-formed ones.
  void prepare(KernelWork& w) {
    w.bindings.reserve(w.ann->buffers.size());
    for (const BufferAnnotation& b : w.ann->buffers) {
      const ParmVarDecl* pd = nullptr;
      for (const ParmVarDecl* p : w.fd->parameters())
        if (p->getName() == b.name) pd = p;
      auto fail = [&](const std::string& msg) {
        de_->Report(at(b.line, b.column), w.inferred ? remark_id_ : err_id_) << msg;
        w.ok = false;
        w.error = true;
        w.why = msg;
      };
      if (!pd) return fail("'" + b.name + "' is not a parameter of kernel '" + w.ann->kernel + "'");
      // Macros in dimensions (from the source or -D) are expanded into the completed
      // annotation: the runtime reads numbers and parameters only.
      std::vector<dl::Expr> dims;
      for (const auto& d : b.dims) {
        std::string why;
        auto e = expand_macros(d, w.fd, why);
        if (e && !e->fields().empty()) e = resolve_terms(*e, w.fd, why);
        if (!e) return fail("dimension '" + d.text() + "' of '" + b.name + "': " + why);
        dims.push_back(std::move(*e));
      }
      // A tile width given by arguments (`-> ASTA(E)`): macros expanded the same way.
      std::optional<dl::Expr> tile;
      if (b.tile) {
        std::string why;
        tile = expand_macros(*b.tile, w.fd, why);
        if (!tile) return fail("tile width '" + b.tile->text() + "' of '" + b.name + "': " + why);
        if (tile->is_constant()) {
          const auto v = tile->eval({});
          if (!v || *v < 1 || *v > static_cast<std::int64_t>(kMaxTile))
            return fail("tile width '" + b.tile->text() + "' of '" + b.name + "' is " +
                        (v ? std::to_string(*v) : std::string("not a number")) + ", outside [1, " +
                        std::to_string(kMaxTile) + "]");
        }
      }
      // Names bind to the parameters Clang sees (preprocessed, under the -D options), as
      // the runtime binds them by CL_KERNEL_ARG_NAME; never to the source text's list.
      std::vector<const dl::Expr*> named(dims.size());
      for (std::size_t d = 0; d < dims.size(); ++d) named[d] = &dims[d];
      const dl::Expr* tile_at = tile ? &*tile : nullptr;
      if (tile_at) named.push_back(tile_at);
      for (const dl::Expr* d : named)
        for (const auto& n : d->names()) {
          const std::string what = d == tile_at ? "tile width of '" : "dimension of '";
          const ParmVarDecl* sp = nullptr;
          for (const ParmVarDecl* p : w.fd->parameters())
            if (p->getName() == n) sp = p;
          if (!sp)
            return fail(what + b.name + "' names '" + n +
                        "', which is not a parameter of kernel '" + w.ann->kernel + "'");
          if (!sp->getType()->isIntegerType())
            return fail(what + b.name + "' names '" + n + "', a parameter of type '" +
                        sp->getType().getUnqualifiedType().getAsString() + "'; " +
                        (d == tile_at ? "tile widths" : "dimensions") + " read integer arguments");
        }
      QualType t = pd->getType();
      if (!t->isPointerType())
        return fail("annotated parameter '" + b.name +
                    "' is not a pointer to a record or a flat array");
      QualType pointee = t->getPointeeType();
      Binding bd;
      bd.name = b.name;
      bd.root = pd;
      bd.elem = pointee.getUnqualifiedType();
      const LangAS as = pointee.getAddressSpace();
      if (as == LangAS::opencl_global)
        bd.as = "__global";
      else if (as == LangAS::opencl_constant)
        bd.as = "__constant";
      else
        return fail("annotated parameter '" + b.name + "' is not in __global or __constant memory");
      BufferAnnotation c = b;
      c.dims = dims;
      Layout written = b.target;
      if (tile && tile->is_constant()) {
        const auto v = static_cast<std::uint32_t>(*tile->eval({}));
        written = b.target.tiled() ? Layout::asta(v)
                  : b.target.kind == LayoutKind::Swap
                      ? Layout::swap(v, 0)
                      : Layout::diag(v, b.target.kind == LayoutKind::DiagMain);
        tile.reset();
      }
      c.tile = opts_.force_layout ? std::nullopt : tile;
      std::string recname = b.record;
      if (c.swap >= 0 && opts_.force_layout)
        return fail("'" + b.name +
                    "': --layout cannot replace a swap of dimensions (its target is the order "
                    "of the dimensions)");
      if (!b.target.tiled() && b.target.kind != LayoutKind::Swap && opts_.force_layout)
        return fail("'" + b.name +
                    "': --layout cannot replace a diagonal target (its rows are the annotation's "
                    "dimensions)");
      if (!b.target.tiled() && b.target.kind != LayoutKind::Swap &&
          !(is_leaf_type(pointee) && !pointee->isVectorType()))
        return fail("'" + b.name + "' points to '" + pointee.getUnqualifiedType().getAsString() +
                    "': a diagonal layout applies to arrays of scalars (" + b.name +
                    ":float[ny][nx] -> DIAG)");
      if (c.swap >= 0 && !(is_leaf_type(pointee) && !pointee->isVectorType()))
        return fail("'" + b.name + "' points to '" + pointee.getUnqualifiedType().getAsString() +
                    "': a swap of dimensions applies to arrays of scalars");
      if (pointee->isStructureType()) {
        if (c.whole() && dims.size() > 1)
          return fail("'" + b.name + "' points to a struct: its whole-buffer count is " + b.name +
                      "[*] (the record length [S] is for flat arrays of scalars)");
        if (recname.empty()) recname = record_name(pointee);
        std::string why;
        auto rec = build_record(*ctx_, bd.elem, identifier(recname), why);
        if (!rec) return fail("record of '" + b.name + "': " + why);
        bd.rec = *rec;
      } else if (is_leaf_type(pointee) && !pointee->isVectorType()) {
        // A flat array: the annotation's last dimension is S, the scalars per record.
        // S may be a constant or read kernel arguments (`val[rows][K]`, one program for
        // every K): the record is then `:<scalar>`, made by the runtime at each launch.
        Expr::Env env;
        std::string why;
        std::optional<std::int64_t> s;
        if (c.rows()) {
          // A swap above the fastest two: records of S rows of C scalars, both from the
          // dimensions at each launch (the runtime makes the record, flat_record's rows).
          for (std::size_t d = static_cast<std::size_t>(c.swap) + 1; d < dims.size(); ++d)
            if (!dims[d].fields().empty())
              return fail("'" + b.name + "': dimension '" + dims[d].text() +
                          "' after a swapped pair takes kernel arguments and constants only");
          s = 1;  // a stand-in: one scalar stands for the record below
        } else if (dims.size() >= 2 && dims.back().is_constant()) {
          s = dims.back().eval(env, &why);
        }
        const bool dynamic = c.rows() || (dims.size() >= 2 && !dims.back().is_constant() &&
                                          !dims.back().is_whole() && !dims.back().names().empty() &&
                                          dims.back().fields().empty() &&
                                          dims.back().to_cl().find("get_") == std::string::npos);
        if (!s && !dynamic) {
          return fail("flat array '" + b.name +
                      "' needs its fastest dimension, the number of scalars per record, a "
                      "constant or integer arguments: " +
                      b.name + "[E][S]");
        }
        if (s && (*s < 1 || *s > 4096))
          return fail("flat array '" + b.name + "': S must be in [1, 4096]");
        Scalar sc = Scalar::Float;
        scalar_of(pointee, sc);
        bd.flat = true;
        if (dynamic) {
          recname = scalar_name(sc);
          bd.s = "dl_s_" + b.name;
          if (c.distant()) {
            // Records of B x D rows of C scalars ([A][d1][B][d2][C]): B, D and C in
            // generated code, the annotation's texts of B's dimensions, of D, and of C
            // where it is one dimension (C = 1 where d2 is the fastest).
            bd.c = "dl_c_" + b.name;
            bd.swap_b = "dl_b_" + b.name;
            bd.swap_d = "dl_d_" + b.name;
            const auto p = static_cast<std::size_t>(c.swap),
                       q = static_cast<std::size_t>(c.swap_with);
            for (std::size_t d = p + 1; d < q; ++d)
              bd.b_dims.push_back(without_spaces(dims[d].text()));
            bd.d_dim = without_spaces(dims[q].text());
            if (q + 2 == dims.size()) bd.c_dim = without_spaces(dims[q + 1].text());
            bd.c_one = q + 1 == dims.size();
          } else if (c.rows()) {
            bd.c = "dl_c_" + b.name;
            const auto first = static_cast<std::size_t>(c.swap) + 1;
            bd.s_dim = without_spaces(dims[first].text());
            if (first + 2 == dims.size()) bd.c_dim = without_spaces(dims[first + 1].text());
          } else if (dims.back().names().size() == 1 &&
                     dims.back().text() == dims.back().names()[0])
            for (const ParmVarDecl* p : w.fd->parameters())
              if (p->getName() == dims.back().names()[0]) bd.flat_param = p;
        } else {
          // `:float` names the scalar type, which the runtime reads as a record of S
          // scalars made at each launch: a constant S names its own record.
          if (recname.empty() || is_flat_scalar(recname))
            recname = "flat_" + std::string(scalar_name(sc)) + "_" + std::to_string(*s);
          bd.flat_count = static_cast<unsigned>(*s);
          bd.s = std::to_string(*s);
        }
        try {
          // A run-time S: one scalar stands for the record (alignment, the report).
          bd.rec = Record::make(identifier(recname),
                                {{"v", sc, 1, dynamic ? 1u : static_cast<unsigned>(*s), 0}});
        } catch (const LayoutError& e) {
          return fail(e.what());
        }
      } else {
        return fail("annotated parameter '" + b.name + "' (type '" + t.getAsString() +
                    "') is not a pointer to a record or a flat array");
      }
      bd.natural = naturally_aligned(bd.rec);
      Layout target = opts_.force_layout ? *opts_.force_layout : written;
      c.target = target;
      c.record = bd.rec.name();
      c.marshaler = (target.kind == LayoutKind::Swap ? "AOS2SWAP_"
                     : !target.tiled()               ? "AOS2DIAG_"
                     : target.kind == LayoutKind::DA ? "AOS2DA_"
                                                     : "AOS2ASTA_") +
                    (bd.flat && !bd.flat_count ? "flat_" + c.record : bd.rec.name());
      bd.diag = target.kind == LayoutKind::Diag ? 1 : target.kind == LayoutKind::DiagMain ? 2 : 0;
      if (bd.diag && dims.size() >= 3) {
        // Planes of rows: which factors of an index to read as the rows per plane and the
        // row length (dl_diag_pyc).
        bd.s_dim = without_spaces(dims[dims.size() - 2].text());
        bd.c_dim = without_spaces(dims.back().text());
      }
      bd.base = b.name;
      bd.n = "dl_n_" + b.name;
      bd.w = "dl_w_" + b.name;
      // A swap of the two slowest dimensions has one tile of all its records (the width
      // is the record count, the same expression): DA addressing, no division by it.
      bd.da = target.kind == LayoutKind::DA || c.swap == 0;
      bd.root_is_base = true;
      w.bindings.push_back(std::move(bd));
      w.clauses.push_back(std::move(c));
    }
  }

  /// The replacement text of object-like macro `name` with the macros in it expanded
  /// (up to 16 levels), or nullopt when it is not one.
  std::optional<std::string> macro_text(const std::string& name, int depth = 0) {
    if (!pp_ || depth > 16) return std::nullopt;
    const IdentifierInfo* ii = pp_->getIdentifierInfo(name);
    const MacroInfo* mi = ii ? pp_->getMacroInfo(ii) : nullptr;
    if (!mi || mi->isFunctionLike()) return std::nullopt;
    std::string out;
    for (const Token& t : mi->tokens()) {
      std::string sp = pp_->getSpelling(t);
      if (t.is(tok::identifier))
        if (auto inner = macro_text(sp, depth + 1)) sp = "(" + *inner + ")";
      out += (out.empty() ? "" : " ") + sp;
    }
    return out;
  }

  /// `d` with every name that is a macro and not a parameter of `fd` replaced by its
  /// expansion; nullopt (and why) when the expansion is no dimension expression.
  std::optional<dl::Expr> expand_macros(const dl::Expr& d, const FunctionDecl* fd,
                                        std::string& why) {
    const std::string& t = d.text();
    std::string out;
    bool changed = false;
    for (std::size_t i = 0; i < t.size();) {
      if (!(std::isalpha(static_cast<unsigned char>(t[i])) || t[i] == '_')) {
        out += t[i++];
        continue;
      }
      std::size_t j = i;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
      const std::string id = t.substr(i, j - i);
      bool param = false;
      for (const ParmVarDecl* p : fd->parameters()) param = param || p->getName() == id;
      std::optional<std::string> m;
      if (!param && (m = macro_text(id))) {
        out += "(" + *m + ")";
        changed = true;
      } else {
        out += id;
      }
      i = j;
    }
    if (!changed) return d;
    std::size_t pos = 0;
    auto e = dl::Expr::parse(out, &why, &pos);
    if (!e)
      why = "its macros expand to '" + out + "', which is not a dimension expression (" + why + ")";
    return e;
  }

  /// sizeof(type) becomes a number, `arg.field` gets its offset and type (count_terms.hpp).
  std::optional<dl::Expr> resolve_terms(const dl::Expr& d, const FunctionDecl* fd,
                                        std::string& why) {
    auto text = resolve_count_terms(*ctx_, fd, d.text(), why);
    if (!text) return std::nullopt;
    std::size_t pos = 0;
    auto e = dl::Expr::parse(*text, &why, &pos);
    if (!e)
      why = "it completes to '" + *text + "', which is not a dimension expression (" + why + ")";
    return e;
  }

  void report_problems(const std::vector<Problem>& ps) {
    for (const auto& p : ps) de_->Report(p.loc, warn_id_) << p.message;
  }

  /// Analyses a kernel and, recursively, the helpers it passes buffer pointers to.
  void analyse(KernelWork& w) {
    FunctionResult r = analyse_function(*ctx_, *sp_, cg_, w.fd, w.bindings);
    report_problems(r.problems);
    w.needs.insert(r.needs.begin(), r.needs.end());
    bool ok = r.problems.empty();
    if (r.param_reassigned)
      for (auto& b : w.bindings)
        if (!b.root_is_base) b.base = "dl_b_" + b.name;
    std::vector<Spec> todo = std::move(r.specs);
    while (ok && !todo.empty()) {
      Spec s = std::move(todo.back());
      todo.pop_back();
      Spec* have = nullptr;
      for (auto& x : specs_)
        if (x.fd == s.fd && x.mask == s.mask) have = &x;
      if (!have) {
        for (auto& x : specs_)
          if (x.fd == s.fd) {
            de_->Report(s.fd->getLocation(), warn_id_)
                << "helper '" + s.fd->getNameAsString() +
                       "' is called with buffer pointers in different argument positions";
            ok = false;
          }
        if (!ok) break;
        specs_.push_back(std::move(s));
        have = &specs_.back();
        FunctionResult hr = analyse_function(*ctx_, *sp_, cg_, have->fd, have->params);
        report_problems(hr.problems);
        spec_ok_[have] = hr.problems.empty();
        spec_needs_[have] = hr.needs;
        for (auto& b : have->params)
          if (have->origin)
            for (AccessStat st : b.stats) {
              st.known = false;  // the helper sees a pointer, not the kernel's index
              have->origin->stats.push_back(st);
            }
        for (auto& x : hr.specs) todo.push_back(std::move(x));
      }
      if (!spec_ok_[have]) {
        de_->Report(have->fd->getLocation(), note_id_)
            << "buffer pointers of kernel '" + w.ann->kernel + "' reach helper '" +
                   have->fd->getNameAsString() + "' here";
        ok = false;
      }
      w.specs.push_back(have);
    }
    if (ok) {
      std::set<std::string> names;
      for (const auto& b : w.bindings) names.insert(b.name);
      guard(w.fd, names);
      for (Spec* s : w.specs)
        if (guarded_.insert(s).second) {
          std::set<std::string> hn;
          for (const auto& b : s->params) hn.insert(b.name);
          guard(s->fd, hn);
        }
    } else {
      w.ok = false;
      w.why = "accesses dl-annotate cannot prove it rewrites correctly (see warnings)";
      de_->Report(w.fd->getLocation(), warn_id_)
          << (w.inferred ? "kernel '" + w.ann->kernel +
                               "' is left untransformed: no annotation is inferred for it"
                         : "kernel '" + w.ann->kernel +
                               "' is left untransformed: its annotation is removed and it "
                               "keeps reading AoS");
    }
  }

  /// A buffer whose annotation gives no target keeps AoS where the analysis proves ASTA
  /// cannot help: every access is unit-stride per work-item (whole records, or a flat
  /// array indexed by the id), the same record in every trip of a loop, or a gather
  /// through a loaded index; or there is none. Strided AoS accesses are what ASTA makes
  /// unit-stride; an index the analysis cannot name may be such a stride, so it leaves
  /// the default, ASTA, and the runtime's controller judges it by measurement
  /// (docs/annotation.md, "Layout choice").
  /// A buffer kept in AoS keeps the accesses as written (Binding::keep_aos).
  void choose_layouts(KernelWork& w) {
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
      const auto& st = w.bindings[i].stats;
      if (!opts_.force_layout && !w.ann->buffers[i].target_given &&
          std::all_of(st.begin(), st.end(), [](const AccessStat& a) {
            return a.known &&
                   (a.pattern == Pattern::UnitStride || a.pattern == Pattern::Invariant ||
                    a.pattern == Pattern::Gather || a.pattern == Pattern::Uniform);
          }))
        w.clauses[i].target = Layout::aos();
      w.bindings[i].keep_aos = w.clauses[i].target.kind == LayoutKind::AoS;
      // An inferred buffer the kernel never writes is `const`; one it only writes (every
      // access a plain store) is `write_only`, so that the runtime need not convert
      // undefined bytes before the first launch.
      if (w.inferred) {
        w.clauses[i].read_only = std::none_of(st.begin(), st.end(),
                                              [](const AccessStat& a) { return a.write || a.rmw; });
        w.clauses[i].write_only =
            !st.empty() && std::all_of(st.begin(), st.end(),
                                       [](const AccessStat& a) { return a.write && !a.rmw; });
      }
    }
  }

  /// `const` and `write_only` are promises the runtime acts on: an access that breaks
  /// one is an error in the annotation (the kernel is left untransformed).
  void check_qualifiers(KernelWork& w) {
    for (std::size_t i = 0; i < w.bindings.size() && !w.inferred; ++i) {
      const BufferAnnotation& b = w.ann->buffers[i];
      if (!b.read_only && !b.write_only) continue;
      for (const AccessStat& a : w.bindings[i].stats) {
        const bool reads = !a.write || a.rmw, writes = a.write || a.rmw;
        if (!(b.read_only ? writes : reads)) continue;
        const std::string msg = "'" + b.name + "' is annotated " +
                                (b.read_only ? "const" : "write_only") + " but kernel '" +
                                w.ann->kernel + "' " + (b.read_only ? "writes" : "reads") +
                                " it (line " + std::to_string(a.line) + ")";
        de_->Report(at(b.line, b.column), err_id_) << msg;
        w.ok = false;
        w.error = true;
        w.why = msg;
        return;
      }
    }
  }

  /// Code of skipped conditional regions of `fd` that names its buffers becomes #error
  /// in the transformed copy (skipped_regions.hpp).
  void guard(const FunctionDecl* fd, const std::set<std::string>& names) {
    for (const GuardedRun& g : guard_skipped(*ctx_, *sp_, fd, skipped_, names))
      de_->Report(sm_->getLocForStartOfFile(file_).getLocWithOffset(g.begin), remark_id_)
          << "'" + g.name + "' is used in a conditional region the preprocessor skipped: " +
                 "it becomes #error in the transformed '" + fd->getNameAsString() +
                 "', so a build that enables it runs untransformed";
  }

  /// The buffers of the kernel's `local:` clauses: with --stage-local, each read of one
  /// the plan covers becomes a read of its __local copy when the work-group is the one
  /// staged for (staging_prologue); a buffer that cannot be staged is read as written,
  /// with a warning saying why (docs/annotation.md, "Staging in local memory").
  void stage_locals(KernelWork& w) {
    if (w.ann->locals.empty() || !complete_locals(w)) return;
    std::vector<std::string> names;
    for (const LocalAnnotation& l : w.locals) names.push_back(l.name);
    if (!opts_.reuse.stage_local) {
      for (const LocalAnnotation& l : w.locals)
        w.report.staging.push_back({l.name, false, "dl-annotate ran without --stage-local"});
      return;
    }
    std::uint64_t total = 0;
    for (StagePlan& p : plan_staging(*ctx_, w.fd, names, opts_.reuse)) {
      const LocalAnnotation* l = nullptr;
      for (const LocalAnnotation& c : w.locals)
        if (c.name == p.buffer) l = &c;
      if (p.ok && total + p.bytes > opts_.reuse.local_mem) {
        p.ok = false;
        p.why = "with the buffers staged before it, the kernel would use " +
                std::to_string(total + p.bytes) + " bytes of local memory, more than the " +
                std::to_string(opts_.reuse.local_mem) + " given";
      }
      const std::string load = staged_load(w, p);
      if (!p.ok) {
        de_->Report(at(l->line, l->column), warn_id_)
            << "'" + p.buffer + "' is not staged in local memory: " + p.why;
        w.report.staging.push_back({p.buffer, false, p.why});
        continue;
      }
      total += p.bytes;
      std::string box;
      for (const auto& d : p.dims) box += (box.empty() ? "" : " x ") + std::to_string(d.extent);
      const auto& ls = p.local_size;
      w.report.staging.push_back({p.buffer, true,
                                  box + " elements of " + p.type + " (" + std::to_string(p.bytes) +
                                      " bytes) for " + std::to_string(p.reads.size()) +
                                      " read(s), work-group " + std::to_string(ls[0]) + "x" +
                                      std::to_string(ls[1]) + "x" + std::to_string(ls[2])});
      stage_reads(p);
      w.staged.push_back({std::move(p), l, load});
    }
  }

  /// The `local:` clauses completed (macros in the counts expanded, as for dimensions)
  /// into w.locals; false (the kernel untransformed) when a count names what is neither
  /// an integer parameter nor a macro.
  bool complete_locals(KernelWork& w) {
    w.locals = w.ann->locals;
    for (LocalAnnotation& l : w.locals) {
      const auto bad = [&](const std::string& what) {
        const std::string msg =
            "the number of elements of '" + l.name + "' (local: clause) " + what;
        de_->Report(at(l.line, l.column), err_id_) << msg;
        w.ok = false;
        w.error = true;
        w.why = msg;
        return false;
      };
      std::string why;
      auto e = expand_macros(l.extent, w.fd, why);
      if (!e) return bad(why);
      l.extent = std::move(*e);
      for (const auto& n : l.extent.names()) {
        const ParmVarDecl* sp = nullptr;
        for (const ParmVarDecl* p : w.fd->parameters())
          if (p->getName() == n) sp = p;
        if (!sp)
          return bad("names '" + n + "', which is not a parameter of kernel '" + w.ann->kernel +
                     "'");
        if (!sp->getType()->isIntegerType())
          return bad("names '" + n + "', a parameter that is not an integer");
      }
    }
    return true;
  }

  /// The copy's read of element dl_g of p's buffer: as written, or through DL's layout
  /// where an AoS: clause converts it (a flat array of scalars: each read's fallback is
  /// then its rewrite, which must exist). Not ok (and why) when it cannot be staged.
  std::string staged_load(const KernelWork& w, StagePlan& p) {
    const Binding* bound = nullptr;
    for (const Binding& b : w.bindings)
      if (b.name == p.buffer && !b.keep_aos) bound = &b;
    if (!p.ok || !bound) return p.buffer + "[dl_g]";
    if (!bound->flat || !bound->c.empty() || bound->diag) {
      p.ok = false;
      p.why = bound->diag   ? "DL diagonalizes it: a diagonal layout is not staged"
              : bound->flat ? "DL swaps its rows: a swap of rows is not staged"
                            : "DL converts its records: only a flat array of scalars is staged "
                              "from its layout";
      return {};
    }
    for (const StagePlan::Read& r : p.reads)
      if (!sp_->builder(r.access)) {
        p.ok = false;
        p.why =
            "DL rewrites a read of it as part of a larger expression (line " +
            std::to_string(sm_->getPresumedLineNumber(sm_->getFileLoc(r.access->getBeginLoc()))) +
            ")";
        return {};
      }
    return std::string(bound->natural ? "DL_REF(" : "DL_UREF(") + bound->as + ", " + p.type + ", " +
           bound->base + ", dl_flat(" + bound->w + ", " + bound->n + ", " + bound->s + ", " +
           std::to_string(p.bytes / p.slots) + ", (dl_off)dl_g))";
  }

  /// Each read of the plan becomes its slot of the local copy when dl_staged, else what
  /// it was (as written, or the rewrite registered before).
  void stage_reads(const StagePlan& p) {
    const std::string local = "dl_local_" + p.buffer;
    for (const StagePlan::Read& r : p.reads) {
      std::string slot = std::to_string(r.base);
      const auto add = [&slot](std::int64_t c, const std::string& v) {
        slot += " + " + (c == 1 ? std::string() : std::to_string(c) + " * ") + v;
      };
      for (int d = 0; d < 3; ++d)
        if (r.lid[d]) add(r.lid[d], "(int)get_local_id(" + std::to_string(d) + ")");
      for (const auto& [counter, c] : r.loops) add(c, "(int)(" + counter + ")");
      const clang::Expr* e = r.access;
      sp_->replace(e, [this, e, local, slot, rewrite = sp_->builder(e)] {
        return "(dl_staged ? " + local + "[" + slot +
               "] : " + (rewrite ? rewrite() : sp_->inner_text(e)) + ")";
      });
    }
  }

  /// The copy of every staged box into local memory, at the top of the kernel: only
  /// when the work-group is the one the plans were made for (dl_staged, the same for every
  /// work-item of a group, so the barrier is reached by all or none).
  static std::string staging_prologue(const KernelWork& w) {
    if (w.staged.empty()) return {};
    const auto& ls = w.staged.front().plan.local_size;
    const std::string l0 = std::to_string(ls[0]), l1 = std::to_string(ls[1]);
    // Per buffer: its local array, and the strides of its box's dimensions (group-
    // invariant). A slot's offset from the origin is computed in 32 bits: the box is
    // staged only where every stride is >= 0 and its span fits 31 bits (else every
    // read goes to global memory, for the whole group alike).
    std::string s, span;
    for (const auto& st : w.staged) {
      const StagePlan& p = st.plan;
      s += "\n  __local " + p.type + " dl_local_" + p.buffer + "[" + std::to_string(p.slots) + "];";
      for (std::size_t j = 0; j < p.dims.size(); ++j) {
        if (p.dims[j].stride == "1") continue;
        const std::string v = "dl_stride_" + p.buffer + "_" + std::to_string(j);
        s += "\n  const long " + v + " = " + p.dims[j].stride + ";";
        span += " && " + v + " >= 0 && " + v + " <= 2147483647L / " +
                std::to_string(p.dims.size() * p.dims[j].extent);
      }
    }
    s += "\n  const int dl_staged = get_local_size(0) == " + l0 + " && get_local_size(1) == " + l1 +
         " && get_local_size(2) == " + std::to_string(ls[2]) + span + ";";
    s += "\n  if (dl_staged) {";
    s += "\n    const uint dl_lid = get_local_id(0) + " + l0 + " * (get_local_id(1) + " + l1 +
         " * get_local_id(2));";
    for (const auto& st : w.staged) {
      const StagePlan& p = st.plan;
      const std::string b = p.buffer;
      s += "\n    {";
      s += "\n      const long dl_origin = " + p.origin + ";";
      s += "\n      const long dl_end = (long)(" + st.clause->extent.to_cl() + ");";
      s += "\n      for (uint dl_t = dl_lid; dl_t < " + std::to_string(p.slots) +
           "u; dl_t += " + std::to_string(ls[0] * ls[1] * ls[2]) + "u) {";
      std::string off;
      std::uint64_t stride = 1;
      for (std::size_t j = 0; j < p.dims.size(); ++j) {
        std::string digit = "dl_t";
        if (stride > 1) digit += " / " + std::to_string(stride) + "u";
        if (j + 1 < p.dims.size()) digit += " % " + std::to_string(p.dims[j].extent) + "u";
        off += std::string(off.empty() ? "" : " + ") + "(int)(" + digit + ")" +
               (p.dims[j].stride == "1" ? "" : " * (int)dl_stride_" + b + "_" + std::to_string(j));
        stride *= p.dims[j].extent;
      }
      s += "\n        const long dl_g = dl_origin + (" + off + ");";
      s += "\n        if (dl_g >= 0 && dl_g < dl_end) dl_local_" + b + "[dl_t] = " + st.load + ";";
      s += "\n      }";
      s += "\n    }";
    }
    s += "\n    barrier(CLK_LOCAL_MEM_FENCE);";
    s += "\n  }";
    return s;
  }

  /// The `gather:` clauses: each read `x[col[e]]` of the kernel becomes `dl_gather_x[e]`,
  /// element e of the copy of x gathered through col that the runtime passes in the
  /// parameter appended for it (docs/remappings.md, "Indirect copies"). Both arrays must
  /// be pointers to const scalars or vectors (the kernel never writes them: the copy
  /// holds what they held when the launch began), col's elements integers.
  void gather_reads(KernelWork& w) {
    for (const GatherAnnotation& g : w.ann->gathers) {
      auto fail = [&](const std::string& msg) {
        de_->Report(at(g.line, g.column), w.inferred ? remark_id_ : err_id_) << msg;
        w.ok = false;
        w.error = true;
        w.why = msg;
      };
      const ParmVarDecl* px = nullptr;
      const ParmVarDecl* pc = nullptr;
      for (const ParmVarDecl* p : w.fd->parameters()) {
        if (p->getName() == g.name) px = p;
        if (!g.map && p->getName() == g.index) pc = p;
      }
      std::vector<std::pair<const ParmVarDecl*, const std::string*>> arrays = {{px, &g.name}};
      if (!g.map) arrays.emplace_back(pc, &g.index);
      for (const auto& [p, n] : arrays) {
        if (!p) return fail("'" + *n + "' is not a parameter of kernel '" + w.ann->kernel + "'");
        const QualType t = p->getType();
        if (!t->isPointerType())
          return fail("'" + *n + "' of " + describe_gather(g) + " is not a pointer");
        const QualType e = t->getPointeeType();
        const LangAS as = e.getAddressSpace();
        if (as != LangAS::opencl_global && as != LangAS::opencl_constant)
          return fail("'" + *n + "' of " + describe_gather(g) +
                      " is not in __global or __constant memory");
        if (!e.isConstQualified() && as != LangAS::opencl_constant)
          return fail("'" + *n + "' of " + describe_gather(g) +
                      " must point to const: the gathered copy holds what it held when the "
                      "launch began, so the kernel may not write it");
      }
      GatherAnnotation c = g;
      c.type = opencl_type_name(px->getType()->getPointeeType());
      if (c.type.empty() || !c.elem_size())
        return fail("'" + g.name + "' points to '" +
                    px->getType()->getPointeeType().getUnqualifiedType().getAsString() +
                    "': a gather copies scalars or vectors");
      if (g.map) {
        map_reads(w, g, px, std::move(c));
        continue;
      }
      c.index_type = opencl_type_name(pc->getType()->getPointeeType());
      if (!c.index_kind().first)
        return fail("'" + g.index + "' points to '" +
                    pc->getType()->getPointeeType().getUnqualifiedType().getAsString() +
                    "': the index array of a gather holds integers");
      // The reads x[col[e]] (in either operand order), not under `&`: the address of an
      // element of the copy is not the address of that element of x.
      std::vector<const ArraySubscriptExpr*> reads;
      auto decl_of = [](const clang::Expr* e) -> const Decl* {
        const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
        return r ? r->getDecl() : nullptr;
      };
      std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
        if (!s) return;
        if (const auto* a = dyn_cast<ArraySubscriptExpr>(s); a && decl_of(a->getBase()) == px)
          if (const auto* i = dyn_cast<ArraySubscriptExpr>(a->getIdx()->IgnoreParenImpCasts());
              i && decl_of(i->getBase()) == pc) {
            if (!address_taken(*ctx_, a)) reads.push_back(a);
          }
        for (const Stmt* child : s->children()) walk(child);
      };
      walk(w.fd->getBody());
      const std::string copy = "dl_gather_" + g.name;
      std::size_t rewritten = 0;
      for (const ArraySubscriptExpr* a : reads) {
        const clang::Expr* e =
            cast<ArraySubscriptExpr>(a->getIdx()->IgnoreParenImpCasts())->getIdx();
        if (sp_->replace(a, [this, copy, e] { return copy + "[" + sp_->text(e) + "]"; }))
          ++rewritten;
      }
      if (!rewritten) {
        dropped(w, g);
        continue;
      }
      w.gathers.push_back(std::move(c));
    }
  }

  /// Says that kernel `w` reads nothing through clause `g` that DL can take from its copy.
  /// An inferred clause's array then says why (`why`: the first read's reason, if any) in
  /// the report and in --infer's listing.
  void dropped(KernelWork& w, const GatherAnnotation& g, const std::string& why = {}) {
    de_->Report(at(g.line, g.column), w.inferred ? remark_id_ : warn_id_)
        << "kernel '" + w.ann->kernel + "' reads no " + g.name + "[" + g.index +
               (g.map ? "(...)] that DL can take from a mapped copy: the map is dropped"
                      : "[...]] that DL can take from a gathered copy: the gather is dropped");
    if (!w.inferred) return;
    for (ArgInference& a : w.report.inference)
      if (a.name == g.name) {
        a.inferred = false;
        a.what = "read as " + g.name + "[" + g.index +
                 (g.map ? "(e, ...)], not mapped: " : "[e]], not gathered: ") +
                 (why.empty() ? "no read can take its copy" : why);
      }
  }

  /// Whether the kernel assigns, steps or takes the address of `p` anywhere in its body.
  static bool assigned_in(const Stmt* s, const ParmVarDecl* p) {
    if (!s) return false;
    auto is_p = [p](const clang::Expr* e) {
      const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return r && r->getDecl() == p;
    };
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && is_p(b->getLHS()))
      return true;
    if (const auto* u = dyn_cast<UnaryOperator>(s);
        u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && is_p(u->getSubExpr()))
      return true;
    for (const Stmt* c : s->children())
      if (assigned_in(c, p)) return true;
    return false;
  }

  /// Why `e`, an argument of a map's function after the first, is not a value fixed for the
  /// whole launch (empty when it is: literals, and integer parameters the kernel never
  /// assigns, under operators without side effects); collects the parameters it reads.
  std::string launch_constant(const clang::Expr* e, const FunctionDecl* kernel,
                              std::set<const ParmVarDecl*>& read) {
    e = e->IgnoreParens();
    if (isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e)) return {};
    if (const auto* r = dyn_cast<DeclRefExpr>(e)) {
      if (isa<EnumConstantDecl>(r->getDecl())) return {};
      const auto* p = dyn_cast<ParmVarDecl>(r->getDecl());
      const std::string n = r->getDecl()->getNameAsString();
      if (!p || p->getDeclContext() != kernel)
        return "'" + n + "' is not a parameter of the kernel";
      if (!p->getType()->isIntegerType()) return "parameter '" + n + "' is not an integer";
      if (assigned_in(kernel->getBody(), p)) return "the kernel assigns parameter '" + n + "'";
      read.insert(p);
      return {};
    }
    if (const auto* c = dyn_cast<CastExpr>(e))
      return launch_constant(c->getSubExpr(), kernel, read);
    if (const auto* u = dyn_cast<UnaryOperator>(e)) {
      if (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf || u->getOpcode() == UO_Deref)
        return "it uses '" + std::string(UnaryOperator::getOpcodeStr(u->getOpcode())) + "'";
      return launch_constant(u->getSubExpr(), kernel, read);
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      if (b->isAssignmentOp() || b->getOpcode() == BO_Comma)
        return "it uses '" + std::string(b->getOpcodeStr()) + "'";
      std::string why = launch_constant(b->getLHS(), kernel, read);
      return why.empty() ? launch_constant(b->getRHS(), kernel, read) : why;
    }
    if (const auto* t = dyn_cast<ConditionalOperator>(e)) {
      for (const clang::Expr* x : {t->getCond(), t->getTrueExpr(), t->getFalseExpr()})
        if (std::string why = launch_constant(x, kernel, read); !why.empty()) return why;
      return {};
    }
    return "it is not made of literals and the kernel's integer parameters";
  }

  /// A `map:` clause `x[fn]`: each read `x[fn(e, a...)]` becomes
  /// `(e < dl_mapn_x ? dl_map_x[e] : x[fn(e, a...)])`: element e of the copy the map
  /// kernel `dl_map<len>_<kernel>_<x>` (emitted beside the transformed kernel) fills with
  /// x[fn(i, a...)] at i, for every element i of x; reads past the copy keep the original
  /// (docs/remappings.md, "User-defined maps"). fn is a function of the program returning
  /// an integer; its other arguments a... are values fixed for the launch (literals and
  /// integer parameters the kernel never assigns), written alike in every read; e has no
  /// side effects. Reads that differ stay as written, with a warning.
  void map_reads(KernelWork& w, const GatherAnnotation& g, const ParmVarDecl* px,
                 GatherAnnotation c) {
    auto note = [&](const clang::Expr* read, const std::string& msg) {
      de_->Report(sm_->getFileLoc(read->getBeginLoc()), w.inferred ? remark_id_ : warn_id_) << msg;
    };
    auto decl_of = [](const clang::Expr* e) -> const Decl* {
      const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return r ? r->getDecl() : nullptr;
    };
    std::vector<std::pair<const ArraySubscriptExpr*, const CallExpr*>> reads;
    std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
      if (!s) return;
      if (const auto* a = dyn_cast<ArraySubscriptExpr>(s); a && decl_of(a->getBase()) == px)
        if (const auto* call = dyn_cast<CallExpr>(a->getIdx()->IgnoreParenImpCasts());
            call && call->getDirectCallee() && call->getDirectCallee()->getName() == g.index &&
            call->getNumArgs() >= 1) {
          if (!address_taken(*ctx_, a)) reads.emplace_back(a, call);
        }
      for (const Stmt* child : s->children()) walk(child);
    };
    walk(w.fd->getBody());
    const FunctionDecl* fn = nullptr;
    std::vector<std::string> args;  // the first rewritten read's other arguments
    std::set<const ParmVarDecl*> read;
    std::size_t rewritten = 0;
    std::string first_why;  // why the first read that stays as written does
    const std::string copy = map_copy_param(g.name), count = map_count_param(g.name);
    for (const auto& [a, call] : reads) {
      const FunctionDecl* f = call->getDirectCallee();
      std::string why = map_function_why(f);
      if (why.empty() && call->getArg(0)->HasSideEffects(*ctx_))
        why = "its first argument has side effects";
      std::vector<std::string> these;
      std::set<const ParmVarDecl*> r;
      for (unsigned i = 1; i < call->getNumArgs() && why.empty(); ++i) {
        if (std::string y = launch_constant(call->getArg(i), w.fd, r); !y.empty())
          why = "argument " + std::to_string(i + 1) + " of '" + g.index + "': " + y;
        these.push_back(sp_->text(call->getArg(i)));
      }
      if (why.empty() && fn && these != args)
        why = "its arguments after the first differ from those of the first read";
      if (why.empty()) {
        const clang::Expr* e = call->getArg(0);
        const ArraySubscriptExpr* whole = a;  // (a structured binding: not capturable in C++17)
        if (!sp_->replace(a, [this, copy, count, e, whole] {
              const std::string i = sp_->text(e);
              return "((" + i + ") < " + count + " ? " + copy + "[" + i +
                     "] : " + sp_->inner_text(whole) + ")";
            }))
          why = "its text is not in the kernel's file";
      }
      if (!why.empty()) {
        note(a, "this read of " + g.name + "[" + g.index + "(...)] stays as written: " + why);
        if (first_why.empty()) first_why = why;
        continue;
      }
      if (!fn) fn = f, args = std::move(these), read = std::move(r);
      ++rewritten;
    }
    if (!rewritten) {
      dropped(w, g, first_why);
      return;
    }
    // The map kernel: the parameters its arguments read, in the kernel's order and as the
    // kernel declares them.
    std::string params, call = g.index + "(dl_i";
    for (const std::string& t : args) call += ", " + t;
    call += ")";
    for (const ParmVarDecl* p : w.fd->parameters())
      if (read.count(p)) {
        c.args.push_back(p->getNameAsString());
        unsigned b = 0, e = 0;
        params += ", " + (sp_->offsets(p->getSourceRange(), b, e)
                              ? src_.substr(b, e - b)
                              : p->getType().getAsString() + " " + p->getNameAsString());
      }
    w.map_kernels += "\n/* DL: the copy of " + g.name + " that " + w.ann->kernel + " reads as " +
                     g.name + "[" + g.index + "(i, ...)] at i. */\n__kernel void " +
                     map_kernel_name(w.ann->kernel, g.name) + "(__global const " + c.type +
                     "* dl_x, __global " + c.type + "* dl_copy, ulong dl_n" + params +
                     ") {\n  const ulong dl_i = get_global_id(0);\n  if (dl_i >= dl_n) return;\n"
                     "  const ulong dl_j = (ulong)(" +
                     call +
                     ");\n  dl_copy[dl_i] = dl_j < dl_n ? "
                     "dl_x[dl_j] : (" +
                     c.type + ")0;\n}\n";
    w.gathers.push_back(std::move(c));
  }

  /// The parameters appended for the gathered copies, after the record counts: a map's
  /// copy and its element count.
  static std::string gather_params(const KernelWork& w) {
    std::string s;
    for (const GatherAnnotation& g : w.gathers)
      s += g.map ? ", __global const " + g.type + "* " + map_copy_param(g.name) + ", ulong " +
                       map_count_param(g.name)
                 : ", __global const " + g.type + "* dl_gather_" + g.name;
    return s;
  }

  /// The parameter the runtime sets to the records of a buffer annotated `[*]`.
  static std::string whole_param(const std::string& buffer) { return "dl_whole_" + buffer; }

  /// Per buffer, the first buffer of its group of `[*]` buffers sharing one record
  /// count (dl::whole_groups), or -1.
  std::vector<int> whole_groups(const KernelWork& w) {
    KernelAnnotation k;
    k.buffers = w.clauses;
    std::map<std::string, Record> recs;
    for (const Binding& b : w.bindings)
      if (!b.flat || b.flat_count) recs.emplace(b.rec.name(), b.rec);
    return dl::whole_groups(k, recs);
  }

  /// Parameters appended to the transformed kernel: one `ulong dl_whole_<b>` per group of
  /// buffers annotated `[*]`, named after its first buffer, in the order of the
  /// annotation (docs/annotation.md).
  std::string whole_params(const KernelWork& w) {
    std::string s;
    const std::vector<int> g = whole_groups(w);
    for (std::size_t i = 0; i < w.bindings.size(); ++i)
      if (g[i] == static_cast<int>(i)) s += ", ulong " + whole_param(w.bindings[i].name);
    return s;
  }

  /// The leading dimensions whose product is n: all of a struct array's, all but S of a
  /// flat array's, those up to the swapped pair's first for a swap of rows.
  static std::size_t record_dims(const Binding& b, const BufferAnnotation& c) {
    if (c.rows()) return static_cast<std::size_t>(c.swap) + 1;
    return b.flat ? c.dims.size() - 1 : c.dims.size();
  }

  std::string kernel_prologue(const KernelWork& w) {
    std::string s;
    const std::vector<int> g = whole_groups(w);
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
      const Binding& b = w.bindings[i];
      const BufferAnnotation& c = w.clauses[i];
      std::string n;
      const std::size_t dims = record_dims(b, c);
      const std::string& whole = w.bindings[static_cast<std::size_t>(g[i] < 0 ? i : g[i])].name;
      for (std::size_t d = 0; d < dims; ++d)
        n += (d ? " * " : "") + c.dims[d].to_cl(whole_param(whole));
      s += "\n  const dl_off " + b.n + " = (dl_off)(" + n + ");";
      if (c.distant()) {
        // A swap of distant dimensions, [A][d1][B][d2][C]: records of S = B * D rows
        // (D = d2) of C scalars, the rows of a tile stored as the D x B transpose.
        const auto p = static_cast<std::size_t>(c.swap), q = static_cast<std::size_t>(c.swap_with);
        auto product = [&c](std::size_t from, std::size_t to) {
          std::string t;
          for (std::size_t d = from; d < to; ++d)
            t += (d > from ? " * " : "") + ("(" + c.dims[d].to_cl() + ")");
          return t.empty() ? std::string("1") : t;
        };
        s += "\n  const dl_off " + b.swap_b + " = (dl_off)(" + product(p + 1, q) + ");";
        s += "\n  const dl_off " + b.swap_d + " = (dl_off)(" + product(q, q + 1) + ");";
        s += "\n  const dl_off " + b.s + " = " + b.swap_b + " * " + b.swap_d + ";";
        s += "\n  const dl_off " + b.c + " = (dl_off)(" + product(q + 1, c.dims.size()) + ");";
      } else if (b.flat && !b.flat_count)
        s += "\n  const dl_off " + b.s + " = (dl_off)(" + c.dims[dims].to_cl() + ");";
      if (!b.c.empty() && !c.distant()) {
        std::string row;
        for (std::size_t d = dims + 1; d < c.dims.size(); ++d)
          row += (d > dims + 1 ? " * " : "") + ("(" + c.dims[d].to_cl() + ")");
        s += "\n  const dl_off " + b.c + " = (dl_off)(" + row + ");";
      }
      std::string wv;
      if (b.da)  // DA, or a swap of the two slowest dimensions (one tile of n records)
        wv = b.n;
      else if (c.target.kind == LayoutKind::AoS)
        wv = "(dl_off)1";
      else if (c.tile)
        wv = "(dl_off)(" + c.tile->to_cl() + ")";
      else if (c.target.tile)
        wv = "(dl_off)" + std::to_string(c.target.tile);
      else
        wv = "(dl_off)(DL_ASTA_T)";
      s += "\n  const dl_off " + b.w + " = " + wv + ";";
      if (!b.root_is_base) {
        PrintingPolicy pp(ctx_->getLangOpts());
        s += "\n  " + ctx_->getPointerType(b.root->getType()->getPointeeType()).getAsString(pp) +
             " const " + b.base + " = " + b.name + ";";
      }
    }
    return s;
  }

  /// The transformed text of a specialised helper.
  std::string spec_text(Spec& s, std::string* prototype) {
    const FunctionDecl* fd = s.fd;
    unsigned nb = 0, ne = 0;
    sp_->offsets(SourceRange(fd->getLocation(), fd->getLocation()), nb, ne);
    const std::string name = s.name;
    sp_->replace_offsets(nb, ne, [name] { return name; });
    std::string extra;
    PrintingPolicy pp(ctx_->getLangOpts());
    for (const Binding& b : s.params) {
      QualType base = ctx_->getPointerType(b.root->getType()->getPointeeType().withConst());
      extra += ", " + base.getAsString(pp) + " " + b.base + ", dl_off " + b.w + ", dl_off " + b.n;
    }
    const ParmVarDecl* last = fd->getParamDecl(fd->getNumParams() - 1);
    unsigned pb = 0, pe = 0;
    sp_->offsets(last->getSourceRange(), pb, pe);
    sp_->insert(pe, extra);
    unsigned fb = 0, fe = 0;
    sp_->offsets(fd->getSourceRange(), fb, fe);
    unsigned bb = 0, be = 0;
    sp_->offsets(fd->getBody()->getSourceRange(), bb, be);
    if (prototype) *prototype = sp_->range_text(fb, bb) + ";\n";
    return sp_->range_text(fb, fe);
  }

  void emit(std::list<KernelWork>& work) {
    std::vector<Edit> edits;
    const auto lines = line_starts(src_);
    auto line_begin = [&](int l) -> std::size_t {
      return l >= 1 && static_cast<std::size_t>(l) < lines.size()
                 ? lines[static_cast<std::size_t>(l)]
                 : src_.size();
    };
    auto line_end = [&](int l) -> std::size_t {  // past the newline
      return static_cast<std::size_t>(l + 1) < lines.size() ? lines[static_cast<std::size_t>(l + 1)]
                                                            : src_.size();
    };

    // Blocks to emit, in source order: transformed kernels and specialised helpers.
    struct Block {
      std::size_t at;  // where generated helpers go before it
      std::set<std::string> needs;
    };
    std::vector<Block> blocks;
    std::set<const Spec*> emitted_specs;
    std::set<std::string> records_done;

    for (auto& w : work) {
      // Annotation lines of this kernel.
      std::set<int> dl_lines;
      if (!w.inferred) {  // an inferred annotation has no lines (its clauses' are the kernel's)
        for (const auto& b : w.ann->buffers) dl_lines.insert(b.line);
        for (const auto& g : w.ann->gathers) dl_lines.insert(g.line);
      }
      for (const auto& l : w.ann->locals) dl_lines.insert(l.line);
      int first_line = dl_lines.empty() ? w.ann->line : *dl_lines.begin();
      if (!w.ok) {
        w.report.transformed = false;
        w.report.status = w.why;
        for (int l : dl_lines) {
          std::size_t b = line_begin(l);
          std::size_t p = src_.find("//DL:", b);
          if (p != std::string::npos && p < line_end(l))
            edits.push_back({p, p + 5, "// dl-annotate left this kernel untransformed; was:", 0});
        }
        fill_report(w);
        continue;
      }
      // Completed annotation: record lines, then the clauses on the first line.
      std::string text;
      for (const auto& b : w.bindings)
        if ((!b.flat || b.flat_count) && records_done.insert(b.rec.name()).second)
          text += "//DL: record " + b.rec.describe() + "\n";
      if (!w.clauses.empty()) {
        text += "//DL: AoS: ";
        for (std::size_t i = 0; i < w.clauses.size(); ++i)
          text += (i ? ", " : "") + format_clause(w.clauses[i]);
        text += "\n";
      }
      if (!w.locals.empty()) {
        text += "//DL: local: ";
        for (std::size_t i = 0; i < w.locals.size(); ++i)
          text += (i ? ", " : "") + format_local(w.locals[i]);
        text += "\n";
      }
      for (const bool map : {false, true}) {
        std::string list;
        for (const GatherAnnotation& g : w.gathers)
          if (g.map == map) list += (list.empty() ? "" : ", ") + format_gather(g);
        if (!list.empty())
          text += std::string(map ? "//DL: map: " : "//DL: gather: ") + list + "\n";
      }
      bool first = true;
      for (int l : dl_lines) {
        edits.push_back({line_begin(l), line_end(l), first ? text : std::string(), 0});
        first = false;
      }
      if (w.inferred) {  // no //DL: lines: the annotation goes right above the kernel
        const std::size_t k = line_begin(
            static_cast<int>(sm_->getPresumedLineNumber(sm_->getFileLoc(w.fd->getBeginLoc()))));
        edits.push_back({k, k, text, 0});
        std::string& a = w.report.annotation;
        for (std::size_t i = 0; i < w.clauses.size(); ++i) {
          std::string c = (w.clauses[i].read_only    ? "const "
                           : w.clauses[i].write_only ? "write_only "
                                                     : "") +
                          w.clauses[i].name;
          for (const auto& d : w.ann->buffers[i].dims) c += "[" + d.text() + "]";
          a += (i ? ", " : "//DL: AoS: ") + c;
        }
        for (const bool map : {false, true}) {
          std::string list;
          for (const GatherAnnotation& g : w.gathers)
            if (g.map == map) list += (list.empty() ? "" : ", ") + g.name + "[" + g.index + "]";
          if (!list.empty())
            a += (a.empty() ? "" : "\n") + std::string(map ? "//DL: map: " : "//DL: gather: ") +
                 list;
        }
      }
      // The kernel: transformed under DL_ASTA_T, original otherwise. A kernel whose
      // buffers all stay AoS, with no helper reached by their pointers, reads them as
      // written: its one copy serves both (the annotation tells the runtime -> AoS).
      const bool all_aos = w.specs.empty() && w.staged.empty() && w.gathers.empty() &&
                           std::all_of(w.bindings.begin(), w.bindings.end(),
                                       [](const Binding& b) { return b.keep_aos; });
      if (!all_aos) {
        unsigned fb = 0, fe = 0, bb = 0, be = 0;
        sp_->offsets(w.fd->getSourceRange(), fb, fe);
        sp_->offsets(w.fd->getBody()->getSourceRange(), bb, be);
        if (std::string extra = whole_params(w) + gather_params(w); !extra.empty()) {
          unsigned pb = 0, pe = 0;
          sp_->offsets(w.fd->getParamDecl(w.fd->getNumParams() - 1)->getSourceRange(), pb, pe);
          sp_->insert(pe, extra);
        }
        std::string prologue = kernel_prologue(w) + staging_prologue(w);
        if (bb + 1 < src_.size() && src_[bb + 1] != '\n' && src_[bb + 1] != '\r') prologue += "\n ";
        sp_->insert(bb + 1, prologue);
        std::string t = "#ifdef DL_ASTA_T\n" + sp_->range_text(fb, fe) + "\n" + w.map_kernels +
                        "#else\n" + src_.substr(fb, fe - fb) + "\n#endif";
        // A directive ends its line: code after the kernel on the same line moves down
        // (a comment stays after the #endif: moved to a line of its own, a trailing
        // "//DL:" would become an annotation); one begins its line: code before the kernel
        // on the same line stays above.
        const std::size_t rest = src_.find_first_not_of(" \t", fe);
        const bool comment = rest != std::string::npos && src_.compare(rest, 2, "//") == 0;
        if (fe < src_.size() && src_[fe] != '\n' && src_[fe] != '\r' && !comment) t += "\n";
        const std::size_t nl = fb ? src_.find_last_of("\n\r", fb - 1) : std::string::npos;
        const std::size_t ls = nl == std::string::npos ? 0 : nl + 1;
        if (src_.find_first_not_of(" \t", ls) < fb) t = "\n" + t;
        edits.push_back({fb, fe, t, 1});
      }
      std::size_t kernel_at =
          std::min(line_begin(first_line),
                   line_begin(static_cast<int>(sm_->getPresumedLineNumber(w.fd->getBeginLoc()))));
      // Generated helpers go above the comment block that introduces the kernel.
      for (int l = static_cast<int>(
                       sm_->getPresumedLineNumber(sm_->getLocForStartOfFile(file_).getLocWithOffset(
                           static_cast<unsigned>(kernel_at)))) -
                   1;
           l >= 1; --l) {
        const std::size_t b = line_begin(l), e = line_end(l);
        const std::size_t c = src_.find_first_not_of(" \t", b);
        if (c == std::string::npos || c >= e || src_.compare(c, 2, "//") != 0 ||
            src_.compare(c, 5, "//DL:") == 0 ||
            std::string_view(src_).substr(c, e - c).find("*/") != std::string_view::npos)
          break;
        kernel_at = b;
      }
      Block kb{kernel_at, w.needs};
      // Specialised helpers: before their definitions (prototype before the kernel when
      // the helper comes later).
      for (Spec* s : w.specs) {
        if (!emitted_specs.insert(s).second) continue;
        std::string proto;
        std::string body = spec_text(*s, &proto);
        unsigned hb = 0, he = 0;
        sp_->offsets(s->fd->getSourceRange(), hb, he);
        std::size_t hat =
            line_begin(static_cast<int>(sm_->getPresumedLineNumber(s->fd->getBeginLoc())));
        edits.push_back({hat, hat, "#ifdef DL_ASTA_T\n" + body + "\n#endif\n", 2});
        blocks.push_back({hat, spec_needs_[s]});
        if (hat > kernel_at)
          edits.push_back({kernel_at, kernel_at, "#ifdef DL_ASTA_T\n" + proto + "#endif\n", 3});
      }
      if (!all_aos && !w.bindings.empty()) blocks.push_back(kb);  // (staging needs no helper)
      w.report.transformed = true;
      fill_report(w);
      res_.report.push_back(w.report);
      for (const auto& b : w.bindings)
        if ((!b.flat || b.flat_count) && marshal_done_.insert(b.rec.name()).second)
          marshal_records_.push_back(b.rec);
    }
    for (auto& w : work)
      if (!w.ok) res_.report.push_back(w.report);
    // Marshaling programs (dl::marshal_program_source), one per record. Each defines the
    // same helper functions, so with several records each is guarded by
    // DL_MARSHAL_<record>: build the file once per record with -DDL_MARSHAL_<record>.
    for (const Record& r : marshal_records_) {
      const bool guard = marshal_records_.size() > 1;
      if (guard) res_.marshal += "#ifdef DL_MARSHAL_" + r.name() + "\n";
      res_.marshal += dl::marshal_program_source(r);
      if (guard) res_.marshal += "#endif /* DL_MARSHAL_" + r.name() + " */\n";
    }

    // Generated helpers before the first block that needs them.
    std::sort(blocks.begin(), blocks.end(),
              [](const Block& a, const Block& b) { return a.at < b.at; });
    std::set<std::string> done;
    bool preamble = false;
    for (const auto& b : blocks) {
      std::string t;
      if (!preamble) t += Codegen::preamble(), preamble = true;
      std::set<std::string> want = b.needs;
      // Every dependency, of dependencies too (an item may need one registered before it).
      for (std::size_t size = 0; size != want.size();) {
        size = want.size();
        for (const auto& item : cg_.items())
          if (want.count(item.key)) want.insert(item.deps.begin(), item.deps.end());
      }
      for (const auto& item : cg_.items())  // items come after their dependencies
        if (want.count(item.key) && done.insert(item.key).second) t += item.text;
      if (!t.empty()) edits.push_back({b.at, b.at, "#ifdef DL_ASTA_T\n" + t + "#endif\n", -1});
    }

    std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.order < b.order;
    });
    std::string out;
    std::size_t cur = 0;
    for (const auto& e : edits) {
      if (e.begin < cur) continue;  // overlapping edit: keep the first
      out += src_.substr(cur, e.begin - cur);
      out += e.text;
      cur = e.end;
    }
    out += src_.substr(cur);
    res_.output = std::move(out);
  }

  /// Dimensions from `from` on, multiplied, as written (for the report).
  static std::string join_dims(const BufferAnnotation& c, std::size_t from,
                               std::size_t to = static_cast<std::size_t>(-1)) {
    std::string t;
    to = std::min(to, c.dims.size());
    for (std::size_t d = from; d < to; ++d) {
      const std::string& x = c.dims[d].text();
      const bool wrap = to - from > 1 && x.find_first_of("+-*/% ") != std::string::npos;
      t += (d > from ? " * " : "") + (wrap ? "(" + x + ")" : x);
    }
    return t;
  }

  void fill_report(KernelWork& w) {
    w.report.args.clear();
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
      const Binding& b = w.bindings[i];
      const BufferAnnotation& c = w.clauses[i];
      ArgReport a;
      a.name = b.name;
      const std::size_t dims = record_dims(b, c);
      a.record = c.distant()
                     ? join_dims(c, dims, static_cast<std::size_t>(c.swap_with) + 1) + " rows of " +
                           (static_cast<std::size_t>(c.swap_with) + 1 < c.dims.size()
                                ? join_dims(c, static_cast<std::size_t>(c.swap_with) + 1)
                                : std::string("1")) +
                           " x " + c.record + " (at each launch)"
                 : !b.c.empty() ? c.dims[dims].text() + " rows of " + join_dims(c, dims + 1) +
                                      " x " + c.record + " (at each launch)"
                 : b.flat && !b.flat_count
                     ? c.dims.back().text() + " x " + c.record + " (S at each launch)"
                     : b.rec.describe();
      for (std::size_t d = 0; d < dims; ++d) {
        const std::string& t = c.dims[d].text();
        const bool wrap = dims > 1 && t.find_first_of("+-*/% ") != std::string::npos;
        a.count += (d ? " * " : "") + (wrap ? "(" + t + ")" : t);
      }
      for (const auto& s : b.stats) {
        (s.pattern == Pattern::UnitStride   ? a.unit
         : s.pattern == Pattern::StridedAoS ? a.strided
         : s.pattern == Pattern::Invariant  ? a.invariant
         : s.pattern == Pattern::Uniform    ? a.uniform
         : s.pattern == Pattern::Gather     ? a.gather
                                            : a.irregular)++;
        if (s.write) a.writes++;
        if (!s.write || s.rmw) a.reads++;
        if (s.whole) a.whole++;
        if (!s.known) a.unknown++;
        if (!s.division.empty() && !w.bindings[i].keep_aos && a.divisions++ == 0)
          a.division = s.division;
      }
      const unsigned most =
          std::max({a.unit, a.strided, a.invariant, a.gather, a.irregular, a.uniform});
      if (a.strided == most && a.strided)
        a.pattern = b.flat
                        ? "strided AoS: consecutive work-items read scalars " +
                              (b.flat_count ? std::to_string(b.flat_count) : c.dims.back().text()) +
                              " elements apart"
                        : "strided AoS: consecutive work-items read fields " +
                              std::to_string(b.rec.size()) + " bytes apart";
      else if (a.unit == most && a.unit)
        a.pattern = "unit-stride per work-item";
      else if (a.invariant == most && a.invariant)
        a.pattern = "loop-invariant: the same record in every trip of a loop around the access";
      else if (a.gather == most && a.gather)
        a.pattern = "gather: record index loaded from memory";
      else if (a.uniform == most && a.uniform)
        a.pattern = "uniform: the same record for every work-item (a broadcast)";
      else if (a.irregular && a.unknown == a.irregular)
        a.pattern = "not known: every index is hidden behind a moved pointer or a helper";
      else if (a.irregular)
        a.pattern =
            "irregular: a record index the analysis cannot name (not affine in the id, not loaded)";
      else
        a.pattern = "no accesses";
      const Layout& t = c.target;
      a.layout = t.kind == LayoutKind::Swap
                     ? "SWAP(" + (c.tile ? c.tile->text() : std::to_string(t.tile)) + ", " +
                           join_dims(c, static_cast<std::size_t>(c.swap) + 1,
                                     static_cast<std::size_t>(c.swap_with)) +
                           ")"
                 : !t.tiled() ? t.str().substr(0, t.str().find('(')) + " (planes of " +
                                    (c.tile ? c.tile->text() : std::to_string(t.tile)) + " rows)"
                 : t.kind == LayoutKind::DA  ? "DA"
                 : t.kind == LayoutKind::AoS ? "AoS"
                 : c.tile                    ? "ASTA(" + c.tile->text() + ")"
                 : t.tile                    ? t.str()
                                             : "ASTA (T = DL_ASTA_T, chosen by the runtime)";
      const bool given = w.ann->buffers[i].target_given;
      if (opts_.force_layout)
        a.reason = "forced by --layout";
      else if (t.kind == LayoutKind::DA)
        a.reason = "the annotation asks for DA";
      else if (t.kind == LayoutKind::Swap)
        a.reason = "the annotation swaps two dimensions that are not neighbours";
      else if (!t.tiled())
        a.reason = "the annotation asks for its planes diagonalized";
      else if (t.kind == LayoutKind::ASTA && (t.tile || c.tile))
        a.reason = c.tile ? "the annotation gives the tile width by the kernel's arguments"
                          : "the annotation fixes the tile width";
      else if (t.kind == LayoutKind::AoS && given)
        a.reason = "the annotation asks for AoS";
      else if (t.kind == LayoutKind::AoS)
        a.reason = a.unit + a.invariant + a.gather + a.uniform
                       ? "AoS kept: every access is unit-stride per work-item, loop-invariant "
                         "(kept in registers), uniform (a broadcast) or a gather; ASTA would only "
                         "add conversions and address arithmetic"
                       : "AoS kept: the kernel does not access it";
      else if (given)
        a.reason = "the annotation asks for ASTA";
      else if (!a.strided && a.unknown)
        a.reason = "default (paper 5.1: AoS to ASTA): " + std::to_string(a.unknown) +
                   " access(es) through a pointer or helper whose index dl-annotate cannot see";
      else if (!a.strided && a.irregular)
        a.reason =
            "default (paper 5.1: AoS to ASTA): an index the analysis cannot name may still be a "
            "stride; the runtime's controller keeps AoS where ASTA does not pay";
      else if (a.strided)
        a.reason =
            "default (paper 5.1: AoS to ASTA): ASTA makes the strided field accesses of a tile of "
            "T "
            "work-items unit-stride and keeps each record within T*R bytes";
      else
        a.reason =
            "default (paper 5.1: AoS to ASTA): ASTA keeps each record within one tile of T*R bytes";
      w.report.args.push_back(a);
    }
  }

  const Options& opts_;
  const std::string& src_;
  Result& res_;
  ASTContext* ctx_ = nullptr;
  SourceManager* sm_ = nullptr;
  DiagnosticsEngine* de_ = nullptr;
  FileID file_;
  Splicer* sp_ = nullptr;
  Preprocessor* pp_ = nullptr;  // its macros, for dimensions that name them
  Codegen cg_;
  unsigned err_id_ = 0, warn_id_ = 0, note_id_ = 0, remark_id_ = 0;
  std::vector<SourceRange> skipped_;  // conditional regions the preprocessor skipped
  std::set<const Spec*> guarded_;     // helpers whose skipped regions are guarded
  std::list<Spec> specs_;
  std::map<const Spec*, bool> spec_ok_;
  std::map<const Spec*, std::set<std::string>> spec_needs_;
  std::set<std::string> marshal_done_;
  std::vector<Record> marshal_records_;
};

class Action : public ASTFrontendAction {
 public:
  Action(const Options& o, const std::string& src, Result& r) : opts_(o), src_(src), res_(r) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    auto c = std::make_unique<Consumer>(opts_, src_, res_, &ci.getPreprocessor());
    ci.getPreprocessor().addPPCallbacks(std::make_unique<SkippedRanges>(c->skipped()));
    return c;
  }

 private:
  const Options& opts_;
  const std::string& src_;
  Result& res_;
};

}  // namespace

Result annotate_source(const Options& opts, const std::string& source) {
  Result res;
  std::vector<std::string> args{"-x",
                                "cl",
                                "-cl-std=CL1.2",
                                "-fsyntax-only",
                                "-fno-color-diagnostics",
                                "--target=spir64-unknown-unknown"};
  std::string rd = opts.resource_dir;
#ifdef DL_CLANG_RESOURCE_DIR
  if (rd.empty()) rd = DL_CLANG_RESOURCE_DIR;
#endif
  if (!rd.empty()) args.push_back("-resource-dir=" + rd);
  args.insert(args.end(), opts.clang_args.begin(), opts.clang_args.end());
  const bool ran = tooling::runToolOnCodeWithArgs(std::make_unique<Action>(opts, source, res),
                                                  source, args, opts.input, "dl-annotate");
  res.ok = ran && res.ok;
  // Clang's own headers (opencl-c.h) are the tool's, not the input's.
  std::vector<std::string> deps;
  for (auto& d : res.deps)
    if (rd.empty() || d.rfind(rd, 0) != 0) deps.push_back(std::move(d));
  std::sort(deps.begin(), deps.end());
  res.deps = std::move(deps);
  return res;
}

}  // namespace dl::annotate
