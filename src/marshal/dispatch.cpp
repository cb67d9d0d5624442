// loader_dispatch(): the OpenCL entry points of the ICD loader DL was linked with, as a
// cl_icd_dispatch table (generated from src/clapi/entry_points.def). The marshal library
// calls OpenCL only through such a table.
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "dl/marshal.hpp"

namespace dl {
namespace {

cl_icd_dispatch make_loader_dispatch() {
  cl_icd_dispatch d{};
  // The CL/cl.h entry points of the table (every loader exports them); the extension and
  // sharing ones stay null: the marshal library never calls them.
#define DL_CL_API(ret, name, params, args) d.name = &::name;
#define DL_CL_KHR(ret, name, params, args)
#define DL_CL_GL(ret, name, params, args)
#include "entry_points.def"
  return d;
}

}  // namespace

const cl_icd_dispatch& loader_dispatch() {
  static const cl_icd_dispatch table = make_loader_dispatch();
  return table;
}

}  // namespace dl
