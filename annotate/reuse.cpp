// Reuse of a kernel's buffers across one work-group (see reuse.hpp).
#include "reuse.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>

#include <map>
#include <optional>
#include <set>

namespace dl::annotate {
namespace {

using namespace clang;

/// A polynomial with integer coefficients over what one work-group shares (kernel
/// arguments, group ids, global sizes): monomial ("a*b", "" for the constant) -> coefficient.
using Poly = std::map<std::string, std::int64_t>;

Poly constant(std::int64_t v) {
  return v ? Poly{{"", v}} : Poly{};
}
Poly symbol(const std::string& s, std::int64_t c = 1) {
  return c ? Poly{{s, c}} : Poly{};
}
bool is_constant(const Poly& p) {
  return p.empty() || (p.size() == 1 && p.count(""));
}
std::int64_t value(const Poly& p) {
  const auto it = p.find("");
  return it == p.end() ? 0 : it->second;
}

Poly add(Poly a, const Poly& b, std::int64_t sign = 1) {
  for (const auto& [m, c] : b)
    if ((a[m] += sign * c) == 0) a.erase(m);
  return a;
}

std::string monomial_product(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  std::multiset<std::string> factors;
  for (const std::string* s : {&a, &b})
    for (std::size_t at = 0; at <= s->size();) {
      const std::size_t star = std::min(s->find('*', at), s->size());
      factors.insert(s->substr(at, star - at));
      at = star + 1;
    }
  std::string out;
  for (const auto& f : factors) out += (out.empty() ? "" : "*") + f;
  return out;
}

Poly mul(const Poly& a, const Poly& b) {
  Poly r;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b) {
      const std::string m = monomial_product(ma, mb);
      if ((r[m] += ca * cb) == 0) r.erase(m);
    }
  return r;
}

std::string key(const Poly& p) {
  std::string s;
  for (const auto& [m, c] : p) s += std::to_string(c) + (m.empty() ? "" : "*" + m) + "+";
  return s;
}

constexpr int kRead = 1, kWrite = 2;
constexpr std::uint64_t kBudget = 1'000'000;  // reads and loop trips counted, per kernel

/// The name of the function a call calls ("" if none).
std::string callee(const CallExpr* c) {
  const FunctionDecl* f = c->getDirectCallee();
  return f ? f->getNameAsString() : "";
}

/// N of vloadN / vstoreN (0 otherwise).
unsigned vector_width(const std::string& name, const char* prefix) {
  const std::string p = prefix;
  if (name.rfind(p, 0) != 0) return 0;
  const std::string n = name.substr(p.size());
  for (unsigned w : {2u, 3u, 4u, 8u, 16u})
    if (n == std::to_string(w)) return w;
  return 0;
}

class Counter {
 public:
  Counter(ASTContext& ctx, const FunctionDecl* fd, const ReuseOptions& o)
      : ctx_(ctx), sm_(ctx.getSourceManager()), fd_(fd), opts_(o) {}

  /// Records every read of the buffers named `names` while counting (plan()).
  void stage(const std::vector<std::string>& names) {
    for (const std::string& n : names) stage_names_.insert(n);
  }

  KernelReuse run() {
    KernelReuse k;
    k.name = fd_->getNameAsString();
    k.line = sm_.getPresumedLineNumber(sm_.getFileLoc(fd_->getBeginLoc()));
    k.local_mem = opts_.local_mem;
    for (const ParmVarDecl* p : fd_->parameters()) {
      const QualType t = p->getType();
      if (!t->isPointerType()) continue;
      const LangAS as = t->getPointeeType().getAddressSpace();
      if (as != LangAS::opencl_global && as != LangAS::opencl_constant) continue;
      Arg& a = args_.emplace_back();
      a.p = p;
      a.r.name = p->getNameAsString();
      a.stage = stage_names_.count(a.r.name) > 0;
    }
    PrePass pre(*this);
    pre.TraverseStmt(fd_->getBody());
    for (Arg& a : args_)
      if (modified_.count(a.p)) fail(a, "the kernel moves the pointer: its accesses are not seen");
    k.dims = dims_;
    if (opts_.local_size.empty()) {
      static const std::array<std::array<unsigned, 3>, 3> kDefault{
          {{256, 1, 1}, {16, 16, 1}, {8, 8, 4}}};
      k.local_size = kDefault[dims_ - 1];
    } else {
      for (std::size_t d = 0; d < 3 && d < opts_.local_size.size(); ++d)
        k.local_size[d] = opts_.local_size[d];
    }
    ls_ = k.local_size;
    for (lid_[2] = 0; lid_[2] < ls_[2] && !over_budget_; ++lid_[2])
      for (lid_[1] = 0; lid_[1] < ls_[1] && !over_budget_; ++lid_[1])
        for (lid_[0] = 0; lid_[0] < ls_[0] && !over_budget_; ++lid_[0]) {
          exited_ = false;
          stmt(fd_->getBody());
        }
    for (Arg& a : args_) {
      ArgReuse& r = a.r;
      if (over_budget_ && !a.failed)
        fail(a,
             "more reads and loop trips than dl-annotate counts (" + std::to_string(kBudget) + ")");
      r.analysed = !a.failed;
      if (a.failed) {
        r.reads = 0;
      } else if (!r.read) {
        r.why = "not read";
      } else {
        r.elements = a.seen.size();
        for (const auto& [_, size] : a.seen) r.footprint += size;
        r.reuse_factor = static_cast<double>(r.reads) / static_cast<double>(r.elements);
        r.fits_local = r.footprint <= opts_.local_mem;
      }
      for (const ForStmt* f : a.nominal) r.assumptions.push_back(nominal_notes_.at(f));
      if (a.conditional)
        r.assumptions.push_back(
            "reads under a condition are counted as made by every work-item (an interior "
            "work-group)");
      k.args.push_back(r);  // a copy: plan() reads it again
    }
    return k;
  }

