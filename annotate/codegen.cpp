// OpenCL C helpers emitted into rewritten sources (see codegen.hpp).
#include "codegen.hpp"

#include <cctype>
#include <sstream>

namespace dl::annotate {
namespace {

/// Row k of a swap's record e (dl_swap_in, dl_swap_in_da).
constexpr const char* kSwapRow =
    "  /* Row j bb + b inside the first n records, b d + j past them: linear in j\n"
    "     with factors fixed per record, which a loop over j strength-reduces (a\n"
    "     select between the two rows kept GPU compilers from doing so). */\n"
    "  const dl_off jm = e < n ? bb : 1, bm = e < n ? 1 : d, k = j * jm + b * bm;\n";

/// Integer (vector) type moving `size` bytes in one access.
std::string unit_type(std::size_t size) {
  switch (size) {
    case 1:
      return "uchar";
    case 2:
      return "ushort";
    case 4:
      return "uint";
    case 8:
      return "ulong";
    case 16:
      return "uint4";
    case 32:
      return "ulong4";
    case 64:
      return "ulong8";
    case 128:
      return "ulong16";
    default:
      return "";
  }
}

std::string as_suffix(const std::string& as) {
  return as == "__constant" ? "c" : "g";
}

}  // namespace

std::string identifier(const std::string& text) {
  std::string o;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (ok)
      o += c;
    else if (!o.empty() && o.back() != '_')
      o += '_';
  }
  while (!o.empty() && o.back() == '_') o.pop_back();
  if (o.empty() || (o[0] >= '0' && o[0] <= '9')) o = "t" + o;
  return o;
}

std::string without_spaces(const std::string& text) {
  std::string o;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) o += c;
  return o;
}

std::string Codegen::preamble() {
  return "/* dl-annotate: address helpers of the ASTA/DA layouts (docs/annotation.md). */\n"
         "#ifndef DL_ANNOTATE_HELPERS\n"
         "#define DL_ANNOTATE_HELPERS\n"
         "/* Indices, divisions and compares in 32 bits unless DL_OFFSET64 is defined (64-bit\n"
         "   integer arithmetic costs GPUs several instructions per operation, yet some\n"
         "   kernels run faster with it: DL's runtime builds both and keeps the faster per\n"
         "   kernel; a buffer of 4 GiB or more needs DL_OFFSET64). Byte offsets are 64-bit,\n"
         "   each term widened before its multiply, so that address arithmetic in loops\n"
         "   needs no zero extension of a 32-bit sum. */\n"
         "#ifdef DL_OFFSET64\n"
         "typedef ulong dl_off;\n"
         "#else\n"
         "typedef uint dl_off;\n"
         "#endif\n"
         "/* Byte offset of the slot (offset o, size z) of record i of n records of r bytes,\n"
         "   tiles of w records; the last, partial tile holds n % w records. Records i >= n\n"
         "   are outside the marshaled range and keep their AoS address. Linear in o with\n"
         "   factors fixed per record, which a loop over o strength-reduces. */\n"
         "static inline ulong dl_tiled(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,\n"
         "                             dl_off z) {\n"
         "  const dl_off b = i < n ? i / w * w : i, m = i < n ? (n - b < w ? n - b : w) : 1;\n"
         "  return (ulong)b * r + (ulong)m * o + (ulong)(i - b) * z;\n"
         "}\n"
         "/* The same for one tile of all n records (DA). */\n"
         "static inline ulong dl_da(dl_off n, dl_off r, dl_off i, dl_off o, dl_off z) {\n"
         "  return (ulong)(i < n ? n : 1) * o + (ulong)i * (i < n ? z : r);\n"
         "}\n"
         "/* Element x of a flat array of records of s scalars of z bytes. */\n"
         "static inline ulong dl_flat(dl_off w, dl_off n, dl_off s, dl_off z, dl_off x) {\n"
         "  const dl_off i = x / s;\n"
         "  return dl_tiled(w, n, s * z, i, (x - i * s) * z, z);\n"
         "}\n"
         "#define DL_REF(AS, TYPE, BASE, OFF) (*(AS TYPE *)((AS uchar *)(BASE) + (OFF)))\n"
         "#define DL_UREF(AS, TYPE, BASE, OFF) \\\n"
         "  (((AS dl_unaligned_##TYPE *)((AS uchar *)(BASE) + (OFF)))->v)\n"
         "#endif\n";
}

