// Record layout with OpenCL C rules, slot decomposition, layout maps, CPU converter.
#include "dl/layout.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <sstream>

#include "dl/cycles.hpp"
#include "dl/diagonal.hpp"

namespace dl {
namespace {

struct ScalarInfo {
  Scalar s;
  const char* name;
  std::size_t size;
};

constexpr ScalarInfo kScalars[] = {
    {Scalar::Char, "char", 1},     {Scalar::UChar, "uchar", 1},   {Scalar::Short, "short", 2},
    {Scalar::UShort, "ushort", 2}, {Scalar::Half, "half", 2},     {Scalar::Int, "int", 4},
    {Scalar::UInt, "uint", 4},     {Scalar::Float, "float", 4},   {Scalar::Long, "long", 8},
    {Scalar::ULong, "ulong", 8},   {Scalar::Double, "double", 8},
};

struct Alias {
  const char* text;
  Scalar s;
};
constexpr Alias kAliases[] = {
    {"signed char", Scalar::Char},
    {"unsigned char", Scalar::UChar},
    {"unsigned short", Scalar::UShort},
    {"unsigned int", Scalar::UInt},
    {"unsigned", Scalar::UInt},
    {"unsigned long", Scalar::ULong},
    {"int8_t", Scalar::Char},
    {"uint8_t", Scalar::UChar},
    {"int16_t", Scalar::Short},
    {"uint16_t", Scalar::UShort},
    {"int32_t", Scalar::Int},
    {"uint32_t", Scalar::UInt},
    {"int64_t", Scalar::Long},
    {"uint64_t", Scalar::ULong},
    {"bool", Scalar::UChar},
};

bool is_pow2(std::size_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

std::size_t vector_storage(unsigned width) {
  return width == 3 ? 4 : width;
}

void check_block(unsigned block, unsigned vector_width, const std::string& field) {
  if (block == 0) throw LayoutError("field '" + field + "': a block of zero scalars");
  if (block != 1 && vector_width != 1)
    throw LayoutError("field '" + field + "': a block holds scalars, not vectors");
}

void check_vector_width(unsigned w, const std::string& field) {
  if (w != 1 && w != 2 && w != 3 && w != 4 && w != 8 && w != 16)
    throw LayoutError("field '" + field + "': vector width " + std::to_string(w) +
                      " is not one of 1, 2, 3, 4, 8, 16");
}

std::size_t round_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

/// A whole decimal number, digits only (no sign, no blanks), that fits in `out`.
template <class T>
bool parse_number(std::string_view text, T& out) {
  if (text.empty() || text.size() > 20) return false;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, out, 10);
  return r.ec == std::errc() && r.ptr == end;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

void check_size(const std::string& name, std::size_t bytes) {
  if (bytes > kMaxRecordSize)
    throw LayoutError("record '" + name + "' is larger than " + std::to_string(kMaxRecordSize) +
                      " bytes");
}

}  // namespace

std::size_t scalar_size(Scalar s) {
  for (const auto& i : kScalars)
    if (i.s == s) return i.size;
  return 0;
}

const char* scalar_name(Scalar s) {
  for (const auto& i : kScalars)
    if (i.s == s) return i.name;
  return "?";
}

bool parse_scalar(std::string_view text, Scalar& out) {
  for (const auto& i : kScalars)
    if (text == i.name) return out = i.s, true;
  for (const auto& a : kAliases)
    if (text == a.text) return out = a.s, true;
  return false;
}

Record Record::make(std::string name, const std::vector<FieldSpec>& specs, bool packed,
                    std::size_t align) {
  if (specs.empty()) throw LayoutError("record '" + name + "' has no fields");
  if (align != 0 && !is_pow2(align))
    throw LayoutError("record '" + name + "': alignment " + std::to_string(align) +
                      " is not a power of two");
  Record r;
  r.name_ = std::move(name);
  std::size_t off = 0;
  std::size_t rec_align = 1;
  for (const auto& f : specs) {
    check_vector_width(f.vector_width, f.name);
    check_block(f.block, f.vector_width, f.name);
    if (f.count == 0) throw LayoutError("field '" + f.name + "' has zero elements");
    Field out;
    out.name = f.name;
    out.type = f.type;
    out.vector_width = f.vector_width;
    out.count = f.count;
    out.block = f.block;
    const std::size_t natural = scalar_size(f.type) * vector_storage(f.vector_width);
    if (f.block > kMaxRecordSize / natural) check_size(r.name_, kMaxRecordSize + 1);
    out.elem_size = natural * f.block;
    if (f.count > kMaxRecordSize / out.elem_size) check_size(r.name_, kMaxRecordSize + 1);
    std::size_t a = f.align ? f.align : natural;
    if (!is_pow2(a))
      throw LayoutError("field '" + f.name + "': alignment " + std::to_string(a) +
                        " is not a power of two");
    if (packed && !f.align) a = 1;
    out.align = a;
    if (a > kMaxRecordSize) check_size(r.name_, a);
    off = round_up(off, a);
    out.offset = off;
    off += out.elem_size * f.count;
    check_size(r.name_, off);
    rec_align = std::max(rec_align, a);
    r.fields_.push_back(out);
  }
  if (align) rec_align = std::max(rec_align, align);
  if (rec_align > kMaxRecordSize) check_size(r.name_, rec_align);
  r.align_ = rec_align;
  r.size_ = round_up(off, rec_align);
  r.finish();
  return r;
}

Record Record::from_layout(std::string name, std::vector<Field> fields, std::size_t size,
                           std::size_t align) {
  if (fields.empty()) throw LayoutError("record '" + name + "' has no fields");
  if (!is_pow2(align))
    throw LayoutError("record '" + name + "': alignment " + std::to_string(align) +
                      " is not a power of two");
  check_size(name, size);
  std::sort(fields.begin(), fields.end(),
            [](const Field& a, const Field& b) { return a.offset < b.offset; });
  std::size_t end = 0;
  for (auto& f : fields) {
    check_vector_width(f.vector_width, f.name);
    check_block(f.block, f.vector_width, f.name);
    if (f.count == 0) throw LayoutError("field '" + f.name + "' has zero elements");
    const std::size_t natural = scalar_size(f.type) * vector_storage(f.vector_width);
    f.elem_size = natural * f.block;  // block <= size (parse) or checked below
    if (f.align == 0) f.align = natural;
    if (f.offset < end)
      throw LayoutError("record '" + name + "': field '" + f.name + "' overlaps the previous one");
    // Sizes are at most kMaxRecordSize here, so the sums below cannot wrap.
    if (f.offset > size || f.count > size / f.elem_size || f.offset + f.elem_size * f.count > size)
      throw LayoutError("record '" + name + "': field '" + f.name + "' ends past its size " +
                        std::to_string(size));
    end = f.offset + f.elem_size * f.count;
  }
  if (end > size)
    throw LayoutError("record '" + name + "': fields end at byte " + std::to_string(end) +
                      " past its size " + std::to_string(size));
  if (size == 0 || size % align != 0)
    throw LayoutError("record '" + name + "': size " + std::to_string(size) +
                      " is not a multiple of its alignment " + std::to_string(align));
  Record r;
  r.name_ = std::move(name);
  r.fields_ = std::move(fields);
  r.size_ = size;
  r.align_ = align;
  r.finish();
  return r;
}

Record Record::blocks(std::string name, Scalar type, unsigned count, unsigned block) {
  FieldSpec f{"v", type, 1, count, 0};
  f.block = block;
  return make(std::move(name), {f});
}

Record Record::uniform(std::string name, Scalar type, unsigned count) {
  std::vector<FieldSpec> f;
  for (unsigned c = 0; c < count; ++c) f.push_back({"c" + std::to_string(c), type, 1, 1, 0});
  return make(std::move(name), f);
}

void Record::finish() {
  slots_.clear();
  auto pad = [&](std::size_t from, std::size_t to) {
    while (from < to) {
      std::size_t p = 8;
      while (p > 1 && (from % p != 0 || from + p > to)) p /= 2;
      slots_.push_back({from, p, -1, 0});
      from += p;
    }
  };
  std::size_t at = 0;
  for (std::size_t fi = 0; fi < fields_.size(); ++fi) {
    const Field& f = fields_[fi];
    pad(at, f.offset);
    for (unsigned e = 0; e < f.count; ++e)
      slots_.push_back({f.offset + e * f.elem_size, f.elem_size, static_cast<int>(fi), e});
    at = f.offset + f.count * f.elem_size;
  }
  pad(at, size_);
  // The unit is the largest power of two dividing every slot's offset and size (a
  // packed record may hold misaligned fields; their elements still move whole).
  unit_ = 0;
  for (const auto& s : slots_) unit_ |= s.offset | s.size;
  unit_ |= size_;
  unit_ &= ~unit_ + 1;         // lowest set bit
  if (unit_ > 16) unit_ = 16;  // kernels move at most 16 bytes (uint4) per unit
  uniform_ = true;
  for (const auto& s : slots_) uniform_ = uniform_ && s.size == slots_.front().size;
}

bool Record::operator==(const Record& o) const {
  if (size_ != o.size_ || align_ != o.align_ || fields_.size() != o.fields_.size() ||
      name_ != o.name_)
    return false;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Field& a = fields_[i];
    const Field& b = o.fields_[i];
    if (a.type != b.type || a.vector_width != b.vector_width || a.block != b.block ||
        a.count != b.count || a.offset != b.offset || a.name != b.name)
      return false;
  }
  return true;
}

std::string Record::describe() const {
  std::ostringstream o;
  o << name_ << ' ' << size_ << ' ' << align_;
  for (const auto& f : fields_) {
    o << ' ' << scalar_name(f.type);
    if (f.vector_width != 1) o << f.vector_width;
    if (f.block != 1) o << '{' << f.block << '}';
    if (f.count != 1) o << '*' << f.count;
    o << ':' << f.name << '@' << f.offset;
  }
  return o.str();
}

Record Record::parse(std::string_view text) {
  // Tokens separated by blanks; every number is digits only and range-checked.
  std::vector<std::string_view> tok;
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t b = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > b) tok.push_back(text.substr(b, i - b));
  }
  std::size_t size = 0, align = 0;
  if (tok.size() < 3 || !parse_number(tok[1], size) || !parse_number(tok[2], align))
    throw LayoutError("record description '" + std::string(text) +
                      "': expected 'name size align field...'");
  const std::string name(tok[0]);
  if (!is_identifier(name)) throw LayoutError("record name '" + name + "' is not an identifier");
  check_size(name, size);
  std::vector<Field> fields;
  for (std::size_t t = 3; t < tok.size(); ++t) {
    const std::string_view f_text = tok[t];
    auto bad = [&](const std::string& why) {
      return LayoutError("record field '" + std::string(f_text) + "': " + why);
    };
    const auto colon = f_text.find(':');
    const auto at = f_text.rfind('@');
    if (colon == std::string_view::npos || at == std::string_view::npos || at < colon)
      throw bad("expected type[W][*N]:name@offset");
    std::string_view type = f_text.substr(0, colon);
    Field f;
    f.name = std::string(f_text.substr(colon + 1, at - colon - 1));
    if (!is_identifier(f.name)) throw bad("field name '" + f.name + "' is not an identifier");
    if (!parse_number(f_text.substr(at + 1), f.offset) || f.offset > size)
      throw bad("bad offset (a whole number up to the record size " + std::to_string(size) + ")");
    if (const auto star = type.find('*'); star != std::string_view::npos) {
      if (!parse_number(type.substr(star + 1), f.count) || f.count == 0 || f.count > size)
        throw bad("bad element count (a whole number from 1 to the record size " +
                  std::to_string(size) + ")");
      type = type.substr(0, star);
    }
    if (const auto brace = type.find('{'); brace != std::string_view::npos) {
      if (type.back() != '}' ||
          !parse_number(type.substr(brace + 1, type.size() - brace - 2), f.block) || f.block == 0 ||
          f.block > size)
        throw bad("bad block '" + std::string(type.substr(brace)) +
                  "' ({B}: B scalars per element, from 1 to the record size " +
                  std::to_string(size) + ")");
      type = type.substr(0, brace);
    }
    if (!parse_scalar(type, f.type)) {  // a vector type: float4, uchar16
      const auto digits = type.find_first_of("0123456789");
      if (digits != std::string_view::npos) {
        if (!parse_number(type.substr(digits), f.vector_width))
          throw bad("bad vector width '" + std::string(type.substr(digits)) +
                    "' (1, 2, 3, 4, 8 or 16)");
        type = type.substr(0, digits);
      }
      if (!parse_scalar(type, f.type)) throw bad("unknown type '" + std::string(type) + "'");
    }
    fields.push_back(f);
  }
  return from_layout(name, fields, size, align);
}