  /// The staging plans of the buffers stage() named (after run()).
  std::vector<StagePlan> plans() {
    std::vector<StagePlan> out;
    for (Arg& a : args_)
      if (a.stage) out.push_back(plan(a));
    return out;
  }

 private:
  struct Arg {
    const ParmVarDecl* p = nullptr;
    ArgReuse r;
    bool failed = false;
    std::map<std::string, std::uint64_t> seen;  // element key -> bytes
    // What its counts assume: loops counted with trip_count, reads under conditions.
    std::set<const ForStmt*> nominal;
    bool conditional = false;
    // Staging (plan_staging): every read, its element and where it was made.
    bool stage = false;
    std::string stage_why;  // why it cannot be staged, found during the walk
    struct Rec {
      const Expr* e;
      std::size_t element;  // into `elements`
      std::array<std::int64_t, 3> lid;
      std::vector<std::pair<const VarDecl*, std::int64_t>> loops;
    };
    std::vector<Rec> recs;
    std::map<std::string, std::size_t> element_index;
    std::vector<Poly> elements;
  };

  /// Before counting: the variables the kernel changes, which lvalues it writes, how many
  /// dimensions it uses, and the buffers that escape (to a helper, a changed pointer).
  class PrePass : public RecursiveASTVisitor<PrePass> {
   public:
    explicit PrePass(Counter& c) : c_(c) {}
    bool VisitBinaryOperator(BinaryOperator* b) {
      if (!b->isAssignmentOp()) return true;
      const Expr* lhs = b->getLHS()->IgnoreParens();
      c_.kind_[lhs] |= kWrite | (b->isCompoundAssignmentOp() ? kRead : 0);
      changed(lhs);
      if (const VarDecl* v = var_of(lhs); v && v->getType()->isPointerType())
        escape(b->getRHS(), "stored in the pointer `" + v->getNameAsString() + "`", b);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator* u) {
      const Expr* sub = u->getSubExpr()->IgnoreParens();
      if (u->isIncrementDecrementOp()) {
        c_.kind_[sub] |= kRead | kWrite;
        changed(sub);
      } else if (u->getOpcode() == UO_AddrOf) {
        if (const VarDecl* v = var_of(sub)) c_.modified_[v] += 2;  // its address is taken
      }
      return true;
    }
    bool VisitVarDecl(VarDecl* v) {
      if (v->getType()->isPointerType() && v->hasInit()) c_.pointer_inits_[v] = v->getInit();
      return true;
    }
    bool VisitCallExpr(CallExpr* call) {
      const std::string f = callee(call);
      static const std::set<std::string> kIds{
          "get_global_id",   "get_local_id",   "get_group_id",      "get_local_size",
          "get_global_size", "get_num_groups", "get_global_offset", "get_enqueued_local_size"};
      if (kIds.count(f) && call->getNumArgs() == 1) {
        Expr::EvalResult r;
        if (call->getArg(0)->EvaluateAsInt(r, c_.ctx_)) {
          const auto d = r.Val.getInt().getExtValue();
          if (d >= 0 && d < 3)
            c_.dims_ = std::max<unsigned>(c_.dims_, static_cast<unsigned>(d) + 1);
        }
      }
      if (vector_width(f, "vload") || vector_width(f, "vstore")) return true;
      for (const Expr* a : call->arguments())
        if (a->getType()->isPointerType())
          escape(a, "passed to " + (f.empty() ? std::string("a function") : f + "()"), call);
      return true;
    }

   private:
    static const VarDecl* var_of(const Expr* e) {
      if (const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(r->getDecl());
      return nullptr;
    }
    void changed(const Expr* lhs) {
      if (const VarDecl* v = var_of(lhs)) ++c_.modified_[v];
    }
    /// A buffer named in `e` (directly or through a pointer variable) escapes.
    void escape(const Expr* e, const std::string& how, const Stmt* at) {
      std::set<const VarDecl*> seen;
      c_.for_each_buffer(e, seen, [&](Arg& a) {
        c_.fail(a, "the buffer is " + how + " (line " + std::to_string(c_.line(at)) +
                       "): its accesses there are not seen");
      });
    }
    Counter& c_;
  };

  unsigned line(const Stmt* s) const {
    return sm_.getPresumedLineNumber(sm_.getFileLoc(s->getBeginLoc()));
  }

  Arg* arg_of(const ValueDecl* d) {
    for (Arg& a : args_)
      if (a.p == d) return &a;
    return nullptr;
  }

