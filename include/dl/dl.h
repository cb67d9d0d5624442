/* DL C API: explicit in-place marshaling for C programs (the paper's library interface).
 *
 *   dl_record rec = dlRecordCreate("particle 32 16 float4:pos@0 float:mass@16 int:id@20");
 *   dl_marshaler m = dlMarshalerCreate(context, device);
 *   cl_event done;
 *   if (dlEnqueueMarshal(m, queue, buf, 0, rec, n, "AoS", "ASTA(32)", NULL, 0, NULL, &done)
 *       != CL_SUCCESS)
 *     fprintf(stderr, "%s\n", dlLastError());   (the buffer is untouched)
 *
 * Record descriptions use dl::Record's text form (name size align type[W][{B}][*N]:field@offset
 * ...); layouts are "AoS", "DA", "ASTA(T)", or "DIAG(H)" / "DIAG_MAIN(H)" (planes of H
 * rows diagonalized; "DIAG" alone: one plane of n rows); algorithms are "auto",
 * "barrier-sync", "pttwac-instance", "pttwac", "pipt", "segmented", "out-of-place",
 * "three-pass", "square", "diagonal" (NULL = auto).
 * Functions returning cl_int return CL_SUCCESS or an OpenCL error code; functions
 * returning handles return NULL on failure. dlLastError() says why (per thread).
 */
#ifndef DL_DL_H
#define DL_DL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dl_record_s* dl_record;
typedef struct dl_marshaler_s* dl_marshaler;

/* A record type from its text description; NULL if the text is malformed. */
dl_record dlRecordCreate(const char* description);
void dlRecordRelease(dl_record record);
/* sizeof(record) in bytes (0 for NULL). */
size_t dlRecordSize(dl_record record);

/* A marshaler for one context and device (retains the context). */
dl_marshaler dlMarshalerCreate(cl_context context, cl_device_id device);
void dlMarshalerRelease(dl_marshaler marshaler);
/* The ASTA tile width DL recommends on the marshaler's device. */
cl_uint dlPreferredTile(dl_marshaler marshaler);

/* Converts bytes [offset, offset + n * size) of `buffer` in place from layout `from` to
 * `to` after the `num_wait` events; `done` (may be NULL) gets an event completing with
 * the conversion. On failure nothing is enqueued and the buffer is untouched. */
cl_int dlEnqueueMarshal(dl_marshaler marshaler, cl_command_queue queue, cl_mem buffer,
                        size_t offset, dl_record record, size_t n, const char* from, const char* to,
                        const char* algorithm, cl_uint num_wait, const cl_event* wait,
                        cl_event* done);

/* Extra device bytes and bytes moved (read + written) the conversion would take; returns
 * CL_INVALID_OPERATION when the algorithm cannot take the shape. */
cl_int dlPlanMarshal(dl_marshaler marshaler, dl_record record, size_t n, const char* from,
                     const char* to, const char* algorithm, size_t* extra_bytes,
                     size_t* bytes_moved);

/* Why the last failing DL call of this thread failed ("" if none). */
const char* dlLastError(void);

#ifdef __cplusplus
}
#endif

#endif /* DL_DL_H */
