/* A stand-in for a broken DL, to prove the differential tester sees a difference: an
 * LD_PRELOAD library whose clEnqueueReadBuffer flips one bit of what a blocking read
 * returns (the test diff.detects_a_corrupted_read expects the driver to fail). */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>

typedef cl_int (*read_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void*, cl_uint,
                          const cl_event*, cl_event*);

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                    size_t offset, size_t size, void* ptr,
                                                    cl_uint n, const cl_event* wait,
                                                    cl_event* event) {
  static read_fn real = 0;
  if (!real) real = (read_fn)dlsym(RTLD_NEXT, "clEnqueueReadBuffer");
  cl_int st = real(q, m, blocking, offset, size, ptr, n, wait, event);
  if (st == CL_SUCCESS && blocking && size > 2) ((unsigned char*)ptr)[size / 2] ^= 0x10;
  return st;
}
