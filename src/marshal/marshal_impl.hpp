// Internals of the marshal library: planner, program cache, and the op list an enqueue
// turns a plan into. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dl/cycles.hpp"
#include "dl/marshal.hpp"

namespace dl {
namespace kernels {
// Embedded by dl_embed_kernels() from kernels/*.cl (see kernels/CMakeLists.txt).
extern const char* const dl_index;
extern const char* const copy_map;
extern const char* const tile_local;
extern const char* const tile_instance;
extern const char* const tile_transpose;
extern const char* const tail_shift;
extern const char* const transpose3;
extern const char* const tile_square;
extern const char* const tile_oop;
extern const char* const diagonal;
extern const char* const gather;
}  // namespace kernels

namespace detail {

/// A layout reduced to its map for n records: AoS (w = 1), DA (w >= n) or ASTA(w); a
/// diagonal layout's rows per plane likewise; SWAP as it is.
Layout canonical(const Layout& l, std::size_t n);

/// Local memory one barrier-sync group may use, and the hard limit of one tile.
std::size_t tile_local_budget(const DeviceLimits& lim, const MarshalOptions& opt);
std::size_t tile_local_limit(const DeviceLimits& lim);

/// The planner (pure: no OpenCL), behind Marshaler::plan().
/// `unit`: bytes per unit the buffer offset allows (0: rec.unit()).
Plan make_plan(const DeviceLimits& lim, const MarshalOptions& opt, const Record& rec, std::size_t n,
               const Layout& from, const Layout& to, Algorithm algorithm, std::size_t unit = 0);

/// One conversion of a conversion from or to a SWAP layout: records `rec` (n of them)
/// from `from` to `to`, all tiled layouts.
struct SwapLeg {
  std::shared_ptr<const Record> rec;
  std::size_t n = 0;
  Layout from, to;
};
/// The conversions that take n records of `rec` from `from` to `to` when either is a SWAP
/// layout, in `order` (RecordsFirst or RowsFirst, MarshalOptions::SwapOrder): out of it
/// and into it; empty and `why` when the shape does not allow it.
std::vector<SwapLeg> swap_legs(const Record& rec, std::size_t n, const Layout& from,
                               const Layout& to, MarshalOptions::SwapOrder order, std::string& why);

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
  enum class Kind { Kernel, Copy, Fill } kind = Kind::Kernel;  // Fill: zero dst
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

/// A host plan of a DA <-> ASTA minitile permutation (Segmented, or whole cycles for
/// Pipt): table entries (start, moves | kOwnStart), cut segments first.
struct SegPlan {
  static constexpr std::uint64_t kOwnStart = std::uint64_t(1) << 63;
  std::vector<cl_ulong2> table;
  std::size_t nsave = 0;   // entries [0, nsave) start from a saved minitile
  std::size_t length = 0;  // L: most moves per segment (0: whole cycles)
  std::size_t cycles = 0;  // non-trivial cycles
  bool ok = false;
  std::size_t extra(std::size_t minitile_bytes) const {
    return table.size() * sizeof(cl_ulong2) + nsave * minitile_bytes;
  }
};

/// Walks the cycles of the minitile permutation of N' = np full tiles (dir 0: DA -> ASTA,
/// 1: ASTA -> DA) for the slot table `st` and cuts them into segments. whole: one segment
/// per cycle (Pipt). Otherwise L is the smallest of 32, 64, ... whose table and scratch
/// fit `budget` bytes (fixed_length: use that L); ok = false when none does.
SegPlan make_seg_plan(std::uint64_t np, const SlotTable& st, unsigned dir, bool whole,
                      std::size_t minitile_bytes, std::size_t budget, std::size_t fixed_length);

/// A plan as bytes (for MarshalOptions::save_plan), and back: false when `bytes` are not
/// a plan of a permutation of `count` minitiles (malformed, or a segment out of bounds).
std::string serialize(const SegPlan& plan);
bool parse_seg_plan(const std::string& bytes, std::uint64_t count, SegPlan* plan);

/// One chunk of a tail shift, in units relative to the marshaled region.
struct ShiftChunks {
  std::vector<cl_ulong4> chunks;                               // (src, len, dst, save offset)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> slots;  // chunk ranges, slot order
  std::size_t save_units = 0;
};
/// The head shifts of DA(n) <-> [DA(N'T) heads | tail] (left: DA -> ASTA direction).
ShiftChunks shift_chunks(const std::vector<std::uint32_t>& st, std::uint64_t n, std::uint32_t T,
                         bool left);

/// Extra device bytes of the tail handling of DA <-> ASTA(T) (0 when n % T == 0).
std::size_t tail_extra_bytes(const Record& rec, std::size_t unit, std::size_t n, std::uint32_t T);

/// ThreePass: units of a row each work-item holds in registers (DL_TP_K in
/// kernels/transpose3.cl; the rest of the row is in local memory), the longest row
/// (records) a device's work-group can hold, and the passes for n records (pass 1 is
/// skipped when gcd(units per record, n) = 1).
inline std::size_t three_pass_row_units(std::size_t unit) {
  return unit >= 16 ? 6 : (unit == 8 ? 12 : 24);
}
std::size_t three_pass_row_capacity(const DeviceLimits& lim, const MarshalOptions& opt,
                                    std::size_t unit);
std::size_t three_pass_passes(const Record& rec, std::size_t unit, std::size_t n);

/// Records of an OutOfPlace or Diagonal step that go through the temporary at a time: whole
/// tiles of both layouts (planes of a diagonal layout) within
/// MarshalOptions::scratch_chunk_bytes and max_extra_bytes, at least one tile (plane); n
/// where the step cannot be cut (DA, one plane) or one chunk holds them all.
std::size_t scratch_records(const MarshalOptions& opt, std::size_t n, const PlanStep& s,
                            std::size_t record_bytes);

/// Extra-memory bound of the in-place algorithms: 2% of the buffer, 64 KiB minimum
/// (or MarshalOptions::max_extra_bytes).
std::size_t in_place_budget(const MarshalOptions& opt, std::size_t buffer_bytes);

}  // namespace detail

struct Marshaler::Impl {
  cl_context ctx = nullptr;
  cl_device_id dev = nullptr;
  const cl_icd_dispatch* api = nullptr;
  DeviceLimits lim;
  MarshalOptions opt;

