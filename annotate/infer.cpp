// Inference of annotations (see infer.hpp).
#include "infer.hpp"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <set>

#include "codegen.hpp"
#include "record_builder.hpp"

namespace dl::annotate {
namespace {

using namespace clang;

/// Whether `e` is the work-item's global id: a call of get_global_id, or a local
/// variable initialised from one (`const uint i = get_global_id(0);`), through at most
/// `depth` variables (`int i = i;` compiles).
bool global_id(const clang::Expr* e, int depth = 8) {
  e = e->IgnoreParenImpCasts();
  if (const auto* c = dyn_cast<CallExpr>(e))
    if (const FunctionDecl* f = c->getDirectCallee()) return f->getName() == "get_global_id";
  if (const auto* d = dyn_cast<DeclRefExpr>(e))
    if (const auto* v = dyn_cast<VarDecl>(d->getDecl());
        v && !isa<ParmVarDecl>(v) && v->getInit() && depth > 0)
      return global_id(v->getInit(), depth - 1);
  return false;
}

/// Whether index `e` steps with the work-item: the global id is a term of its + and -
/// chain (`i`, `k * rows + i`, `m - 1 - i`), so consecutive work-items read consecutive
/// (or consecutively descending) entries.
bool steps_with_item(const clang::Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (global_id(e)) return true;
  const auto* b = dyn_cast<BinaryOperator>(e);
  return b && (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub) &&
         (steps_with_item(b->getLHS()) || steps_with_item(b->getRHS()));
}

/// The record strides of the indices through which a function body reaches one pointer
/// parameter: K of every term `K * e` (K an integer constant) of `p[...]` and `p + ...`.
class Strides : public RecursiveASTVisitor<Strides> {
 public:
  Strides(ASTContext& ctx, const ParmVarDecl* p) : ctx_(ctx), p_(p) {}

  bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
    if (is_param(e->getBase())) top(e->getIdx());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* e) {
    if (e->getOpcode() != BO_Add && e->getOpcode() != BO_Sub) return true;
    if (!e->getType()->isPointerType()) return true;
    if (is_param(e->getLHS())) top(e->getRHS());
    if (is_param(e->getRHS())) top(e->getLHS());
    return true;
  }

  std::set<std::int64_t> strides;   // the K found
  std::set<std::string> arguments;  // kernel arguments found as factors (`i * K`)
  bool steps = false;  // an index steps with the work-item (`k * rows + i`, i the global id)

 private:
  bool is_param(const clang::Expr* e) const {
    const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == p_;
  }
  void top(const clang::Expr* e) {
    steps = steps || steps_with_item(e);
    index(e);
  }
  /// Walks the + and - chain of an index; a product with a constant factor gives K.
  void index(const clang::Expr* e) {
    e = e->IgnoreParenImpCasts();
    const auto* b = dyn_cast<BinaryOperator>(e);
    if (!b) return;
    if (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub) {
      index(b->getLHS());
      index(b->getRHS());
      return;
    }
    if (b->getOpcode() != BO_Mul) return;
    for (const clang::Expr* side : {b->getLHS(), b->getRHS()}) {
      clang::Expr::EvalResult r;
      if (!side->isValueDependent() && side->EvaluateAsInt(r, ctx_)) {
        strides.insert(r.Val.getInt().getExtValue());
        return;
      }
    }
    for (const clang::Expr* side : {b->getLHS(), b->getRHS()})
      if (const auto* d = dyn_cast<DeclRefExpr>(side->IgnoreParenImpCasts()))
        if (isa<ParmVarDecl>(d->getDecl())) arguments.insert(d->getDecl()->getNameAsString());
  }

