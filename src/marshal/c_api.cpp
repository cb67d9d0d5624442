// The C API (include/dl/dl.h) over dl::Marshaler. No exception crosses extern "C": every
// entry point catches, records the message for dlLastError(), and returns a code.
#include "dl/dl.h"

#include <exception>
#include <memory>
#include <string>

#include "dl/marshal.hpp"

struct dl_record_s {
  dl::Record record;
};
struct dl_marshaler_s {
  std::unique_ptr<dl::Marshaler> m;
};

namespace {

thread_local std::string g_error;

cl_int fail(cl_int code, std::string why) {
  g_error = std::move(why);
  return code;
}

template <class F>
cl_int guarded(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(CL_OUT_OF_HOST_MEMORY, "out of host memory");
  } catch (const std::exception& e) {
    return fail(CL_INVALID_VALUE, e.what());
  } catch (...) {
    return fail(CL_INVALID_VALUE, "unknown error");
  }
}

cl_int parse_args(const char* from, const char* to, const char* algorithm, dl::Layout& f,
                  dl::Layout& t, dl::Algorithm& a) {
  if (!from || !to) return fail(CL_INVALID_VALUE, "layout text is NULL");
  f = dl::Layout::parse(from);  // throws dl::LayoutError with the reason
  t = dl::Layout::parse(to);
  a = dl::Algorithm::Auto;
  if (algorithm && !dl::parse_algorithm(algorithm, a))
    return fail(CL_INVALID_VALUE, std::string("unknown algorithm '") + algorithm + "'");
  return CL_SUCCESS;
}

}  // namespace

extern "C" {

dl_record dlRecordCreate(const char* description) {
  dl_record out = nullptr;
  guarded([&]() -> cl_int {
    if (!description) return fail(CL_INVALID_VALUE, "record description is NULL");
    out = new dl_record_s{dl::Record::parse(description)};
    return CL_SUCCESS;
  });
  return out;
}

void dlRecordRelease(dl_record record) {
  delete record;
}

size_t dlRecordSize(dl_record record) {
  return record ? record->record.size() : 0;
}

dl_marshaler dlMarshalerCreate(cl_context context, cl_device_id device) {
  dl_marshaler out = nullptr;
  guarded([&]() -> cl_int {
    if (!context || !device) return fail(CL_INVALID_VALUE, "context or device is NULL");
    auto h = std::make_unique<dl_marshaler_s>();
    h->m = std::make_unique<dl::Marshaler>(context, device);
    out = h.release();
    return CL_SUCCESS;
  });
  return out;
}

void dlMarshalerRelease(dl_marshaler marshaler) {
  delete marshaler;
}

cl_uint dlPreferredTile(dl_marshaler marshaler) {
  return marshaler ? marshaler->m->preferred_tile() : 0;
}

cl_int dlEnqueueMarshal(dl_marshaler marshaler, cl_command_queue queue, cl_mem buffer,
                        size_t offset, dl_record record, size_t n, const char* from, const char* to,
                        const char* algorithm, cl_uint num_wait, const cl_event* wait,
                        cl_event* done) {
  return guarded([&]() -> cl_int {
    if (!marshaler || !record) return fail(CL_INVALID_VALUE, "marshaler or record is NULL");
    if ((num_wait == 0) != (wait == nullptr))
      return fail(CL_INVALID_EVENT_WAIT_LIST, "wait list and its length disagree");
    dl::Layout f, t;
    dl::Algorithm a;
    if (cl_int e = parse_args(from, to, algorithm, f, t, a); e != CL_SUCCESS) return e;
    dl::MarshalResult r = marshaler->m->enqueue(queue, buffer, offset, record->record, n, f, t, a,
                                                num_wait, wait, done);
    if (r.status != CL_SUCCESS) return fail(r.status, r.error);
    g_error.clear();
    return CL_SUCCESS;
  });
}

cl_int dlPlanMarshal(dl_marshaler marshaler, dl_record record, size_t n, const char* from,
                     const char* to, const char* algorithm, size_t* extra_bytes,
                     size_t* bytes_moved) {
  return guarded([&]() -> cl_int {
    if (!marshaler || !record) return fail(CL_INVALID_VALUE, "marshaler or record is NULL");
    dl::Layout f, t;
    dl::Algorithm a;
    if (cl_int e = parse_args(from, to, algorithm, f, t, a); e != CL_SUCCESS) return e;
    dl::Plan p = marshaler->m->plan(record->record, n, f, t, a);
    if (!p.ok) return fail(CL_INVALID_OPERATION, p.reason);
    if (extra_bytes) *extra_bytes = p.extra_bytes;
    if (bytes_moved) *bytes_moved = p.bytes_moved;
    g_error.clear();
    return CL_SUCCESS;
  });
}

const char* dlLastError(void) {
  return g_error.c_str();
}

}  // extern "C"
