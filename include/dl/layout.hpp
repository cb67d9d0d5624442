// DL layout core: record descriptions and layout maps.
//
// A record is a C struct laid out with OpenCL C rules. DL cuts it into *slots*: every
// scalar or vector element of every field is one slot, and every padding gap is cut
// into naturally aligned pieces that are slots too. Slots cover the record's bytes
// exactly, so every layout below is a permutation of the buffer's bytes and every
// conversion is bit-exact, padding included.
//
// Layouts are all instances of one map, ASTA with tile width W:
//
//   offset(i, slot) = (i / T) * T * R  +  w(i) * o  +  (i % T) * z
//
// where R = sizeof(record), o and z are the slot's offset and size in the record,
// and w(i) = T for full tiles and n % T for the last, partial tile. AoS is T = 1, DA
// (one array per slot, back to back) is T >= n. The last tile of an ASTA buffer whose
// n is not a multiple of T is therefore a mini-DA of n % T records.
//
// Two layouts are other maps. DIAG, a grid's planes diagonalized (include/dl/diagonal.hpp,
// docs/remappings.md): its records are the rows of planes of H rows, a record's slots (all
// of one size) the row's elements; each plane is stored diagonal after diagonal. SWAP(T,B),
// a swap of two dimensions that are not neighbours: ASTA(T) with each tile's slot arrays
// reordered, the S = B * D slots (all of one size z) read as a B x D matrix and stored
// transposed:
//
//   offset(i, s) = (i / T) * T * R  +  ((s % D) * B + s / D) * w(i) * z  +  (i % T) * z
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dl {

/// A shape problem found at run time (bad record description, bad layout text...).
class LayoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Scalar : std::uint8_t {
  Char,
  UChar,
  Short,
  UShort,
  Half,
  Int,
  UInt,
  Float,
  Long,
  ULong,
  Double
};

std::size_t scalar_size(Scalar s);
/// OpenCL C spelling: "char", "uchar", ..., "double".
const char* scalar_name(Scalar s);
/// Accepts OpenCL C names (also "unsigned int" style and <stdint.h> names).
bool parse_scalar(std::string_view text, Scalar& out);

/// A field as the user declares it: `float4 pos;` is {Float, 4, 1}, `int v[3]` is
/// {Int, 1, 3}. `align` overrides natural alignment (0 = natural).
struct FieldSpec {
  std::string name;
  Scalar type = Scalar::Float;
  unsigned vector_width = 1;  // 1, 2, 3, 4, 8, 16 (3 is stored as 4, OpenCL C rules)
  unsigned count = 1;         // fixed array length
  std::size_t align = 0;
  /// Scalars per element, moved as one slot (vector_width 1 only): a row of `block`
  /// scalars of a flat array whose dimensions are swapped (docs/remappings.md).
  unsigned block = 1;
};

/// A field as laid out.
struct Field {
  std::string name;
  Scalar type = Scalar::Float;
  unsigned vector_width = 1;
  unsigned count = 1;
  std::size_t offset = 0;     // bytes from the record start
  std::size_t elem_size = 0;  // bytes of one element (a scalar, a vector or a block)
  std::size_t align = 0;
  unsigned block = 1;  // scalars per element (FieldSpec::block)
};

/// A run of bytes that moves as one unit between layouts.
struct Slot {
  std::size_t offset = 0;  // in the record
  std::size_t size = 0;    // a power of two, or a block's multiple of its scalar size
  int field = -1;          // index into fields(), -1 for padding
  unsigned element = 0;    // element of an array field
};

class Record {
 public:
  Record() = default;
  /// Lays fields out with OpenCL C rules (natural alignment, size rounded up to the
  /// record's alignment). `packed` drops all padding; `align` raises the record's
  /// alignment (as __attribute__((aligned(N))) does). Throws LayoutError.
  static Record make(std::string name, const std::vector<FieldSpec>& fields, bool packed = false,
                     std::size_t align = 0);
  /// A record given by explicit offsets and total size (as a compiler reports them).
  /// Fields must not overlap and must fit; gaps become padding slots.
  static Record from_layout(std::string name, std::vector<Field> fields, std::size_t size,
                            std::size_t align);
  /// S scalars of one type: the record of a flat array with a small fastest dimension.
  static Record uniform(std::string name, Scalar type, unsigned count);
  /// `count` slots of `block` scalars each (one field `v`): a plane of a flat array whose
  /// two dimensions are swapped, every row of `block` scalars moved whole.
  static Record blocks(std::string name, Scalar type, unsigned count, unsigned block);

  const std::string& name() const { return name_; }
  const std::vector<Field>& fields() const { return fields_; }
  const std::vector<Slot>& slots() const { return slots_; }
  std::size_t size() const { return size_; }
  std::size_t align() const { return align_; }
  /// Largest power of two dividing every slot size: the unit marshaling kernels move.
  std::size_t unit() const { return unit_; }
  /// True when every slot has the same size (found once: slot_offset asks at every call).
  bool uniform_slots() const { return uniform_; }

  /// Canonical one-line text, parsed back by parse(): the annotation's record form.
  ///   foo 8 4 float:bar@0 int:baz@4
  ///   name size align then type[xW][{B}][*N]:name@offset per field ({B}: a block of B
  ///   scalars per element).
  std::string describe() const;
  static Record parse(std::string_view text);
  /// OpenCL C declaration `typedef struct {...} name;` (explicit padding members).
  std::string to_cl() const;

  /// Equal when describe() is (compared field by field: it runs on every launch).
  bool operator==(const Record& o) const;
  bool operator!=(const Record& o) const { return !(*this == o); }

 private:
  void finish();
  std::string name_;
  std::vector<Field> fields_;
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  std::size_t align_ = 1;
  std::size_t unit_ = 1;
  bool uniform_ = true;
};

/// AoS, DA and ASTA are the tiled map above; Diag and DiagMain diagonalize planes of
/// rows (parallel to the secondary or the main diagonal, include/dl/diagonal.hpp); Swap is
/// ASTA with each tile's slots transposed (the file comment).
enum class LayoutKind : std::uint8_t { AoS, DA, ASTA, Diag, DiagMain, Swap };

/// Largest ASTA tile width T that Layout::parse (annotations, --layout) and DL_TILE take.
inline constexpr std::uint32_t kMaxTile = 1u << 20;
/// Largest record size in bytes (Record::make, from_layout, parse): a bound on the slots
/// a record is cut into, whatever a description says.
inline constexpr std::size_t kMaxRecordSize = std::size_t{1} << 20;

struct Layout {
  LayoutKind kind = LayoutKind::AoS;
  /// T, meaningful for ASTA and Swap; for Diag and DiagMain the rows per plane H (0: one
  /// plane of all n records).
  std::uint32_t tile = 1;
  /// Swap: B, the rows of the matrix a tile's slots are read as (0: not known yet, an
  /// annotation's target before its dimensions are evaluated).
  std::uint32_t split = 0;

  static Layout aos() { return {LayoutKind::AoS, 1}; }
  static Layout da() { return {LayoutKind::DA, 0}; }
  static Layout asta(std::uint32_t t) { return {LayoutKind::ASTA, t}; }
  /// Planes of `rows` records diagonalized (0: the n records are one plane).
  static Layout diag(std::uint32_t rows = 0, bool main = false) {
    return {main ? LayoutKind::DiagMain : LayoutKind::Diag, rows};
  }
  /// ASTA(t) with the slots of each tile, read as a b x (S / b) matrix, transposed.
  static Layout swap(std::uint32_t t, std::uint32_t b) { return {LayoutKind::Swap, t, b}; }

  /// True for AoS, DA and ASTA (the tiled map); false for the diagonal layouts and Swap.
  bool tiled() const {
    return kind == LayoutKind::AoS || kind == LayoutKind::DA || kind == LayoutKind::ASTA;
  }
  /// True for DIAG and DIAG_MAIN (planes diagonalized).
  bool diagonal() const { return kind == LayoutKind::Diag || kind == LayoutKind::DiagMain; }
  /// Effective tile width for n records: AoS 1, DA max(n, 1), ASTA T; for a diagonal
  /// layout the rows of a plane, min(H, n) (H = 0: n), at least 1; Swap min(T, n), at
  /// least 1.
  std::size_t width(std::size_t n) const;
  /// Two layouts are the same map for n records (ASTA(1) == AoS, ASTA(T >= n) == DA,
  /// DIAG(H >= n) == DIAG).
  bool same_map(const Layout& o, std::size_t n) const {
    if (!tiled() || !o.tiled())
      return kind == o.kind && width(n) == o.width(n) &&
             (kind != LayoutKind::Swap || split == o.split);
    const std::size_t a = width(n), b = o.width(n), cap = n ? n : 1;
    return (a < cap ? a : cap) == (b < cap ? b : cap);
  }
  /// "AoS", "DA", "ASTA(32)", "DIAG", "DIAG(64)", "DIAG_MAIN", "DIAG_MAIN(64)", "SWAP(8,3)".
  std::string str() const;
  /// Inverse of str(); T, H and B in [1, kMaxTile]; throws LayoutError.
  static Layout parse(std::string_view text);

  bool operator==(const Layout& o) const {
    return kind == o.kind &&
           (kind == LayoutKind::AoS || kind == LayoutKind::DA || tile == o.tile) &&
           (kind != LayoutKind::Swap || split == o.split);
  }
  bool operator!=(const Layout& o) const { return !(*this == o); }
};

/// Byte offset of slot-run (slot offset o, slot size z) of record i in a buffer of n
/// records of size R stored with tile width W (see the file comment).
inline std::size_t tiled_offset(std::size_t W, std::size_t n, std::size_t R, std::size_t i,
                                std::size_t o, std::size_t z) {
  const std::size_t tile = i / W;
  const std::size_t base = tile * W;
  const std::size_t w = (n - base < W) ? n - base : W;
  return base * R + w * o + (i - base) * z;
}

/// The diagonal layout's shape for n records of `r` (slots of one size): the rows of a
/// plane, the planes (the last may hold fewer rows), the element. Throws LayoutError when
/// the slots differ in size.
struct DiagonalPlanes {
  std::size_t rows = 1, planes = 0, last_rows = 0, elem = 0, nx = 0;
};
DiagonalPlanes diagonal_planes(const Record& r, std::size_t n, const Layout& l);

/// A Swap layout's shape for n records of `r`: the slot matrix B x D of a tile, the slot
/// size z. Throws LayoutError when the slots differ in size or B does not divide them.
struct SwapShape {
  std::size_t b = 1, d = 1, z = 0;
};
SwapShape swap_shape(const Record& r, const Layout& l);

/// Byte offset of slot `slot` of record `i` in layout `l`.
std::size_t slot_offset(const Record& r, std::size_t n, const Layout& l, std::size_t i,
                        std::size_t slot);

/// Bytes a buffer of n records takes: n * size() in every layout.
inline std::size_t buffer_bytes(const Record& r, std::size_t n) {
  return n * r.size();
}

/// The generic converter (the test oracle): copies n records from `src` in layout
/// `from` to `dst` in layout `to`. `src` and `dst` must not overlap.
void convert(const Record& r, std::size_t n, const Layout& from, const void* src, const Layout& to,
             void* dst);

/// Same, in place (through a temporary).
void convert_in_place(const Record& r, std::size_t n, const Layout& from, const Layout& to,
                      void* data);

}  // namespace dl