  ASTContext& ctx_;
  const ParmVarDecl* p_;
};

/// The reads `x[col[e]]` of a body (x and col parameters, either operand order), not
/// under `&`, as (x, col, whether e steps with the work-item), in source order.
struct GatheredRead {
  const ParmVarDecl* x;
  const ParmVarDecl* col;
  bool steps;
};
const ParmVarDecl* param_of(const clang::Expr* e) {
  const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
}
void gathered_reads(ASTContext& ctx, const Stmt* s, std::vector<GatheredRead>& out) {
  if (!s) return;
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(s)) {
    const ParmVarDecl* x = param_of(a->getBase());
    const auto* i = dyn_cast<ArraySubscriptExpr>(a->getIdx()->IgnoreParenImpCasts());
    const ParmVarDecl* col = i ? param_of(i->getBase()) : nullptr;
    if (x && col && x != col && !address_taken(ctx, a))
      out.push_back({x, col, steps_with_item(i->getIdx())});
  }
  for (const Stmt* child : s->children()) gathered_reads(ctx, child, out);
}

/// Whether `p` points to const (or __constant) elements in __global or __constant memory.
bool const_global(const ParmVarDecl* p) {
  const QualType t = p->getType();
  if (!t->isPointerType()) return false;
  const QualType e = t->getPointeeType();
  const LangAS as = e.getAddressSpace();
  return as == LangAS::opencl_constant || (as == LangAS::opencl_global && e.isConstQualified());
}

/// The reads `x[fn(e, ...)]` of a body (x a parameter, fn a function the program defines,
/// not a kernel, returning an integer), not under `&`, as (x, fn, whether e steps with
/// the work-item), in source order.
struct MappedRead {
  const ParmVarDecl* x;
  const FunctionDecl* fn;
  bool steps;
};
void mapped_reads(ASTContext& ctx, const Stmt* s, std::vector<MappedRead>& out) {
  if (!s) return;
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(s)) {
    const ParmVarDecl* x = param_of(a->getBase());
    const auto* c = dyn_cast<CallExpr>(a->getIdx()->IgnoreParenImpCasts());
    const FunctionDecl* fn = c ? c->getDirectCallee() : nullptr;
    if (x && fn && fn->hasBody() && map_function_why(fn).empty() && c->getNumArgs() >= 1 &&
        !address_taken(ctx, a))
      out.push_back({x, fn, steps_with_item(c->getArg(0))});
  }
  for (const Stmt* child : s->children()) mapped_reads(ctx, child, out);
}

/// Why x, read at index e (`steps`: e steps with the work-item), cannot be the array of a
/// gathered or mapped copy; empty when it can.
std::string copy_source_why(const ParmVarDecl* x, bool steps) {
  const QualType xe = x->getType()->getPointeeType();
  const std::string n = x->getNameAsString();
  if (!const_global(x)) return n + " is written (not a pointer to const)";
  if (!(xe->isVectorType() || (is_leaf_type(xe) && xe->isScalarType())))
    return n + "'s elements are not scalars or vectors";
  if (!steps) return "e does not step with the work-item (the global id is no term of its sums)";
  return {};
}

/// What the inference says of pointer parameter `p`, or null.
ArgInference* arg_of(KernelInference& out, const ParmVarDecl* p) {
  for (ArgInference& a : out.args)
    if (a.name == p->getName()) return &a;
  return nullptr;
}

/// The clause `x[index]` (a gather, or a map with `index` its function), placed at x.
GatherAnnotation gather_of(const ASTContext& ctx, const ParmVarDecl* x, const std::string& index,
                           bool map) {
  GatherAnnotation g;
  g.map = map;
  g.name = x->getNameAsString();
  g.index = index;
  const SourceManager& sm = ctx.getSourceManager();
  const SourceLocation at = sm.getFileLoc(x->getLocation());
  g.line = static_cast<int>(sm.getPresumedLineNumber(at));
  g.column = static_cast<int>(sm.getPresumedColumnNumber(at));
  return g;
}

