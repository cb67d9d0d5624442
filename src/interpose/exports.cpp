// The exported cl* entry points (preload mode), generated from entry_points.def: each
// forwards through the active table, where the runtime's hooks sit.
#include <CL/cl_egl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

#include <cstring>
#include <string_view>
#include <unordered_map>

#include "interpose.hpp"

#define DL_EXPORT extern "C" __attribute__((visibility("default")))

#define DL_CL_API(ret, name, params, args)   \
  DL_EXPORT ret CL_API_CALL name params {    \
    return dl::interpose::table().name args; \
  }
#include "entry_points.def"

namespace dl::interpose {

void* exported(const char* name) {
  static const std::unordered_map<std::string_view, void*> names = {
#define DL_CL_API(ret, name, params, args) {#name, reinterpret_cast<void*>(&::name)},
#include "entry_points.def"
  };
  auto it = names.find(name);
  return it == names.end() ? nullptr : it->second;
}

}  // namespace dl::interpose