std::string Record::to_cl() const {
  std::ostringstream o;
  o << "typedef struct __attribute__((packed, aligned(" << align_ << "))) {\n";
  std::size_t at = 0;
  int pad = 0;
  for (const auto& f : fields_) {
    if (f.offset > at) o << "  uchar dl_pad" << pad++ << '[' << (f.offset - at) << "];\n";
    o << "  " << scalar_name(f.type);
    if (f.vector_width != 1) o << f.vector_width;
    o << ' ' << f.name;
    if (f.count != 1) o << '[' << f.count << ']';
    if (f.block != 1) o << '[' << f.block << ']';
    o << ";\n";
    at = f.offset + f.count * f.elem_size;
  }
  if (size_ > at) o << "  uchar dl_pad" << pad << '[' << (size_ - at) << "];\n";
  o << "} " << name_ << ";\n";
  return o.str();
}

std::size_t Layout::width(std::size_t n) const {
  switch (kind) {
    case LayoutKind::AoS:
      return 1;
    case LayoutKind::DA:
      return n ? n : 1;
    case LayoutKind::ASTA:
      return tile;
    case LayoutKind::Diag:
    case LayoutKind::DiagMain:
    case LayoutKind::Swap:
      return std::max<std::size_t>(1, tile && tile < n ? tile : n);
  }
  return 1;
}