  std::mutex mu;  // guards the caches and kernel arguments (kernels are shared)
  std::map<std::string, cl_program> programs;                    // by build options
  std::map<std::string, std::string> failed;                     // build logs, by options
  std::map<std::string, cl_kernel> kernels;                      // by options + name
  std::map<std::string, std::pair<cl_mem, std::size_t>> tables;  // slot tables by record+unit
  struct SegEntry {
    std::shared_ptr<const detail::SegPlan> plan;
    cl_mem table = nullptr;  // device copy, created on first use
    std::uint64_t used = 0;
  };
  std::map<std::string, SegEntry> seg_plans;  // by permutation (np, slot table, dir, policy)
  std::uint64_t seg_clock = 0;

  /// Finds or computes the segment plan; with `device`, also its device table.
  /// fixed_length: segments of at most that many moves (0: MarshalOptions::segment_length).
  SegEntry* seg_plan(const Record& rec, std::size_t unit, std::size_t n, std::uint32_t T,
                     unsigned dir, Algorithm a, bool device, cl_int* err,
                     std::size_t fixed_length = 0);
  /// Completes a plan from make_plan(): exact extra bytes of Segmented/Pipt steps, and
  /// Segmented replaced by Pttwac (Auto) when its table cannot fit the budget.
  void refine(Plan& p, const Record& rec, std::size_t n, Algorithm requested);

