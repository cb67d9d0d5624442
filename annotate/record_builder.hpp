// Clang types -> dl::Record: a struct's layout as Clang computes it (ASTRecordLayout),
// nested structs and arrays of structs flattened into fields.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Type.h>

#include <optional>
#include <string>

#include "dl/layout.hpp"

namespace dl::annotate {

/// The OpenCL C scalar behind a builtin type (char ... double, enums as their
/// underlying type). False for anything else.
bool scalar_of(clang::QualType t, Scalar& out);

/// Scalar or vector of scalars (float, int4 ...): a "leaf" a slot can hold.
bool is_leaf_type(clang::QualType t);

/// Name the record gets in annotations and generated code: the typedef name when the
/// type is spelled through one, else the struct tag.
std::string record_name(clang::QualType t);

/// Builds the record of struct type `t`. On failure returns nullopt and says why in
/// `error` (unions, bit-fields, pointers, bool ... are not records DL can move).
std::optional<Record> build_record(const clang::ASTContext& ctx, clang::QualType t,
                                   const std::string& name, std::string& error);

/// True when every field element of `r` is aligned in the record to its natural
/// alignment (so ASTA addresses of slots are naturally aligned too).
bool naturally_aligned(const Record& r);

}  // namespace dl::annotate
