// Text of rewritten source ranges: replacements keyed by AST node (built lazily from the
// rewritten text of their children) and insertions, applied over the original text.
// Accesses spelled inside a macro body are replaced by lifting them to the smallest
// enclosing expression that covers whole macro expansions, printed with Clang's printer.
#pragma once

#include <clang/AST/Stmt.h>
#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceManager.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace dl::annotate {

class Splicer {
 public:
  using Builder = std::function<std::string()>;

  Splicer(clang::ASTContext& ctx, clang::FileID file);

  /// Replaces `node` by what `build` returns (called at render time; it may call
  /// text() on the node's children); a second replacement of a node takes the first's
  /// place. Returns false when the node cannot be mapped back to the file (inside a
  /// macro body with no enclosing whole expansion).
  bool replace(const clang::Stmt* node, Builder build);
  /// The replacement of `node` registered so far (empty if none): a later replacement of
  /// the same node may build on it.
  Builder builder(const clang::Stmt* node) const {
    const auto it = by_node_.find(node);
    return it == by_node_.end() ? Builder() : it->second;
  }
  /// Replaces the file bytes [begin, end) (not tied to a node).
  void replace_offsets(unsigned begin, unsigned end, Builder build);
  /// Inserts `text` before file offset `offset`.
  void insert(unsigned offset, std::string text);

  /// Keeps `owner` (whose builders this Splicer calls) alive as long as the Splicer.
  void keep(std::shared_ptr<void> owner) { owners_.push_back(std::move(owner)); }
  /// Rewritten text of a node (its replacement if it has one).
  std::string text(const clang::Stmt* node);
  /// The node's own text with its children's replacements, ignoring the node's own one
  /// (for a replacement that decides, when rendered, to keep the original).
  std::string inner_text(const clang::Stmt* node);
  /// Rewritten text of the file bytes [begin, end).
  std::string range_text(unsigned begin, unsigned end);
  /// File offsets of a node's whole text; false when it is not in the main file.
  bool offsets(const clang::Stmt* node, unsigned& begin, unsigned& end) const;
  bool offsets(clang::SourceRange r, unsigned& begin, unsigned& end) const;

 private:
  struct Repl {
    unsigned begin, end;
    const clang::Stmt* node;
    Builder build;
  };
  std::string pretty(const clang::Stmt* node);
  std::string range_text(unsigned begin, unsigned end, const clang::Stmt* skip);

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  clang::FileID file_;
  llvm::StringRef buffer_;
  std::vector<Repl> repls_;
  std::map<const clang::Stmt*, Builder> by_node_;
  std::multimap<unsigned, std::string> inserts_;
  int depth_ = 0;
  std::vector<std::shared_ptr<void>> owners_;
};

}  // namespace dl::annotate
