// Explicit in-place marshaling on an OpenCL device: the library interface of DL.
//
//   dl::Marshaler m(context, device);
//   auto rec = dl::Record::make("particle", {{"pos", dl::Scalar::Float, 4}, ...});
//   auto r = m.enqueue(queue, buffer, 0, rec, n, dl::Layout::aos(), dl::Layout::asta(32));
//   if (r.status != CL_SUCCESS) ... r.error says why; the buffer is untouched.
//
// Every conversion is in place (at most a small scratch, see Plan::extra_bytes) unless
// Algorithm::OutOfPlace is asked for, bit-exact, for any record, any n, both directions.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dl/diagonal.hpp"
#include "dl/layout.hpp"

namespace spdlog {
class logger;
}

namespace dl {

/// The one logger of DL (spdlog logger "dl", on stderr, level warn by default): the
/// marshaling library and the interposer write to it, DL_LOG_LEVEL sets its level under
/// the interposer, and programs using the library can set it with spdlog.
spdlog::logger& logger();

enum class Algorithm : std::uint8_t {
  Auto,            // the planner chooses
  BarrierSync,     // AoS <-> ASTA: whole tiles through local memory, one barrier
  PttwacInstance,  // AoS <-> ASTA: cycle following inside one ASTA instance, done bits in local
                   // memory
  Pttwac,          // DA <-> ASTA: tile-level cycle following with atomic done flags (paper Alg. 1)
  Pipt,            // DA <-> ASTA: one work-group per cycle (baseline)
  Segmented,       // DA <-> ASTA: race-free segmented cycle following with a bounded scratch
  OutOfPlace,      // any -> any through a temporary buffer (reference)
  ThreePass,       // AoS <-> DA: transposition as column, row, column passes (dl::ThreePass);
                   // records whose slots are all one unit, n up to a work-group's row
  Square,          // AoS <-> ASTA(T) or DA: records of T slots of one size (square tiles, a
                   // swap of two dimensions of equal extent), slot (i, j) <-> (j, i)
  Diagonal,        // AoS <-> DIAG / DIAG_MAIN: copy to a temporary, then the planes
                   // diagonalized back into the buffer (or undone) through local memory
};

const char* algorithm_name(Algorithm a);
/// Accepts the names algorithm_name() prints ("barrier-sync", "pttwac", ...).
bool parse_algorithm(std::string_view text, Algorithm& out);

/// What the planner needs to know of a device.
struct DeviceLimits {
  std::size_t max_work_group_size = 256;
  std::size_t local_mem_bytes = 32 * 1024;
  std::size_t max_alloc_bytes = 0;
  cl_uint compute_units = 1;
  bool gpu = false;
};

/// Knobs of a Marshaler (benchmarks sweep them; defaults suit GPUs and PoCL alike).
struct MarshalOptions {
  /// Local memory a barrier-sync work-group uses for its tiles (0: device default,
  /// min(local memory, 32 KiB)). Tiles larger than this but within local memory run one
  /// per group; larger ones go to PttwacInstance.
  std::size_t tile_local_bytes = 0;
  /// Work-group size of the marshaling kernels (0: min(256, device limit)).
  std::size_t work_group_size = 0;
  /// Work-groups per compute unit in grid-stride launches.
  std::size_t groups_per_cu = 16;
  /// Barrier-sync: work-groups per compute unit to reach before packing several tiles into
  /// one group (small buffers get more groups of fewer tiles).
  std::size_t tile_groups_per_cu = 2;
  /// Refuse a plan whose extra device memory exceeds this (0: no limit beyond 2% of the
  /// buffer, 64 KiB minimum, for the in-place algorithms).
  std::size_t max_extra_bytes = 0;
  /// Segmented DA <-> ASTA: minitiles a worker moves per segment (0: planner's choice
  /// from the 2% memory bound) and loads in flight per worker.
  std::size_t segment_length = 0;
  std::size_t segment_batch = 4;
  /// PttwacInstance: preferred bytes per minitile (16, 32, 48 or 64; 0: 32, one sector).
  std::size_t instance_minitile_bytes = 0;
  /// PttwacInstance, step 2 of full instances: Table follows every cycle at once from a
  /// host table of the instance permutation's cycles (cut into segments where a group's
  /// few long cycles would leave work-items idle; cached per shape, within the in-place
  /// bound); Rounds follows them in rounds with done bits in local memory; Auto takes
  /// Rounds where records have a power-of-two number of units and an instance at most 256
  /// minitiles (short cycles, one round of a work-group), except AoS -> ASTA with 128 or
  /// more minitiles, and Table elsewhere: the faster of the two on the H100.
  enum class Cycles : std::uint8_t { Auto, Table, Rounds };
  Cycles instance_cycles = Cycles::Auto;
  /// Whether Auto takes ThreePass for AoS <-> DA, and for DA <-> ASTA(T) through AoS, where
  /// it can (n up to a work-group's row): Device does on GPUs (where it beats Segmented on
  /// such n; BarrierSync first where one group holds the whole buffer) and not on CPU
  /// devices (where Segmented is faster); Always does everywhere, even before BarrierSync,
  /// and takes Square before BarrierSync too (tests use it).
  enum class Prefer : std::uint8_t { Device, Always, Never };
  Prefer three_pass = Prefer::Device;
  /// A conversion between AoS and SWAP(T,B) (records of B x D rows of C scalars) whose
  /// tiles' matrices the block transposes take is one step out of place under Auto. Any
  /// other conversion to or from SWAP is two conversions of two views of the bytes, in one
  /// of two orders. RecordsFirst: the records to ASTA(T), then each tile's B x D matrix of
  /// rows of T·C scalars (a view of records of D·T·C scalars, ASTA(B)). RowsFirst: each
  /// record's B x D matrix of rows of C scalars (a view of records of D·C scalars,
  /// ASTA(B)), then the records, their rows now in D x B order, to ASTA(T). Out of SWAP the
  /// reverse. Auto takes the one step, else RowsFirst, and RecordsFirst where RowsFirst's
  /// plan is refused; RecordsFirst and RowsFirst always go over the views.
  enum class SwapOrder : std::uint8_t { Auto, RecordsFirst, RowsFirst };
  SwapOrder swap_order = SwapOrder::Auto;
  /// Appended to the build options of the marshaling programs (e.g. "-cl-mad-enable").
  std::string build_options;
  /// Builds a marshaling program in place of clCreateProgramWithSource + clBuildProgram
  /// (the interposer passes one that keeps program binaries on disk): the built program,
  /// or null with the build log in `*log`. Empty: built from source on every Marshaler.
  std::function<cl_program(cl_context, cl_device_id, const std::vector<const char*>& sources,
                           const std::string& options, std::string* log)>
      build_program;
  /// Keep host-side plans (the segment tables of DA <-> ASTA conversions) beyond the
  /// process (the interposer keeps them in a directory of its cache): `load_plan(key,
  /// use)` calls `use` with the bytes saved under `key`, if any, and returns what `use`
  /// returned (whether they made a plan: checked for bounds, not walked again);
  /// `save_plan(key, bytes)` saves them. Empty: every Marshaler makes its plans.
  std::function<bool(const std::string& key, const std::function<bool(const std::string&)>& use)>
      load_plan;
  std::function<void(const std::string& key, const std::string& bytes)> save_plan;
  /// The conversions through a temporary (OutOfPlace between AoS and ASTA(T), or two ASTA
  /// widths; Diagonal of planes) cut the buffer into chunks of whole tiles (planes) of at
  /// most this many bytes, each copied to one temporary of that size and converted from
  /// there back into place: the scratch is bounded whatever the buffer (0: one temporary
  /// of the whole buffer). A tile (plane) larger than it is one chunk; DA (one tile of all
  /// n records) is not cut. max_extra_bytes, where set, bounds the chunks too.
  std::size_t scratch_chunk_bytes = std::size_t{64} << 20;
  /// Testing hook: bytes added to every scratch allocation (forces allocation failures).
  std::size_t scratch_padding = 0;
  /// A conversion of several commands also returns its first command's event
  /// (MarshalResult::first) where the caller asks for `done`: on a profiling queue its
  /// device time is then from the first command's start to the last one's end (on an
  /// in-order queue the commands in between carry no events).
  bool first_event = false;
};

/// One enqueued kernel sequence of a plan.
struct PlanStep {
  Algorithm algorithm = Algorithm::Auto;
  Layout from, to;
};

/// What a conversion will do, decided without touching the device.
struct Plan {
  bool ok = false;
  std::string reason;           // why it was refused, when !ok
  std::vector<PlanStep> steps;  // AoS <-> DA takes two, ASTA(a) <-> ASTA(b) goes through AoS
  std::size_t extra_bytes = 0;  // device memory allocated for the conversion (flags, scratch)
  std::size_t bytes_moved = 0;  // bytes read + written by the kernels (throughput accounting)
  /// A conversion from or to a SWAP layout runs over two views of the bytes (records of
  /// rows, include/dl/layout.hpp): the records of its steps other than the plan's.
  std::vector<std::shared_ptr<const Record>> records;
};

struct MarshalResult {
  cl_int status = CL_SUCCESS;
  std::string error;  // why, when status != CL_SUCCESS (nothing was enqueued then, unless
                      // `partial`)
  Plan plan;
  cl_uint kernels = 0;  // kernels enqueued
  /// Failed after some of its commands were enqueued (the driver refused a later one even
  /// when asked again): the bytes are in neither layout.
  bool partial = false;
  /// The first command's event (MarshalOptions::first_event, several commands, `done`
  /// asked for); the caller releases it.
  cl_event first = nullptr;
};

/// The shape of an indirect copy (a gather): dst[i] = src[index[i]] for i < count.
struct GatherShape {
  std::size_t elem = 0;       // bytes of one element of src and dst (1 .. 1 MiB)
  std::size_t count = 0;      // elements gathered (entries of index read)
  std::size_t src_elems = 0;  // elements src holds from src_offset: an index outside
                              // [0, src_elems) gathers an element of zero bytes
  unsigned index_bytes = 4;   // 1, 2, 4 or 8
  bool index_signed = true;   // the index type is signed (a negative index is outside)
};

namespace detail {
struct SwapLeg;  // one conversion of a conversion from or to SWAP (src/marshal)
}  // namespace detail

/// Converts buffers of one context and device. Thread-safe. Programs are built once per
/// (record shape, T, algorithm) and cached; scratch is allocated per call and released
/// when the conversion's last kernel completes.
class Marshaler {
 public:
  /// `api`: the OpenCL entry points used for every call (the interposer passes its table
  /// of real entry points); nullptr uses the ICD loader's.
  Marshaler(cl_context context, cl_device_id device, const cl_icd_dispatch* api = nullptr);
  Marshaler(cl_context context, cl_device_id device, const cl_icd_dispatch* api,
            const MarshalOptions& options);
  ~Marshaler();
  Marshaler(const Marshaler&) = delete;
  Marshaler& operator=(const Marshaler&) = delete;