const Codegen::Item* Codegen::find(const std::string& key) const {
  for (const auto& i : items_)
    if (i.key == key) return &i;
  return nullptr;
}

std::string Codegen::flat_at() {
  const std::string name = "dl_flat_at";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Element x = s*i + c of a flat array: slot c of record i when c < s (a compare),\n"
         "   else through dl_flat (a division) of x as the kernel computes it (a column\n"
         "   that wrapped at its own width, x - 1 of a uint x = 0, is not below s). */\n"
         "static inline ulong dl_flat_at(dl_off w, dl_off n, dl_off s, dl_off z, dl_off i,\n"
         "                               dl_off c, dl_off x) {\n"
         "  return c < s ? dl_tiled(w, n, s * z, i, c * z, z) : dl_flat(w, n, s, z, x);\n"
         "}\n",
         {}});
  return name;
}

std::string Codegen::diag() {
  const std::string name = "dl_diag";
  if (!find(name))
    items_.push_back(
        {name,
         "/* A flat array whose planes of w rows of s = r / z scalars are diagonalized\n"
         "   (DIAG: diagonal d = x + y; DIAG_MAIN: d = s - 1 - x + y; each diagonal in\n"
         "   increasing y): the byte offset of the scalar at byte o of row i. Rows i >= n\n"
         "   keep their AoS address; n is a whole number of planes. */\n"
         "static inline ulong dl_diag_in(dl_off w, dl_off s, dl_off p, dl_off y, dl_off c,\n"
         "                               dl_off z, int mirror);\n"
         "static inline ulong dl_diag_at(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,\n"
         "                               dl_off z, int mirror) {\n"
         "  if (i >= n) return (ulong)i * r + o;\n"
         "  const dl_off p = i / w;\n"
         "  return dl_diag_in(w, r / z, p, i - p * w, o / z, z, mirror);\n"
         "}\n"
         "/* Scalar c of row y of plane p (y < w, c < s). In dl_off: a plane's positions fit\n"
         "   it (a buffer of 4 GiB or more builds with DL_OFFSET64), and so does every term\n"
         "   below. */\n"
         "static inline ulong dl_diag_in(dl_off w, dl_off s, dl_off p, dl_off y, dl_off c,\n"
         "                               dl_off z, int mirror) {\n"
         "  const dl_off x = mirror ? s - 1 - c : c;\n"
         "  const dl_off d = x + y, a = min(s, w), b = max(s, w);\n"
         "  dl_off start;\n"
         "  if (d < a) {\n"
         "    start = d * (d + 1) / 2;\n"
         "  } else if (d < b) {\n"
         "    start = a * (a - 1) / 2 + (d - (a - 1)) * a;\n"
         "  } else {\n"
         "    const dl_off m = s + w - 1 - d;\n"
         "    start = s * w - m * (m + 1) / 2;\n"
         "  }\n"
         "  return ((ulong)p * w * s + (start + y - (d >= s ? d - (s - 1) : 0))) * z;\n"
         "}\n"
         "static inline ulong dl_diag(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o, dl_off z) "
         "{\n"
         "  return dl_diag_at(w, n, r, i, o, z, 0);\n"
         "}\n"
         "static inline ulong dl_diag_main(dl_off w, dl_off n, dl_off r, dl_off i, dl_off o,\n"
         "                                 dl_off z) {\n"
         "  return dl_diag_at(w, n, r, i, o, z, 1);\n"
         "}\n"
         "/* Scalar x of the diagonalized flat array (rows of s scalars of z bytes). */\n"
         "static inline ulong dl_diag_flat(dl_off w, dl_off n, dl_off s, dl_off z, dl_off x,\n"
         "                                 int mirror) {\n"
         "  const dl_off i = x / s;\n"
         "  return dl_diag_at(w, n, s * z, i, (x - i * s) * z, z, mirror);\n"
         "}\n"
         "/* Scalar x = s*i + c: scalar c of row i when c < s (a compare), else as above,\n"
         "   from x as the kernel computes it. */\n"
         "static inline ulong dl_diag_rc(dl_off w, dl_off n, dl_off s, dl_off z, dl_off i,\n"
         "                               dl_off c, dl_off x, int mirror) {\n"
         "  return c < s ? dl_diag_at(w, n, s * z, i, c * z, z, mirror)\n"
         "               : dl_diag_flat(w, n, s, z, x, mirror);\n"
         "}\n",
         {}});
  return name;
}

