// Access analysis and rewrite registration (see access_analysis.hpp).
#include "access_analysis.hpp"

#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "record_builder.hpp"

namespace dl::annotate {

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::UnitStride:
      return "unit-stride per work-item";
    case Pattern::StridedAoS:
      return "strided AoS";
    case Pattern::Invariant:
      return "loop-invariant record";
    case Pattern::Gather:
      return "gather";
    case Pattern::Irregular:
      return "irregular";
    case Pattern::Uniform:
      return "uniform";
  }
  return "?";
}

namespace {

using namespace clang;

/// Every DeclRefExpr, pointer variable and pointer assignment of a body.
class Collector : public RecursiveASTVisitor<Collector> {
 public:
  std::vector<const DeclRefExpr*> refs;
  std::vector<const VarDecl*> locals;
  std::map<const VarDecl*, std::vector<const Expr*>> assigned;            // `v = rhs`
  std::set<const VarDecl*> modified;                                      // ++, --, +=, -=, =
  std::map<const VarDecl*, std::vector<const BinaryOperator*>> compound;  // `v op= rhs`
  std::set<const VarDecl*> declared;                                      // every variable
  std::set<const VarDecl*> stepped;                                       // ++ or --
  bool labels = false;  // a label: a goto may enter any statement

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    refs.push_back(e);
    return true;
  }
  bool VisitVarDecl(VarDecl* v) {
    declared.insert(v);
    if (!isa<ParmVarDecl>(v) && v->getType()->isPointerType()) locals.push_back(v);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (!b->isAssignmentOp()) return true;
    if (const VarDecl* v = var(b->getLHS())) {
      modified.insert(v);
      if (b->getOpcode() == BO_Assign)
        assigned[v].push_back(b->getRHS());
      else
        compound[v].push_back(b);
    }
    return true;
  }
  bool VisitLabelStmt(LabelStmt*) {
    labels = true;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->isIncrementDecrementOp())
      if (const VarDecl* v = var(u->getSubExpr())) modified.insert(v), stepped.insert(v);
    return true;
  }
  static const VarDecl* var(const Expr* e) {
    if (const auto* d = dyn_cast<DeclRefExpr>(e->IgnoreParens()))
      return dyn_cast<VarDecl>(d->getDecl());
    return nullptr;
  }
};

bool is_call_to(const Expr* e, std::initializer_list<const char*> names, bool dim0 = true) {
  const auto* c = dyn_cast<CallExpr>(e);
  if (!c || !c->getDirectCallee()) return false;
  const std::string n = c->getDirectCallee()->getNameAsString();
  for (const char* x : names)
    if (n == x) {
      if (!dim0) return true;
      if (c->getNumArgs() != 1) return false;
      const auto* lit = dyn_cast<IntegerLiteral>(c->getArg(0)->IgnoreParenImpCasts());
      return lit && lit->getValue() == 0;
    }
  return false;
}

class Analyzer {
 public:
  Analyzer(ASTContext& ctx, Splicer& sp, Codegen& cg, const FunctionDecl* fd,
           std::vector<Binding>& bindings)
      : ctx_(ctx), sp_(sp), cg_(cg), fd_(fd), bindings_(bindings) {}

  FunctionResult run() {
    const Stmt* body = fd_->getBody();
    if (!body) return std::move(res_);
    Collector col;
    col.TraverseStmt(const_cast<Stmt*>(body));
    col_ = &col;
    for (auto& b : bindings_) {
      vars_[b.root] = &b;
      b.root_is_base = b.root_is_base && !col.modified.count(b.root);
      if (col.modified.count(b.root)) res_.param_reassigned = true;
    }
    find_aliases(col);
    for (const DeclRefExpr* d : col.refs) {
      const auto* v = dyn_cast<VarDecl>(d->getDecl());
      auto it = v ? vars_.find(v) : vars_.end();
      if (it == vars_.end()) continue;
      Index idx;
      if (!(v == it->second->root && it->second->root_is_base)) {
        idx.terms.push_back({d, false, true});
        auto c = alias_cls_.find(v);
        if (c != alias_cls_.end() && c->second)
          idx.cls.push_back(c->second);
        else if (v != it->second->root)
          idx.cls_unknown = true;
      }
      pointer_use(d, idx, *it->second);
    }
    finish_calls();
    return std::move(res_);
  }

 private:
  struct Term {
    const Expr* e;
    bool neg;
    bool ptr;  // (e - base): a pointer's distance from the buffer start
  };
  struct Index {
    std::vector<Term> terms;
    std::vector<const Expr*> cls;  // integer terms, for the access-pattern classification
    bool cls_unknown = false;
  };
  struct Offset {
    std::size_t c = 0;
    std::vector<std::pair<const Expr*, std::size_t>> v;
  };

  // ---- helpers -------------------------------------------------------------------------
  void problem(const Stmt* at, std::string msg) {
    res_.problems.push_back({at->getBeginLoc(), std::move(msg)});
  }

  const Stmt* parent(const Stmt* s) {
    auto ps = ctx_.getParents(*s);
    return ps.empty() ? nullptr : ps[0].get<Stmt>();
  }
  const Decl* parent_decl(const Stmt* s) {
    auto ps = ctx_.getParents(*s);
    return ps.empty() ? nullptr : ps[0].get<Decl>();
  }
  /// The statement around `s`, through a declaration when `s` initializes a variable
  /// (`float v = g[i];`: the DeclStmt).
  const Stmt* enclosing(const Stmt* s) {
    if (const Stmt* p = parent(s)) return p;
    const Decl* d = parent_decl(s);
    if (!d) return nullptr;
    auto ps = ctx_.getParents(*d);
    return ps.empty() ? nullptr : ps[0].get<Stmt>();
  }
  /// Climbs from `cur` over parentheses (and, when `casts`, no-op and lvalue-to-rvalue
  /// implicit casts); `child` is the node directly below the returned parent.
  const Stmt* up(const Stmt* cur, const Stmt*& child, bool casts) {
    child = cur;
    for (int guard = 0; guard < 256; ++guard) {
      const Stmt* p = parent(child);
      if (!p) return nullptr;
      if (isa<ParenExpr>(p)) {
        child = p;
        continue;
      }
      if (const auto* ic = dyn_cast<ImplicitCastExpr>(p))
        if (casts && (ic->getCastKind() == CK_NoOp || ic->getCastKind() == CK_LValueToRValue)) {
          child = p;
          continue;
        }
      return p;
    }
    return nullptr;
  }

  bool same_elem(QualType pointer, const Binding& b) const {
    if (!pointer->isPointerType()) return false;
    QualType pe = pointer->getPointeeType();
    return ctx_.hasSameUnqualifiedType(pe.getCanonicalType(), b.elem.getCanonicalType()) &&
           pe.getAddressSpace() == b.root->getType()->getPointeeType().getAddressSpace();
  }

