// sizeof(type) and by-value struct fields in count expressions, resolved through Clang's
// AST and record layouts.
#include "count_terms.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/RecordLayout.h>

#include <cctype>
#include <map>
#include <vector>

namespace dl::annotate {
namespace {

using namespace clang;

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// A named type of the translation unit: `struct|union|enum tag`, a typedef, or a
/// builtin scalar (OpenCL's short names and C's spellings).
std::optional<QualType> lookup_type(ASTContext& ctx, const std::vector<std::string>& words) {
  if (words.size() == 2 && (words[0] == "struct" || words[0] == "union" || words[0] == "enum")) {
    for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
      if (const auto* td = dyn_cast<TagDecl>(d); td && td->getName() == words[1])
        if (const TagDecl* def = td->getDefinition()) return ctx.getTagDeclType(def);
    return std::nullopt;
  }
  std::string key;
  for (const auto& w : words) key += (key.empty() ? "" : " ") + w;
  static const std::map<std::string, int> builtins = {
      {"char", 0},   {"signed char", 0}, {"uchar", 1},          {"unsigned char", 1},
      {"short", 2},  {"ushort", 3},      {"unsigned short", 3}, {"int", 4},
      {"signed", 4}, {"uint", 5},        {"unsigned int", 5},   {"unsigned", 5},
      {"long", 6},   {"ulong", 7},       {"unsigned long", 7},  {"float", 8},
      {"double", 9}, {"half", 10},       {"bool", 11}};
  if (auto it = builtins.find(key); it != builtins.end()) {
    const QualType types[] = {ctx.CharTy,  ctx.UnsignedCharTy, ctx.ShortTy, ctx.UnsignedShortTy,
                              ctx.IntTy,   ctx.UnsignedIntTy,  ctx.LongTy,  ctx.UnsignedLongTy,
                              ctx.FloatTy, ctx.DoubleTy,       ctx.HalfTy,  ctx.BoolTy};
    return types[it->second];
  }
  if (words.size() != 1) return std::nullopt;
  for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
    if (const auto* td = dyn_cast<TypedefNameDecl>(d); td && td->getName() == words[0])
      return ctx.getTypedefType(td);
  return std::nullopt;
}

/// The words of `sizeof ( ... )` starting at the '(' at `i`; `i` moves past the ')'.
std::optional<std::vector<std::string>> sizeof_words(const std::string& t, std::size_t& i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  if (i >= t.size() || t[i] != '(') return std::nullopt;
  const std::size_t close = t.find(')', i);
  if (close == std::string::npos) return std::nullopt;
  std::vector<std::string> words;
  for (std::size_t j = i + 1; j < close;) {
    if (std::isspace(static_cast<unsigned char>(t[j]))) {
      ++j;
      continue;
    }
    if (!ident_char(t[j])) return std::nullopt;
    std::size_t k = j;
    while (k < close && ident_char(t[k])) ++k;
    words.push_back(t.substr(j, k - j));
    j = k;
  }
  i = close + 1;
  return words;
}

/// The integer type name the runtime reads for a field of `size` bytes.
const char* int_type(std::uint64_t size, bool is_signed) {
  switch (size) {
    case 1:
      return is_signed ? "char" : "uchar";
    case 2:
      return is_signed ? "short" : "ushort";
    case 4:
      return is_signed ? "int" : "uint";
    case 8:
      return is_signed ? "long" : "ulong";
    default:
      return nullptr;
  }
}

}  // namespace

std::optional<std::string> resolve_count_terms(ASTContext& ctx, const FunctionDecl* fd,
                                               const std::string& t, std::string& why) {
  std::string out;
  for (std::size_t i = 0; i < t.size();) {
    if (!(std::isalpha(static_cast<unsigned char>(t[i])) || t[i] == '_')) {
      out += t[i++];
      continue;
    }
    std::size_t j = i;
    while (j < t.size() && ident_char(t[j])) ++j;
    const std::string id = t.substr(i, j - i);
    if (id == "sizeof") {
      auto words = sizeof_words(t, j);
      if (!words || words->empty()) {
        why = "sizeof takes a type name in parentheses";
        return std::nullopt;
      }
      std::string name;
      for (const auto& w : *words) name += (name.empty() ? "" : " ") + w;
      auto type = lookup_type(ctx, *words);
      if (!type || (*type)->isIncompleteType() || (*type)->isDependentType()) {
        why = "sizeof(" + name + "): no complete type of that name";
        return std::nullopt;
      }
      out += "(" + std::to_string(ctx.getTypeSizeInChars(*type).getQuantity()) + ")";
      i = j;
      continue;
    }
    const ParmVarDecl* param = nullptr;
    for (const ParmVarDecl* p : fd->parameters())
      if (p->getName() == id) param = p;
    if (!param && j < t.size() && t[j] == '.') {
      why = "'" + id +
            "' is not a parameter of the kernel (arg.field reads a field of a struct passed by "
            "value)";
      return std::nullopt;
    }
    if (!param || j >= t.size() || t[j] != '.') {
      out += id;
      i = j;
      continue;
    }
    // arg.member.member...: walk the record layouts.
    QualType type = param->getType().getCanonicalType().getUnqualifiedType();
    if (!type->isStructureType() && !type->isUnionType()) {
      why = "'" + id + "' is a parameter of type '" +
            param->getType().getUnqualifiedType().getAsString() + "', not a struct passed by value";
      return std::nullopt;
    }
    std::string path;
    std::uint64_t offset = 0;
    while (j < t.size() && t[j] == '.') {
      std::size_t k = j + 1;
      while (k < t.size() && ident_char(t[k])) ++k;
      const std::string member = t.substr(j + 1, k - j - 1);
      const RecordDecl* rd = type->getAsRecordDecl();
      const FieldDecl* field = nullptr;
      if (rd && rd->getDefinition())
        for (const FieldDecl* f : rd->getDefinition()->fields())
          if (f->getName() == member) field = f;
      if (!field) {
        why = "'" + type.getAsString() + "' has no member '" + member + "'";
        return std::nullopt;
      }
      if (field->isBitField()) {
        why = "'" + id + path + "." + member + "' is a bit-field";
        return std::nullopt;
      }
      offset += ctx.getASTRecordLayout(rd->getDefinition()).getFieldOffset(field->getFieldIndex()) /
                static_cast<std::uint64_t>(ctx.getCharWidth());
      path += "." + member;
      type = field->getType().getCanonicalType().getUnqualifiedType();
      j = k;
    }
    const char* it =
        type->isIntegerType() && !type->isBooleanType()
            ? int_type(ctx.getTypeSizeInChars(type).getQuantity(), type->isSignedIntegerType())
            : nullptr;
    if (!it) {
      why = "'" + id + path + "' is of type '" + type.getAsString() +
            "'; a count reads an integer field";
      return std::nullopt;
    }
    // A completion already written (`@16:int`) is replaced by the one computed here.
    if (j < t.size() && t[j] == '@') {
      ++j;
      while (j < t.size() && (ident_char(t[j]) || t[j] == ':' || t[j] == ' ')) ++j;
    }
    out += id + path + "@" + std::to_string(offset) + ":" + it;
    i = j;
  }
  return out;
}

}  // namespace dl::annotate
