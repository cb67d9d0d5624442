// libdl_interpose.so: the entry-point table every intercepted call goes through.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_icd.h>

namespace dl::interpose {

/// The active table: the real entry points with DL's hooks installed (the real ones
/// alone under DL_DISABLE). In preload mode the first call loads the real entry points
/// from libOpenCL.so.1; in layer mode clInitLayer has set them.
const cl_icd_dispatch& table();

/// Layer mode: real entry points = the next layer's (or the loader's) table.
const cl_icd_dispatch& init_layer(const cl_icd_dispatch& target);

/// Our exported function of that name (for clGetExtensionFunctionAddress and dlsym), or
/// nullptr when DL does not export it.
void* exported(const char* name);

}  // namespace dl::interpose