  const DeviceLimits& limits() const;
  const MarshalOptions& options() const;

  /// Decides how `from` -> `to` for n records would run. `algorithm` forces one where it
  /// can take the shape; otherwise the plan is refused with a reason.
  Plan plan(const Record& rec, std::size_t n, const Layout& from, const Layout& to,
            Algorithm algorithm = Algorithm::Auto) const;

  /// Builds (or finds in the cache) every program `plan` needs. Build failures come back
  /// as CL_BUILD_PROGRAM_FAILURE with the build log in `log`.
  cl_int prepare(const Record& rec, const Plan& plan, std::string* log = nullptr);
  /// Builds the programs every conversion of `rec` needs (compiled outside the
  /// Marshaler's lock; a failure is remembered and reported again without a rebuild).
  cl_int prepare(const Record& rec, std::string* log = nullptr);

  /// Enqueues the in-place conversion of buffer bytes [offset, offset + n * rec.size())
  /// on `queue` after `wait` events; `done` (if not null) receives an event that
  /// completes with the last kernel. Nothing is enqueued and the buffer is untouched
  /// unless status is CL_SUCCESS. A conversion between equal maps enqueues only a marker.
  MarshalResult enqueue(cl_command_queue queue, cl_mem buffer, std::size_t offset,
                        const Record& rec, std::size_t n, const Layout& from, const Layout& to,
                        Algorithm algorithm = Algorithm::Auto, cl_uint num_wait = 0,
                        const cl_event* wait = nullptr, cl_event* done = nullptr);

