// Skipped conditional regions of rewritten functions (see skipped_regions.hpp).
#include "skipped_regions.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

namespace dl::annotate {
namespace {

using namespace clang;

/// Names of the pointer variables of a function into __global or __constant memory.
class PointerVars : public RecursiveASTVisitor<PointerVars> {
 public:
  explicit PointerVars(std::set<std::string>& out) : out_(out) {}
  bool VisitVarDecl(VarDecl* v) {
    const QualType t = v->getType();
    if (t->isPointerType()) {
      const LangAS as = t->getPointeeType().getAddressSpace();
      if (as == LangAS::opencl_global || as == LangAS::opencl_constant)
        out_.insert(v->getNameAsString());
    }
    return true;
  }

 private:
  std::set<std::string>& out_;
};

/// The first identifier of `text` that is in `names` (comments and literals skipped).
std::string named_in(const ASTContext& ctx, const std::string& text,
                     const std::set<std::string>& names) {
  // The raw lexer wants a NUL after the buffer: std::string has one.
  Lexer lex(SourceLocation(), ctx.getLangOpts(), text.data(), text.data(),
            text.data() + text.size());
  Token tok;
  while (!lex.LexFromRawLexer(tok)) {
    if (tok.is(tok::raw_identifier) && names.count(tok.getRawIdentifier().str()))
      return tok.getRawIdentifier().str();
  }
  if (tok.is(tok::raw_identifier) && names.count(tok.getRawIdentifier().str()))
    return tok.getRawIdentifier().str();
  return {};
}

bool is_directive(llvm::StringRef line) {
  return line.ltrim(" \t\r").startswith("#");
}

}  // namespace

std::vector<GuardedRun> guard_skipped(ASTContext& ctx, Splicer& sp, const FunctionDecl* fd,
                                      const std::vector<SourceRange>& skipped,
                                      std::set<std::string> buffers) {
  std::vector<GuardedRun> out;
  unsigned fb = 0, fe = 0;
  if (!sp.offsets(fd->getSourceRange(), fb, fe)) return out;
  PointerVars(buffers).TraverseDecl(const_cast<FunctionDecl*>(fd));
  const SourceManager& sm = ctx.getSourceManager();
  const llvm::StringRef file = sm.getBufferData(sm.getMainFileID());
  for (const SourceRange& r : skipped) {
    if (!sm.isInMainFile(r.getBegin())) continue;
    const unsigned rb = sm.getFileOffset(r.getBegin());
    unsigned re =
        r.getEnd().isValid() && sm.isInMainFile(r.getEnd()) ? sm.getFileOffset(r.getEnd()) : rb;
    if (rb < fb || rb >= fe) continue;
    re = std::min<unsigned>(std::max(re, rb), static_cast<unsigned>(file.size()));
    // Lines of the region: directives (with their continuations) stay, runs of other
    // lines that name a buffer become one #error line.
    unsigned pos = rb, run = rb;
    bool in_directive = false;
    auto flush = [&](unsigned end) {
      if (end <= run) return;
      const std::string name = named_in(ctx, file.substr(run, end - run).str(), buffers);
      if (!name.empty()) {
        const std::string msg =
            "#error \"dl-annotate did not see this code (it ran with other -D "
            "options) and it uses '" +
            name + "': rerun dl-annotate with this build's options\"\n";
        sp.replace_offsets(run, end, [msg] { return msg; });
        out.push_back({run, end, name});
      }
    };
    while (pos < re) {
      std::size_t nl = file.find('\n', pos);
      const unsigned next = nl == llvm::StringRef::npos ? re : static_cast<unsigned>(nl) + 1;
      const llvm::StringRef line = file.substr(pos, next - pos);
      const bool directive = in_directive || is_directive(line);
      if (directive) {
        flush(pos);
        run = next;
      }
      in_directive = directive && line.rtrim("\r\n").rtrim(" \t").endswith("\\");
      pos = next;
    }
    flush(std::min(pos, re));
  }
  return out;
}

}  // namespace dl::annotate
