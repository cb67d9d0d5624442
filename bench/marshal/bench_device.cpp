#include "bench_device.hpp"

#include <vector>

namespace dlbm {
namespace {

const char* kSource = R"CL(
__kernel void copy4(__global const float4* restrict a, __global float4* restrict b, ulong n4) {
  const size_t i = get_global_id(0);
  if (i < n4) b[i] = a[i];
}
__kernel void spacer(__global float* x, uint iters) {
  float v = x[0];
  for (uint i = 0; i < iters; ++i) v = v * 0.999f + 0.5f;
  x[0] = v;
}
)CL";

}  // namespace

Reference::Reference(const dlb::Device& d) : d_(d) {
  prog_ = dlb::build_program(d, kSource, "");
  copy4_ = dlb::make_kernel(prog_, "copy4");
  spacer_ = dlb::make_kernel(prog_, "spacer");
  s_ = dlb::make_buffer(d, 64);
  float one = 1.0f;
  dlb::write(d, s_, &one, sizeof one);
  // Calibrate the spacer to about 0.3 ms (GPU) / 2 ms (CPU): longer than the host needs
  // to plan and enqueue a conversion.
  const double target = d.gpu ? 0.3 : 2.0;
  for (int round = 0; round < 4; ++round) {
    cl_event e = spacer();
    dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
    const double ms = dlb::event_ms(e);
    clReleaseEvent(e);
    if (ms <= 0) break;
    const double scale = target / ms;
    if (scale > 0.8 && scale < 1.25) break;
    spacer_iters_ = cl_uint(std::max(100.0, std::min(2e8, spacer_iters_ * scale)));
  }
}

Reference::~Reference() {
  if (a_) clReleaseMemObject(a_);
  if (b_) clReleaseMemObject(b_);
  if (s_) clReleaseMemObject(s_);
  if (copy4_) clReleaseKernel(copy4_);
  if (spacer_) clReleaseKernel(spacer_);
  if (prog_) clReleaseProgram(prog_);
}

void Reference::ensure(std::size_t bytes) {
  if (bytes <= cap_) return;
  if (a_) clReleaseMemObject(a_);
  if (b_) clReleaseMemObject(b_);
  a_ = b_ = nullptr;
  cap_ = 0;
  a_ = dlb::make_buffer(d_, bytes);
  b_ = dlb::make_buffer(d_, bytes);
  cap_ = bytes;
  std::vector<unsigned char> init(bytes);
  dlb::Rng(7).fill_nonzero(init.data(), bytes);
  dlb::write(d_, a_, init.data(), bytes);
  dlb::write(d_, b_, init.data(), bytes);
}

cl_event Reference::spacer() {
  dlb::set_arg(spacer_, 0, s_);
  dlb::set_arg(spacer_, 1, spacer_iters_);
  const std::size_t one = 1;
  cl_event e = nullptr;
  dlb::check(clEnqueueNDRangeKernel(d_.queue, spacer_, 1, nullptr, &one, &one, 0, nullptr, &e),
             "spacer");
  return e;
}

namespace {

// Device time from the end of `sp` to the end of `e` (the same clock a marshal is timed on).
double spaced_ms(cl_event sp, cl_event e) {
  const cl_ulong a = dlb::event_time(sp, CL_PROFILING_COMMAND_END);
  const cl_ulong b = dlb::event_time(e, CL_PROFILING_COMMAND_END);
  return b > a ? 1e-6 * double(b - a) : 0.0;
}

}  // namespace

Reference::Copy Reference::copy(std::size_t bytes, int repeats) {
  bytes = bytes / 16 * 16;
  ensure(bytes);
  const cl_ulong n4 = bytes / 16;
  dlb::set_arg(copy4_, 0, a_);
  dlb::set_arg(copy4_, 1, b_);
  dlb::set_arg(copy4_, 2, n4);
  const std::size_t local = 256;
  const std::size_t global = (n4 + local - 1) / local * local;
  std::vector<double> kernel, kernel_spaced, buffer, buffer_spaced;
  for (int r = -1; r < repeats; ++r) {
    cl_event sp = spacer(), e = nullptr;
    dlb::check(clEnqueueNDRangeKernel(d_.queue, copy4_, 1, nullptr, &global,
                                      d_.gpu ? &local : nullptr, 0, nullptr, &e),
               "copy4");
    dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
    if (r >= 0) kernel.push_back(dlb::event_ms(e)), kernel_spaced.push_back(spaced_ms(sp, e));
    clReleaseEvent(sp);
    clReleaseEvent(e);
    sp = spacer();
    dlb::check(clEnqueueCopyBuffer(d_.queue, a_, b_, 0, 0, bytes, 0, nullptr, &e),
               "clEnqueueCopyBuffer");
    dlb::check(clWaitForEvents(1, &e), "clWaitForEvents");
    if (r >= 0) buffer.push_back(dlb::event_ms(e)), buffer_spaced.push_back(spaced_ms(sp, e));
    clReleaseEvent(sp);
    clReleaseEvent(e);
  }
  return {dlb::median(kernel), dlb::median(kernel_spaced), dlb::median(buffer),
          dlb::median(buffer_spaced)};
}

namespace {

/// Times what `enqueue` puts on the queue after a spacer kernel; -1 if it failed.
template <class Enqueue>
double timed_after_spacer(Reference& ref, dl::MarshalResult* result, Enqueue enqueue) {
  cl_event sp = ref.spacer();
  cl_event done = nullptr;
  *result = enqueue(&done);
  if (result->status != CL_SUCCESS) {
    clWaitForEvents(1, &sp);
    clReleaseEvent(sp);
    return -1;
  }
  dlb::check(clWaitForEvents(1, &done), "clWaitForEvents(marshal)");
  const double ms = spaced_ms(sp, done);
  clReleaseEvent(sp);
  clReleaseEvent(done);
  return ms;
}

}  // namespace

double timed_marshal(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem buf,
                     const dl::Record& rec, std::size_t n, const dl::Layout& from,
                     const dl::Layout& to, dl::Algorithm alg, dl::MarshalResult* result) {
  return timed_after_spacer(ref, result, [&](cl_event* done) {
    return m.enqueue(d.queue, buf, 0, rec, n, from, to, alg, 0, nullptr, done);
  });
}

double timed_copy(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem src, cl_mem dst,
                  const dl::Record& rec, std::size_t n, const dl::Layout& from,
                  const dl::Layout& to, dl::MarshalResult* result) {
  return timed_after_spacer(ref, result, [&](cl_event* done) {
    return m.enqueue_copy(d.queue, src, 0, dst, 0, rec, n, from, to, 0, nullptr, done);
  });
}

double timed_diagonal(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem src,
                      cl_mem dst, const dl::DiagonalShape& shape, bool to_diagonal, bool tiled,
                      dl::MarshalResult* result) {
  return timed_after_spacer(ref, result, [&](cl_event* done) {
    return m.enqueue_diagonal(d.queue, src, 0, dst, 0, shape, to_diagonal, tiled, 0, nullptr, done);
  });
}

double timed_gather(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem src,
                    cl_mem index, cl_mem dst, const dl::GatherShape& shape,
                    dl::MarshalResult* result) {
  return timed_after_spacer(ref, result, [&](cl_event* done) {
    return m.enqueue_gather(d.queue, src, 0, index, 0, dst, 0, shape, 0, nullptr, done);
  });
}

}  // namespace dlbm
