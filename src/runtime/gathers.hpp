// Gathered copies for `gather:` clauses at a launch (gathers.cpp).
#pragma once

#include <string>
#include <vector>

#include "runtime.hpp"

namespace dl::rt {

/// One gather of a launch: clause `clause` of the kernel's annotation reads x[index[i]].
struct GatherUse {
  std::size_t clause = 0;
  cl_mem x = nullptr, index = nullptr;
  GatherShape shape;
  std::size_t bytes = 0;           // of the copy
  int slot = -1;                   // its entry in Runtime::gathered; -1: none yet
  bool build = false;              // the copy must be gathered (again) before the launch
  double cost_ns = 0;              // what its last gather took on the device (0: not measured)
  cl_kernel map = nullptr;         // a map's kernel (KernelState::map_kernels)
  std::vector<unsigned char> key;  // a map's: the values of the arguments it reads
};

/// What the gathers of a launch of `ks` need; empty `why` when they can be served.
std::vector<GatherUse> gather_needs(Runtime& rt, const KernelState& ks, std::string& why);

/// Gathers the copies `uses` needs on `q` (after `w`, which then holds the gathers) and
/// passes them to the DL builds of `ks`; `kp` (the controller's rule of the launch, or
/// null) has its epoch ended when a copy it read goes stale. Why it failed, or empty; a
/// failure leaves nothing to undo (a copy it could not gather is built again next time).
std::string gather_copies(Runtime& rt, KernelState& ks, cl_command_queue q,
                          const std::vector<GatherUse>& uses, WaitList& w,
                          const std::shared_ptr<KernelPolicy>& kp);

/// A `const` argument bound to host-visible memory (CL_MEM_USE_HOST_PTR), which DL never
/// converts in place: the launch reads a copy of it in the annotation's layout instead,
/// made on the device from the host's bytes before the launch: at every launch (the host
/// may change them without a command), or under DL_HOST_PTR=keep once until a command may
/// write them. docs/runtime.md, "Host-visible memory: layout copies".
struct HostCopyUse {
  cl_mem x = nullptr;
  const Record* rec = nullptr;
  std::size_t n = 0;
  Layout to;
  std::vector<cl_uint> at;  // the parameters of the DL builds bound to x
  std::string arg;          // for messages
};

/// Whether `c` is the layout copy of x's n records of `rec` in `to` (valid or not).
bool is_layout_copy(const GatheredCopy& c, cl_mem x, const Layout& to, std::size_t n,
                    const Record& rec);

/// Makes the copies `uses` needs on `q` (after `w`, which then holds them) and passes
/// them to the DL builds of `ks` in place of the host-visible buffers; `spans` gets each
/// copy's first and last command, retained (the controller counts them with the launch;
/// the caller releases them). Why it failed, or empty; nothing to undo either way (the
/// application's buffers are only read).
std::string host_copies(Runtime& rt, KernelState& ks, cl_command_queue q,
                        const std::vector<HostCopyUse>& uses, WaitList& w, Spans& spans);

/// After the launch was enqueued (or not): the DL builds take the application's buffers
/// again, as the application set them.
void host_copies_done(const KernelState& ks, const std::vector<HostCopyUse>& uses);

/// Whether argument `i` of `ks` is an array its gathers read (the kernel never writes it).
bool gathered_arg(const KernelState& ks, std::size_t i);

}  // namespace dl::rt
