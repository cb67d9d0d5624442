// A case of the differential tester: a small host program (buffers, queues, host
// threads and a list of OpenCL operations) generated from (seed, case index), printed
// as text, and executed by dl_diff_app. Everything the host observes while executing
// it goes into one digest; DL must not change a byte of it (tests/diff/README.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dl_diff {

/// Element shapes of buffers: three records with padding, two flat arrays of S floats
/// (S odd), and a plain array of uints (outputs of const kernels).
enum class Shape : std::uint8_t { FD, CIS, F4I, F3, F5, U32 };
constexpr int kShapes = 6;

struct ShapeInfo {
  const char* name;  // suffix of the kernels (upd_<name>, ...)
  const char* text;  // what a case prints
  std::size_t size;  // bytes per element
  bool flat;         // a flat array g[n][S]
  bool record;       // has annotated kernels
};
const ShapeInfo& info(Shape s);

/// Kernel forms (tests/diff/kernels/records.cl). Bump is the unannotated byte kernel of
/// tests/diff/kernels/plain.cl, a program without any annotation. Whole copies whole
/// records by the work-item id (unit-stride): dl-annotate keeps its buffer in AoS
/// (`-> AoS`), so DL hands it AoS bytes whatever layout it is in. Emit (flat arrays only)
/// never reads its buffer (`write_only g[n][S]`) and writes every scalar of records [0, n).
/// UpdK and SumK (flat arrays only) read records of K floats, K a kernel argument
/// (`g[n][K]`, `const g[n][K]`: one kernel for every K, whatever S the buffer was made
/// of). Dims takes its count from a field of a struct passed by value (`p[d.count]`,
/// d = {k, count}) and is bounded by cap, as Cap. UpdTK is UpdK in ASTA with a tile width
/// that is a kernel argument too (`g[n][K] -> ASTA(t)`): t varies between launches of one
/// buffer, and a t outside [1, 2^20] makes DL run the kernel untransformed. SwapK swaps two
/// dimensions (`g[m][t][K][J] -> [m][K][t][J]`: m·t records of K rows of J floats, ASTA(t)
/// of rows; m = 1 swaps the two slowest of three); m, t, K and J are arguments. DiagK and
/// DiagMK diagonalize planes (`g[m][t][K] -> DIAG` / `DIAG_MAIN`: m planes of t rows of K
/// floats, each row updated by one work-item); m, t and K are arguments. Gather reads
/// x[idx[i]] of two byte buffers of any shape (`gather: x[idx]`, x of at least 256 bytes so
/// that every index is inside it) into a uint buffer: DL reads a gathered copy of x. Map
/// reads x[scramble(i, s)] of a byte buffer x (`map: x[scramble]`, a permutation of the
/// first 256 bytes, s an argument) into a uint buffer: DL reads the copy its map kernel
/// makes, where i is below x's bytes (m may pass them). SwapD is SwapK with t and J
/// exchanged (`g[m][t][K][J] -> [m][J][K][t]`, two dimensions that are not neighbours:
/// SWAP(t, K) of m·t records of K·J rows of one float).
enum class Form : std::uint8_t {
  Upd,
  UpdDA,
  UpdT,
  UpdG,
  Cap,
  Sum,
  Pair,
  Half,
  Plain,
  Bump,
  Whole,
  Emit,
  UpdK,
  SumK,
  Dims,
  UpdTK,
  SwapK,
  DiagK,
  DiagMK,
  Gather,
  Map,
  SwapD,
  SumSwapD,  // SwapD read only, each record's hash into out (buf2)
  SumDiag,   // DiagK read only, each row's hash into out (buf2)
  SumSwapK   // SwapK read only, each record's hash into out (buf2)
};
/// The kernel's name for a shape; empty when the shape has no such kernel.
std::string kernel_name(Form f, Shape s);
const char* form_text(Form f);

/// How a buffer is created: COPY_HOST_PTR, USE_HOST_PTR (the host array is observed
/// directly), no host pointer (then a blocking write fills it), ALLOC|COPY_HOST_PTR, or
/// no host pointer and first used by Emit over every record (flat arrays without slack
/// bytes only: its undefined bytes are never observed).
enum class Mem : std::uint8_t { Copy, Use, Alloc, AllocCopy, Emit };
/// Which program a kernel comes from: the process-wide one, the program family's own
/// copy of it (rebuilt and queried in cases), or a case's program created from binaries.
enum class Prog : std::uint8_t { Main, Family, Binary };
enum class MapKind : std::uint8_t { Read, Write, Invalidate };

