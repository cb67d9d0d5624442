/* Compiled as C: dl.h is a C header, and a C program can marshal with it. */
#include "dl/dl.h"

/* Returns CL_SUCCESS after converting `buf` (n records of `desc`) from AoS to ASTA(4) and
 * back, waiting on the returned events. */
cl_int dl_c_round_trip(cl_context ctx, cl_device_id dev, cl_command_queue q, cl_mem buf,
                       const char* desc, size_t n) {
  dl_record rec = dlRecordCreate(desc);
  if (!rec) return CL_INVALID_VALUE;
  dl_marshaler m = dlMarshalerCreate(ctx, dev);
  cl_event e1 = NULL, e2 = NULL;
  cl_int err = dlEnqueueMarshal(m, q, buf, 0, rec, n, "AoS", "ASTA(4)", NULL, 0, NULL, &e1);
  if (err == CL_SUCCESS)
    err = dlEnqueueMarshal(m, q, buf, 0, rec, n, "ASTA(4)", "AoS", "barrier-sync", 1, &e1, &e2);
  if (err == CL_SUCCESS) err = clWaitForEvents(1, &e2);
  if (e1) clReleaseEvent(e1);
  if (e2) clReleaseEvent(e2);
  dlMarshalerRelease(m);
  dlRecordRelease(rec);
  return err;
}
