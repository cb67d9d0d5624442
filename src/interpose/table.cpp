// Building the active table once: real entry points, then the runtime's hooks.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "interpose.hpp"
#include "runtime.hpp"

namespace dl::interpose {
namespace {

cl_icd_dispatch g_real{};
cl_icd_dispatch g_table{};
std::once_flag g_once;

void* CL_API_CALL ext_address(const char* name);
void* CL_API_CALL ext_address_platform(cl_platform_id platform, const char* name);

void finish() {
  g_table = g_real;
  dl::rt::install(g_table, g_real);
  if (!dl::rt::Runtime::get().controls.DL_DISABLE) {
    g_table.clGetExtensionFunctionAddress = &ext_address;
    g_table.clGetExtensionFunctionAddressForPlatform = &ext_address_platform;
  }
}

/// Preload mode: the ICD loader's own entry points, looked up in its handle (never
/// through our exported names, which would re-enter DL).
void load_preload() {
  void* lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "[dl] [critical] cannot load libOpenCL.so.1: %s\n", dlerror());
    std::abort();
  }
#define DL_LOAD(name) g_real.name = reinterpret_cast<decltype(g_real.name)>(dlsym(lib, #name));
#define DL_CL_API(ret, name, params, args) DL_LOAD(name)
#define DL_CL_GL(ret, name, params, args) DL_LOAD(name)
#define DL_CL_EXT(name) DL_LOAD(name)
#include "entry_points.def"
#undef DL_CL_API
#undef DL_CL_GL
#undef DL_CL_EXT
#undef DL_LOAD
  finish();
}

void* CL_API_CALL ext_address(const char* name) {
  if (void* p = name ? exported(name) : nullptr) return p;
  return g_real.clGetExtensionFunctionAddress(name);
}

void* CL_API_CALL ext_address_platform(cl_platform_id platform, const char* name) {
  if (void* p = name ? exported(name) : nullptr) return p;
  return g_real.clGetExtensionFunctionAddressForPlatform(platform, name);
}

}  // namespace

const cl_icd_dispatch& table() {
  std::call_once(g_once, load_preload);
  return g_table;
}

const cl_icd_dispatch& init_layer(const cl_icd_dispatch& target) {
  std::call_once(g_once, [&] {
    g_real = target;
    finish();
  });
  return g_table;
}

}  // namespace dl::interpose
