// Programs: the shadow build deferred until a launch wants it, or run in the background
// (programs.cpp).
#pragma once

#include "runtime.hpp"

namespace dl::rt {

/// Builds the shadow of a program whose build was deferred (DL_POLICY=auto), with the
/// application's options and devices: calibration of its devices when not cached, the
/// shadow, the marshaling programs. Called without the runtime's lock, by the one launch
/// that set `ps.building`; clears `deferred` and `building`.
void build_deferred(ProgramState& ps);

/// Waits (without holding the runtime's lock) until no build of `ps`'s shadow is under way.
void wait_for_build(const ProgramState& ps);

}  // namespace dl::rt