std::string Codegen::diag_pyc() {
  const std::string name = "dl_diag_pyc";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Scalar f = (p*w2 + y)*s2 + c of a diagonalized flat array: where the kernel's own\n"
         "   w2 and s2 are the layout's rows per plane and scalars per row, and p, y and c lie\n"
         "   inside the planes, the plane and the row (compares; n / w is uniform), scalar c of\n"
         "   row y of plane p with no division; otherwise as dl_diag_flat of f as the kernel\n"
         "   computes it (a row or column that wrapped at its own width is not inside). */\n"
         "static inline ulong dl_diag_pyc(dl_off w, dl_off n, dl_off s, dl_off z, dl_off w2,\n"
         "                                dl_off s2, dl_off p, dl_off y, dl_off c, dl_off f,\n"
         "                                int mirror) {\n"
         "  if (w2 == w && s2 == s && y < w && c < s && p < n / w)\n"
         "    return dl_diag_in(w, s, p, y, c, z, mirror);\n"
         "  return dl_diag_flat(w, n, s, z, f, mirror);\n"
         "}\n",
         {diag()}});
  return name;
}

std::string Codegen::flat_rows() {
  const std::string name = "dl_flat_rows";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Element x of a flat array whose records are s rows of c scalars of z bytes, a\n"
         "   row one slot (a swap of two dimensions): record x / (s c), row and scalar in it. */\n"
         "static inline ulong dl_flat_rows(dl_off w, dl_off n, dl_off s, dl_off c, dl_off z,\n"
         "                                 dl_off x) {\n"
         "  const dl_off l = s * c, i = x / l, r = x - i * l, q = r / c;\n"
         "  return dl_tiled(w, n, l * z, i, q * c * z, c * z) + (ulong)(r - q * c) * z;\n"
         "}\n",
         {}});
  return name;
}

std::string Codegen::rows_in() {
  const std::string name = "dl_rows_in";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Record e, row j, scalar x of a swap of rows, records of s rows of c scalars of z\n"
         "   bytes, tiles of w records, where j < s and x < c are known. */\n"
         "static inline ulong dl_rows_in(dl_off w, dl_off n, dl_off s, dl_off c, dl_off z,\n"
         "                               dl_off e, dl_off j, dl_off x) {\n"
         "  return dl_tiled(w, n, s * c * z, e, j * c * z, c * z) + (ulong)x * z;\n"
         "}\n",
         {}});
  return name;
}

std::string Codegen::rows_in_da() {
  const std::string name = "dl_rows_in_da";
  if (!find(name))
    items_.push_back(
        {name,
         "/* dl_rows_in for one tile of all n records (DA): ((j n + e) c + x) z. */\n"
         "static inline ulong dl_rows_in_da(dl_off n, dl_off s, dl_off c, dl_off z, dl_off e,\n"
         "                                  dl_off j, dl_off x) {\n"
         "  return dl_da(n, s * c * z, e, j * c * z, c * z) + (ulong)x * z;\n"
         "}\n",
         {}});
  return name;
}

std::string Codegen::rows_at() {
  const std::string name = "dl_rows_at";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Element f = (e*s2 + j)*c2 + x of a swap of rows: where the kernel's own s2 and c2\n"
         "   are the record's and j, x lie inside their row (compares), record e, row j, scalar\n"
         "   x; otherwise through dl_flat_rows of f as the kernel computes it (a row or scalar\n"
         "   that wrapped at its own width, y - 1 of a uint y = 0, is not inside). */\n"
         "static inline ulong dl_rows_at(dl_off w, dl_off n, dl_off s, dl_off c, dl_off z,\n"
         "                               dl_off s2, dl_off c2, dl_off e, dl_off j, dl_off x,\n"
         "                               dl_off f) {\n"
         "  if (s2 == s && c2 == c && j < s && x < c) return dl_rows_in(w, n, s, c, z, e, j, x);\n"
         "  return dl_flat_rows(w, n, s, c, z, f);\n"
         "}\n",
         {flat_rows(), rows_in()}});
  return name;
}

