// Shared OpenCL set-up of the tests/cl suites: the first OpenCL device (PoCL's CPU
// device in CI), one context and in-order queue for the whole test binary, and helpers
// that run a conversion on the device and compare it with the CPU oracle.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dl/layout.hpp"
#include "dl/marshal.hpp"

namespace dltest {

struct ClEnv {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::unique_ptr<dl::Marshaler> marshaler;

  static ClEnv& get() {
    static ClEnv env;
    return env;
  }
  bool ok() const { return queue != nullptr; }

 private:
  ClEnv() {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return;
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    for (cl_platform_id p : ps) {
      cl_uint nd = 0;
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, &nd) == CL_SUCCESS && nd > 0) {
        platform = p;
        break;
      }
    }
    if (!platform) return;
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return;
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    if (err != CL_SUCCESS) {
      queue = nullptr;
      return;
    }
    marshaler = std::make_unique<dl::Marshaler>(context, device);
  }
};

/// Skips the test where no OpenCL device is there.
#define REQUIRE_CL()                                                      \
  do {                                                                    \
    if (!::dltest::ClEnv::get().ok()) GTEST_SKIP() << "no OpenCL device"; \
  } while (0)

inline std::vector<unsigned char> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng() % 255 + 1);  // never zero
  return v;
}

/// A device buffer of `bytes` bytes (plus guard bytes around the marshaled region).
struct DeviceBuffer {
  cl_mem mem = nullptr;
  std::size_t size = 0;
  DeviceBuffer(std::size_t bytes) : size(bytes) {
    cl_int err = CL_SUCCESS;
    mem = clCreateBuffer(ClEnv::get().context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1),
                         nullptr, &err);
  }
  ~DeviceBuffer() {
    if (mem) clReleaseMemObject(mem);
  }
  void write(const std::vector<unsigned char>& v) {
    if (!v.empty())
      clEnqueueWriteBuffer(ClEnv::get().queue, mem, CL_TRUE, 0, v.size(), v.data(), 0, nullptr,
                           nullptr);
  }
  std::vector<unsigned char> read() {
    std::vector<unsigned char> v(size);
    if (size)
      clEnqueueReadBuffer(ClEnv::get().queue, mem, CL_TRUE, 0, size, v.data(), 0, nullptr, nullptr);
    return v;
  }
};

/// Converts `in` (n records in `from`, stored at byte `offset` of a buffer with guard
/// bytes after) on the device; returns the whole buffer. Fails the test on errors.
inline std::vector<unsigned char> run_on_device(dl::Marshaler& m, const dl::Record& rec,
                                                std::size_t n, const dl::Layout& from,
                                                const dl::Layout& to,
                                                const std::vector<unsigned char>& in,
                                                dl::Algorithm a = dl::Algorithm::Auto,
                                                std::size_t offset = 0,
                                                dl::MarshalResult* out = nullptr) {
  auto& env = ClEnv::get();
  const std::size_t guard = 64;
  DeviceBuffer buf(offset + in.size() + guard);
  std::vector<unsigned char> init = random_bytes(buf.size, 99);
  std::memcpy(init.data() + offset, in.data(), in.size());
  buf.write(init);
  cl_event done = nullptr;
  dl::MarshalResult r =
      m.enqueue(env.queue, buf.mem, offset, rec, n, from, to, a, 0, nullptr, &done);
  EXPECT_EQ(r.status, CL_SUCCESS) << r.error;
  if (done) {
    EXPECT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
  }
  std::vector<unsigned char> all = buf.read();
  // Guard bytes never change.
  EXPECT_EQ(0, std::memcmp(all.data(), init.data(), offset));
  EXPECT_EQ(0,
            std::memcmp(all.data() + offset + in.size(), init.data() + offset + in.size(), guard));
  if (out) *out = r;
  return std::vector<unsigned char>(all.begin() + static_cast<std::ptrdiff_t>(offset),
                                    all.begin() + static_cast<std::ptrdiff_t>(offset + in.size()));
}

/// Device result of from -> to equals dl::convert, and converting back restores the input.
inline void check_pair(dl::Marshaler& m, const dl::Record& rec, std::size_t n,
                       const dl::Layout& from, const dl::Layout& to, dl::Algorithm a,
                       std::uint32_t seed, std::size_t offset = 0) {
  const auto in = random_bytes(n * rec.size(), seed);
  std::vector<unsigned char> want(in.size());
  dl::convert(rec, n, from, in.data(), to, want.data());
  const bool same = from.same_map(to, n);
  if (!same && n > 1 && rec.slots().size() > 1) {
    ASSERT_FALSE(want == in) << "a conversion that moves nothing tests nothing";
  }
  const auto got = run_on_device(m, rec, n, from, to, in, a, offset);
  ASSERT_TRUE(got == want) << rec.describe() << " n=" << n << " " << from.str() << " -> "
                           << to.str() << " (" << dl::algorithm_name(a) << ")";
  const auto back = run_on_device(m, rec, n, to, from, got, a, offset);
  ASSERT_TRUE(back == in) << "round trip " << rec.describe() << " n=" << n << " " << to.str()
                          << " -> " << from.str() << " (" << dl::algorithm_name(a) << ")";
}

}  // namespace dltest
