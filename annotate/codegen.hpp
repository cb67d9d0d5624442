// OpenCL C that rewritten kernels use: address helpers (the ASTA map of layout.hpp in
// OpenCL C), whole-record load/store functions, unaligned access wrappers.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "dl/layout.hpp"

namespace dl::annotate {

class Codegen {
 public:
  /// dl_tiled / dl_da / dl_flat and the DL_REF / DL_UREF access macros.
  static std::string preamble();

  /// A function loading the bytes [at, at + size) of record `rec` (a whole record or a
  /// nested struct of type `type`) of record index i from a buffer in tiled layout.
  /// Returns its name; its text is kept under the same key (items()).
  std::string load_fn(const Record& rec, std::size_t at, std::size_t size, const std::string& type,
                      const std::string& as, bool natural);
  /// The store twin of load_fn: returns the value stored.
  std::string store_fn(const Record& rec, std::size_t at, std::size_t size, const std::string& type,
                       const std::string& as, bool natural);
  /// Name of the packed one-member wrapper of `type` (for misaligned accesses).
  std::string unaligned(const std::string& type);
  /// dl_flat_at: element x = S*i + c of a flat array, by a compare where c < S (the slot
  /// c of record i), by dl_flat's division of the kernel's own index x otherwise.
  std::string flat_at();
  /// dl_diag, dl_diag_main (dl_tiled's arguments) and dl_diag_flat (dl_flat's, and the
  /// direction): addresses in a flat array whose planes are diagonalized (Layout::diag).
  std::string diag();
  /// dl_diag_pyc: scalar (p*w + y)*s + c of a diagonalized flat array by plane, row and
  /// column (compares, no division), dl_diag_flat where they fail.
  std::string diag_pyc();
  /// dl_flat_rows: element x of a flat array whose records are s rows of c scalars, a row
  /// one slot (a swap of two dimensions above the fastest): two divisions.
  std::string flat_rows();
  /// dl_rows_at: element (e*s2 + j)*c2 + x of a swap of rows, by compares where s2, c2 are
  /// the record's s, c and j, x lie inside the row; by dl_flat_rows otherwise.
  std::string rows_at();
  /// dl_rows_da: dl_rows_at for one tile of all n records (DA: no division by the width).
  std::string rows_da();
  /// dl_rows_in / dl_rows_in_da: record e, row j, scalar x of a swap of rows where j < s
  /// and x < c are known (no compare); the in-row halves of dl_rows_at and dl_rows_da.
  std::string rows_in();
  std::string rows_in_da();
  /// A swap of two dimensions that are not neighbours ([A][d1][B][d2][C], records of
  /// B x D rows of C scalars, each tile's rows transposed): dl_swap_in / dl_swap_in_da,
  /// record e, row b*D + j, scalar x where b, j and x are known inside (no compare);
  /// dl_flat_swap, element x by three divisions; dl_swap_at / dl_swap_da, element
  /// ((e*b2 + b)*d2 + j)*c2 + x by compares, dl_flat_swap where they fail.
  std::string swap_in();
  std::string swap_in_da();
  std::string flat_swap();
  std::string swap_at();
  std::string swap_da();
  /// The byte offset of element `x` of flat binding `b` (scalars of z bytes): dl_flat, or
  /// dl_flat_rows for a swap of rows (registered as needed).
  std::string flat_element(const std::string& w, const std::string& n, const std::string& s,
                           const std::string& c, std::size_t z, const std::string& x);

  struct Item {
    std::string key, text;
    std::vector<std::string> deps;  // items that must come before it
  };
  const std::vector<Item>& items() const { return items_; }
  const Item* find(const std::string& key) const;

 private:
  std::string copy_fn(bool load, const Record& rec, std::size_t at, std::size_t size,
                      const std::string& type, const std::string& as, bool natural);
  std::vector<Item> items_;
};

/// A name made of [A-Za-z0-9_] from any text.
std::string identifier(const std::string& text);
/// `text` without its white space (to compare expressions as written).
std::string without_spaces(const std::string& text);

}  // namespace dl::annotate