std::string Codegen::rows_da() {
  const std::string name = "dl_rows_da";
  if (!find(name))
    items_.push_back(
        {name,
         "/* dl_rows_at for one tile of all n records (DA): no division by the tile width. */\n"
         "static inline ulong dl_rows_da(dl_off n, dl_off s, dl_off c, dl_off z, dl_off s2,\n"
         "                               dl_off c2, dl_off e, dl_off j, dl_off x, dl_off f) {\n"
         "  if (s2 == s && c2 == c && j < s && x < c) return dl_rows_in_da(n, s, c, z, e, j, x);\n"
         "  return dl_flat_rows(n, n, s, c, z, f);\n"
         "}\n",
         {flat_rows(), rows_in_da()}});
  return name;
}

std::string Codegen::swap_in() {
  const std::string name = "dl_swap_in";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Record e, row b d + j, scalar x of a swap of two dimensions that are not\n"
         "   neighbours: records of bb x d rows of c scalars of z bytes, tiles of w records\n"
         "   whose rows are stored transposed (row j bb + b), where b < bb, j < d and x < c\n"
         "   are known. Records e >= n keep their AoS address. */\n"
         "static inline ulong dl_swap_in(dl_off w, dl_off n, dl_off bb, dl_off d, dl_off c,\n"
         "                               dl_off z, dl_off e, dl_off b, dl_off j, dl_off x) {\n" +
             std::string(kSwapRow) +
             "  return dl_tiled(w, n, bb * d * c * z, e, k * c * z, c * z) + (ulong)x * z;\n"
             "}\n",
         {}});
  return name;
}

std::string Codegen::swap_in_da() {
  const std::string name = "dl_swap_in_da";
  if (!find(name))
    items_.push_back(
        {name,
         "/* dl_swap_in for one tile of all n records (DA): (((j bb + b) n + e) c + x) z. */\n"
         "static inline ulong dl_swap_in_da(dl_off n, dl_off bb, dl_off d, dl_off c, dl_off z,\n"
         "                                  dl_off e, dl_off b, dl_off j, dl_off x) {\n" +
             std::string(kSwapRow) +
             "  return dl_da(n, bb * d * c * z, e, k * c * z, c * z) + (ulong)x * z;\n"
             "}\n",
         {}});
  return name;
}

std::string Codegen::flat_swap() {
  const std::string name = "dl_flat_swap";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Element x of a flat array whose records are bb x d rows of c scalars of z bytes\n"
         "   (a swap of two dimensions that are not neighbours): record x / (bb d c), row q\n"
         "   = b d + j and scalar in it (three divisions). */\n"
         "static inline ulong dl_flat_swap(dl_off w, dl_off n, dl_off bb, dl_off d, dl_off c,\n"
         "                                 dl_off z, dl_off x) {\n"
         "  const dl_off l = bb * d * c, i = x / l, r = x - i * l, q = r / c, b = q / d;\n"
         "  return dl_swap_in(w, n, bb, d, c, z, i, b, q - b * d, r - q * c);\n"
         "}\n",
         {swap_in()}});
  return name;
}

std::string Codegen::swap_at() {
  const std::string name = "dl_swap_at";
  if (!find(name))
    items_.push_back(
        {name,
         "/* Element f = ((e*b2 + b)*d2 + j)*c2 + x of a swap of two dimensions that are not\n"
         "   neighbours: where the kernel's own b2, d2 and c2 are the record's and b, j, x lie\n"
         "   inside them (compares), record e, row b d + j, scalar x; otherwise through\n"
         "   dl_flat_swap of f as the kernel computes it. */\n"
         "static inline ulong dl_swap_at(dl_off w, dl_off n, dl_off bb, dl_off d, dl_off c,\n"
         "                               dl_off z, dl_off b2, dl_off d2, dl_off c2, dl_off e,\n"
         "                               dl_off b, dl_off j, dl_off x, dl_off f) {\n"
         "  if (b2 == bb && d2 == d && c2 == c && b < bb && j < d && x < c)\n"
         "    return dl_swap_in(w, n, bb, d, c, z, e, b, j, x);\n"
         "  return dl_flat_swap(w, n, bb, d, c, z, f);\n"
         "}\n",
         {flat_swap(), swap_in()}});
  return name;
}