  /// Out of place: converts n records at src[src_offset] (layout `from`) into
  /// dst[dst_offset] (layout `to`); the regions must not overlap. AoS <-> DA use the
  /// local-memory tiled transpose (coalesced reads and writes), the pairs copies_tiled
  /// names the block transposes, other pairs the generic map copy (SWAP only AoS <-> SWAP
  /// where the blocks take it). plan.bytes_moved counts the one read and one write.
  MarshalResult enqueue_copy(cl_command_queue queue, cl_mem src, std::size_t src_offset, cl_mem dst,
                             std::size_t dst_offset, const Record& rec, std::size_t n,
                             const Layout& from, const Layout& to, cl_uint num_wait = 0,
                             const cl_event* wait = nullptr, cl_event* done = nullptr);

  /// Whether enqueue_copy moves n records from -> to through local memory, reads and
  /// writes coalesced (the tiled transpose AoS <-> DA where a record fits the local budget;
  /// AoS <-> ASTA(T), DA or SWAP(T, B) in blocks where the slots have one size and each
  /// tile's matrices hold at least 16 x 16 of them, 512 in all), rather than with the map
  /// copy of every other pair (SWAP: no other).
  bool copies_tiled(const Record& rec, std::size_t n, const Layout& from, const Layout& to) const;

