// Program helpers shared by the launch path.
#pragma once

#include <string>

#include "runtime.hpp"

namespace dl::rt {

/// The untransformed copy of `ps` (same sources and options, no DL_ASTA_T), built on
/// first use. Null (and `error` set) when it does not build.
cl_program build_fallback(ProgramState& ps, std::string* error);

}  // namespace dl::rt
