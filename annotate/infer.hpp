// Inference of the //DL: annotation of a kernel nobody annotated (dl-annotate --infer,
// --auto; docs/annotation.md, "Inferred annotations").
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <string>
#include <vector>

#include "dl/annotation.hpp"
#include "report.hpp"

namespace dl::annotate {

struct KernelInference {
  std::vector<BufferAnnotation> buffers;  // `name[*]` / `name[*][S]`, no target
  std::vector<GatherAnnotation> gathers;  // `x[col]`, `x[fn]` (map), types left to the rewrite
  std::vector<ArgInference> args;         // every pointer parameter, in order
};

/// Candidates of kernel `fd`: each __global/__constant pointer to a struct Clang can lay
/// out as a record, and each pointer to scalars indexed as records of S scalars
/// (`g[S*e + c]`, S an integer constant, macros included), with n = `*`, the whole
/// buffer. Whether the accesses can be rewritten is for the access analysis to decide.
/// And each gather `x[col]` where the kernel reads x[col[e]], both pointers to const,
/// col's elements integers and e stepping with the work-item (the global id a term of
/// its sums): consecutive work-items read consecutive entries of col, so a copy of x
/// gathered through col is read in order too. col is then not inferred as records (a
/// gather needs it as the host lays it out), and x held as records is not gathered.
/// And each map `x[fn]` where the kernel reads x[fn(e, ...)], x a pointer to const not
/// inferred otherwise, fn a function of the program (not a kernel) returning an integer,
/// e stepping with the work-item: the copy of x through fn is read in order. Whether fn's
/// other arguments are fixed for the launch is for the rewrite to decide (else its
/// remark says why the map is dropped).
KernelInference infer_kernel(clang::ASTContext& ctx, const clang::FunctionDecl* fd);

/// Whether the address of element access `a` is taken (`&x[i]`): a gathered or mapped
/// copy cannot stand for it.
bool address_taken(clang::ASTContext& ctx, const clang::ArraySubscriptExpr* a);

/// Why function `fn` cannot be a map's (`map: x[fn]`, whose map kernel calls fn(i, ...)):
/// a kernel, not returning an integer, or not taking one first. Empty when it can.
std::string map_function_why(const clang::FunctionDecl* fn);

}  // namespace dl::annotate