  ~Impl();
  std::string program_options(unsigned unit) const;
  /// Compiles the marshaling program with `options` (no lock needed).
  cl_int build(const std::string& options, cl_program* out, std::string* log) const;
  /// clCreateProgramWithSource + clBuildProgram: the program, or null with the log.
  cl_program build_from_source(const std::vector<const char*>& sources, const std::string& options,
                               std::string* log) const;
  /// The cached program for `unit` (built on a miss); called with `mu` held.
  cl_int program(unsigned unit, cl_program* out, std::string* log);
  cl_int kernel(unsigned unit, const std::string& name, cl_kernel* out, std::string* log);
  cl_int slot_table_buffer(const Record& rec, unsigned unit, cl_mem* out, bool* uniform);
  /// Work-group size of the marshaling kernels: a power of two within the option, the
  /// device's limit and, given a kernel, that kernel's own limit.
  std::size_t work_group(cl_kernel k = nullptr) const;
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
  cl_int alloc(std::size_t bytes, cl_mem* out, const void* init = nullptr);
  std::size_t groups(std::size_t wanted) const;
};

// Op builders, one per algorithm (ops_*.cpp). They only append ops and allocate
// scratch; nothing reaches the queue until every step was built.
cl_int add_tile_local(Job& job, const PlanStep& step, std::string* err);
cl_int add_out_of_place(Job& job, const PlanStep& step, std::string* err);
/// Every record of the job (`count` of add_copy_kernel).
inline constexpr std::size_t kAllRecords = ~std::size_t{0};
/// A temporary of `records` of the job's records (scratch_records: a chunk of them, or
/// all), for the conversions that write the buffer back from a copy.
cl_int add_temporary(Job& job, std::size_t records, cl_mem* tmp, std::string* err);
/// The copy of records [first, first + count) of the job's buffer to the start of `tmp`:
/// a chunk into the temporary, before its conversion back into place.
void add_copy_in(Job& job, cl_mem tmp, std::size_t first, std::size_t count);
/// Diagonalization of `s` from `src` (base in units) to the job's buffer at `dst_base`
/// (units), or back: the tiled kernel where a tile of at least 4 x 4 elements fits local
/// memory (and `tiled`), else the gather.
cl_int add_diagonal(Job& job, cl_mem src, std::uint64_t src_base, std::uint64_t dst_base,
                    const DiagonalShape& s, bool to_diagonal, bool tiled, std::string* err);
/// A plan step AoS <-> DIAG / DIAG_MAIN of the job's buffer (whole planes): the buffer
/// copied to a temporary, then diagonalized from there back into place (or undone), in
/// chunks of whole planes through one temporary of a chunk (scratch_records).
cl_int add_diagonal_layout(Job& job, const PlanStep& step, std::string* err);
/// The clipping copy of `rect` out of the diagonalized planes at `src` (out) or back in.
cl_int add_diagonal_clip(Job& job, cl_mem src, std::uint64_t src_base, const DiagonalShape& s,
                         const Rect& rect, bool out, std::string* err);
/// The gather (Marshaler::enqueue_gather) of shape.count elements into the job's buffer
/// (at job.base, units of job.unit bytes) from `src` (base in units) by the index entries
/// at `index` (base in entries of shape.index_bytes bytes): one dl_gather kernel.
cl_int add_gather(Job& job, cl_mem src, std::uint64_t src_base, cl_mem index,
                  std::uint64_t index_base, const GatherShape& shape, std::string* err);
/// Whether add_copy_kernel takes `from` -> `to` with the tiled transpose (AoS <-> DA, a
/// record within the local budget), which also converts a part of an array.
bool tiled_transpose_takes(const Record& rec, const DeviceLimits& lim, const MarshalOptions& opt,
                           const Layout& from, const Layout& to);
bool tiled_transpose_takes(const Job& job, const Layout& from, const Layout& to);
/// One out-of-place kernel from `src` (base in units) to the job's buffer: the tiled
/// transpose for AoS <-> DA, the generic map copy otherwise. Records [lo, lo + count)
/// of the job's n only (the tiled transpose alone): the AoS side holds just those.
cl_int add_copy_kernel(Job& job, cl_mem src, std::uint64_t src_base, const Layout& from,
                       const Layout& to, std::string* err, std::size_t lo = 0,
                       std::size_t count = kAllRecords);
/// Bytes per unit for buffer offsets `offset` and `other_offset`: rec.unit(), halved until
/// it divides both.
std::size_t offset_unit(const Record& rec, std::size_t offset, std::size_t other_offset);
/// Fills the job's geometry (unit from both offsets, slot table).
cl_int setup(Job& job, std::size_t n, cl_mem buffer, std::size_t offset, std::size_t other_offset);
/// Resolves kernels, then enqueues the job's ops chained with events.
void execute(Job& job, cl_command_queue queue, cl_uint num_wait, const cl_event* wait,
             cl_event* done, MarshalResult& r);
cl_int add_tile_instance(Job& job, const PlanStep& step, std::string* err);
/// PttwacInstance's step-2 table for full instances of w records in chunks of b, G of
/// them per work-group of `lanes` work-items: the whole cycles of the instance permutation
/// (DA <-> ASTA(b) over w records), or, where G times the cycles leave work-items idle,
/// those cycles cut into segments (`cut`) so that G times the entries fill the group;
/// entry nullptr where it is off, too large to walk, or over the in-place bound of n
/// records. `device`: with its device copy. Called with `mu` held.
struct InstanceTable {
  Marshaler::Impl::SegEntry* entry = nullptr;
  bool cut = false;
};
InstanceTable instance_cycles(Marshaler::Impl& m, const Record& rec, std::size_t unit,
                              std::size_t n, std::size_t w, std::size_t b, std::size_t G,
                              std::size_t lanes, bool to_tiled, bool device);
/// Full instances per work-group: their range fits the local budget, and there are still
/// two work-groups per compute unit.
std::size_t instance_group(const DeviceLimits& lim, const MarshalOptions& opt, std::size_t full,
                           std::size_t instance_bytes);
/// Device bytes of the step-2 table for n records at the chunking of a 16-byte aligned buffer.
std::size_t instance_table_bytes(Marshaler::Impl& m, const Record& rec, std::size_t n,
                                 std::size_t w, bool to_tiled);
cl_int add_da_asta(Job& job, const PlanStep& step, std::string* err);
cl_int add_three_pass(Job& job, const PlanStep& step, std::string* err);
cl_int add_square(Job& job, const PlanStep& step, std::string* err);
/// The matrices the block transposes of kernels/tile_oop.cl move for n records of `rec`
/// from -> to: AoS <-> ASTA(T), DA or SWAP(T, M) where every slot has one size and a
/// tile's bytes stay below 2^32; each tile of T records holds M matrices of T x D slots
/// (M = 1 but for SWAP).
struct BlockShape {
  bool forward = true;  // from AoS
  bool swap = false;    // the tiled side is SWAP
  std::size_t T = 1, M = 1, D = 1;
};
std::optional<BlockShape> block_copy_shape(const Record& rec, std::size_t n, const Layout& from,
                                           const Layout& to);
/// Whether OutOfPlace and enqueue_copy move from -> to through the block transposes: a
/// shape above whose matrices hold at least 16 records and 16 slots, 512 in all.
bool block_copy_takes(const Record& rec, std::size_t n, const Layout& from, const Layout& to);
bool block_copy_takes(const BlockShape& s, std::size_t n);
/// Units of one block of B x B elements of z units in local memory: B rows at the stride
/// kernels/tile_square.cl gives them (congruent to z modulo 32 where z < 32); the blocks
/// of kernels/tile_oop.cl alike.
std::size_t square_block_units(std::size_t B, std::size_t z);
/// Square: the side B of the blocks two of which (B x B slots of z units) fit
/// `budget_units` of local memory unpadded, at most T, rounded down to a multiple of
/// 32 / gcd(z, 32) where it is larger, with their padded rows (kernels/tile_square.cl)
/// within `limit_units`; 0 when not even two slots fit.
std::size_t square_block(std::size_t budget_units, std::size_t limit_units, std::size_t z,
                         std::size_t T);
/// The same for the device's local memory budget and limit in units of `unit` bytes.
std::size_t square_block(const DeviceLimits& lim, const MarshalOptions& opt, std::size_t unit,
                         std::size_t z, std::size_t T);

}  // namespace detail
}  // namespace dl
