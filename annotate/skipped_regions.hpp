// Conditional regions the preprocessor skipped inside rewritten functions.
//
// dl-annotate rewrites what Clang sees under its -D options. A region the preprocessor
// skipped is copied as written; built with options that enable it, code there that
// touches an annotated buffer would read it as AoS while the rest of the kernel reads the
// target layout. In the transformed copy (under DL_ASTA_T) such code becomes an #error:
// that build fails and the runtime runs the program untransformed; builds with the
// options dl-annotate saw skip the region as before. Directive lines are kept, so every
// branch of a conditional stays where it was.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Lex/PPCallbacks.h>

#include <set>
#include <string>
#include <vector>

#include "splicer.hpp"

namespace dl::annotate {

/// Records the source ranges the preprocessor skips.
class SkippedRanges : public clang::PPCallbacks {
 public:
  explicit SkippedRanges(std::vector<clang::SourceRange>& out) : out_(out) {}
  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    out_.push_back(range);
  }

 private:
  std::vector<clang::SourceRange>& out_;
};

/// A run of lines of a skipped region inside a function that names a buffer.
struct GuardedRun {
  unsigned begin = 0, end = 0;  // file offsets
  std::string name;             // the buffer (or pointer variable) it names
};

/// Registers with `sp` an #error in place of every run of non-directive lines of a
/// skipped region inside `fd` that names one of `buffers` or a pointer variable of fd
/// into __global or __constant memory. Returns the runs.
std::vector<GuardedRun> guard_skipped(clang::ASTContext& ctx, Splicer& sp,
                                      const clang::FunctionDecl* fd,
                                      const std::vector<clang::SourceRange>& skipped,
                                      std::set<std::string> buffers);

}  // namespace dl::annotate