std::string Layout::str() const {
  switch (kind) {
    case LayoutKind::AoS:
      return "AoS";
    case LayoutKind::DA:
      return "DA";
    case LayoutKind::ASTA:
      return "ASTA(" + std::to_string(tile) + ")";
    case LayoutKind::Diag:
    case LayoutKind::DiagMain: {
      const std::string name = kind == LayoutKind::Diag ? "DIAG" : "DIAG_MAIN";
      return tile ? name + "(" + std::to_string(tile) + ")" : name;
    }
    case LayoutKind::Swap:
      return "SWAP(" + std::to_string(tile) + "," + std::to_string(split) + ")";
  }
  return "?";
}

Layout Layout::parse(std::string_view t) {
  if (t == "AoS" || t == "aos") return aos();
  if (t == "DA" || t == "da" || t == "SoA" || t == "soa") return da();
  if (t == "DIAG" || t == "diag") return diag(0, false);
  if (t == "DIAG_MAIN" || t == "diag_main") return diag(0, true);
  for (std::string_view p : {"ASTA(", "asta(", "DIAG(", "diag(", "DIAG_MAIN(", "diag_main("}) {
    if (t.substr(0, p.size()) == p && t.size() > p.size() + 1 && t.back() == ')') {
      std::uint32_t v = 0;
      if (parse_number(t.substr(p.size(), t.size() - p.size() - 1), v) && v >= 1 && v <= kMaxTile) {
        if (p[0] == 'A' || p[0] == 'a') return asta(v);
        return diag(v, p.size() > 5);
      }
    }
  }
  for (std::string_view p : {"SWAP(", "swap("}) {
    const std::size_t comma = t.find(',');
    std::uint32_t a = 0, b = 0;
    if (t.substr(0, p.size()) == p && t.size() > p.size() + 1 && t.back() == ')' &&
        comma != std::string_view::npos && parse_number(t.substr(p.size(), comma - p.size()), a) &&
        parse_number(t.substr(comma + 1, t.size() - comma - 2), b) && a >= 1 && a <= kMaxTile &&
        b >= 1 && b <= kMaxTile)
      return swap(a, b);
  }
  throw LayoutError("unknown layout '" + std::string(t) +
                    "' (expected AoS, DA, ASTA(T), DIAG, DIAG(H), DIAG_MAIN, DIAG_MAIN(H) or "
                    "SWAP(T,B))");
}

