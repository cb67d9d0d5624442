// The marshaling kernels dl-annotate names in completed annotations (AOS2ASTA_<rec>),
// for the file written with --marshal-out. The runtime uses its own library; these are
// the paper's barrier-synchronised kernels, specialised for one record.
#pragma once

#include <string>

#include "dl/layout.hpp"

namespace dl::annotate {

/// OpenCL C source with, for record `rec` (R bytes, moved in units of rec.unit()):
///   AOS2ASTA_<rec>(__global U *buf, ulong n, uint T, __local U *tile)  in place
///   ASTA2AOS_<rec>(__global U *buf, ulong n, uint T, __local U *tile)  in place
///     one work-group per tile of T records, any work-group size, tile: T*R bytes
///   AOS2DA_<rec>(__global const U *src, __global U *dst, ulong n)      out of place
///   DA2AOS_<rec>(__global const U *src, __global U *dst, ulong n)      out of place
///     one work-item per unit (n * R / unit work-items)
std::string marshal_kernels(const Record& rec);

}  // namespace dl::annotate
