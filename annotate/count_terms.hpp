// Terms of count expressions that only the compiler can give a value: `sizeof(type)`
// and fields of by-value struct arguments (docs/annotation.md, "Grammar").
#pragma once

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace dl::annotate {

/// `text` (a dimension expression, macros already expanded) with every `sizeof(type)`
/// replaced by the size Clang computes for the target, and every `arg.member...` of a
/// by-value struct parameter of `fd` completed with its byte offset and integer type
/// (`d.boxes@16:int`), which the runtime reads from the argument's bytes at each launch.
/// nullopt, and why, for a type that is not known or complete, a member that does not
/// exist, or a field that is not an integer.
std::optional<std::string> resolve_count_terms(clang::ASTContext& ctx,
                                               const clang::FunctionDecl* fd,
                                               const std::string& text, std::string& why);

}  // namespace dl::annotate