  /// Calls f for every buffer `e` names, through pointer variables initialised from one.
  template <class F>
  void for_each_buffer(const Stmt* e, std::set<const VarDecl*>& seen, F&& f) {
    if (!e) return;
    if (const auto* r = dyn_cast<DeclRefExpr>(e)) {
      if (Arg* a = arg_of(r->getDecl())) f(*a);
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && seen.insert(v).second) {
        const auto it = pointer_inits_.find(v);
        if (it != pointer_inits_.end()) for_each_buffer(it->second, seen, f);
      }
    }
    for (const Stmt* c : e->children()) for_each_buffer(c, seen, f);
  }

  void fail(Arg& a, const std::string& why) {
    if (a.failed) return;
    a.failed = true;
    a.r.why = why;
  }

  // ---- evaluation --------------------------------------------------------------------

  std::optional<Poly> eval(const Expr* e, std::string& why, int depth = 0) {
    if (depth > 64) return why = "an index defined too deeply", std::nullopt;
    e = e->IgnoreParenCasts();
    // Clang's constant evaluation, once per expression (the walk meets each many times).
    auto [known, fresh] = constants_.try_emplace(e);
    if (fresh) {
      Expr::EvalResult r;
      if (!e->isValueDependent() && e->EvaluateAsInt(r, ctx_))
        known->second = r.Val.getInt().getExtValue();
    }
    if (known->second) return constant(*known->second);
    const auto at = [&] { return line(e); };
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(ref->getDecl());
      if (!v) return why = "a name dl-annotate cannot evaluate", std::nullopt;
      if (const auto it = loop_.find(v); it != loop_.end()) return it->second;
      const std::string name = v->getNameAsString();
      if (modified_.count(v))
        return why = "the index uses `" + name + "`, which the kernel changes (line " +
                     std::to_string(at()) + ")",
               std::nullopt;
      if (isa<ParmVarDecl>(v)) return symbol(name);
      if (v->hasInit()) return eval(v->getInit(), why, depth + 1);
      return why = "`" + name + "` has no value where it is used", std::nullopt;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      auto l = eval(b->getLHS(), why, depth + 1);
      if (!l) return std::nullopt;
      auto rr = eval(b->getRHS(), why, depth + 1);
      if (!rr) return std::nullopt;
      const bool both = is_constant(*l) && is_constant(*rr);
      const std::int64_t x = value(*l), y = value(*rr);
      switch (b->getOpcode()) {
        case BO_Add:
          return add(*l, *rr);
        case BO_Sub:
          return add(*l, *rr, -1);
        case BO_Mul:
          return mul(*l, *rr);
        case BO_Shl:
          if (is_constant(*rr) && y >= 0 && y < 62) return mul(*l, constant(std::int64_t{1} << y));
          break;
        case BO_Div:
        case BO_Rem:
        case BO_Shr:
        case BO_And:
        case BO_Or:
        case BO_Xor:
          if (!both) break;
          if ((b->getOpcode() == BO_Div || b->getOpcode() == BO_Rem) && y == 0) break;
          if (b->getOpcode() == BO_Shr && (y < 0 || y > 62)) break;
          return constant(b->getOpcode() == BO_Div   ? x / y
                          : b->getOpcode() == BO_Rem ? x % y
                          : b->getOpcode() == BO_Shr ? x >> y
                          : b->getOpcode() == BO_And ? (x & y)
                          : b->getOpcode() == BO_Or  ? (x | y)
                                                     : (x ^ y));
        default:
          break;
      }
      return why = "`" + std::string(b->getOpcodeStr()) +
                   "` of terms that vary over the work-group by a kernel argument (line " +
                   std::to_string(at()) + ")",
             std::nullopt;
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e)) {
      if (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus) {
        auto s = eval(u->getSubExpr(), why, depth + 1);
        if (!s) return std::nullopt;
        return u->getOpcode() == UO_Minus ? mul(*s, constant(-1)) : *s;
      }
      if (u->getOpcode() == UO_Deref)
        return why = "an index loaded from memory (a gather, line " + std::to_string(at()) + ")",
               std::nullopt;
    }
    if (const auto* c = dyn_cast<CallExpr>(e)) return eval_call(c, why, depth);
    if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
      auto cond = eval(c->getCond(), why, depth + 1);
      if (cond && is_constant(*cond))
        return eval(value(*cond) ? c->getTrueExpr() : c->getFalseExpr(), why, depth + 1);
      return why = "a ?: that varies over the work-group (line " + std::to_string(at()) + ")",
             std::nullopt;
    }
    if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e))
      return why = "an index loaded from memory (a gather, line " + std::to_string(at()) + ")",
             std::nullopt;
    return why = "an index dl-annotate cannot evaluate (line " + std::to_string(at()) + ")",
           std::nullopt;
  }

  std::optional<Poly> eval_call(const CallExpr* c, std::string& why, int depth) {
    const std::string f = callee(c);
    std::vector<Poly> a;
    for (const Expr* x : c->arguments()) {
      auto v = eval(x, why, depth + 1);
      if (!v) return std::nullopt;
      a.push_back(*v);
    }
    const auto dim = [&]() -> int {
      if (a.size() != 1 || !is_constant(a[0])) return -1;
      const auto d = value(a[0]);
      return d >= 0 && d < 3 ? static_cast<int>(d) : 3;
    };
    const int d = dim();
    const std::string ds = "(" + std::to_string(d) + ")";
    if (d == 3) {  // dimensions beyond the third: ids 0, sizes 1
      if (f == "get_local_size" || f == "get_global_size" || f == "get_num_groups")
        return constant(1);
      if (f == "get_global_id" || f == "get_local_id" || f == "get_group_id" ||
          f == "get_global_offset")
        return constant(0);
    }
    if (d >= 0 && d < 3) {
      if (f == "get_local_id") return constant(lid_[d]);
      if (f == "get_local_size" || f == "get_enqueued_local_size") return constant(ls_[d]);
      if (f == "get_group_id") return symbol("get_group_id" + ds);
      if (f == "get_global_id")
        return add(add(symbol("get_group_id" + ds, ls_[d]), constant(lid_[d])),
                   symbol("get_global_offset" + ds));
      if (f == "get_global_size" || f == "get_num_groups" || f == "get_global_offset")
        return symbol(f + ds);
    }
    if (f == "mul24" && a.size() == 2) return mul(a[0], a[1]);
    if (f == "mad24" && a.size() == 3) return add(mul(a[0], a[1]), a[2]);
    const bool constants =
        std::all_of(a.begin(), a.end(), [](const Poly& p) { return is_constant(p); });
    if (constants && (f == "min" || f == "max") && a.size() == 2)
      return constant(f == "min" ? std::min(value(a[0]), value(a[1]))
                                 : std::max(value(a[0]), value(a[1])));
    if (constants && f == "clamp" && a.size() == 3)
      return constant(std::min(std::max(value(a[0]), value(a[1])), value(a[2])));
    return why = "an index through " + (f.empty() ? std::string("a call") : f + "()") +
                 " of terms that vary over the work-group (line " + std::to_string(line(c)) + ")",
           std::nullopt;
  }

  // ---- the buffer an address designates -------------------------------------------

  /// The buffer `base` points into and the element offset, if it points into one.
  /// `why` is set (and nullptr returned) when it does but the offset cannot be evaluated.
  Arg* resolve(const Expr* base, Poly& off, std::string& why, int depth = 0) {
    if (depth > 16) return nullptr;
    const Expr* e = base->IgnoreParenImpCasts();
    if (const auto* c = dyn_cast<ExplicitCastExpr>(e)) {
      Arg* a = resolve(c->getSubExpr(), off, why, depth + 1);
      if (a && !ctx_.hasSameUnqualifiedType(
                   c->getType()->getPointeeType(),
                   c->getSubExpr()->IgnoreParenImpCasts()->getType()->getPointeeType())) {
        why = "the buffer is read as another type (line " + std::to_string(line(c)) + ")";
        return fail(*a, why), nullptr;
      }
      return a;
    }
    if (const auto* r = dyn_cast<DeclRefExpr>(e)) {
      if (Arg* a = arg_of(r->getDecl())) {
        off = Poly{};
        return a;
      }
      const auto* v = dyn_cast<VarDecl>(r->getDecl());
      const auto it = v ? pointer_inits_.find(v) : pointer_inits_.end();
      if (it == pointer_inits_.end()) return nullptr;
      Arg* a = resolve(it->second, off, why, depth + 1);
      if (a && modified_.count(v)) {
        why = "the buffer is read through `" + v->getNameAsString() +
              "`, a pointer the kernel changes";
        return fail(*a, why), nullptr;
      }
      return a;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e);
        b && (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub)) {
      const bool left = b->getLHS()->getType()->isPointerType();
      Arg* a = resolve(left ? b->getLHS() : b->getRHS(), off, why, depth + 1);
      if (!a) return nullptr;
      auto k = eval(left ? b->getRHS() : b->getLHS(), why);
      if (!k) return fail(*a, why), nullptr;
      off = add(off, *k, b->getOpcode() == BO_Sub ? -1 : 1);
      return a;
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      if (const auto* s = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens())) {
        Arg* a = resolve(s->getBase(), off, why, depth + 1);
        if (!a) return nullptr;
        auto k = eval(s->getIdx(), why);
        if (!k) return fail(*a, why), nullptr;
        off = add(off, *k);
        return a;
      }
    }
    return nullptr;
  }

  /// If `e` is an access to a buffer element (p[i], *(p + i), p[i].f[k], p->f): the
  /// buffer, the element's key, and the index expressions inside it (to walk). `why` is
  /// set when it is one but cannot be evaluated.
  /// `element`, when given, gets the element's index where `e` reads a whole element of
  /// the buffer (p[i], *(p + i)), and stays empty for a part of one (p[i].f, v.x).
  Arg* access(const Expr* e, std::string& k, std::vector<const Expr*>& inner, std::string& why,
              std::optional<Poly>* element = nullptr) {
    e = e->IgnoreParens();
    Poly off;
    if (const auto* s = dyn_cast<ArraySubscriptExpr>(e)) {
      inner.push_back(s->getIdx());
      if (Arg* a = resolve(s->getBase(), off, why)) {
        auto i = eval(s->getIdx(), why);
        if (!i) return fail(*a, why), nullptr;
        k = key(add(off, *i));
        if (element) *element = add(off, *i);
        return a;
      }
      if (!why.empty()) return nullptr;
      // An array inside a record: p[i].f[k].
      if (Arg* a = access(s->getBase()->IgnoreParenImpCasts(), k, inner, why)) {
        auto i = eval(s->getIdx(), why);
        if (!i) return fail(*a, why), nullptr;
        k += "[" + key(*i) + "]";
        return a;
      }
      return nullptr;
    }
    if (const auto* m = dyn_cast<MemberExpr>(e)) {
      const std::string field = m->getMemberDecl()->getNameAsString();
      if (m->isArrow()) {
        if (Arg* a = resolve(m->getBase(), off, why)) {
          k = key(off) + "." + field;
          return a;
        }
        return nullptr;
      }
      if (Arg* a = access(m->getBase(), k, inner, why)) {
        k += "." + field;
        return a;
      }
      return nullptr;
    }
    if (const auto* v = dyn_cast<ExtVectorElementExpr>(e)) {
      if (Arg* a = access(v->getBase(), k, inner, why)) {
        k += "." + v->getAccessor().getName().str();
        return a;
      }
      return nullptr;
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref) {
      if (Arg* a = resolve(u->getSubExpr(), off, why)) {
        k = key(off);
        if (element) *element = off;
        return a;
      }
    }
    return nullptr;
  }

  void count(Arg& a, const std::string& k, int kind, std::uint64_t bytes) {
    if (a.failed) return;
    if (++ops_ > kBudget) over_budget_ = true;
    if (kind & kWrite) a.r.written = true;
    if (!(kind & kRead)) return;
    a.r.read = true;
    ++a.r.reads;
    a.seen.emplace(k, bytes);
    a.conditional = a.conditional || branches_ || exited_;
    a.nominal.insert(nominal_.begin(), nominal_.end());
  }

  std::uint64_t bytes_of(QualType t) const {
    if (t->isIncompleteType() || t->isDependentType()) return 1;
    return static_cast<std::uint64_t>(ctx_.getTypeSizeInChars(t).getQuantity());
  }

  // ---- staging ---------------------------------------------------------------------

  /// Records a read of a buffer to stage: its element and the ids and loop counters
  /// it was made at.
  void record(Arg& a, const Expr* e, int kind, const std::optional<Poly>& element) {
    if (!a.stage_why.empty()) return;
    const auto at = " (line " + std::to_string(line(e)) + ")";
    if (kind & kWrite) {
      a.stage_why = "the kernel writes it" + at;
      return;
    }
    const QualType t = a.p->getType()->getPointeeType();
    if (!t->isScalarType() && !t->isVectorType()) {
      a.stage_why = "its elements are not scalars or vectors";
      return;
    }
    if (!element) {
      a.stage_why = "it is read other than as an element (p[i], *(p + i))" + at;
      return;
    }
    Arg::Rec r{e, 0, {lid_[0], lid_[1], lid_[2]}, {}};
    for (const auto& [v, value] : loop_) {
      if (!is_constant(value)) {
        a.stage_why = "the loop of `" + v->getNameAsString() +
                      "` starts at a value that differs from group to group" + at;
        return;
      }
      r.loops.emplace_back(v, dl::annotate::value(value));
    }
    const auto [it, fresh] = a.element_index.try_emplace(key(*element), a.elements.size());
    if (fresh) a.elements.push_back(*element);
    r.element = it->second;
    a.recs.push_back(std::move(r));
  }

  /// C code of c * m, monomial m ("a*b") as a long.
  static std::string term(std::int64_t c, const std::string& m) {
    if (m.empty()) return std::to_string(c);
    const std::string code = monomial_code(m);
    return c == 1 ? code : c == -1 ? "-" + code : std::to_string(c) + " * " + code;
  }

  /// C code of monomial `m` ("a*b"), as a long.
  static std::string monomial_code(const std::string& m) {
    if (m.empty()) return "1";
    std::string out;
    for (std::size_t at = 0; at <= m.size();) {
      const std::size_t star = std::min(m.find('*', at), m.size());
      out += (out.empty() ? "" : " * ") + std::string("(long)") + m.substr(at, star - at);
      at = star + 1;
    }
    return out;
  }

  StagePlan plan(Arg& a) {
    StagePlan p;
    p.buffer = a.r.name;
    p.local_size = ls_;
    const auto refuse = [&](std::string why) {
      p.why = std::move(why);
      return p;
    };
    if (a.failed) return refuse(a.r.why);
    if (!a.stage_why.empty()) return refuse(a.stage_why);
    if (a.r.written) return refuse("the kernel writes it");
    if (!a.r.read) return refuse("the kernel does not read it");
    if (!a.nominal.empty())
      return refuse(nominal_notes_.at(*a.nominal.begin()) +
                    "; a staged box must hold every read (strip-mining is not done)");
    // The box: per monomial, the range of its coefficient over the elements read.
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> range;
    for (const Poly& e : a.elements)
      for (const auto& [m, c] : e) range.try_emplace(m, c, c);
    for (const Poly& e : a.elements)
      for (auto& [m, r] : range) {
        const auto it = e.find(m);
        const std::int64_t c = it == e.end() ? 0 : it->second;
        r = {std::min(r.first, c), std::max(r.second, c)};
      }
    std::vector<std::string> varying;
    for (const auto& [m, r] : range) {
      if (r.first == r.second) {
        p.origin += (p.origin.empty() ? "" : " + ") + term(r.first, m);
        continue;
      }
      varying.push_back(m);
    }
    // The unit stride first (a coalesced copy), then by degree.
    std::stable_sort(
        varying.begin(), varying.end(), [](const std::string& x, const std::string& y) {
          const auto deg = [](const std::string& m) {
            return m.empty() ? -1 : static_cast<int>(std::count(m.begin(), m.end(), '*'));
          };
          return deg(x) < deg(y);
        });
    const std::uint64_t elem = bytes_of(a.p->getType()->getPointeeType());
    p.slots = 1;
    for (const std::string& m : varying) {
      const auto [lo, hi] = range.at(m);
      const auto extent = static_cast<std::uint64_t>(hi - lo) + 1;
      if (__builtin_mul_overflow(p.slots, extent, &p.slots) || p.slots * elem > opts_.local_mem)
        return refuse(
            "the box of the elements one work-group reads is larger than the local "
            "memory given (" +
            std::to_string(opts_.local_mem) + " bytes)");
      p.dims.push_back({monomial_code(m), lo, extent});
      if (lo) p.origin += (p.origin.empty() ? "" : " + ") + term(lo, m);
    }
    if (p.origin.empty()) p.origin = "0";
    p.bytes = p.slots * elem;
    if (a.r.reads <= p.slots)
      return refuse("one work-group reads " + std::to_string(a.r.reads) +
                    " elements, and its box holds " + std::to_string(p.slots) +
                    ": staging saves no reads");
    PrintingPolicy pp(ctx_.getLangOpts());
    p.type = a.p->getType()->getPointeeType().getUnqualifiedType().getAsString(pp);
    // Each element's slot.
    std::vector<std::int64_t> slot(a.elements.size());
    for (std::size_t i = 0; i < a.elements.size(); ++i) {
      std::int64_t s = 0, stride = 1;
      for (std::size_t j = 0; j < varying.size(); ++j) {
        const auto it = a.elements[i].find(varying[j]);
        s += ((it == a.elements[i].end() ? 0 : it->second) - p.dims[j].lo) * stride;
        stride *= static_cast<std::int64_t>(p.dims[j].extent);
      }
      slot[i] = s;
    }
    // Each read's slot as an affine function of the local ids and its loop counters.
    std::map<const Expr*, std::vector<const Arg::Rec*>> by_read;
    for (const Arg::Rec& r : a.recs) by_read[r.e].push_back(&r);
    for (const auto& [e, recs] : by_read) {
      const Arg::Rec& r0 = *recs.front();
      const std::size_t nv = 3 + r0.loops.size();
      const auto var = [&](const Arg::Rec& r, std::size_t v) {
        return v < 3 ? r.lid[v] : r.loops[v - 3].second;
      };
      const auto same_loops = [&](const Arg::Rec& r) {
        if (r.loops.size() != r0.loops.size()) return false;
        for (std::size_t i = 0; i < r.loops.size(); ++i)
          if (r.loops[i].first != r0.loops[i].first) return false;
        return true;
      };
      std::vector<std::int64_t> slope(nv, 0);
      for (std::size_t v = 0; v < nv; ++v)
        for (const Arg::Rec* r : recs) {
          if (!same_loops(*r)) return refuse("a read's loops differ between its visits");
          bool only = var(*r, v) != var(r0, v);
          for (std::size_t u = 0; u < nv && only; ++u)
            if (u != v && var(*r, u) != var(r0, u)) only = false;
          if (!only) continue;
          const std::int64_t ds = slot[r->element] - slot[r0.element], dv = var(*r, v) - var(r0, v);
          if (ds % dv)
            return refuse("a read's slot is not affine in the ids (line " +
                          std::to_string(line(e)) + ")");
          slope[v] = ds / dv;
          break;
        }
      std::int64_t base = slot[r0.element];
      for (std::size_t v = 0; v < nv; ++v) base -= slope[v] * var(r0, v);
      for (const Arg::Rec* r : recs) {
        std::int64_t s = base;
        for (std::size_t v = 0; v < nv; ++v) s += slope[v] * var(*r, v);
        if (s != slot[r->element])
          return refuse("a read's slot is not affine in the local ids and loop counters (line " +
                        std::to_string(line(e)) + ")");
      }
      StagePlan::Read rd;
      rd.access = e;
      rd.base = base;
      for (std::size_t d = 0; d < 3; ++d) rd.lid[d] = slope[d];
      for (std::size_t i = 0; i < r0.loops.size(); ++i)
        if (slope[3 + i]) rd.loops.emplace_back(r0.loops[i].first->getNameAsString(), slope[3 + i]);
      p.reads.push_back(std::move(rd));
    }
    p.ok = true;
    return p;
  }

  // ---- the walk of one work-item ------------------------------------------------------

  void expr(const Expr* e) {
    if (!e || over_budget_) return;
    e = e->IgnoreParens();
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      std::string k, why;
      std::vector<const Expr*> inner;
      if (access(u->getSubExpr(), k, inner, why) || !why.empty()) {
        for (const Expr* i : inner) expr(i);  // an address: nothing read
        return;
      }
    }
    if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) || isa<ExtVectorElementExpr>(e) ||
        (isa<UnaryOperator>(e) && cast<UnaryOperator>(e)->getOpcode() == UO_Deref)) {
      std::string k, why;
      std::vector<const Expr*> inner;
      std::optional<Poly> element;
      if (Arg* a = access(e, k, inner, why, &element)) {
        const auto it = kind_.find(e);
        const int kind = it == kind_.end() ? kRead : it->second;
        count(*a, k, kind, bytes_of(e->getType()));
        if (a->stage && !a->failed) record(*a, e, kind, element);
        for (const Expr* i : inner) expr(i);
        return;
      }
      if (!why.empty()) {
        for (const Expr* i : inner) expr(i);
        return;
      }
    }
    if (const auto* c = dyn_cast<CallExpr>(e)) {
      const std::string f = callee(c);
      const unsigned load = vector_width(f, "vload"), store = vector_width(f, "vstore");
      if ((load && c->getNumArgs() == 2) || (store && c->getNumArgs() == 3)) {
        const Expr* ptr = c->getArg(load ? 1 : 2);
        const Expr* idx = c->getArg(load ? 0 : 1);
        Poly off;
        std::string why;
        if (Arg* a = resolve(ptr, off, why)) {
          if (auto i = eval(idx, why)) {
            const unsigned w = load ? load : store;
            const std::uint64_t bytes = bytes_of(ptr->getType()->getPointeeType());
            for (unsigned j = 0; j < w; ++j)
              count(*a, key(add(add(off, mul(*i, constant(w))), constant(j))),
                    load ? kRead : kWrite, bytes);
            if (a->stage && a->stage_why.empty())
              a->stage_why =
                  "it is read or written with " + f + "() (line " + std::to_string(line(c)) + ")";
          } else {
            fail(*a, why);
          }
        }
      }
    }
    for (const Stmt* c : e->children())
      if (const auto* x = dyn_cast_or_null<Expr>(c)) expr(x);
  }

  /// Fails every buffer `s` names: they are read in code the count cannot enumerate.
  void uncountable(const Stmt* s, const std::string& why) {
    std::set<const VarDecl*> seen;
    for_each_buffer(s, seen, [&](Arg& a) { fail(a, why); });
  }

  struct Loop {
    const VarDecl* v = nullptr;
    Poly start;
    std::int64_t step = 0, trips = 0;
    bool nominal = false;
    const Expr* bound = nullptr;  // when nominal
  };

  /// The counted form of a for-loop: one variable, from a start by a constant step while
  /// a comparison with a bound holds, the variable changed nowhere else.
  std::optional<Loop> counted(const ForStmt* f, std::string& why) {
    Loop l;
    const Expr* init = nullptr;
    if (const auto* ds = dyn_cast_or_null<DeclStmt>(f->getInit()); ds && ds->isSingleDecl()) {
      l.v = dyn_cast<VarDecl>(ds->getSingleDecl());
      if (l.v) init = l.v->getInit();
    } else if (const auto* b = dyn_cast_or_null<BinaryOperator>(f->getInit());
               b && b->getOpcode() == BO_Assign) {
      if (const auto* r = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()))
        l.v = dyn_cast<VarDecl>(r->getDecl());
      init = b->getRHS();
    }
    const auto is_v = [&](const Expr* x) {
      const auto* r = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
      return r && l.v && r->getDecl() == l.v;
    };
    if (!l.v || !init) return why = "no loop variable initialised in it", std::nullopt;
    unsigned changes = 1;  // the increment
    if (isa<BinaryOperator>(f->getInit())) ++changes;
    if (const auto* u = dyn_cast_or_null<UnaryOperator>(f->getInc());
        u && u->isIncrementDecrementOp() && is_v(u->getSubExpr())) {
      l.step = u->isIncrementOp() ? 1 : -1;
    } else if (const auto* b = dyn_cast_or_null<BinaryOperator>(f->getInc());
               b && is_v(b->getLHS()) &&
               (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign)) {
      auto s = eval(b->getRHS(), why);
      if (!s || !is_constant(*s)) return why = "its step is not a constant", std::nullopt;
      l.step = b->getOpcode() == BO_AddAssign ? value(*s) : -value(*s);
    } else {
      return why = "its increment is not `v++`, `v--`, `v += c` or `v -= c`", std::nullopt;
    }
    const auto m = modified_.find(l.v);
    if (l.step == 0 || (m != modified_.end() && m->second > changes))
      return why = "its variable changes in its body", std::nullopt;
    const auto* cond = dyn_cast_or_null<BinaryOperator>(f->getCond());
    if (!cond || !cond->isComparisonOp() || !is_v(cond->getLHS()))
      return why = "its condition is not `v < bound` (or <=, >, >=, !=)", std::nullopt;
    auto start = eval(init, why);
    if (!start) return std::nullopt;
    l.start = *start;
    std::string bwhy;
    auto bound = eval(cond->getRHS(), bwhy);
    const Poly span = bound ? add(*bound, l.start, -1) : Poly{};
    if (bound && is_constant(span)) {
      const std::int64_t n = value(span);
      std::int64_t trips = 0;
      switch (cond->getOpcode()) {
        case BO_LT:
          trips = l.step > 0 && n > 0 ? (n + l.step - 1) / l.step : 0;
          break;
        case BO_LE:
          trips = l.step > 0 && n >= 0 ? n / l.step + 1 : 0;
          break;
        case BO_GT:
          trips = l.step < 0 && n < 0 ? (-n - l.step - 1) / -l.step : 0;
          break;
        case BO_GE:
          trips = l.step < 0 && n <= 0 ? -n / -l.step + 1 : 0;
          break;
        case BO_NE:
          trips = n % l.step == 0 && n / l.step >= 0 ? n / l.step : -1;
          break;
        default:
          trips = -1;
      }
      if (trips < 0) return why = "its trip count is not known", std::nullopt;
      l.trips = trips;
    } else {
      l.nominal = true;
      l.trips = opts_.trip_count;
      l.bound = cond->getRHS();
    }
    return l;
  }

  void stmt(const Stmt* s) {
    if (!s || over_budget_) return;
    if (const auto* e = dyn_cast<Expr>(s)) return expr(e);
    if (const auto* f = dyn_cast<ForStmt>(s)) {
      std::string why;
      const auto l = counted(f, why);
      if (!l) {
        uncountable(f, "read in a loop dl-annotate cannot count (line " + std::to_string(line(f)) +
                           ": " + why + ")");
        return;
      }
      if (l->nominal) {
        nominal_.push_back(f);
        if (!nominal_notes_.count(f)) {
          const auto bound = CharSourceRange::getTokenRange(l->bound->getSourceRange());
          nominal_notes_[f] =
              "the loop of `" + l->v->getNameAsString() + "` (line " + std::to_string(line(f)) +
              ") runs to `" + Lexer::getSourceText(bound, sm_, ctx_.getLangOpts()).str() +
              "`, not a constant: counted as " + std::to_string(l->trips) + " trips";
        }
      }
      for (std::int64_t i = 0; i < l->trips && !over_budget_; ++i) {
        loop_[l->v] = add(l->start, constant(i * l->step));
        if (++ops_ > kBudget) over_budget_ = true;
        stmt(f->getBody());
      }
      loop_.erase(l->v);
      if (l->nominal) nominal_.pop_back();
      return;
    }
    if (isa<WhileStmt>(s) || isa<DoStmt>(s)) {
      uncountable(s, "read in a while or do loop (line " + std::to_string(line(s)) +
                         "), which dl-annotate cannot count");
      return;
    }
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* x : d->decls())
        if (const auto* v = dyn_cast<VarDecl>(x); v && v->hasInit()) expr(v->getInit());
      return;
    }
    if (isa<IfStmt>(s) || isa<SwitchStmt>(s) || isa<ConditionalOperator>(s)) {
      ++branches_;
      for (const Stmt* c : s->children()) stmt(c);
      --branches_;
      return;
    }
    // A work-item may leave before the reads that follow: they too are conditional.
    if (branches_ && (isa<ReturnStmt>(s) || isa<BreakStmt>(s) || isa<ContinueStmt>(s)))
      exited_ = true;
    for (const Stmt* c : s->children()) stmt(c);
  }

  ASTContext& ctx_;
  const SourceManager& sm_;
  const FunctionDecl* fd_;
  const ReuseOptions& opts_;
  std::vector<Arg> args_;
  std::set<std::string> stage_names_;            // the buffers plan_staging stages
  std::map<const VarDecl*, unsigned> modified_;  // changes of each variable
  std::map<const Expr*, int> kind_;              // lvalues written (kRead|kWrite)
  std::map<const VarDecl*, const Expr*> pointer_inits_;
  std::map<const VarDecl*, Poly> loop_;                           // the loop variables' values
  std::map<const Expr*, std::optional<std::int64_t>> constants_;  // Clang's evaluation
  std::vector<const ForStmt*> nominal_;  // the enclosing loops counted with trip_count
  std::map<const ForStmt*, std::string> nominal_notes_;  // what each of them assumes
  unsigned dims_ = 1;
  std::array<unsigned, 3> ls_{1, 1, 1}, lid_{0, 0, 0};
  unsigned branches_ = 0;
  bool exited_ = false;  // a return, break or continue under a condition came before
  std::uint64_t ops_ = 0;
  bool over_budget_ = false;
};

}  // namespace

KernelReuse analyse_reuse(ASTContext& ctx, const FunctionDecl* kernel, const ReuseOptions& opts) {
  return Counter(ctx, kernel, opts).run();
}

std::vector<StagePlan> plan_staging(ASTContext& ctx, const FunctionDecl* kernel,
                                    const std::vector<std::string>& buffers,
                                    const ReuseOptions& opts) {
  Counter c(ctx, kernel, opts);
  c.stage(buffers);
  c.run();
  std::vector<StagePlan> out = c.plans();
  for (const std::string& b : buffers)  // names that are no buffer argument
    if (std::none_of(out.begin(), out.end(), [&](const StagePlan& p) { return p.buffer == b; })) {
      StagePlan& p = out.emplace_back();
      p.buffer = b;
      p.why = "not a __global or __constant pointer parameter of the kernel";
    }
  return out;
}

}  // namespace dl::annotate