/// The gathers of a kernel (infer.hpp), with each argument's inference updated.
void infer_gathers(ASTContext& ctx, const FunctionDecl* fd, KernelInference& out) {
  std::vector<GatheredRead> reads;
  gathered_reads(ctx, fd->getBody(), reads);
  auto arg = [&](const ParmVarDecl* p) { return arg_of(out, p); };
  auto records = [&](const ParmVarDecl* p) {
    return std::find_if(out.buffers.begin(), out.buffers.end(),
                        [&](const BufferAnnotation& b) { return b.name == p->getName(); });
  };
  std::set<const ParmVarDecl*> done, noted;
  for (const GatheredRead& r : reads) {
    if (done.count(r.x) || records(r.x) != out.buffers.end()) continue;
    const std::string x = r.x->getNameAsString(), col = r.col->getNameAsString();
    const QualType ce = r.col->getType()->getPointeeType();
    std::string why = copy_source_why(r.x, true);
    if (why.empty() && !const_global(r.col))
      why = col + " may be written (not a pointer to const)";
    else if (why.empty() && (!ce->isIntegerType() || ce->isBooleanType()))
      why = col + "'s elements are not integers";
    if (why.empty()) why = copy_source_why(r.x, r.steps);
    if (!why.empty()) {
      // The first such read says why x is not gathered; a later one may still be.
      if (ArgInference* a = arg(r.x); a && !a->inferred && noted.insert(r.x).second)
        a->what = "read as " + x + "[" + col + "[e]], not gathered: " + why;
      continue;
    }
    done.insert(r.x);
    // (col is never records here: an index that steps with the work-item makes none.)
    if (ArgInference* a = arg(r.x)) {
      a->inferred = true;
      a->what = "read as " + x + "[" + col +
                "[e]], e stepping with the work-item: a copy "
                "gathered through " +
                col + " (gather: " + x + "[" + col + "])";
    }
    if (ArgInference* a = arg(r.col)) {
      a->inferred = true;
      a->what = "the index of the gather " + x + "[" + col + "]: kept as the host lays it out";
    }
    out.gathers.push_back(gather_of(ctx, r.x, col, false));
  }
}

/// The maps of a kernel (infer.hpp), after its gathers, with each argument's inference
/// updated.
void infer_maps(ASTContext& ctx, const FunctionDecl* fd, KernelInference& out) {
  std::vector<MappedRead> reads;
  mapped_reads(ctx, fd->getBody(), reads);
  std::set<const ParmVarDecl*> done, noted;
  for (const MappedRead& r : reads) {
    const std::string x = r.x->getNameAsString(), fn = r.fn->getNameAsString();
    if (done.count(r.x) ||
        std::any_of(out.buffers.begin(), out.buffers.end(),
                    [&](const BufferAnnotation& b) { return b.name == x; }) ||
        std::any_of(out.gathers.begin(), out.gathers.end(),
                    [&](const GatherAnnotation& g) { return g.name == x || g.index == x; }))
      continue;
    ArgInference* a = arg_of(out, r.x);
    if (std::string why = copy_source_why(r.x, r.steps); !why.empty()) {
      // The first such read says why x is not mapped; a later one may still be.
      if (a && !a->inferred && noted.insert(r.x).second)
        a->what = "read as " + x + "[" + fn + "(e, ...)], not mapped: " + why;
      continue;
    }
    done.insert(r.x);
    if (a) {
      a->inferred = true;
      a->what = "read as " + x + "[" + fn +
                "(e, ...)], e stepping with the work-item: a copy made through " + fn +
                " (map: " + x + "[" + fn + "])";
    }
    out.gathers.push_back(gather_of(ctx, r.x, fn, true));
  }
}

BufferAnnotation clause(const ASTContext& ctx, const ParmVarDecl* p, std::int64_t s) {
  BufferAnnotation b;
  b.name = p->getNameAsString();
  b.dims.push_back(*dl::Expr::parse("*"));
  if (s) b.dims.push_back(*dl::Expr::parse(std::to_string(s)));
  const SourceManager& sm = ctx.getSourceManager();
  const SourceLocation at = sm.getFileLoc(p->getLocation());
  b.line = static_cast<int>(sm.getPresumedLineNumber(at));
  b.column = static_cast<int>(sm.getPresumedColumnNumber(at));
  return b;
}

}  // namespace

