// Inference of annotations (see infer.hpp).
#include "infer.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>

#include "codegen.hpp"
#include "record_builder.hpp"

namespace dl::annotate {
namespace {

using namespace clang;

/// The record strides of the indices through which a function body reaches one pointer
/// parameter: K of every term `K * e` (K an integer constant) of `p[...]` and `p + ...`.
class Strides : public RecursiveASTVisitor<Strides> {
 public:
  Strides(ASTContext& ctx, const ParmVarDecl* p) : ctx_(ctx), p_(p) {}

  bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
    if (is_param(e->getBase())) index(e->getIdx());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* e) {
    if (e->getOpcode() != BO_Add && e->getOpcode() != BO_Sub) return true;
    if (!e->getType()->isPointerType()) return true;
    if (is_param(e->getLHS())) index(e->getRHS());
    if (is_param(e->getRHS())) index(e->getLHS());
    return true;
  }

  std::set<std::int64_t> strides;   // the K found
  std::set<std::string> arguments;  // kernel arguments found as factors (`i * K`)

 private:
  bool is_param(const clang::Expr* e) const {
    const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == p_;
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
  return out;
}

}  // namespace dl::annotate