  Binding* derived(const Expr* e) {
    for (int guard = 0; guard < 256 && e; ++guard) {
      e = e->IgnoreParens();
      if (const auto* ic = dyn_cast<ImplicitCastExpr>(e)) {
        if (ic->getCastKind() != CK_NoOp && ic->getCastKind() != CK_LValueToRValue) return nullptr;
        e = ic->getSubExpr();
      } else if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
        const auto* v = dyn_cast<VarDecl>(d->getDecl());
        auto it = v ? vars_.find(v) : vars_.end();
        return it == vars_.end() ? nullptr : it->second;
      } else if (const auto* b = dyn_cast<BinaryOperator>(e)) {
        if (b->isAssignmentOp() || b->getOpcode() == BO_Comma) {
          e = b->getOpcode() == BO_Comma ? b->getRHS() : b->getLHS();
        } else if ((b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub) &&
                   b->getType()->isPointerType()) {
          e = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
        } else {
          return nullptr;
        }
      } else if (const auto* u = dyn_cast<UnaryOperator>(e)) {
        if (u->isIncrementDecrementOp()) {
          e = u->getSubExpr();
        } else if (u->getOpcode() == UO_AddrOf) {
          const Expr* s = u->getSubExpr()->IgnoreParens();
          if (const auto* a = dyn_cast<ArraySubscriptExpr>(s))
            e = a->getBase();
          else if (const auto* dr = dyn_cast<UnaryOperator>(s); dr && dr->getOpcode() == UO_Deref)
            e = dr->getSubExpr();
          else
            return nullptr;
        } else {
          return nullptr;
        }
      } else if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
        Binding* a = derived(c->getTrueExpr());
        return a && a == derived(c->getFalseExpr()) ? a : nullptr;
      } else {
        return nullptr;
      }
    }
    return nullptr;
  }

  /// For an alias initialised once from `f + e` / `&f[e]`: the integer term e.
  const Expr* init_index(const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Add) {
      if (b->getLHS()->getType()->isPointerType() && derived(b->getLHS())) return b->getRHS();
      if (b->getRHS()->getType()->isPointerType() && derived(b->getRHS())) return b->getLHS();
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
      if (const auto* a = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens()))
        return a->getIdx();
    return nullptr;
  }

  void find_aliases(Collector& col) {
    bool changed = true;
    while (changed) {
      changed = false;
      for (const VarDecl* v : col.locals) {
        if (vars_.count(v)) continue;
        std::vector<const Expr*> vals = col.assigned[v];
        if (v->getInit()) vals.push_back(v->getInit());
        for (const Expr* e : vals)
          if (Binding* b = derived(e); b && same_elem(v->getType(), *b)) {
            vars_[v] = b;
            changed = true;
            break;
          }
      }
    }
    for (auto& [v, b] : vars_) {
      std::vector<const Expr*> vals = col.assigned[v];
      if (v->getInit()) vals.push_back(v->getInit());
      for (const Expr* e : vals)
        if (derived(e) != b)
          problem(e, "pointer '" + v->getNameAsString() +
                         "' is assigned a value not derived from buffer '" + b->name + "'");
      if (v != b->root && v->getInit() && col.assigned[v].empty() && !col.modified.count(v))
        alias_cls_[v] = init_index(v->getInit());
    }
  }

  // ---- classification ------------------------------------------------------------------
  /// A local variable every value of which satisfies `is` (its initialiser and every
  /// `v = e`), changed otherwise only by ++, -- or `+=`/`-=` of a uniform value: by
  /// induction it keeps the property (a loop counter, `wtx = tx; ... wtx += NT`).
  template <class Is>
  bool inductive(const VarDecl* v, int depth, Is&& is) {
    if (!v || isa<ParmVarDecl>(v) || depth > 32 || --steps_ < 0) return false;
    if (!in_progress_.insert(v).second) return true;  // the induction hypothesis
    const std::vector<const Expr*> vals = values(v);
    bool ok = !vals.empty();
    for (const Expr* e : vals) ok = ok && is(e, depth + 1);
    for (const BinaryOperator* b : col_->compound[v])
      ok = ok && (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign) &&
           uniform(b->getRHS(), depth + 1);
    in_progress_.erase(v);
    return ok;
  }
  /// Every value a local variable is given: its initialiser and each `v = e`.
  std::vector<const Expr*> values(const VarDecl* v) {
    std::vector<const Expr*> vals = col_->assigned[v];
    if (v->getInit()) vals.push_back(v->getInit());
    return vals;
  }
  std::set<const VarDecl*> in_progress_;
  /// Variables one classification may follow: values that reach each other through many
  /// paths must not make it exponential (an unknown answer counts as "no").
  int steps_ = 0;
  static constexpr int kSteps = 4096;

  /// The same value in every work-item of a group (as far as the analysis can tell: a
  /// load with a uniform index counts, as every work-item reads the same element).
  bool uniform(const Expr* e, int depth = 0) {
    if (depth > 32) return false;
    e = e->IgnoreParenImpCasts();
    if (e->isIntegerConstantExpr(ctx_)) return true;
    if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
      if (isa<ParmVarDecl>(d->getDecl())) return true;
      return inductive(dyn_cast<VarDecl>(d->getDecl()), depth,
                       [this](const Expr* x, int dd) { return uniform(x, dd); });
    }
    if (is_call_to(e, {"get_group_id", "get_local_size", "get_global_size", "get_num_groups"},
                   false))
      return true;
    if (const auto* b = dyn_cast<BinaryOperator>(e))
      return (b->isAdditiveOp() || b->isMultiplicativeOp()) && uniform(b->getLHS(), depth + 1) &&
             uniform(b->getRHS(), depth + 1);
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(e))
      return isa<DeclRefExpr>(a->getBase()->IgnoreParenImpCasts()) &&
             uniform(a->getIdx(), depth + 1);
    return false;
  }
  bool gid_like(const Expr* e, int depth = 0) {
    if (depth > 32) return false;
    e = e->IgnoreParenImpCasts();
    if (is_call_to(e, {"get_global_id", "get_local_id"})) return true;
    if (const auto* d = dyn_cast<DeclRefExpr>(e))
      return inductive(dyn_cast<VarDecl>(d->getDecl()), depth,
                       [this](const Expr* x, int dd) { return gid_like(x, dd); });
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      if (b->getOpcode() == BO_Add)
        return (gid_like(b->getLHS(), depth + 1) && uniform(b->getRHS())) ||
               (gid_like(b->getRHS(), depth + 1) && uniform(b->getLHS()));
      if (b->getOpcode() == BO_Sub) return gid_like(b->getLHS(), depth + 1) && uniform(b->getRHS());
    }
    return false;
  }
  /// True when the record index is the work-item id plus uniform terms.
  bool unit_index(const Index& idx) {
    index_unknown_ = idx.cls_unknown;
    if (idx.cls_unknown) return false;
    int gid = 0;
    for (const Expr* e : idx.cls) {
      if (gid_like(e))
        ++gid;
      else if (!uniform(e))
        return false;
    }
    return gid == 1;
  }
  /// Whether `e` reads memory (an element, a dereference), following local variables'
  /// values: a record index made of it is data-dependent.
  bool loads(const Stmt* s, int depth = 0) {
    if (!s || depth > 32) return false;
    if (const auto* e = dyn_cast<Expr>(s)) {
      const Expr* x = e->IgnoreParenImpCasts();
      if (isa<ArraySubscriptExpr>(x)) return true;
      if (const auto* u = dyn_cast<UnaryOperator>(x); u && u->getOpcode() == UO_Deref) return true;
      if (const auto* m = dyn_cast<MemberExpr>(x); m && m->isArrow()) return true;
      if (const auto* d = dyn_cast<DeclRefExpr>(x)) {
        const auto* v = dyn_cast<VarDecl>(d->getDecl());
        if (!v || isa<ParmVarDecl>(v) || --steps_ < 0 || !in_progress_.insert(v).second)
          return false;
        bool any = false;
        for (const Expr* y : values(v)) any = any || loads(y, depth + 1);
        in_progress_.erase(v);
        return any;
      }
    }
    for (const Stmt* c : s->children())
      if (loads(c, depth + 1)) return true;
    return false;
  }
  /// Variables `s` names.
  static void names(const Stmt* s, std::set<const VarDecl*>& out) {
    if (!s) return;
    if (const auto* d = dyn_cast<DeclRefExpr>(s))
      if (const auto* v = dyn_cast<VarDecl>(d->getDecl())) out.insert(v);
    for (const Stmt* c : s->children()) names(c, out);
  }
  /// Byte offset of slot offset `o` of record `i` (records of `r` bytes, slots of `z`):
  /// dl_da in a DA kernel, dl_tiled otherwise.
  static std::string slot_at(const Binding& bd, const std::string& r, const std::string& i,
                             const std::string& o, const std::string& zs) {
    if (bd.da) return "dl_da(" + bd.n + ", " + r + ", " + i + ", " + o + ", " + zs + ")";
    return std::string(bd.diag == 1   ? "dl_diag("
                       : bd.diag == 2 ? "dl_diag_main("
                                      : "dl_tiled(") +
           bd.w + ", " + bd.n + ", " + r + ", " + i + ", " + o + ", " + zs + ")";
  }
  /// dl_diag_flat for scalar `x` of a diagonalized flat binding.
  static std::string diag_flat(const Binding& bd, std::size_t z, const std::string& x) {
    return "dl_diag_flat(" + bd.w + ", " + bd.n + ", " + bd.s + ", " + std::to_string(z) + ", " +
           x + ", " + (bd.diag == 2 ? "1" : "0") + ")";
  }
  /// Record bytes of a flat binding in generated code.
  static std::string flat_record_bytes(const Binding& bd, std::size_t z) {
    return bd.flat_count ? std::to_string(bd.flat_count * z) : bd.s + " * " + std::to_string(z);
  }
  /// Whether `var` is a variable whose address the function takes.
  bool address_taken(const VarDecl* var) {
    for (const DeclRefExpr* d : col_->refs) {
      if (d->getDecl() != var) continue;
      const Stmt* child = nullptr;
      const Stmt* p = up(d, child, false);
      if (const auto* u = dyn_cast_or_null<UnaryOperator>(p))
        if (u->getOpcode() == UO_AddrOf) return true;
    }
    return false;
  }
  /// Whether the scalar index `q` of a flat access at `at` is known to lie in [0, S): it
  /// is the variable of an enclosing `for (v = 0; v < S; ++v)` (or v++, a non-negative
  /// constant start) whose body leaves v alone, with S the record length: its constant,
  /// or the one parameter the annotation names, which the kernel never assigns. Then the
  /// access needs no compare with S (dl_tiled instead of dl_flat_at).
  bool below_record_length(const Expr* q, const Stmt* at, const Binding& b) {
    return loop_below(q, at, [&](const Expr* bound) {
      if (b.flat_count) {
        const auto k = bound->getIntegerConstantExpr(ctx_);
        return k && !k->isNegative() && k->getZExtValue() == b.flat_count;
      }
      return b.flat_param && Collector::var(bound) == b.flat_param &&
             !col_->modified.count(b.flat_param) && !address_taken(b.flat_param);
    });
  }
  /// Whether `q` is the variable of an enclosing `for (v = 0; v < B; ++v)` (or v++, a
  /// non-negative constant start) whose body leaves v alone, B such that `is_bound(B)`.
  template <typename IsBound>
  bool loop_below(const Expr* q, const Stmt* at, const IsBound& is_bound) {
    const VarDecl* v = Collector::var(q->IgnoreParenImpCasts());
    if (!v || address_taken(v)) return false;
    for (const Stmt* cur = at; cur && cur != fd_->getBody();) {
      const Stmt* p = enclosing(cur);
      const auto* f = dyn_cast_or_null<ForStmt>(p);
      if (f && f->getBody() == cur) {
        const auto* ds = dyn_cast_or_null<DeclStmt>(f->getInit());
        const VarDecl* iv =
            ds && ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
        if (!iv && f->getInit())
          if (const auto* as = dyn_cast<BinaryOperator>(f->getInit()))
            if (as->getOpcode() == BO_Assign) iv = Collector::var(as->getLHS());
        if (iv == v) {
          const Expr* init = ds ? v->getInit() : cast<BinaryOperator>(f->getInit())->getRHS();
          const auto start = init ? init->getIntegerConstantExpr(ctx_) : llvm::None;
          if (!start || start->isNegative()) return false;
          const auto* cond = dyn_cast_or_null<BinaryOperator>(f->getCond());
          if (!cond || cond->getOpcode() != BO_LT ||
              Collector::var(cond->getLHS()->IgnoreParenImpCasts()) != v)
            return false;
          const bool is_s = is_bound(cond->getRHS()->IgnoreParenImpCasts());
          const auto* inc = dyn_cast_or_null<UnaryOperator>(f->getInc());
          if (!is_s || !inc || !inc->isIncrementOp() || Collector::var(inc->getSubExpr()) != v)
            return false;
          Collector in;
          in.TraverseStmt(const_cast<Stmt*>(f->getBody()));
          return !in.modified.count(v);
        }
      }
      cur = p;
    }
    return false;
  }
  /// Whether the access at `at` names the same record in every trip of a loop around
  /// it: no variable of its index is changed or declared inside that loop.
  bool loop_invariant(const Stmt* at, const Index& idx, const Offset* off = nullptr) {
    if (idx.cls_unknown || idx.cls.empty()) return false;
    std::set<const VarDecl*> vars;
    for (const Expr* e : idx.cls) names(e, vars);
    if (off)
      for (const auto& v : off->v) names(v.first, vars);
    const Stmt* cur = at;
    for (int guard = 0; guard < 256 && cur && cur != fd_->getBody(); ++guard) {
      const Stmt* p = parent(cur);
      if (p && (isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<DoStmt>(p))) {
        Collector in;
        in.TraverseStmt(const_cast<Stmt*>(p));
        bool changes = false;
        for (const VarDecl* v : vars)
          changes = changes || in.modified.count(v) || in.declared.count(v);
        if (!changes) return true;
      }
      cur = p;
    }
    return false;
  }
  /// The pattern of an access at `at` whose record index is `idx` (and field offset
  /// `off`): `unit` when the index is the work-item id plus uniform terms; strided for
  /// the element index `x` of a flat array (`flat`) where flat_strided() holds.
  Pattern classify(const Stmt* at, const Index& idx, Pattern unit, const Offset* off = nullptr,
                   bool flat = false) {
    steps_ = kSteps;
    Pattern p = Pattern::Irregular;
    if (unit_index(idx))
      p = unit;
    else if (flat && flat_strided(idx))
      p = Pattern::StridedAoS;
    if (p != Pattern::Irregular)
      return p == Pattern::StridedAoS && loop_invariant(at, idx, off) ? Pattern::Invariant : p;
    if (idx.cls_unknown) return Pattern::Irregular;
    if (loop_invariant(at, idx, off)) return Pattern::Invariant;
    for (const Expr* e : idx.cls)
      if (loads(e)) return Pattern::Gather;
    bool same = !idx.cls.empty();
    for (const Term& t : idx.terms) same = same && !t.ptr;
    for (const Expr* e : idx.cls) same = same && uniform(e);
    return same ? Pattern::Uniform : Pattern::Irregular;
  }

  /// Called right after classify() classified the access's index.
  void stat(Binding& b, const Stmt* at, Pattern p, bool write, bool whole, bool rmw = false) {
    b.stats.push_back({p,
                       write,
                       rmw,
                       whole,
                       !index_unknown_,
                       ctx_.getSourceManager().getPresumedLineNumber(at->getBeginLoc()),
                       {}});
  }
  bool index_unknown_ = false;  // of the index unit_index() saw last

  // ---- text ----------------------------------------------------------------------------
  std::string index_text(const Index& idx, const Binding& b) {
    if (idx.terms.empty()) return "0";
    std::string s;
    for (std::size_t i = 0; i < idx.terms.size(); ++i) {
      const Term& t = idx.terms[i];
      if (i)
        s += t.neg ? " - " : " + ";
      else if (t.neg)
        s += "-";
      s += "(" + sp_.text(t.e) + (t.ptr ? " - " + b.base : std::string()) + ")";
    }
    return s;
  }
  std::string offset_text(const Offset& o) {
    std::string s = std::to_string(o.c);
    for (const auto& [e, es] : o.v) s += " + (dl_off)(" + sp_.text(e) + ") * " + std::to_string(es);
    return s;
  }
  std::string leaf_type(QualType t) {
    Scalar s = Scalar::Float;
    unsigned w = 1;
    if (const auto* vt = t->getAs<VectorType>()) {
      scalar_of(vt->getElementType(), s);
      w = vt->getNumElements();
    } else {
      scalar_of(t, s);
    }
    return std::string(scalar_name(s)) + (w > 1 ? std::to_string(w) : std::string());
  }
  std::string type_text(QualType t) {
    PrintingPolicy pp(ctx_.getLangOpts());
    return t.getUnqualifiedType().getAsString(pp);
  }
  std::string ref(const Binding& b, const std::string& type, const std::string& off) {
    if (b.natural) return "DL_REF(" + b.as + ", " + type + ", " + b.base + ", " + off + ")";
    return "DL_UREF(" + b.as + ", " + type + ", " + b.base + ", " + off + ")";
  }

  // ---- phases --------------------------------------------------------------------------
  void pointer_use(const Expr* cur, Index idx, Binding& b) {
    for (int guard = 0; guard < 64; ++guard) {
      const Stmt* child = nullptr;
      const Stmt* p = up(cur, child, true);
      if (!p) {
        if (const auto* vd = dyn_cast_or_null<VarDecl>(parent_decl(child))) {
          auto it = vars_.find(vd);
          if (it == vars_.end() || it->second != &b)
            problem(cur, "address of buffer '" + b.name + "' is stored in '" +
                             vd->getNameAsString() + "', which dl-annotate cannot follow");
        }
        return;
      }
      if (const auto* bo = dyn_cast<BinaryOperator>(p)) {
        const bool lhs = child == bo->getLHS();
        if (bo->getOpcode() == BO_Assign) {
          if (lhs) {
            idx = ptr_index(bo);
            cur = bo;
            continue;
          }
          const VarDecl* v = Collector::var(bo->getLHS());
          auto it = v ? vars_.find(v) : vars_.end();
          if (it == vars_.end() || it->second != &b)
            problem(bo, "address of buffer '" + b.name +
                            "' is stored where dl-annotate cannot follow it");
          return;
        }
        if (bo->isCompoundAssignmentOp() && lhs) {
          idx = ptr_index(bo);
          cur = bo;
          continue;
        }
        if ((bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) &&
            bo->getType()->isPointerType()) {
          const Expr* other = lhs ? bo->getRHS() : bo->getLHS();
          idx.terms.push_back({other, bo->getOpcode() == BO_Sub, false});
          if (bo->getOpcode() == BO_Sub) idx.cls_unknown = true;
          idx.cls.push_back(other);
          cur = bo;
          continue;
        }
        if (bo->getOpcode() == BO_Comma) {
          if (lhs) return;
          cur = bo;
          continue;
        }
        if (bo->isComparisonOp() || bo->isLogicalOp() || bo->getOpcode() == BO_Sub) return;
        problem(bo, "arithmetic on the address of buffer '" + b.name +
                        "' that dl-annotate cannot follow");
        return;
      }
      if (const auto* u = dyn_cast<UnaryOperator>(p)) {
        switch (u->getOpcode()) {
          case UO_Deref:
            element(u, idx, b);
            return;
          case UO_PostInc:
          case UO_PostDec:
          case UO_PreInc:
          case UO_PreDec:
            idx = ptr_index(u);
            cur = u;
            continue;
          case UO_LNot:
            return;
          default:
            problem(u, "the address of pointer '" + b.name + "' escapes");
            return;
        }
      }
      if (const auto* a = dyn_cast<ArraySubscriptExpr>(p)) {
        if (child != a->getBase()) return problem(a, "buffer pointer used as an index"), void();
        idx.terms.push_back({a->getIdx(), false, false});
        idx.cls.push_back(a->getIdx());
        element(a, idx, b);
        return;
      }
      if (const auto* m = dyn_cast<MemberExpr>(p)) {
        if (!m->isArrow() || b.flat) return problem(m, "unexpected member access"), void();
        member(m, idx, Offset{}, b);
        return;
      }
      if (const auto* c = dyn_cast<ConditionalOperator>(p)) {
        if (child == c->getCond()) return;
        if (derived(c) != &b) {
          problem(c, "conditional mixes buffer '" + b.name + "' with other pointers");
          return;
        }
        idx = ptr_index(c);
        cur = c;
        continue;
      }
      if (const auto* call = dyn_cast<CallExpr>(p)) {
        call_arg(call, child, b);
        return;
      }
      if (isa<CastExpr>(p)) {
        problem(p, "pointer cast of buffer '" + b.name + "' (to '" +
                       type_text(cast<Expr>(p)->getType()) +
                       "'); dl-annotate cannot follow accesses through it");
        return;
      }
      if (isa<ReturnStmt>(p)) {
        problem(p, "address of buffer '" + b.name + "' is returned");
        return;
      }
      if (isa<Expr>(p)) {
        problem(p, "use of buffer '" + b.name + "' that dl-annotate cannot follow");
        return;
      }
      return;  // a condition, a discarded value: nothing is read through it
    }
  }

  Index ptr_index(const Expr* e) {
    Index idx;
    idx.terms.push_back({e, false, true});
    idx.cls_unknown = true;
    return idx;
  }

  void call_arg(const CallExpr* call, const Stmt* child, Binding& b) {
    unsigned arg = 0;
    while (arg < call->getNumArgs() && call->getArg(arg) != child) ++arg;
    const FunctionDecl* callee = call->getDirectCallee();
    const std::string name = callee ? callee->getNameAsString() : "?";
    if (name.rfind("atomic_", 0) == 0 || name.rfind("atom_", 0) == 0) {
      problem(call, "atomic operation '" + name + "' on buffer '" + b.name + "'");
      return;
    }
    const FunctionDecl* def = callee ? callee->getDefinition() : nullptr;
    if (!def || !def->hasBody() || arg >= def->getNumParams() || def->hasAttr<OpenCLKernelAttr>() ||
        !same_elem(def->getParamDecl(arg)->getType(), b)) {
      problem(call, "pointer to buffer '" + b.name + "' passed to '" + name +
                        "', which dl-annotate cannot follow");
      return;
    }
    calls_[call].push_back({arg, &b});
  }

  void element(const Expr* lv, const Index& idx, Binding& b) {
    if (b.flat) return leaf(lv, idx, Offset{}, b);
    record(lv, idx, Offset{}, lv->getType(), b);
  }

  void dispatch(const Expr* lv, const Index& idx, const Offset& off, QualType t, Binding& b) {
    if (t->isStructureType()) return record(lv, idx, off, t, b);
    if (t->isConstantArrayType()) return array(lv, idx, off, b);
    if (is_leaf_type(t)) return leaf(lv, idx, off, b);
    problem(lv, "field of type '" + type_text(t) + "' in buffer '" + b.name + "'");
  }

  void member(const MemberExpr* m, const Index& idx, Offset off, Binding& b) {
    const auto* fd = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!fd) return problem(m, "unexpected member"), void();
    const ASTRecordLayout& lay = ctx_.getASTRecordLayout(fd->getParent());
    off.c += static_cast<std::size_t>(lay.getFieldOffset(fd->getFieldIndex()) / 8);
    dispatch(m, idx, off, fd->getType(), b);
  }

  void record(const Expr* lv, const Index& idx, const Offset& off, QualType t, Binding& b) {
    const Stmt* child = nullptr;
    const Stmt* p = up(lv, child, false);
    if (const auto* m = dyn_cast_or_null<MemberExpr>(p); m && !m->isArrow())
      return member(m, idx, off, b);
    const bool whole_rec = off.c == 0 && off.v.empty() && ctx_.hasSameUnqualifiedType(t, b.elem);
    if (const auto* ic = dyn_cast_or_null<ImplicitCastExpr>(p);
        ic && ic->getCastKind() == CK_LValueToRValue) {
      if (!off.v.empty())
        return problem(lv, "copy of a struct element selected by a variable index"), void();
      const std::size_t size = static_cast<std::size_t>(ctx_.getTypeSizeInChars(t).getQuantity());
      const std::string fn = cg_.load_fn(b.rec, off.c, size, type_text(t), b.as, b.natural);
      res_.needs.insert(fn);
      stat(b, lv, classify(lv, idx, Pattern::UnitStride), false, true);
      Binding* bp = &b;
      sp_replace(lv, [this, lv, fn, idx, bp] {
        if (bp->keep_aos) return sp_.inner_text(lv);
        return fn + "((const " + bp->as + " uchar *)(" + bp->base + "), " + bp->w + ", " + bp->n +
               ", " + index_text(idx, *bp) + ")";
      });
      return;
    }
    if (const auto* bo = dyn_cast_or_null<BinaryOperator>(p);
        bo && bo->getOpcode() == BO_Assign && child == bo->getLHS()) {
      if (!off.v.empty())
        return problem(lv, "copy of a struct element selected by a variable index"), void();
      const std::size_t size = static_cast<std::size_t>(ctx_.getTypeSizeInChars(t).getQuantity());
      const std::string fn = cg_.store_fn(b.rec, off.c, size, type_text(t), b.as, b.natural);
      res_.needs.insert(fn);
      stat(b, lv, classify(lv, idx, Pattern::UnitStride), true, true);
      Binding* bp = &b;
      const Expr* rhs = bo->getRHS();
      sp_replace(bo, [this, bo, fn, idx, bp, rhs] {
        if (bp->keep_aos) return sp_.inner_text(bo);
        return fn + "((" + bp->as + " uchar *)(" + bp->base + "), " + bp->w + ", " + bp->n + ", " +
               index_text(idx, *bp) + ", " + sp_.text(rhs) + ")";
      });
      return;
    }
    if (const auto* u = dyn_cast_or_null<UnaryOperator>(p); u && u->getOpcode() == UO_AddrOf) {
      if (whole_rec) return pointer_use(u, idx, b);
      problem(u, "the address of a field of buffer '" + b.name + "' escapes");
      return;
    }
    problem(p ? p : lv,
            "use of a record of buffer '" + b.name + "' that dl-annotate cannot follow");
  }

  void array(const Expr* lv, const Index& idx, Offset off, Binding& b) {
    const Stmt* child = nullptr;
    const Stmt* p = up(lv, child, false);
    const auto* decay = dyn_cast_or_null<ImplicitCastExpr>(p);
    if (decay && decay->getCastKind() == CK_ArrayToPointerDecay) {
      p = up(decay, child, false);
      if (const auto* a = dyn_cast_or_null<ArraySubscriptExpr>(p); a && child == a->getBase()) {
        const std::size_t es =
            static_cast<std::size_t>(ctx_.getTypeSizeInChars(a->getType()).getQuantity());
        if (const auto lit = a->getIdx()->getIntegerConstantExpr(ctx_)) {
          off.c += static_cast<std::size_t>(lit->getExtValue()) * es;
        } else {
          off.v.push_back({a->getIdx(), es});
        }
        return dispatch(a, idx, off, a->getType(), b);
      }
    }
    problem(p ? p : lv, "array field of buffer '" + b.name +
                            "' used as a pointer; dl-annotate cannot follow it");
  }

  void leaf(const Expr* lv, const Index& idx, const Offset& off, Binding& b) {
    const Stmt* child = nullptr;
    const Stmt* p = up(lv, child, false);
    bool write = false, rmw = false;  // rmw: a compound assignment, ++ or --: read too
    if (const auto* u = dyn_cast_or_null<UnaryOperator>(p)) {
      if (u->getOpcode() == UO_AddrOf) {
        if (b.flat) return pointer_use(u, idx, b);  // &g[k]: a pointer into the flat array
        const Stmt* c2 = nullptr;
        const Stmt* call = up(u, c2, true);
        while (const auto* ic = dyn_cast_or_null<ImplicitCastExpr>(call)) call = up(ic, c2, true);
        if (const auto* ce = dyn_cast_or_null<CallExpr>(call); ce && ce->getDirectCallee()) {
          const std::string n = ce->getDirectCallee()->getNameAsString();
          if (n.rfind("atomic_", 0) == 0 || n.rfind("atom_", 0) == 0)
            return problem(ce,
                           "atomic operation '" + n + "' on a field of buffer '" + b.name + "'"),
                   void();
        }
        return problem(u, "the address of a field of buffer '" + b.name + "' escapes"), void();
      }
      write = rmw = u->isIncrementDecrementOp();
    }
    if (const auto* bo = dyn_cast_or_null<BinaryOperator>(p)) {
      write = bo->isAssignmentOp() && child == bo->getLHS();
      rmw = write && bo->isCompoundAssignmentOp();
    }
    if (const auto* ev = dyn_cast_or_null<ExtVectorElementExpr>(p)) {
      const Stmt* c2 = nullptr;
      const Stmt* pp = up(ev, c2, false);
      if (const auto* bo = dyn_cast_or_null<BinaryOperator>(pp)) {
        write = bo->isAssignmentOp() && c2 == bo->getLHS();
        rmw = write && bo->isCompoundAssignmentOp();
      }
      if (const auto* u = dyn_cast_or_null<UnaryOperator>(pp))
        write = rmw = u->isIncrementDecrementOp();
    }
    const std::string type = leaf_type(lv->getType());
    if (!b.natural) res_.needs.insert(cg_.unaligned(type));
    const std::size_t z =
        static_cast<std::size_t>(ctx_.getTypeSizeInChars(lv->getType()).getQuantity());
    Binding* bp = &b;
    if (b.flat) {
      // Record i = x / S, scalar c = x % S; g[S*e + c] with constant c < S names both.
      const Expr* e = nullptr;
      std::vector<Term> cv;  // a scalar index that is not a constant: checked < S
      std::size_t c = 0;
      // The parameter moved by whole records only (LBM's `src += MARGIN`, MARGIN a
      // multiple of S): (g - base) / S records before the index, the same fast paths.
      const Expr* shift = nullptr;
      if (idx.terms.size() == 1 && !idx.terms[0].ptr && !idx.terms[0].neg) {
        match_flat(idx.terms[0].e, b, e, c, &cv);
      } else if (idx.terms.size() == 2 && idx.terms[0].ptr && !idx.terms[0].neg &&
                 !idx.terms[1].ptr && !idx.terms[1].neg && moved_by_records(idx.terms[0].e, b)) {
        match_flat(idx.terms[1].e, b, e, c, &cv);
        if (e) shift = idx.terms[0].e;
      }
      // The record index in generated code.
      auto record_text = [this, shift](const Index& rec, const Binding& bd) {
        if (!shift) return index_text(rec, bd);
        return "(dl_off)(" + sp_.text(shift) + " - " + bd.base + ") / " + bd.s + " + " +
               index_text(rec, bd);
      };
      // A diagonalized array of planes indexed (p*W + y)*S + c, W and S the annotation's
      // rows per plane and row length: plane, row and column by compares (dl_diag_pyc),
      // where the paths below divide the row by W. The accesses' statistics as below.
      std::optional<RowsIndex> planes;
      if (b.diag && !b.s_dim.empty() && !shift && idx.terms.size() == 1 && !idx.terms[0].ptr &&
          !idx.terms[0].neg)
        planes = match_rows(idx.terms[0].e, b);
      auto diag_planes = [this, planes, idx, z](const Binding& bd) {
        const RowsIndex& r = *planes;
        return "dl_diag_pyc(" + bd.w + ", " + bd.n + ", " + bd.s + ", " + std::to_string(z) + ", " +
               rows_text(r, true) + ", " + index_text(idx, bd) + ", " + (bd.diag == 2 ? "1" : "0") +
               ")";
      };
      if (planes && e) res_.needs.insert(cg_.diag_pyc());  // the three paths below need e
      if (e && cv.size() == 1 && below_record_length(cv[0].e, lv, b)) {
        // g[S*e + q] inside `for (q = 0; q < S; ++q)`: slot q of record e, no compare.
        Index rec;
        rec.terms.push_back({e, false, false});
        rec.cls.push_back(e);
        Index qi;
        qi.terms = cv;
        Offset slot;
        slot.v.push_back({cv[0].e, z});
        stat(b, lv, classify(lv, rec, Pattern::StridedAoS, &slot), write, false, rmw);
        if (b.diag) res_.needs.insert(cg_.diag());
        sp_replace(lv, [this, lv, bp, rec, qi, z, type, record_text, planes, diag_planes] {
          if (bp->keep_aos) return sp_.inner_text(lv);
          if (planes) return ref(*bp, type, diag_planes(*bp));
          const std::string zs = std::to_string(z);
          const std::string o = "(dl_off)(" + index_text(qi, *bp) + ") * " + zs;
          return ref(*bp, type,
                     slot_at(*bp, flat_record_bytes(*bp, z), record_text(rec, *bp), o, zs));
        });
      } else if (e && !cv.empty()) {
        // g[S*e + q] or g[(S*e + q) +- t], the column not a constant (a loop over the
        // record's scalars, a stencil's neighbour): that slot of record e when the column
        // is below S, checked per access (a compare, where dl_flat divides).
        Index rec;
        rec.terms.push_back({e, false, false});
        rec.cls.push_back(e);
        Index qi;
        qi.terms = cv;
        // The slot varies with q: the access is loop-invariant only where q is too.
        Offset slot;
        for (const Term& t : cv) slot.v.push_back({t.e, z});
        stat(b, lv, classify(lv, rec, Pattern::StridedAoS, &slot), write, false, rmw);
        res_.needs.insert(b.diag ? cg_.diag() : cg_.flat_at());
        // The flat index as the kernel computes it, for the division where the column is
        // not below S (also where it wrapped at its own width: 64-bit offsets would not).
        sp_replace(lv, [this, lv, bp, rec, qi, idx, z, type, record_text, planes, diag_planes] {
          if (bp->keep_aos) return sp_.inner_text(lv);
          if (planes) return ref(*bp, type, diag_planes(*bp));
          const std::string args = bp->w + ", " + bp->n + ", " + bp->s + ", " + std::to_string(z) +
                                   ", " + record_text(rec, *bp) + ", " + index_text(qi, *bp) +
                                   ", " + index_text(idx, *bp);
          if (bp->diag)
            return ref(*bp, type, "dl_diag_rc(" + args + ", " + (bp->diag == 2 ? "1" : "0") + ")");
          return ref(*bp, type, "dl_flat_at(" + args + ")");
        });
      } else if (e) {
        Index rec;
        rec.terms.push_back({e, false, false});
        rec.cls.push_back(e);
        stat(b, lv, classify(lv, rec, Pattern::StridedAoS), write, false, rmw);
        if (b.diag) res_.needs.insert(cg_.diag());
        sp_replace(lv, [this, lv, bp, rec, c, z, type, record_text, planes, diag_planes] {
          if (bp->keep_aos) return sp_.inner_text(lv);
          if (planes) return ref(*bp, type, diag_planes(*bp));
          return ref(*bp, type,
                     slot_at(*bp, flat_record_bytes(*bp, z), record_text(rec, *bp),
                             std::to_string(c * z), std::to_string(z)));
        });
      } else if (auto sw = !b.swap_b.empty() && idx.terms.size() == 1 && !idx.terms[0].ptr
                               ? match_swap(idx.terms[0].e, b)
                               : std::nullopt) {
        // A swap of distant dimensions addressed ((e*B + b)*D + j)*C + x: record, row
        // b*D + j and scalar by compares, or none where proven inside (dl_swap_in);
        // dl_flat_swap where the compares fail.
        stat(b, lv, classify(lv, idx, Pattern::UnitStride, nullptr, true), write, false, rmw);
        const bool inside = swap_inside(*sw, b, lv);
        const std::string fn = inside ? (bp->da ? cg_.swap_in_da() : cg_.swap_in())
                                      : (bp->da ? cg_.swap_da() : cg_.swap_at());
        res_.needs.insert(fn);
        sp_replace(lv, [this, lv, bp, sw, idx, z, type, inside, fn] {
          if (bp->keep_aos) return sp_.inner_text(lv);
          std::string args = (bp->da ? bp->n : bp->w + ", " + bp->n) + ", " + bp->swap_b + ", " +
                             bp->swap_d + ", " + bp->c + ", " + std::to_string(z) + ", ";
          args += swap_text(*sw, !inside);
          if (!inside) args += ", " + index_text(idx, *bp);
          return ref(*bp, type, fn + "(" + args + ")");
        });
      } else if (auto r =
                     b.swap_b.empty() && !b.c.empty() && idx.terms.size() == 1 && !idx.terms[0].ptr
                         ? match_rows(idx.terms[0].e, b)
                         : std::nullopt) {
        // A swap of rows addressed (e*S + j)*C + x: record, row and scalar by compares.
        stat(b, lv, classify(lv, idx, Pattern::UnitStride, nullptr, true), write, false, rmw);
        // Proven inside its row: record, row and scalar directly (dl_rows_in); otherwise
        // compares at run time, and dl_flat_rows where they fail.
        const bool inside = rows_inside(*r, b, lv);
        const std::string fn = inside ? (bp->da ? cg_.rows_in_da() : cg_.rows_in())
                                      : (bp->da ? cg_.rows_da() : cg_.rows_at());
        res_.needs.insert(fn);
        // Where the compares may fail, the flat index as the kernel computes it (as for
        // dl_flat_at: a row or scalar that wrapped at its own width).
        sp_replace(lv, [this, lv, bp, r, idx, z, type, inside, fn] {
          if (bp->keep_aos) return sp_.inner_text(lv);
          std::string args = (bp->da ? bp->n : bp->w + ", " + bp->n) + ", " + bp->s + ", " + bp->c +
                             ", " + std::to_string(z) + ", ";
          args += rows_text(*r, !inside);
          if (!inside) args += ", " + index_text(idx, *bp);
          return ref(*bp, type, fn + "(" + args + ")");
        });
      } else {
        stat(b, lv, classify(lv, idx, Pattern::UnitStride, nullptr, true), write, false, rmw);
        b.stats.back().division =
            idx.terms.size() != 1 || idx.terms[0].ptr
                ? "through a pointer derived or moved by other than whole records"
                : "an index not of the form S*e + c";
        if (!b.swap_b.empty()) {
          res_.needs.insert(cg_.flat_swap());
          b.stats.back().division =
              "a swap of distant dimensions: record, row and scalar by three divisions";
        } else if (!b.c.empty()) {
          res_.needs.insert(cg_.flat_rows());
          b.stats.back().division = "a swap of rows: record, row and scalar by two divisions";
        }
        if (b.diag) res_.needs.insert(cg_.diag());
        sp_replace(lv, [this, lv, bp, idx, z, type] {
          if (bp->keep_aos) return sp_.inner_text(lv);
          if (bp->diag) return ref(*bp, type, diag_flat(*bp, z, index_text(idx, *bp)));
          if (!bp->swap_b.empty())
            return ref(*bp, type,
                       cg_.flat_swap() + "(" + bp->w + ", " + bp->n + ", " + bp->swap_b + ", " +
                           bp->swap_d + ", " + bp->c + ", " + std::to_string(z) + ", " +
                           index_text(idx, *bp) + ")");
          return ref(*bp, type,
                     cg_.flat_element(bp->w, bp->n, bp->s, bp->c, z, index_text(idx, *bp)));
        });
      }
      return;
    }
    stat(b, lv, classify(lv, idx, Pattern::StridedAoS, &off), write, false, rmw);
    sp_replace(lv, [this, lv, bp, idx, off, z, type] {
      if (bp->keep_aos) return sp_.inner_text(lv);
      return ref(*bp, type,
                 slot_at(*bp, std::to_string(bp->rec.size()), index_text(idx, *bp),
                         offset_text(off), std::to_string(z)));
    });
  }

  /// True when `p` names the flat parameter of `bd` (its own name) and every change of it
  /// adds a non-negative integer constant that is a multiple of its constant S (`g += 2*S`,
  /// `g = g + M`): the pointer then always sits on a record boundary.
  bool moved_by_records(const Expr* p, const Binding& bd) {
    const auto* d = dyn_cast<DeclRefExpr>(p->IgnoreParenImpCasts());
    const auto* v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || v != bd.root || !bd.flat_count || col_->stepped.count(v)) return false;
    auto records = [&](const Expr* c) {
      auto k = c->getIntegerConstantExpr(ctx_);
      return k && k->getExtValue() >= 0 && k->getExtValue() % bd.flat_count == 0;
    };
    auto self = [&](const Expr* e) { return Collector::var(e->IgnoreParenImpCasts()) == v; };
    if (auto it = col_->compound.find(v); it != col_->compound.end())
      for (const BinaryOperator* b : it->second)
        if (b->getOpcode() != BO_AddAssign || !records(b->getRHS())) return false;
    if (auto it = col_->assigned.find(v); it != col_->assigned.end())
      for (const Expr* rhs : it->second) {
        const auto* b = dyn_cast<BinaryOperator>(rhs->IgnoreParenImpCasts());
        if (!b || b->getOpcode() != BO_Add ||
            !((self(b->getLHS()) && records(b->getRHS())) ||
              (self(b->getRHS()) && records(b->getLHS()))))
          return false;
      }
    return true;
  }

  /// A flat index `e * X + c` (any operand order, c optional) with e the work-item id plus
  /// uniform terms and X != 1, c uniform: a stride, also one the annotation's constant S
  /// does not name (`val[i * K + k]`, K a kernel argument). Classified as strided.
  bool flat_strided(const Index& idx) {
    if (idx.terms.size() != 1 || idx.terms[0].ptr || idx.cls_unknown) return false;
    const Expr* x = idx.terms[0].e->IgnoreParenImpCasts();
    const Expr* prod = x;
    if (const auto* b = dyn_cast<BinaryOperator>(x); b && b->getOpcode() == BO_Add) {
      if (uniform(b->getRHS()))
        prod = b->getLHS()->IgnoreParenImpCasts();
      else if (uniform(b->getLHS()))
        prod = b->getRHS()->IgnoreParenImpCasts();
    }
    const auto* m = dyn_cast<BinaryOperator>(prod);
    if (!m || m->getOpcode() != BO_Mul) return false;
    auto stride = [this](const Expr* s) {
      const auto v = s->getIntegerConstantExpr(ctx_);
      return uniform(s) && !(v && *v == 1);
    };
    return (gid_like(m->getLHS()) && stride(m->getRHS())) ||
           (gid_like(m->getRHS()) && stride(m->getLHS()));
  }

  /// A term of a sum and whether it is subtracted.
  using Summand = std::pair<const Expr*, bool>;

  /// The terms of the sum `x` (+ and -, through parentheses and implicit casts).
  static void summands(const Expr* x, bool neg, std::vector<Summand>& out, int depth = 0) {
    x = x->IgnoreParenImpCasts();
    const auto* b = dyn_cast<BinaryOperator>(x);
    if (b && depth < 16 && (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub)) {
      summands(b->getLHS(), neg, out, depth + 1);
      summands(b->getRHS(), b->getOpcode() == BO_Sub ? !neg : neg, out, depth + 1);
      return;
    }
    out.push_back({x, neg});
  }

  /// `(t1) + (t2) - (t3)` in generated code; "0" for no terms.
  std::string sum_text(const std::vector<Summand>& terms) {
    if (terms.empty()) return "0";
    std::string s;
    for (std::size_t i = 0; i < terms.size(); ++i)
      s += std::string(i ? (terms[i].second ? " - " : " + ") : (terms[i].second ? "-" : "")) + "(" +
           sp_.text(terms[i].first) + ")";
    return s;
  }

  /// The other operand of the product `m` when one of its operands reads as `factor`
  /// (the same text); null otherwise.
  const Expr* quotient(const Expr* m, const std::string& factor) {
    const auto* b = dyn_cast<BinaryOperator>(m->IgnoreParenImpCasts());
    if (!b || b->getOpcode() != BO_Mul) return nullptr;
    if (without_spaces(sp_.text(b->getRHS()->IgnoreParenImpCasts())) == factor) return b->getLHS();
    if (without_spaces(sp_.text(b->getLHS()->IgnoreParenImpCasts())) == factor) return b->getRHS();
    return nullptr;
  }

  /// The uniform factors of the products among `terms` (right operands first), those
  /// written as `prefer` before the others: the candidates for S or C.
  std::vector<const Expr*> factors(const std::vector<Summand>& terms, const std::string& prefer) {
    std::vector<const Expr*> all;
    for (const auto& [t, neg] : terms)
      if (const auto* b = dyn_cast<BinaryOperator>(t); b && b->getOpcode() == BO_Mul)
        for (const Expr* f : {b->getRHS(), b->getLHS()}) {
          f = f->IgnoreParenImpCasts();
          steps_ = kSteps;
          if (uniform(f) && !f->HasSideEffects(ctx_)) all.push_back(f);
        }
    std::stable_partition(all.begin(), all.end(), [&](const Expr* f) {
      return !prefer.empty() && without_spaces(sp_.text(f)) == prefer;
    });
    return all;
  }

  /// `terms` split into the quotients of those with the factor `f` (their terms, signs
  /// composed) and the rest.
  void split_by(const std::vector<Summand>& terms, const Expr* f, std::vector<Summand>& with,
                std::vector<Summand>& rest) {
    const std::string ft = without_spaces(sp_.text(f));
    for (const auto& [t, neg] : terms) {
      if (const Expr* q = quotient(t, ft)) {
        std::vector<Summand> in;
        summands(q, false, in);
        for (auto& [u, un] : in) with.push_back({u, un != neg});
      } else {
        rest.push_back({t, neg});
      }
    }
  }

  /// An index of a swap of rows read as (E*S + J)*C + X, in any of the forms that sum to it
  /// (`(i*K + y)*J + x`, `z*ny*nx + y*nx + x`): S and C uniform factors (those written as
  /// the annotation's dimensions first), E not empty. dl_rows_at checks at run time that
  /// S and C are the record's and J, X inside their row, so a wrong guess here costs
  /// speed, never bytes.
  struct RowsIndex {
    const Expr* s2 = nullptr;
    const Expr* c2 = nullptr;
    std::vector<Summand> e, j, x;
  };
  /// `e, j, x` of `r` in generated code, after `s2, c2` with `factors`.
  std::string rows_text(const RowsIndex& r, bool factors) {
    std::string t = factors ? sum_text({{r.s2, false}}) + ", " + sum_text({{r.c2, false}}) + ", "
                            : std::string();
    return t + sum_text(r.e) + ", " + sum_text(r.j) + ", " + sum_text(r.x);
  }
  std::optional<RowsIndex> match_rows(const Expr* index, const Binding& bd) {
    if (index->HasSideEffects(ctx_)) return std::nullopt;
    std::vector<Summand> top;
    summands(index, false, top);
    for (const Expr* c2 : factors(top, bd.c_dim)) {
      RowsIndex r;
      r.c2 = c2;
      std::vector<Summand> q;
      split_by(top, c2, q, r.x);
      for (const Expr* s2 : factors(q, bd.s_dim)) {
        r.s2 = s2;
        r.e.clear();
        r.j.clear();
        split_by(q, s2, r.e, r.j);
        if (!r.e.empty()) return r;
      }
    }
    return std::nullopt;
  }

  /// An index of a swap of distant dimensions read as ((E*B + Bi)*D + J)*C + X, in any of
  /// the forms that sum to it, as match_rows reads rows: C, D and each dimension of B
  /// uniform factors (those written as the annotation's dimensions first; no C where d2
  /// is the fastest), E not empty. B of several dimensions is matched level by level,
  /// Bi = (b1*f2 + b2)*f3 + b3 ... and B2 = f1*f2*f3 ... . dl_swap_at checks B2, D and C
  /// and the ranges at run time: a wrong guess costs speed, never bytes.
  struct SwapIndex {
    std::vector<const Expr*> bf;           // the factors of B's levels, outer first
    std::vector<std::vector<Summand>> bt;  // the terms of each level
    const Expr* d2 = nullptr;
    const Expr* c2 = nullptr;  // null: C = 1
    std::vector<Summand> e, j, x;
  };
  /// `e, b, j, x` of `r` in generated code, after `b2, d2, c2` with `factors`.
  std::string swap_text(const SwapIndex& r, bool factors) {
    std::string t;
    if (factors) {
      std::string b2;
      for (const Expr* f : r.bf) b2 += (b2.empty() ? "" : " * ") + sum_text({{f, false}});
      t = b2 + ", " + sum_text({{r.d2, false}}) + ", " +
          (r.c2 ? sum_text({{r.c2, false}}) : std::string("1")) + ", ";
    }
    // Bi level by level: none of the outer levels' terms leaves the inner ones alone.
    std::string b = sum_text(r.bt[0]);
    bool sum = r.bt[0].size() > 1;
    for (std::size_t k = 1; k < r.bf.size(); ++k) {
      if (b == "0") {
        b = sum_text(r.bt[k]);
        sum = r.bt[k].size() > 1;
        continue;
      }
      b = (sum ? "(" + b + ")" : b) + " * " + sum_text({{r.bf[k], false}}) +
          (r.bt[k].empty() ? "" : " + " + sum_text(r.bt[k]));
      sum = !r.bt[k].empty();
    }
    return t + sum_text(r.e) + ", " + b + ", " + sum_text(r.j) + ", " + sum_text(r.x);
  }
  /// Splits `q` by the factors of B's levels [0, level), innermost first, the rest E.
  bool split_between(const std::vector<Summand>& q, const Binding& bd, std::size_t level,
                     SwapIndex& r, int& budget) {
    if (level == 0) {
      r.e = q;
      return !r.e.empty();
    }
    for (const Expr* f : factors(q, bd.b_dims[level - 1])) {
      if (--budget < 0) return false;
      std::vector<Summand> with, rest;
      split_by(q, f, with, rest);
      r.bf[level - 1] = f;
      r.bt[level - 1] = rest;
      if (split_between(with, bd, level - 1, r, budget)) return true;
    }
    return false;
  }
  std::optional<SwapIndex> match_swap(const Expr* index, const Binding& bd) {
    if (index->HasSideEffects(ctx_) || bd.b_dims.empty()) return std::nullopt;
    std::vector<Summand> top;
    summands(index, false, top);
    const std::vector<const Expr*> cs =
        bd.c_one ? std::vector<const Expr*>{nullptr} : factors(top, bd.c_dim);
    int budget = 256;  // factor choices tried, at most
    for (const Expr* c2 : cs) {
      SwapIndex r;
      r.c2 = c2;
      r.bf.resize(bd.b_dims.size());
      r.bt.resize(bd.b_dims.size());
      std::vector<Summand> q1;
      if (c2)
        split_by(top, c2, q1, r.x);
      else
        q1 = top;
      for (const Expr* d2 : factors(q1, bd.d_dim)) {
        r.d2 = d2;
        r.j.clear();
        std::vector<Summand> q2;
        split_by(q1, d2, q2, r.j);
        if (split_between(q2, bd, bd.b_dims.size(), r, budget)) return r;
        if (budget < 0) return std::nullopt;
      }
    }
    return std::nullopt;
  }
  /// Whether the swap index `r` of binding `bd` at `at` is known to address record e, row
  /// b*D + j, scalar x: its factors are the parameters the annotation's dimensions name
  /// (no C where d2 is the fastest) and each level of b, j and x lie below them
  /// (below_param).
  bool swap_inside(const SwapIndex& r, const Binding& bd, const Stmt* at) {
    for (std::size_t k = 0; k < r.bf.size(); ++k) {
      const VarDecl* b = dim_param(bd.b_dims[k]);
      if (!reads(r.bf[k], b) || !below_param(r.bt[k], at, b)) return false;
    }
    const VarDecl* d = dim_param(bd.d_dim);
    const VarDecl* c = bd.c_one ? nullptr : dim_param(bd.c_dim);
    return reads(r.d2, d) && below_param(r.j, at, d) &&
           (bd.c_one ? r.x.empty() : reads(r.c2, c) && below_param(r.x, at, c));
  }

  /// The kernel parameter that annotation dimension `dim` names (the dimension is that one
  /// name), when the kernel never assigns it nor takes its address; null otherwise.
  const VarDecl* dim_param(const std::string& dim) {
    for (const ParmVarDecl* p : fd_->parameters())
      if (!dim.empty() && p->getName() == dim) return fixed(p);
    return nullptr;
  }
  /// Parameter `p` when the kernel never assigns it nor takes its address; null otherwise.
  const VarDecl* fixed(const ParmVarDecl* p) {
    return p && !col_->modified.count(p) && !address_taken(p) ? p : nullptr;
  }
  /// Whether `e` reads variable `v` (through parentheses and casts).
  static bool reads(const Expr* e, const VarDecl* v) {
    return v && Collector::var(e->IgnoreParenImpCasts()) == v;
  }
  /// The initialiser of local variable `v` when nothing assigns it after (nor takes its
  /// address), so that every read of v is that value; null otherwise.
  const Expr* fixed_init(const VarDecl* v) {
    if (!v || isa<ParmVarDecl>(v) || !v->getInit() || col_->modified.count(v) || address_taken(v))
      return nullptr;
    return v->getInit()->IgnoreParenImpCasts();
  }
  /// Whether `e` reads a variable fixed at a work-item or work-group id (non-negative).
  bool reads_id(const Expr* e) {
    const Expr* init = fixed_init(Collector::var(e->IgnoreParenImpCasts()));
    return init && is_call_to(init, {"get_global_id", "get_local_id", "get_group_id"}, false);
  }
  /// The kernel parameter `e` reads (through parentheses and casts) when the kernel never
  /// assigns it nor takes its address; null otherwise.
  const VarDecl* fixed_param(const Expr* e) {
    return fixed(dyn_cast_or_null<ParmVarDecl>(Collector::var(e->IgnoreParenImpCasts())));
  }
  /// Whether `e` is `a * b` or `b * a` (through parentheses and casts).
  static bool product_of(const Expr* e, const VarDecl* a, const VarDecl* b) {
    const auto* m = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
    return m && m->getOpcode() == BO_Mul &&
           ((reads(m->getLHS(), a) && reads(m->getRHS(), b)) ||
            (reads(m->getLHS(), b) && reads(m->getRHS(), a)));
  }
  /// Whether condition `c` evaluating to `value` implies g < a*b: when true, `c` is
  /// `g < E` or `E > g` or an `&&` with such an operand; when false, `g >= E` or `E <= g`
  /// or an `||` with such an operand; E is a*b or b*a (through parentheses and casts).
  static bool implies_below(const Expr* c, bool value, const VarDecl* g, const VarDecl* a,
                            const VarDecl* b) {
    const auto* o = dyn_cast<BinaryOperator>(c->IgnoreParenImpCasts());
    if (!o) return false;
    if (o->getOpcode() == (value ? BO_LAnd : BO_LOr))
      return implies_below(o->getLHS(), value, g, a, b) ||
             implies_below(o->getRHS(), value, g, a, b);
    if (o->getOpcode() == (value ? BO_LT : BO_GE))
      return reads(o->getLHS(), g) && product_of(o->getRHS(), a, b);
    if (o->getOpcode() == (value ? BO_GT : BO_LE))
      return reads(o->getRHS(), g) && product_of(o->getLHS(), a, b);
    return false;
  }
  /// Whether `s` is `if (C) return;` or `if (C) { return; }` (no else, any return value):
  /// its condition C, false after it; null otherwise.
  static const Expr* early_return(const Stmt* s) {
    const auto* f = dyn_cast<IfStmt>(s);
    if (!f || f->getElse() || f->hasInitStorage() || f->hasVarStorage()) return nullptr;
    const Stmt* t = f->getThen();
    if (const auto* cs = dyn_cast<CompoundStmt>(t))
      t = cs->size() == 1 ? cs->body_front() : nullptr;
    return isa_and_nonnull<ReturnStmt>(t) ? f->getCond() : nullptr;
  }
  /// Whether every execution of `at` follows a guard establishing g < a*b (implies_below):
  /// `at` in the then-branch of an enclosing `if (C)` whose C being true implies it, or in
  /// a statement of the function's top-level body after an early_return() there whose C
  /// being false implies it. Never in a function with a label (a goto could pass a guard).
  bool guarded_below(const Stmt* at, const VarDecl* g, const VarDecl* a, const VarDecl* b) {
    const auto* body = dyn_cast_or_null<CompoundStmt>(fd_->getBody());
    if (!body || col_->labels) return false;
    for (const Stmt* cur = at; cur && cur != body;) {
      const Stmt* p = enclosing(cur);
      const auto* f = dyn_cast_or_null<IfStmt>(p);
      if (f && f->getThen() == cur && !f->hasInitStorage() && !f->hasVarStorage() &&
          implies_below(f->getCond(), true, g, a, b))
        return true;
      if (p == body)
        for (const Stmt* s : body->body()) {
          if (s == cur) break;
          const Expr* c = early_return(s);
          if (c && implies_below(c, false, g, a, b)) return true;
        }
      cur = p;
    }
    return false;
  }
  /// Whether the sum `t` is known to lie in [0, P) for the parameter P: empty (0), or one
  /// variable that is the counter of an enclosing `for (v = 0; v < P; ++v)`, or fixed at
  /// `g % P` or `g - q*P` (`g - P*q`) with q fixed at `g / P`, g fixed at an id, or fixed
  /// at `g / P2` (P2 a parameter the kernel never assigns, address not taken) where `at`
  /// is guarded by g < P2*P or g < P*P2 (guarded_below; g >= 0, so g / P2 < P).
  bool below_param(const std::vector<Summand>& t, const Stmt* at, const VarDecl* p) {
    if (!p) return false;
    if (t.empty()) return true;
    if (t.size() != 1 || t[0].second) return false;
    const Expr* q = t[0].first;
    if (loop_below(q, at, [&](const Expr* b) { return reads(b, p); })) return true;
    const auto* r =
        dyn_cast_or_null<BinaryOperator>(fixed_init(Collector::var(q->IgnoreParenImpCasts())));
    if (!r || !reads_id(r->getLHS())) return false;
    const VarDecl* g = Collector::var(r->getLHS()->IgnoreParenImpCasts());
    if (r->getOpcode() == BO_Rem) return reads(r->getRHS(), p);
    if (r->getOpcode() == BO_Div) {
      const VarDecl* p2 = fixed_param(r->getRHS());
      return p2 && guarded_below(at, g, p2, p);
    }
    if (r->getOpcode() != BO_Sub) return false;
    const auto* m = dyn_cast<BinaryOperator>(r->getRHS()->IgnoreParenImpCasts());
    if (!m || m->getOpcode() != BO_Mul) return false;
    for (int k = 0; k < 2; ++k) {
      const Expr* f = k ? m->getLHS() : m->getRHS();
      const Expr* other = k ? m->getRHS() : m->getLHS();
      const auto* d = dyn_cast_or_null<BinaryOperator>(
          fixed_init(Collector::var(other->IgnoreParenImpCasts())));
      if (reads(f, p) && d && d->getOpcode() == BO_Div && reads(d->getLHS(), g) &&
          reads(d->getRHS(), p))
        return true;
    }
    return false;
  }
  /// Whether the row-swap index `r` of binding `bd` at `at` is known to address record e,
  /// row j, scalar x: its S and C are the parameters the annotation's dimensions name,
  /// J lies in [0, S) and X in [0, C) (below_param). Then no run-time compare is needed.
  bool rows_inside(const RowsIndex& r, const Binding& bd, const Stmt* at) {
    const VarDecl* s = dim_param(bd.s_dim);
    const VarDecl* c = dim_param(bd.c_dim);
    return reads(r.s2, s) && reads(r.c2, c) && below_param(r.j, at, s) && below_param(r.x, at, c);
  }

  /// x == S*e + c or c + S*e or S*e (any operand order), c a constant in [0, S).
  /// `x` as S*e + c: c a constant in [0, S), or (with `var`) the terms of a column
  /// that is not a constant, returned in *var: S*e + q, and (S*e + q) + t or - t, the
  /// column q + t or q - t (a stencil's `h[(z*ny + y)*nx + x - 1]`), any t free of side
  /// effects. Every such column is checked below S at run time. S is the binding's
  /// constant, or the one parameter that gives it at run time (`val[i * K + k]`).
  void match_flat(const Expr* x, const Binding& bd, const Expr*& e, std::size_t& c,
                  std::vector<Term>* var = nullptr) {
    e = nullptr;
    c = 0;
    if (var) var->clear();
    const unsigned s = bd.flat_count;
    if (!s && !bd.flat_param) return;
    x = x->IgnoreParenImpCasts();
    auto is_s = [&](const Expr* a) {
      if (!s) {
        const auto* r = dyn_cast<DeclRefExpr>(a->IgnoreParenImpCasts());
        return r && r->getDecl() == bd.flat_param;
      }
      auto v = a->getIntegerConstantExpr(ctx_);
      return v && v->getExtValue() == static_cast<std::int64_t>(s);
    };
    auto scaled = [&](const Expr* m) -> const Expr* {
      m = m->IgnoreParenImpCasts();
      const auto* b = dyn_cast<BinaryOperator>(m);
      if (!b || b->getOpcode() != BO_Mul) return nullptr;
      for (int k = 0; k < 2; ++k) {
        const Expr* a = k ? b->getRHS() : b->getLHS();
        const Expr* o = k ? b->getLHS() : b->getRHS();
        if (is_s(a)) return o;
      }
      return nullptr;
    };
    if (const Expr* o = scaled(x)) {
      e = o;
      return;
    }
    const auto* b = dyn_cast<BinaryOperator>(x);
    if (!b || (b->getOpcode() != BO_Add && b->getOpcode() != BO_Sub)) return;
    if (var && !b->getRHS()->HasSideEffects(ctx_)) {
      // (S*e + q) +- t: one more term of the column (below S or not: the access checks).
      const Expr* e2 = nullptr;
      std::size_t c2 = 0;
      match_flat(b->getLHS(), bd, e2, c2, var);
      if (e2 && !var->empty()) {
        e = e2;
        var->push_back({b->getRHS(), b->getOpcode() == BO_Sub, false});
        return;
      }
      var->clear();
    }
    if (b->getOpcode() != BO_Add) return;
    for (int k = 0; k < 2; ++k) {
      const Expr* a = k ? b->getRHS() : b->getLHS();
      const Expr* o = k ? b->getLHS() : b->getRHS();
      auto v = a->getIntegerConstantExpr(ctx_);
      if (!s || !v || v->getExtValue() < 0 || v->getExtValue() >= static_cast<std::int64_t>(s))
        continue;
      if (const Expr* m = scaled(o)) {
        e = m;
        c = static_cast<std::size_t>(v->getExtValue());
        return;
      }
    }
    if (!var) return;
    for (int k = 0; k < 2; ++k) {
      const Expr* a = k ? b->getRHS() : b->getLHS();
      const Expr* o = k ? b->getLHS() : b->getRHS();
      if ((s && a->getIntegerConstantExpr(ctx_)) || a->HasSideEffects(ctx_)) continue;
      if (const Expr* m = scaled(o); m && !m->HasSideEffects(ctx_)) {
        e = m;
        var->push_back({a, false, false});
        return;
      }
    }
  }

  void sp_replace(const Stmt* node, Splicer::Builder build) {
    if (!sp_.replace(node, std::move(build)))
      problem(node, "access inside a macro body that dl-annotate cannot rewrite");
  }

  void finish_calls() {
    for (auto& [call, args] : calls_) {
      const FunctionDecl* def = call->getDirectCallee()->getDefinition();
      bool dynamic = false;
      for (const auto& a : args) dynamic = dynamic || (a.second->flat && !a.second->flat_count);
      if (dynamic) {
        problem(call,
                "a flat array whose record length S is a kernel argument is passed to "
                "helper '" +
                    def->getNameAsString() + "' (inline the helper, or make S a constant)");
        continue;
      }
      std::sort(args.begin(), args.end());
      unsigned mask = 0;
      for (const auto& a : args) mask |= 1u << a.first;
      std::string name = def->getNameAsString() + "__dl" + std::to_string(mask);
      bool have = false;
      for (const auto& s : res_.specs) have = have || (s.fd == def && s.mask == mask);
      if (!have) {
        Spec s;
        s.fd = def;
        s.mask = mask;
        s.name = name;
        s.origin = args.front().second;
        for (const auto& [i, b] : args) {
          Binding hb = *b;
          const ParmVarDecl* pd = def->getParamDecl(i);
          hb.name = pd->getNameAsString();
          hb.root = pd;
          hb.elem = pd->getType()->getPointeeType().getUnqualifiedType();
          hb.base = "dl_b_" + hb.name;
          hb.w = "dl_w_" + hb.name;
          hb.n = "dl_n_" + hb.name;
          hb.da = false;
          hb.root_is_base = false;
          hb.stats.clear();
          s.params.push_back(std::move(hb));
        }
        res_.specs.push_back(std::move(s));
      }
      const CallExpr* c = call;
      std::vector<std::pair<unsigned, Binding*>> a = args;
      sp_replace(call, [this, c, a, name] {
        std::string s = name + "(";
        for (unsigned k = 0; k < c->getNumArgs(); ++k)
          s += (k ? ", " : "") + sp_.text(c->getArg(k));
        for (const auto& [i, b] : a) s += ", " + b->base + ", " + b->w + ", " + b->n;
        return s + ")";
      });
    }
  }

  ASTContext& ctx_;
  Splicer& sp_;
  Codegen& cg_;
  const FunctionDecl* fd_;
  std::vector<Binding>& bindings_;
  FunctionResult res_;
  Collector* col_ = nullptr;
  std::map<const VarDecl*, Binding*> vars_;
  std::map<const VarDecl*, const Expr*> alias_cls_;
  std::map<const CallExpr*, std::vector<std::pair<unsigned, Binding*>>> calls_;
};

}  // namespace

FunctionResult analyse_function(ASTContext& ctx, Splicer& sp, Codegen& cg, const FunctionDecl* fd,
                                std::vector<Binding>& bindings) {
  // Rewrites are built when the text is rendered: the analyser lives as long as the Splicer.
  auto a = std::make_shared<Analyzer>(ctx, sp, cg, fd, bindings);
  sp.keep(a);
  return a->run();
}

}  // namespace dl::annotate
