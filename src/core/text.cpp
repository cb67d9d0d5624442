// Text helpers of the annotation parsers (see text.hpp).
#include "text.hpp"

#include <cstdint>
#include <cstdio>

namespace dl::detail {
namespace {

std::string hex(unsigned v, int digits) {
  char b[16];
  std::snprintf(b, sizeof b, "%0*X", digits, v);
  return b;
}

/// Length of the well-formed UTF-8 sequence at `i` (2 to 4), or 0; its code point in `cp`.
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto lead = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  std::uint32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF)
    len = 2, min = 0x80, cp = lead & 0x1Fu;
  else if (lead >= 0xE0 && lead <= 0xEF)
    len = 3, min = 0x800, cp = lead & 0x0Fu;
  else if (lead >= 0xF0 && lead <= 0xF4)
    len = 4, min = 0x10000, cp = lead & 0x07u;
  else
    return 0;
  if (s.size() - i < len) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (c & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string describe_char(std::string_view s, std::size_t i, const char* at_end) {
  if (i >= s.size()) return at_end;
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ') return "a space";
  if (c > 0x20 && c < 0x7F) return "'" + std::string(1, static_cast<char>(c)) + "'";
  if (c < 0x80) return "control character 0x" + hex(c, 2);
  std::uint32_t cp = 0;
  if (const std::size_t len = utf8_sequence(s, i, cp))
    return "'" + std::string(s.substr(i, len)) + "' (U+" + hex(cp, 4) + ")";
  return "byte 0x" + hex(c, 2) + " (not UTF-8)";
}

}  // namespace dl::detail