std::string Codegen::swap_da() {
  const std::string name = "dl_swap_da";
  if (!find(name))
    items_.push_back(
        {name,
         "/* dl_swap_at for one tile of all n records (DA): no division by the tile width. */\n"
         "static inline ulong dl_swap_da(dl_off n, dl_off bb, dl_off d, dl_off c, dl_off z,\n"
         "                               dl_off b2, dl_off d2, dl_off c2, dl_off e, dl_off b,\n"
         "                               dl_off j, dl_off x, dl_off f) {\n"
         "  if (b2 == bb && d2 == d && c2 == c && b < bb && j < d && x < c)\n"
         "    return dl_swap_in_da(n, bb, d, c, z, e, b, j, x);\n"
         "  return dl_flat_swap(n, n, bb, d, c, z, f);\n"
         "}\n",
         {flat_swap(), swap_in_da()}});
  return name;
}

std::string Codegen::flat_element(const std::string& w, const std::string& n, const std::string& s,
                                  const std::string& c, std::size_t z, const std::string& x) {
  const std::string zs = std::to_string(z);
  if (c.empty()) return "dl_flat(" + w + ", " + n + ", " + s + ", " + zs + ", " + x + ")";
  return flat_rows() + "(" + w + ", " + n + ", " + s + ", " + c + ", " + zs + ", " + x + ")";
}

std::string Codegen::unaligned(const std::string& type) {
  const std::string name = "dl_unaligned_" + type;
  if (!find(name))
    items_.push_back(
        {name, "typedef struct __attribute__((packed)) { " + type + " v; } " + name + ";\n", {}});
  return name;
}

std::string Codegen::load_fn(const Record& rec, std::size_t at, std::size_t size,
                             const std::string& type, const std::string& as, bool natural) {
  return copy_fn(true, rec, at, size, type, as, natural);
}

std::string Codegen::store_fn(const Record& rec, std::size_t at, std::size_t size,
                              const std::string& type, const std::string& as, bool natural) {
  return copy_fn(false, rec, at, size, type, as, natural);
}

std::string Codegen::copy_fn(bool load, const Record& rec, std::size_t at, std::size_t size,
                             const std::string& type, const std::string& as, bool natural) {
  std::string name = std::string(load ? "dl_load_" : "dl_store_") + identifier(rec.name());
  if (at != 0 || size != rec.size()) name += "_at" + std::to_string(at) + "_" + identifier(type);
  name += "_" + as_suffix(as);
  if (find(name)) return name;
  std::ostringstream o;
  std::vector<std::string> deps;
  const std::string gp = as + " uchar";
  if (load)
    o << "static inline " << type << " " << name << "(const " << gp
      << " *b, dl_off w, dl_off n, dl_off i) {\n  " << type
      << " v;\n  __private uchar *d = (__private uchar *)&v;\n";
  else
    o << "static inline " << type << " " << name << "(" << gp
      << " *b, dl_off w, dl_off n, dl_off i, " << type
      << " v) {\n  const __private uchar *d = (const __private uchar *)&v;\n";
  for (const Slot& s : rec.slots()) {
    if (s.offset < at || s.offset + s.size > at + size) continue;  // outside (or straddling)
    std::string u = unit_type(s.size);
    if (u.empty()) continue;
    std::string g = "(b + dl_tiled(w, n, " + std::to_string(rec.size()) + ", i, " +
                    std::to_string(s.offset) + ", " + std::to_string(s.size) + "))";
    std::string p = "(d + " + std::to_string(s.offset - at) + ")";
    std::string gref, pref;
    if (natural) {
      gref = "*(" + std::string(load ? "const " : "") + as + " " + u + " *)" + g;
      pref = "*(" + std::string(load ? "" : "const ") + "__private " + u + " *)" + p;
    } else {
      const std::string w = unaligned(u);
      deps.push_back(w);
      gref = "((" + std::string(load ? "const " : "") + as + " " + w + " *)" + g + ")->v";
      pref = "((" + std::string(load ? "" : "const ") + "__private " + w + " *)" + p + ")->v";
    }
    o << "  " << (load ? pref : gref) << " = " << (load ? gref : pref) << ";\n";
  }
  o << "  return v;\n}\n";
  items_.push_back({name, o.str(), deps});
  return name;
}

}  // namespace dl::annotate
