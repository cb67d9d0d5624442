// Rewritten text of source ranges (see splicer.hpp).
#include "splicer.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/PrettyPrinter.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace dl::annotate {

Splicer::Splicer(clang::ASTContext& ctx, clang::FileID file)
    : ctx_(ctx), sm_(ctx.getSourceManager()), file_(file), buffer_(sm_.getBufferData(file)) {}

bool Splicer::offsets(clang::SourceRange r, unsigned& begin, unsigned& end) const {
  clang::CharSourceRange cr = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
  if (cr.isInvalid()) return false;
  auto b = sm_.getDecomposedLoc(cr.getBegin());
  clang::SourceLocation end_loc = cr.getEnd();
  if (cr.isTokenRange())
    end_loc = clang::Lexer::getLocForEndOfToken(end_loc, 0, sm_, ctx_.getLangOpts());
  auto e = sm_.getDecomposedLoc(end_loc);
  if (b.first != file_ || e.first != file_ || e.second < b.second) return false;
  begin = b.second;
  end = e.second;
  return true;
}

bool Splicer::offsets(const clang::Stmt* node, unsigned& begin, unsigned& end) const {
  return offsets(node->getSourceRange(), begin, end);
}

bool Splicer::replace(const clang::Stmt* node, Builder build) {
  by_node_[node] = build;
  for (auto& r : repls_)
    if (r.node == node) {
      r.build = std::move(build);
      return true;
    }
  unsigned b = 0, e = 0;
  if (offsets(node, b, e)) {
    repls_.push_back({b, e, node, std::move(build)});
    return true;
  }
  // Inside a macro body: lift to the nearest enclosing expression that is a whole
  // expansion (or lies in the file), and print that expression with the replacement.
  const clang::Stmt* cur = node;
  for (int guard = 0; guard < 64; ++guard) {
    auto parents = ctx_.getParents(*cur);
    if (parents.empty()) return false;
    const auto* p = parents[0].get<clang::Expr>();
    if (!p) return false;
    cur = p;
    if (offsets(cur, b, e)) {
      for (const auto& r : repls_)
        if (r.node == cur) return true;
      const clang::Stmt* lifted = cur;
      repls_.push_back({b, e, cur, [this, lifted] { return pretty(lifted); }});
      return true;
    }
  }
  return false;
}

void Splicer::replace_offsets(unsigned begin, unsigned end, Builder build) {
  repls_.push_back({begin, end, nullptr, std::move(build)});
}

void Splicer::insert(unsigned offset, std::string text) {
  inserts_.emplace(offset, std::move(text));
}

namespace {
class Helper : public clang::PrinterHelper {
 public:
  Helper(const std::map<const clang::Stmt*, Splicer::Builder>& m, const clang::Stmt* self)
      : m_(m), self_(self) {}
  bool handledStmt(clang::Stmt* s, llvm::raw_ostream& os) override {
    if (s == self_) return false;
    auto it = m_.find(s);
    if (it == m_.end()) return false;
    os << it->second();
    return true;
  }

 private:
  const std::map<const clang::Stmt*, Splicer::Builder>& m_;
  const clang::Stmt* self_;
};
}  // namespace

std::string Splicer::pretty(const clang::Stmt* node) {
  std::string out;
  llvm::raw_string_ostream os(out);
  Helper h(by_node_, node);
  clang::PrintingPolicy pp(ctx_.getLangOpts());
  node->printPretty(os, &h, pp);
  os.flush();
  return "(" + out + ")";
}

std::string Splicer::text(const clang::Stmt* node) {
  if (++depth_ > 256) {  // defensive: never recurse without bound
    --depth_;
    return "";
  }
  std::string out;
  auto it = by_node_.find(node);
  unsigned b = 0, e = 0;
  if (it != by_node_.end())
    out = it->second();
  else if (offsets(node, b, e))
    out = range_text(b, e);
  else
    out = pretty(node);
  --depth_;
  return out;
}

std::string Splicer::inner_text(const clang::Stmt* node) {
  unsigned b = 0, e = 0;
  if (offsets(node, b, e)) return range_text(b, e, node);
  return pretty(node);  // in a macro body: printed with its children's replacements
}

std::string Splicer::range_text(unsigned begin, unsigned end) {
  return range_text(begin, end, nullptr);
}

std::string Splicer::range_text(unsigned begin, unsigned end, const clang::Stmt* skip) {
  std::vector<const Repl*> inside;
  for (const auto& r : repls_)
    if (r.begin >= begin && r.end <= end && (!skip || r.node != skip)) inside.push_back(&r);
  std::sort(inside.begin(), inside.end(), [](const Repl* a, const Repl* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end > b->end;
  });
  std::string out;
  unsigned cur = begin;
  auto copy = [&](unsigned to) {
    for (auto it = inserts_.lower_bound(cur); it != inserts_.end() && it->first < to; ++it) {
      if (it->first > cur) out += buffer_.substr(cur, it->first - cur).str();
      out += it->second;
      cur = it->first;
    }
    if (to > cur) out += buffer_.substr(cur, to - cur).str();
    cur = std::max(cur, to);
  };
  for (const Repl* r : inside) {
    if (r->begin < cur) continue;  // nested in one already emitted
    copy(r->begin);
    out += r->build();
    cur = r->end;
  }
  copy(end);
  return out;
}

}  // namespace dl::annotate