DiagonalPlanes diagonal_planes(const Record& r, std::size_t n, const Layout& l) {
  if (!r.uniform_slots())
    throw LayoutError(
        "a diagonal layout needs records whose slots (a row's elements) have one "
        "size; record '" +
        r.name() + "' has slots of several sizes");
  DiagonalPlanes p;
  p.rows = l.width(n);
  p.planes = (n + p.rows - 1) / p.rows;
  p.last_rows = n - (p.planes ? p.planes - 1 : 0) * p.rows;
  p.nx = r.slots().size();
  p.elem = r.slots().front().size;
  return p;
}

SwapShape swap_shape(const Record& r, const Layout& l) {
  if (!r.uniform_slots() || r.slots().empty())
    throw LayoutError(
        "a swap of dimensions needs records whose slots (rows) have one size; "
        "record '" +
        r.name() + "' has slots of several sizes");
  SwapShape s;
  s.b = l.split;
  s.z = r.slots().front().size;
  if (s.b == 0 || r.slots().size() % s.b)
    throw LayoutError(l.str() + ": " + std::to_string(s.b) + " does not divide the " +
                      std::to_string(r.slots().size()) + " rows of record '" + r.name() + "'");
  s.d = r.slots().size() / s.b;
  return s;
}

namespace {

/// Where slot k of record i lies in layout `l`: the tiled map, the Swap map, or the
/// diagonal map with its planes worked out once (convert() asks for every slot of every
/// record).
class SlotMap {
 public:
  SlotMap(const Record& r, std::size_t n, const Layout& l) : r_(r), n_(n), l_(l) {
    if (l.tiled()) return;
    if (l.kind == LayoutKind::Swap) {
      s_ = swap_shape(r, l);
      return;
    }
    p_ = diagonal_planes(r, n, l);
    direction_ = l.kind == LayoutKind::DiagMain ? Diagonal::Main : Diagonal::Secondary;
  }
  std::size_t operator()(std::size_t i, std::size_t k) const {
    const Slot& s = r_.slots()[k];
    if (l_.tiled()) return tiled_offset(l_.width(n_), n_, r_.size(), i, s.offset, s.size);
    if (l_.kind == LayoutKind::Swap) {
      const std::size_t moved = (k % s_.d) * s_.b + k / s_.d;
      return tiled_offset(l_.width(n_), n_, r_.size(), i, moved * s_.z, s_.z);
    }
    const std::size_t plane = i / p_.rows;
    DiagonalShape shape;
    shape.ny = plane + 1 == p_.planes ? p_.last_rows : p_.rows;
    shape.nx = p_.nx;
    shape.elem = p_.elem;
    shape.direction = direction_;
    return plane * p_.rows * r_.size() + diagonal_position(shape, i - plane * p_.rows, k) * p_.elem;
  }

