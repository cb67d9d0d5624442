// Device-side measuring tools of dl-bench-marshal: copy references and a timed marshal.
#pragma once

#include <dl/marshal.hpp>

#include <string>

#include "clbench.hpp"

namespace dlbm {

/// Copy references and the "spacer" that makes multi-kernel conversions measurable with
/// event profiling: a short busy kernel is enqueued first, so the conversion's kernels
/// are queued while the device is busy and its time is end(last) - end(spacer).
class Reference {
 public:
  explicit Reference(const dlb::Device& d);
  ~Reference();
  Reference(const Reference&) = delete;
  Reference& operator=(const Reference&) = delete;

  /// Median device times (ms) of a float4 copy kernel and of clEnqueueCopyBuffer of
  /// `bytes`: the command's own start..end, and timed like a marshal (after a spacer).
  struct Copy {
    double kernel_ms, kernel_spaced_ms, buffer_ms, buffer_spaced_ms;
  };
  Copy copy(std::size_t bytes, int repeats);

  /// Enqueues the spacer; returns its event.
  cl_event spacer();

 private:
  void ensure(std::size_t bytes);
  const dlb::Device& d_;
  cl_program prog_ = nullptr;
  cl_kernel copy4_ = nullptr, spacer_ = nullptr;
  cl_mem a_ = nullptr, b_ = nullptr, s_ = nullptr;
  std::size_t cap_ = 0;
  cl_uint spacer_iters_ = 1000;
};

/// One timed conversion: returns device ms, or a negative value with `error` set.
double timed_marshal(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem buf,
                     const dl::Record& rec, std::size_t n, const dl::Layout& from,
                     const dl::Layout& to, dl::Algorithm alg, dl::MarshalResult* result);
/// Times the out-of-place tiled transpose src (layout `from`) -> dst (layout `to`)
/// (Marshaler::enqueue_copy), after a spacer; -1 if it could not be enqueued.
double timed_copy(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem src, cl_mem dst,
                  const dl::Record& rec, std::size_t n, const dl::Layout& from,
                  const dl::Layout& to, dl::MarshalResult* result);
/// Times the diagonalization src -> dst of `shape` (Marshaler::enqueue_diagonal), after a
/// spacer; -1 if it could not be enqueued.
double timed_diagonal(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem src,
                      cl_mem dst, const dl::DiagonalShape& shape, bool to_diagonal, bool tiled,
                      dl::MarshalResult* result);
/// Marshaler::enqueue_gather, timed as the other kernels.
double timed_gather(const dlb::Device& d, Reference& ref, dl::Marshaler& m, cl_mem src,
                    cl_mem index, cl_mem dst, const dl::GatherShape& shape,
                    dl::MarshalResult* result);

}  // namespace dlbm