enum class OpKind : std::uint8_t {
  Create,       // buf: shape, mem, records, slack, read_only, seed
  Sub,          // buf = sub-buffer of buf2 at off, size bytes
  Release,      // clReleaseMemObject(buf)
  Launch,       // form on buf (a), buf2 (b of Pair/Half, out of Sum and Gather), buf3 (the
                // index of Gather); n, cap, k, len, g, l
  Read,         // off, size, blocking
  ReadRect,     // rect[]: x, y (rows), width, height, buffer pitch, host pitch; blocking
  Write,        // off, size, blocking, seed
  Fill,         // pattern bytes (pattern), seed, off, size
  Copy,         // buf -> buf2, off -> off2, size
  Map,          // map slot: buf, map_kind, off, size, blocking, seed (bytes it writes)
  Unmap,        // map slot: observes the mapped bytes, then unmaps
  Finish,       // clFinish(queue), then the pending non-blocking reads are observed
  ObserveHost,  // the host array of a USE_HOST_PTR buffer, after its commands finished
  UserEvent,    // Launch that waits on a user event set to status (0: CL_COMPLETE)
  Image,        // image1d_buffer over buf (pattern: bytes per pixel), read pixels off..+size
  Binary,       // options and binaries of the family program; program from the binaries
  Rebuild,      // clBuildProgram on the family program while a kernel of it exists
};

struct Op {
  int id = 0;  // index in the generated program (kept when ops are dropped)
  OpKind kind = OpKind::Finish;
  int thread = 0;  // host thread (phase 1 only)
  int phase = 0;   // 0: before the threads, 1: in the threads, 2: after
  int queue = 0;
  int buf = -1, buf2 = -1;
  int buf3 = -1;       // Gather: the index buffer (buf is x, buf2 the output)
  bool event = false;  // ask for an event (always on out-of-order queues)
  bool blocking = true;
  std::size_t off = 0, off2 = 0, size = 0;
  std::uint32_t seed = 0;
  // Create
  Shape shape = Shape::FD;
  Mem mem = Mem::Copy;
  int records = 0, slack = 0;
  bool read_only = false;
  // Launch, UserEvent
  Form form = Form::Upd;
  Prog prog = Prog::Main;
  int n = 0, cap = 0, k = 0;  // Dims: n is d.count (as a uint: -1 is 0xFFFFFFFF)
  int len = 0;                // UpdK, SumK, UpdTK: K, the floats per record
  int tile = 0;  // UpdTK, SwapK, SwapD: t, the tile width; DiagK, DiagMK: rows per plane
  int row = 0;   // SwapK, SwapD: J, the floats per row (n is m, the outer count);
                 // Map: s, the argument of its map
  std::size_t g = 0, l = 0;  // global and local size (l = 0: NULL)
  int status = 0;            // UserEvent: 0 (CL_COMPLETE) or negative
  bool follow = false;       // UserEvent: a read chained after the launch before the status
  // Map, Unmap
  int map = -1;
  MapKind map_kind = MapKind::Read;
  // Fill, Image
  int pattern = 1;
  int fill_byte = -1;  // Fill: every pattern byte this value (-1: random bytes)
  // ReadRect
  std::size_t rect[6] = {0, 0, 0, 0, 0, 0};
};

struct QueueDesc {
  bool in_order = true;
  int thread = 0;
  int device = 0;  // the session's device (index modulo the number of devices it has)
};

struct Case {
  std::uint64_t seed = 0;
  std::uint64_t index = 0;
  std::string family;
  int threads = 1;
  int buffers = 0;  // buffer ids 0..buffers-1
  int maps = 0;     // map slots 0..maps-1
  std::vector<QueueDesc> queues;
  std::vector<Op> ops;
};

/// The families, in the order --families=all lists them.
const std::vector<std::string>& all_families();
/// Parses "all" or a comma-separated list; throws std::invalid_argument naming an
/// unknown family.
std::vector<std::string> parse_families(const std::string& list);

/// Case `index` of `seed`, its family drawn from `families`.
Case generate(std::uint64_t seed, std::uint64_t index, const std::vector<std::string>& families);

/// The case with only the ops whose ids are in `keep` (sorted ids).
Case restrict_ops(const Case& c, const std::vector<int>& keep);
/// "0,3,5-9" <-> sorted ids. parse throws std::invalid_argument on malformed text.
std::vector<int> parse_ids(const std::string& text);
std::string format_ids(const std::vector<int>& ids);

/// The case as readable text, one op a line.
std::string print(const Case& c);
std::string print(const Op& op);

}  // namespace dl_diff
