// Building the active table: real entry points, then the runtime's hooks.
//
// Preload mode: the exported cl* functions go through the table built over the loader's
// own entry points (libOpenCL.so.1). Layer mode: the loader calls through the table built
// over the next layer's (or the driver's) entry points. Both at once (dl-run's default,
// for loaders that may not take the layer): the exports hook only until the loader
// initialises the layer; from then on they forward to the loader untouched and the layer
// hooks, so every call is seen once and DL's own calls never re-enter it.
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <spdlog/spdlog.h>

#include "interpose.hpp"
#include "runtime.hpp"

namespace dl::interpose {
namespace {

cl_icd_dispatch g_loader{};  // the loader's exported entry points (preload mode)
cl_icd_dispatch g_real{};    // the entry points the hooks call
cl_icd_dispatch g_table{};   // g_real with the hooks installed
std::once_flag g_once;
std::mutex g_init;
std::atomic<bool> g_layer{false};  // the loader took DL as a layer

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

void load_preload() {
  void* lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "[dl] [critical] cannot load libOpenCL.so.1: %s\n", dlerror());
    std::abort();
  }
#define DL_LOAD(name) g_loader.name = reinterpret_cast<decltype(g_loader.name)>(dlsym(lib, #name));
#define DL_CL_API(ret, name, params, args) DL_LOAD(name)
#define DL_CL_EXT(name) DL_LOAD(name)
#include "entry_points.def"
#undef DL_LOAD
  std::lock_guard<std::mutex> lock(g_init);
  if (g_layer) return;
  g_real = g_loader;
  finish();
  dl::rt::log().info(
      "DL is in through LD_PRELOAD (an OpenCL loader layer takes over if one starts)");
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
  return g_layer.load(std::memory_order_acquire) ? g_loader : g_table;
}

const cl_icd_dispatch& init_layer(const cl_icd_dispatch& target) {
  std::lock_guard<std::mutex> lock(g_init);
  g_real = target;
  finish();
  g_layer.store(true, std::memory_order_release);
  dl::rt::log().info("DL is in as an OpenCL loader layer");
  return g_table;
}

}  // namespace dl::interpose

// At load: the controls are read and the outputs arranged before any OpenCL call.
__attribute__((constructor)) static void dl_interpose_loaded() {
  dl::rt::start();
}
