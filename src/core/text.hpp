// Small text helpers of the annotation parsers (internal to dl::core).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dl::detail {

/// Describes the character at byte `i` of `s` for a diagnostic, quoting the whole
/// character: `'$'`, `'é' (U+00E9)`, `control character 0x01`, `byte 0xFF (not UTF-8)`,
/// or `at_end` past the end.
std::string describe_char(std::string_view s, std::size_t i,
                          const char* at_end = "the end of the expression");

}  // namespace dl::detail