  /// Out of place, a part of an array: the `count` AoS records at src[src_offset] are
  /// records [first, first + count) of the n records at dst[dst_offset] in layout `to`,
  /// AoS or DA (the tiled transpose: a record of at most the local budget less 16
  /// bytes); the other records of dst are not touched. The runtime writes an upload into
  /// DA so, one chunk at a time. plan.bytes_moved counts the part's read and write.
  /// Every count, 0 included, is checked against what the part form takes (count 0
  /// enqueues nothing but the marker `done` asks for).
  MarshalResult enqueue_copy_part(cl_command_queue queue, cl_mem src, std::size_t src_offset,
                                  cl_mem dst, std::size_t dst_offset, const Record& rec,
                                  std::size_t n, std::size_t first, std::size_t count,
                                  const Layout& to, cl_uint num_wait = 0,
                                  const cl_event* wait = nullptr, cl_event* done = nullptr);

  /// Out of place: the planes of `shape` at src[src_offset] diagonalized into
  /// dst[dst_offset] (to_diagonal), or back to row-major (include/dl/diagonal.hpp); the
  /// regions must not overlap. `tiled` (the default) moves parallelograms of rows by
  /// diagonals through local memory, so reads and writes stay coalesced; false takes one
  /// element per work-item (the reference). plan.bytes_moved counts a read and a write.
  MarshalResult enqueue_diagonal(cl_command_queue queue, cl_mem src, std::size_t src_offset,
                                 cl_mem dst, std::size_t dst_offset, const DiagonalShape& shape,
                                 bool to_diagonal, bool tiled = true, cl_uint num_wait = 0,
                                 const cl_event* wait = nullptr, cl_event* done = nullptr);

  /// The clipping copy of a diagonalized array (include/dl/diagonal.hpp): `rect` of every
  /// diagonalized plane of `shape` at diag[diag_offset] to row-major h x w arrays, one per
  /// plane, at rect_data[rect_offset] (out), or those arrays back into their places in
  /// the diagonalized planes (!out; the rest untouched): a halo exchanged without
  /// converting the array. The regions must not overlap.
  MarshalResult enqueue_diagonal_clip(cl_command_queue queue, cl_mem diag, std::size_t diag_offset,
                                      cl_mem rect_data, std::size_t rect_offset,
                                      const DiagonalShape& shape, const Rect& rect, bool out,
                                      cl_uint num_wait = 0, const cl_event* wait = nullptr,
                                      cl_event* done = nullptr);

  /// Out of place, an indirect copy (a gather): element i < shape.count of dst[dst_offset]
  /// receives element index[i] of src[src_offset], index[i] being entry i of the array of
  /// shape.index_bytes-byte integers (signed or not) at index[index_offset]; an index
  /// outside [0, shape.src_elems) gives an element of zero bytes (kernels/gather.cl, one
  /// work-item per unit of dst: stores coalesced). Offsets are in bytes; index_offset must
  /// be a multiple of shape.index_bytes. Every region must fit its buffer, and the dst
  /// region must not overlap the src or index region where they share a buffer (src and
  /// index may). Count 0 is checked alike and enqueues nothing but the marker the wait
  /// list or `done` asks for. plan.bytes_moved counts the index read and each element's
  /// read and write.
  MarshalResult enqueue_gather(cl_command_queue queue, cl_mem src, std::size_t src_offset,
                               cl_mem index, std::size_t index_offset, cl_mem dst,
                               std::size_t dst_offset, const GatherShape& shape,
                               cl_uint num_wait = 0, const cl_event* wait = nullptr,
                               cl_event* done = nullptr);

  /// The ASTA tile width the planner recommends on this device.
  std::uint32_t preferred_tile() const;

  struct Impl;

 private:
  /// plan() and enqueue() from or to a SWAP layout: one step out of place between AoS and
  /// SWAP where it takes the shape, else the legs of detail::swap_legs (into *legs where
  /// given, for enqueue_swap to run without computing them again; empty for one step).
  Plan swap_plan(const Record& rec, std::size_t n, const Layout& from, const Layout& to,
                 Algorithm algorithm, std::size_t unit,
                 std::vector<detail::SwapLeg>* legs = nullptr) const;
  /// enqueue() of a plan over legs (or refused), from swap_plan.
  MarshalResult enqueue_swap(cl_command_queue queue, cl_mem buffer, std::size_t offset,
                             const Record& rec, Plan plan, const std::vector<detail::SwapLeg>& legs,
                             Algorithm algorithm, cl_uint num_wait, const cl_event* wait,
                             cl_event* done);
  std::unique_ptr<Impl> impl_;
};

/// The entry points of the ICD loader this library was linked with.
const cl_icd_dispatch& loader_dispatch();

/// A self-contained OpenCL C program with the marshaling kernels specialised for `rec`:
///   AOS2ASTA_<name>, ASTA2AOS_<name> (barrier-sync, T from -DDL_ASTA_T),
///   AOS2DA_<name>, DA2AOS_<name> (out-of-place: src, dst).
/// dl-annotate writes it next to a rewritten kernel (the paper's per-record kernels).
std::string marshal_program_source(const Record& rec);

}  // namespace dl
