// OpenCL loader layer mode (CL/cl_layer.h): OPENCL_LAYERS=/path/libdl_interpose.so.
// The loader hands us the next table (its own dispatch or the next layer's) and calls
// through the table we return; applications that dlopen libOpenCL.so.1 are covered too.
#include <CL/cl_layer.h>

#include <cstring>

#include "interpose.hpp"

#define DL_EXPORT extern "C" __attribute__((visibility("default")))

DL_EXPORT cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
                                            void* param_value, size_t* param_value_size_ret) {
  if (param_name != CL_LAYER_API_VERSION) return CL_INVALID_VALUE;
  const cl_layer_api_version v = CL_LAYER_API_VERSION_100;
  if (param_value_size_ret) *param_value_size_ret = sizeof v;
  if (param_value) {
    if (param_value_size < sizeof v) return CL_INVALID_VALUE;
    std::memcpy(param_value, &v, sizeof v);
  }
  return CL_SUCCESS;
}

DL_EXPORT cl_int CL_API_CALL clInitLayer(cl_uint num_entries,
                                         const cl_icd_dispatch* target_dispatch,
                                         cl_uint* num_entries_ret,
                                         const cl_icd_dispatch** layer_dispatch_ret) {
  const cl_uint need = sizeof(cl_icd_dispatch) / sizeof(void*);
  if (!target_dispatch || !layer_dispatch_ret || !num_entries_ret) return CL_INVALID_VALUE;
  // An older loader's table may be shorter: the entries it lacks stay null.
  static cl_icd_dispatch target{};
  std::memcpy(&target, target_dispatch, (num_entries < need ? num_entries : need) * sizeof(void*));
  *layer_dispatch_ret = &dl::interpose::init_layer(target);
  *num_entries_ret = need;
  return CL_SUCCESS;
}
