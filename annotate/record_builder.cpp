// Clang types -> dl::Record (see record_builder.hpp).
#include "record_builder.hpp"

#include <clang/AST/Decl.h>
#include <clang/AST/RecordLayout.h>

#include <vector>

namespace dl::annotate {
namespace {

using clang::QualType;

bool flatten(const clang::ASTContext& ctx, QualType t, const std::string& name, std::size_t offset,
             std::vector<Field>& out, std::string& error);

bool add_leaf_or_array(const clang::ASTContext& ctx, QualType t, const std::string& name,
                       std::size_t offset, std::vector<Field>& out, std::string& error) {
  // Peel constant arrays: float m[2][3] is 6 floats; arrays of structs flatten per element.
  unsigned count = 1;
  QualType elem = t;
  while (const auto* at = ctx.getAsConstantArrayType(elem)) {
    count *= static_cast<unsigned>(at->getSize().getZExtValue());
    elem = at->getElementType();
  }
  if (count == 0) {
    error = "field '" + name + "' is a zero-length array";
    return false;
  }
  Field f;
  f.name = name;
  f.offset = offset;
  f.count = count;
  if (const auto* vt = elem->getAs<clang::VectorType>()) {
    if (!scalar_of(vt->getElementType(), f.type)) {
      error = "field '" + name + "' is a vector of an unsupported element type";
      return false;
    }
    f.vector_width = vt->getNumElements();
    out.push_back(f);
    return true;
  }
  if (scalar_of(elem, f.type)) {
    out.push_back(f);
    return true;
  }
  if (elem->isStructureType()) {
    const std::size_t es = static_cast<std::size_t>(ctx.getTypeSizeInChars(elem).getQuantity());
    if (count == 1 && !ctx.getAsConstantArrayType(t))
      return flatten(ctx, elem, name, offset, out, error);
    for (unsigned i = 0; i < count; ++i)
      if (!flatten(ctx, elem, name + "_" + std::to_string(i), offset + i * es, out, error))
        return false;
    return true;
  }
  if (elem->isUnionType())
    error = "field '" + name + "' is a union (not supported)";
  else if (elem->isPointerType())
    error = "field '" + name + "' is a pointer (not allowed in buffers)";
  else if (elem->isBooleanType())
    error = "field '" + name + "' is a bool (its size is implementation-defined)";
  else
    error = "field '" + name + "' has unsupported type '" + elem.getAsString() + "'";
  return false;
}

bool flatten(const clang::ASTContext& ctx, QualType t, const std::string& prefix,
             std::size_t offset, std::vector<Field>& out, std::string& error) {
  const auto* rt = t->getAs<clang::RecordType>();
  if (!rt || rt->getDecl()->isUnion()) {
    error = "'" + t.getAsString() + "' is not a struct";
    return false;
  }
  const clang::RecordDecl* rd = rt->getDecl()->getDefinition();
  if (!rd) {
    error = "struct '" + t.getAsString() + "' is incomplete";
    return false;
  }
  const clang::ASTRecordLayout& lay = ctx.getASTRecordLayout(rd);
  for (const clang::FieldDecl* fd : rd->fields()) {
    std::string name = fd->getName().str();
    if (name.empty()) name = "anon" + std::to_string(fd->getFieldIndex());
    if (!prefix.empty()) name = prefix + "_" + name;
    if (fd->isBitField()) {
      error = "field '" + name + "' is a bit-field (not supported)";
      return false;
    }
    const std::size_t off =
        offset + static_cast<std::size_t>(lay.getFieldOffset(fd->getFieldIndex()) / 8);
    if (!add_leaf_or_array(ctx, fd->getType(), name, off, out, error)) return false;
  }
  if (out.empty()) error = "struct '" + t.getAsString() + "' has no fields";
  return !out.empty();
}

}  // namespace

bool scalar_of(QualType t, Scalar& out) {
  t = t.getCanonicalType();
  if (const auto* et = t->getAs<clang::EnumType>())
    t = et->getDecl()->getIntegerType().getCanonicalType();
  const auto* bt = t->getAs<clang::BuiltinType>();
  if (!bt) return false;
  switch (bt->getKind()) {
    case clang::BuiltinType::Char_S:
    case clang::BuiltinType::SChar:
      out = Scalar::Char;
      return true;
    case clang::BuiltinType::Char_U:
    case clang::BuiltinType::UChar:
      out = Scalar::UChar;
      return true;
    case clang::BuiltinType::Short:
      out = Scalar::Short;
      return true;
    case clang::BuiltinType::UShort:
      out = Scalar::UShort;
      return true;
    case clang::BuiltinType::Half:
      out = Scalar::Half;
      return true;
    case clang::BuiltinType::Int:
      out = Scalar::Int;
      return true;
    case clang::BuiltinType::UInt:
      out = Scalar::UInt;
      return true;
    case clang::BuiltinType::Float:
      out = Scalar::Float;
      return true;
    case clang::BuiltinType::Long:
      out = Scalar::Long;
      return true;
    case clang::BuiltinType::ULong:
      out = Scalar::ULong;
      return true;
    case clang::BuiltinType::Double:
      out = Scalar::Double;
      return true;
    default:
      return false;
  }
}

bool is_leaf_type(QualType t) {
  Scalar s;
  if (const auto* vt = t->getAs<clang::VectorType>()) return scalar_of(vt->getElementType(), s);
  return scalar_of(t, s);
}

std::string record_name(QualType t) {
  if (const auto* td = t->getAs<clang::TypedefType>()) return td->getDecl()->getName().str();
  if (const auto* rt = t->getAs<clang::RecordType>()) {
    const clang::RecordDecl* rd = rt->getDecl();
    if (!rd->getName().empty()) return rd->getName().str();
    if (const auto* tdn = rd->getTypedefNameForAnonDecl()) return tdn->getName().str();
  }
  return "record";
}

std::optional<Record> build_record(const clang::ASTContext& ctx, QualType t,
                                   const std::string& name, std::string& error) {
  std::vector<Field> fields;
  if (!flatten(ctx, t, "", 0, fields, error)) return std::nullopt;
  const auto size = static_cast<std::size_t>(ctx.getTypeSizeInChars(t).getQuantity());
  const auto align = static_cast<std::size_t>(ctx.getTypeAlignInChars(t).getQuantity());
  try {
    return Record::from_layout(name, std::move(fields), size, align);
  } catch (const LayoutError& e) {
    error = e.what();
    return std::nullopt;
  }
}

bool naturally_aligned(const Record& r) {
  for (const auto& s : r.slots())
    if (s.field >= 0) {
      const std::size_t a = r.fields()[static_cast<std::size_t>(s.field)].elem_size;
      if (s.offset % a != 0 || r.size() % a != 0) return false;
    }
  return true;
}

}  // namespace dl::annotate
