// Internals of the marshal library: planner, program cache, and the op list an enqueue
// turns a plan into. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dl/marshal.hpp"

namespace dl {
namespace kernels {
// Embedded by dl_embed_kernels() from kernels/*.cl (see kernels/CMakeLists.txt).
extern const char* const dl_index;
extern const char* const copy_map;
extern const char* const tile_local;
}  // namespace kernels

namespace detail {

/// A layout reduced to its map for n records: AoS (w = 1), DA (w >= n) or ASTA(w).
Layout canonical(const Layout& l, std::size_t n);

/// Local memory one barrier-sync group may use, and the hard limit of one tile.
std::size_t tile_local_budget(const DeviceLimits& lim, const MarshalOptions& opt);
std::size_t tile_local_limit(const DeviceLimits& lim);

/// The planner (pure: no OpenCL), behind Marshaler::plan().
Plan make_plan(const DeviceLimits& lim, const MarshalOptions& opt, const Record& rec, std::size_t n,
               const Layout& from, const Layout& to, Algorithm algorithm);

/// Per-unit slot table of `rec` for a unit of `unit` bytes (a divisor of rec.unit()):
/// (start << 16) | size per unit, as kernels/dl_index.h reads it.
std::vector<std::uint32_t> slot_table(const Record& rec, std::size_t unit, bool* uniform);

/// One kernel argument, copied by value.
struct KArg {
  std::vector<unsigned char> bytes;
  std::size_t local = 0;  // > 0: a __local buffer of this many bytes
};

/// One command of a conversion.
struct Op {
  enum class Kind { Kernel, Copy } kind = Kind::Kernel;
  std::string kernel;
  std::vector<KArg> args;
  std::size_t global = 0, local = 0;
  cl_mem src = nullptr, dst = nullptr;  // Copy
  std::size_t src_off = 0, dst_off = 0, bytes = 0;

  template <class V>
  Op& arg(const V& v) {
    KArg a;
    a.bytes.resize(sizeof(V));
    std::memcpy(a.bytes.data(), &v, sizeof(V));
    args.push_back(std::move(a));
    return *this;
  }
  Op& local_arg(std::size_t bytes_) {
    KArg a;
    a.local = bytes_;
    args.push_back(std::move(a));
    return *this;
  }
};

struct Job;

}  // namespace detail

struct Marshaler::Impl {
  cl_context ctx = nullptr;
  cl_device_id dev = nullptr;
  const cl_icd_dispatch* api = nullptr;
  DeviceLimits lim;
  MarshalOptions opt;

  std::mutex mu;  // guards the caches and kernel arguments (kernels are shared)
  std::map<std::string, cl_program> programs;                    // by build options
  std::map<std::string, cl_kernel> kernels;                      // by options + name
  std::map<std::string, std::pair<cl_mem, std::size_t>> tables;  // slot tables by record+unit

  ~Impl();
  cl_int program(unsigned unit, cl_program* out, std::string* log);
  cl_int kernel(unsigned unit, const std::string& name, cl_kernel* out, std::string* log);
  cl_int slot_table_buffer(const Record& rec, unsigned unit, cl_mem* out, bool* uniform);
  std::size_t work_group(cl_kernel k) const;
};

namespace detail {

/// Everything one enqueue() call needs while it turns plan steps into ops.
struct Job {
  Marshaler::Impl& m;
  const Record& rec;
  std::size_t n = 0;
  cl_mem buffer = nullptr;
  std::size_t offset = 0;  // bytes
  unsigned unit = 1;       // bytes per unit
  std::uint32_t ru = 0;    // units per record
  std::uint64_t base = 0;  // offset in units
  cl_mem table = nullptr;  // slot table for `unit`
  cl_uint uni = 0;         // every slot one unit
  std::vector<Op> ops;
  std::vector<cl_mem> scratch;  // released after the ops are enqueued

  Job(Marshaler::Impl& impl, const Record& r) : m(impl), rec(r) {}
  ~Job();
  cl_int alloc(std::size_t bytes, cl_mem* out);
  std::size_t groups(std::size_t wanted) const;
};

// Op builders, one per algorithm (ops_*.cpp). They only append ops and allocate
// scratch; nothing reaches the queue until every step was built.
cl_int add_tile_local(Job& job, const PlanStep& step, std::string* err);
cl_int add_out_of_place(Job& job, const PlanStep& step, std::string* err);

}  // namespace detail
}  // namespace dl
