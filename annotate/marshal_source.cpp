// Generator of per-record marshaling kernels (see marshal_source.hpp).
#include "marshal_source.hpp"

#include <sstream>

#include "codegen.hpp"

namespace dl::annotate {

std::string marshal_kernels(const Record& rec) {
  const std::size_t u = rec.unit();
  const char* ut = u == 1   ? "uchar"
                   : u == 2 ? "ushort"
                   : u == 4 ? "uint"
                   : u == 8 ? "ulong"
                            : "uint4";
  const std::string name = identifier(rec.name());
  const std::size_t per = rec.size() / u;
  std::ostringstream o;
  o << "/* Marshaling kernels of record " << rec.describe() << "\n"
    << "   (dl-annotate; unit " << u << " bytes, " << per << " units per record). */\n";
  // Per unit of the record: (slot offset, slot size) in units, packed as o << 16 | z.
  o << "__constant uint dl_units_" << name << "[" << per << "] = {";
  std::size_t k = 0;
  for (const Slot& s : rec.slots())
    for (std::size_t c = 0; c < s.size / u; ++c, ++k)
      o << (k ? ", " : "") << (((s.offset / u) << 16) | (s.size / u)) << "u";
  o << "};\n\n";
  for (int dir = 0; dir < 2; ++dir) {
    const bool to_asta = dir == 0;
    o << "__kernel void " << (to_asta ? "AOS2ASTA_" : "ASTA2AOS_") << name << "(__global " << ut
      << " *buf, ulong n, uint T, __local " << ut << " *tile) {\n"
      << "  const ulong base = (ulong)get_group_id(0) * T;\n"
      << "  if (base >= n) return;\n"
      << "  const uint w = (uint)(n - base < T ? n - base : T);\n"
      << "  const uint cnt = w * " << per << "u;\n"
      << "  __global " << ut << " *g = buf + base * " << per << "u;\n";
    const std::string idx =
        "{\n    const uint j = k / " + std::to_string(per) + "u, q = k - j * " +
        std::to_string(per) + "u;\n    const uint s = dl_units_" + name +
        "[q], so = s >> 16, sz = s & 0xffffu;\n    const uint t = w * so + j * sz + (q - so);\n";
    if (to_asta) {
      o << "  for (uint k = get_local_id(0); k < cnt; k += get_local_size(0)) tile[k] = g[k];\n"
        << "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
        << "  for (uint k = get_local_id(0); k < cnt; k += get_local_size(0)) " << idx
        << "    g[t] = tile[k];\n  }\n}\n\n";
    } else {
      o << "  for (uint k = get_local_id(0); k < cnt; k += get_local_size(0)) " << idx
        << "    tile[k] = g[t];\n  }\n"
        << "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
        << "  for (uint k = get_local_id(0); k < cnt; k += get_local_size(0)) g[k] = "
           "tile[k];\n}\n\n";
    }
  }
  for (int dir = 0; dir < 2; ++dir) {
    const bool to_da = dir == 0;
    o << "__kernel void " << (to_da ? "AOS2DA_" : "DA2AOS_") << name << "(__global const " << ut
      << " *src, __global " << ut << " *dst, ulong n) {\n"
      << "  const ulong k = get_global_id(0);\n"
      << "  if (k >= n * " << per << "u) return;\n"
      << "  const ulong i = k / " << per << "u;\n"
      << "  const uint q = (uint)(k - i * " << per << "u);\n"
      << "  const uint s = dl_units_" << name << "[q], so = s >> 16, sz = s & 0xffffu;\n"
      << "  const ulong t = n * so + i * sz + (q - so);\n"
      << (to_da ? "  dst[t] = src[k];\n" : "  dst[k] = src[t];\n") << "}\n\n";
  }
  return o.str();
}

}  // namespace dl::annotate