 private:
  const Record& r_;
  std::size_t n_;
  Layout l_;
  DiagonalPlanes p_;
  SwapShape s_;
  Diagonal direction_ = Diagonal::Secondary;
};

}  // namespace

std::size_t slot_offset(const Record& r, std::size_t n, const Layout& l, std::size_t i,
                        std::size_t slot) {
  return SlotMap(r, n, l)(i, slot);
}

void convert(const Record& r, std::size_t n, const Layout& from, const void* src, const Layout& to,
             void* dst) {
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  const std::size_t wf = from.width(n), wt = to.width(n), R = r.size();
  if (!from.tiled() || !to.tiled()) {
    const SlotMap at_from(r, n, from), at_to(r, n, to);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < r.slots().size(); ++k)
        std::memcpy(out + at_to(i, k), in + at_from(i, k), r.slots()[k].size);
    return;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (const Slot& s : r.slots())
      std::memcpy(out + tiled_offset(wt, n, R, i, s.offset, s.size),
                  in + tiled_offset(wf, n, R, i, s.offset, s.size), s.size);
}

void convert_in_place(const Record& r, std::size_t n, const Layout& from, const Layout& to,
                      void* data) {
  std::vector<unsigned char> tmp(buffer_bytes(r, n));
  std::memcpy(tmp.data(), data, tmp.size());
  convert(r, n, from, tmp.data(), to, data);
}

SlotTable::SlotTable(const Record& r, std::size_t unit) {
  const std::size_t u = unit ? unit : r.unit();
  for (const Slot& s : r.slots()) {
    auto o = static_cast<std::uint32_t>(s.offset / u);
    auto z = static_cast<std::uint32_t>(s.size / u);
    for (std::uint32_t c = 0; c < z; ++c) {
      start_.push_back(o);
      size_.push_back(z);
    }
    if (z != 1) uniform_ = false;
  }
}

std::vector<std::uint32_t> SlotTable::packed() const {
  std::vector<std::uint32_t> out(start_.size());
  for (std::size_t q = 0; q < out.size(); ++q) out[q] = (start_[q] << 16) | size_[q];
  return out;
}

}  // namespace dl