KernelInference infer_kernel(ASTContext& ctx, const FunctionDecl* fd) {
  KernelInference out;
  for (const ParmVarDecl* p : fd->parameters()) {
    const QualType t = p->getType();
    if (!t->isPointerType()) continue;
    ArgInference a;
    a.name = p->getNameAsString();
    const QualType pointee = t->getPointeeType();
    const LangAS as = pointee.getAddressSpace();
    auto no = [&](std::string why) {
      a.what = std::move(why);
      out.args.push_back(a);
    };
    if (as != LangAS::opencl_global && as != LangAS::opencl_constant) {
      no("points to neither __global nor __constant memory");
      continue;
    }
    if (pointee->isStructureType()) {
      std::string why;
      if (!build_record(ctx, pointee.getUnqualifiedType(), identifier(record_name(pointee)), why)) {
        no("its struct is not a record DL can lay out: " + why);
        continue;
      }
      out.buffers.push_back(clause(ctx, p, 0));
      a.inferred = true;
      a.what = "records of struct " + record_name(pointee) + ", n = the whole buffer";
      out.args.push_back(a);
      continue;
    }
    Scalar sc;
    if (pointee->isVectorType() || !is_leaf_type(pointee) || !scalar_of(pointee, sc)) {
      no(pointee->isVectorType() ? "a vector per element is already one slot"
                                 : "not a pointer to a struct or to scalars");
      continue;
    }
    Strides st(ctx, p);
    st.TraverseStmt(fd->getBody());
    if (st.steps && (!st.strides.empty() || !st.arguments.empty())) {
      // `g[k * S + i]`: consecutive work-items read consecutive scalars, as coalesced as
      // reads get; records of S would only move them apart.
      no("a stride, but the global id is a term of its index (consecutive work-items read "
         "consecutive elements): not records");
      continue;
    }
    if (st.strides.empty() && st.arguments.size() == 1) {
      // `val[i * K + k]`, K an integer argument: records of K scalars, S at each launch.
      const std::string k = *st.arguments.begin();
      const ParmVarDecl* kp = nullptr;
      for (const ParmVarDecl* q : fd->parameters())
        if (q->getName() == k) kp = q;
      if (kp && kp->getType()->isIntegerType() && !kp->getType()->isBooleanType()) {
        BufferAnnotation b = clause(ctx, p, 0);
        b.dims.push_back(*dl::Expr::parse(k));
        out.buffers.push_back(std::move(b));
        a.inferred = true;
        a.what = "records of " + k + " " + scalar_name(sc) +
                 " (the argument that strides its index), n = the whole buffer";
        out.args.push_back(a);
        continue;
      }
    }
    if (st.strides.empty() && !st.arguments.empty()) {
      std::string list;
      for (const auto& k : st.arguments) list += (list.empty() ? "'" : "', '") + k;
      no("indexed with the strides " + list + "': no one record length S");
      continue;
    }
    if (st.strides.empty()) {
      no("scalars indexed without a record stride (g[S*e + c]): not records");
      continue;
    }
    if (st.strides.size() > 1) {
      std::string list;
      for (auto k : st.strides) list += (list.empty() ? "" : ", ") + std::to_string(k);
      no("indexed with different strides (" + list + "): no one record length S");
      continue;
    }
    const std::int64_t s = *st.strides.begin();
    if (s < 2 || s > 4096) {
      no("its record stride " + std::to_string(s) + " is not in [2, 4096]");
      continue;
    }
    out.buffers.push_back(clause(ctx, p, s));
    a.inferred = true;
    a.what = "records of " + std::to_string(s) + " " + scalar_name(sc) +
             " (stride of its index), n = the whole buffer";
    out.args.push_back(a);
  }
  infer_gathers(ctx, fd, out);
  infer_maps(ctx, fd, out);
  return out;
}

bool address_taken(ASTContext& ctx, const ArraySubscriptExpr* a) {
  for (const auto& parent : ctx.getParents(*a))
    if (const auto* u = parent.get<UnaryOperator>(); u && u->getOpcode() == UO_AddrOf) return true;
  return false;
}

std::string map_function_why(const FunctionDecl* fn) {
  const std::string n = "'" + fn->getNameAsString() + "'";
  if (fn->hasAttr<OpenCLKernelAttr>()) return n + " is a kernel";
  if (!fn->getReturnType()->isIntegerType()) return n + " does not return an integer";
  if (fn->getNumParams() < 1 || !fn->getParamDecl(0)->getType()->isIntegerType())
    return "the first parameter of " + n + " is not an integer (the map kernel passes i)";
  return {};
}

}  // namespace dl::annotate
