// The indirect copy (Marshaler::enqueue_gather, kernels/gather.cl) on the device against
// a CPU reference, bit-exact: elements of 1 to 100 bytes, every index width signed and
// unsigned, indices out of range (negative, == src_elems, the type's extremes) and
// repeated, offsets that narrow the unit, enough units for the grid-stride loop to wrap;
// count 0, the wait list and the done event; every refused input by its error. Bytes
// around the destination region, and the source and the index, stay untouched.
#include <chrono>
#include <thread>

#include "cl_env.hpp"

namespace {

using dl::GatherShape;
using dltest::ClEnv;
using dltest::DeviceBuffer;

/// Entry i of a little-endian index array of `bytes`-byte integers, sign-extended where
/// signed.
std::int64_t index_at(const std::vector<unsigned char>& ix, std::size_t off, std::size_t i,
                      unsigned bytes, bool sgn) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < bytes; ++b) v |= std::uint64_t{ix[off + i * bytes + b]} << (8 * b);
  if (sgn && bytes < 8 && ((v >> (8 * bytes - 1)) & 1)) v |= ~std::uint64_t{0} << (8 * bytes);
  return static_cast<std::int64_t>(v);
}

/// The reference: dst[doff + i * elem] for i < count from src[soff] by the index at
/// ix[ioff]; zero bytes where the index is outside [0, src_elems).
void gather_reference(const std::vector<unsigned char>& src, std::size_t soff,
                      const std::vector<unsigned char>& ix, std::size_t ioff,
                      std::vector<unsigned char>& dst, std::size_t doff, const GatherShape& s) {
  for (std::size_t i = 0; i < s.count; ++i) {
    const std::int64_t v = index_at(ix, ioff, i, s.index_bytes, s.index_signed);
    const bool inside = s.index_signed ? v >= 0 && static_cast<std::uint64_t>(v) < s.src_elems
                                       : static_cast<std::uint64_t>(v) < s.src_elems;
    unsigned char* out = dst.data() + doff + i * s.elem;
    if (inside)
      std::memcpy(out, src.data() + soff + static_cast<std::size_t>(v) * s.elem, s.elem);
    else
      std::memset(out, 0, s.elem);
  }
}

/// Writes `v` as entry i of a little-endian `bytes`-byte index array (truncated).
void put_index(std::vector<unsigned char>& ix, std::size_t off, std::size_t i, unsigned bytes,
               std::uint64_t v) {
  for (unsigned b = 0; b < bytes; ++b)
    ix[off + i * bytes + b] = static_cast<unsigned char>(v >> (8 * b));
}

/// `count` index entries for `s`: mostly inside (with runs of repeats), and every kind of
/// outside the type can hold: negative (-1, the most negative), src_elems itself, just
/// above it, the type's largest value.
void fill_index(std::vector<unsigned char>& ix, std::size_t off, const GatherShape& s,
                std::uint32_t seed) {
  std::mt19937 rng(seed);
  const unsigned bits = 8 * s.index_bytes;
  const std::uint64_t all = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t top = s.index_signed ? all >> 1 : all;  // largest value of the type
  const std::uint64_t most_negative = top + 1;                // as the type's bits
  std::uint64_t prev = 0;
  for (std::size_t i = 0; i < s.count; ++i) {
    std::uint64_t v;
    switch (rng() % 16) {
      case 0:
        v = s.src_elems;
        break;
      case 1:
        v = top;
        break;
      case 2:
        v = s.index_signed ? all : s.src_elems + 1 + rng() % 7;  // -1
        break;
      case 3:
        v = s.index_signed ? most_negative : top - rng() % 3;
        break;
      case 4:
      case 5:
        v = prev;  // a repeat
        break;
      default:
        v = rng() % s.src_elems;
    }
    put_index(ix, off, i, s.index_bytes, v);
    prev = v;
  }
}

struct Offsets {
  std::size_t src, index, dst;
};

/// Gathers on the device with src, index and dst in buffers of their own (bytes around
/// each region random) and checks the result against the reference, the bytes around the
/// destination region and the source and the index unchanged.
void check_gather(const GatherShape& s, const Offsets& o, std::uint32_t seed) {
  auto& env = ClEnv::get();
  const std::size_t guard = 40;
  const auto src_init = dltest::random_bytes(o.src + s.src_elems * s.elem + guard, seed);
  auto ix_init = dltest::random_bytes(o.index + s.count * s.index_bytes + guard, seed + 1);
  fill_index(ix_init, o.index, s, seed + 2);
  const auto dst_init = dltest::random_bytes(o.dst + s.count * s.elem + guard, seed + 3);
  auto want = dst_init;
  gather_reference(src_init, o.src, ix_init, o.index, want, o.dst, s);
  DeviceBuffer src(src_init.size()), ix(ix_init.size()), dst(dst_init.size());
  src.write(src_init);
  ix.write(ix_init);
  dst.write(dst_init);
  cl_event done = nullptr;
  const auto r = env.marshaler->enqueue_gather(env.queue, src.mem, o.src, ix.mem, o.index, dst.mem,
                                               o.dst, s, 0, nullptr, &done);
  const auto tag = ::testing::Message()
                   << "elem " << s.elem << " count " << s.count << " src_elems " << s.src_elems
                   << " index " << (s.index_signed ? "int" : "uint") << 8 * s.index_bytes
                   << " offsets " << o.src << "/" << o.index << "/" << o.dst;
  ASSERT_EQ(r.status, CL_SUCCESS) << tag << ": " << r.error;
  ASSERT_NE(done, nullptr) << tag;
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done);
  EXPECT_EQ(r.kernels, 1u) << tag;
  EXPECT_EQ(r.plan.bytes_moved, 2 * s.count * s.elem + s.count * s.index_bytes) << tag;
  const auto got = dst.read();
  ASSERT_TRUE(got == want) << tag;
  ASSERT_TRUE(src.read() == src_init) << tag;
  ASSERT_TRUE(ix.read() == ix_init) << tag;
}

// Every element size of the brief with every index type, at offsets that keep the
// element's widest unit and at offsets that narrow it (to one byte).
TEST(Gather, MatchesTheReferenceForEveryElementAndIndexType) {
  REQUIRE_CL();
  std::uint32_t seed = 1000;
  for (std::size_t elem : {1u, 2u, 3u, 4u, 8u, 12u, 16u, 100u})
    for (unsigned ib : {1u, 2u, 4u, 8u})
      for (bool sgn : {true, false}) {
        GatherShape s;
        s.elem = elem;
        s.index_bytes = ib;
        s.index_signed = sgn;
        // Every in-range index fits a signed byte; 1-byte indices also reach past it.
        s.src_elems = ib == 1 ? 100 : 1000;
        s.count = 777;
        for (const Offsets& o : {Offsets{0, 0, 0}, Offsets{16 * elem, 3 * ib, 48},
                                 Offsets{3, 5 * ib, 7}, Offsets{elem, ib, 2 * elem}}) {
          check_gather(s, o, seed);
          if (::testing::Test::HasFatalFailure()) return;
          seed += 4;
        }
      }
}

// Where the source holds more elements than a signed index can reach, signedness decides:
// an unsigned 1- or 2-byte index with its top bit set is inside, the same bits signed are
// negative (outside). Every bit pattern of the type occurs.
TEST(Gather, SignednessDecidesTheTopHalf) {
  REQUIRE_CL();
  std::uint32_t seed = 3000;
  for (unsigned ib : {1u, 2u})
    for (bool sgn : {true, false}) {
      GatherShape s;
      s.elem = 4;
      s.index_bytes = ib;
      s.index_signed = sgn;
      s.src_elems = (std::size_t{1} << (8 * ib)) + 5;
      s.count = 4 * (std::size_t{1} << (8 * ib));
      check_gather(s, {0, 0, 0}, seed);
      if (::testing::Test::HasFatalFailure()) return;
      seed += 4;
    }
}

// More units than the launch has work-items (PoCL: compute units x groups_per_cu groups),
// for several units per element whose count does not divide the global size: the
// element and unit a work-item steps to wrap around.
TEST(Gather, GridStrideCoversLargeGathers) {
  REQUIRE_CL();
  std::uint32_t seed = 5000;
  for (std::size_t elem : {1u, 12u, 100u, 4096u}) {
    GatherShape s;
    s.elem = elem;
    s.index_bytes = 4;
    s.index_signed = false;
    s.src_elems = 3001;
    s.count = elem >= 4096 ? 300 : 40000;
    check_gather(s, {elem == 100 ? 4u : 0u, 8, 12}, seed);
    if (::testing::Test::HasFatalFailure()) return;
    seed += 4;
  }
}

// src, index and dst in one buffer (src and index overlapping each other, dst apart).
TEST(Gather, OneBufferForSourceIndexAndDestination) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  GatherShape s;
  s.elem = 8;
  s.count = 50;
  s.src_elems = 64;  // bytes [0, 512)
  s.index_bytes = 2;
  s.index_signed = false;
  const std::size_t soff = 0, ioff = 256, doff = 600;  // index: bytes [256, 356) of src
  auto init = dltest::random_bytes(doff + s.count * s.elem + 16, 7);
  fill_index(init, ioff, s, 8);
  auto want = init;
  gather_reference(init, soff, init, ioff, want, doff, s);
  DeviceBuffer buf(init.size());
  buf.write(init);
  cl_event done = nullptr;
  const auto r = env.marshaler->enqueue_gather(env.queue, buf.mem, soff, buf.mem, ioff, buf.mem,
                                               doff, s, 0, nullptr, &done);
  ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  clReleaseEvent(done);
  EXPECT_TRUE(buf.read() == want);
}

/// Execution status of `e`.
cl_int status_of(cl_event e) {
  cl_int st = 0;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st, nullptr);
  return st;
}

// The gather waits on the caller's list (a user event and the index's upload) and its
// done event completes with it.
TEST(Gather, WaitsOnTheListAndSignalsDone) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  GatherShape s;
  s.elem = 4;
  s.count = 300;
  s.src_elems = 200;
  s.index_bytes = 4;
  s.index_signed = true;
  const auto src_init = dltest::random_bytes(s.src_elems * s.elem, 21);
  std::vector<unsigned char> ix(s.count * s.index_bytes);
  fill_index(ix, 0, s, 22);
  const auto dst_init = dltest::random_bytes(s.count * s.elem, 23);
  auto want = dst_init;
  gather_reference(src_init, 0, ix, 0, want, 0, s);
  DeviceBuffer src(src_init.size()), index(ix.size()), dst(dst_init.size());
  src.write(src_init);
  dst.write(dst_init);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_event upload = nullptr;  // the index arrives behind the gate
  ASSERT_EQ(clEnqueueWriteBuffer(env.queue, index.mem, CL_FALSE, 0, ix.size(), ix.data(), 1, &gate,
                                 &upload),
            CL_SUCCESS);
  const cl_event wait[2] = {gate, upload};
  cl_event done = nullptr;
  const auto r = env.marshaler->enqueue_gather(env.queue, src.mem, 0, index.mem, 0, dst.mem, 0, s,
                                               2, wait, &done);
  ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
  ASSERT_NE(done, nullptr);
  clFlush(env.queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_NE(status_of(done), CL_COMPLETE);  // held by the gate
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  EXPECT_EQ(status_of(done), CL_COMPLETE);
  EXPECT_TRUE(dst.read() == want);
  for (cl_event e : {gate, upload, done}) clReleaseEvent(e);
}

// Count 0 moves nothing but still orders: with `done`, a marker behind the wait list;
// with a wait list alone, a marker too (what follows on the queue waits); with neither,
// nothing at all. The inputs are checked all the same.
TEST(Gather, CountZeroHonoursTheWaitListAndDone) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  DeviceBuffer src(64), index(64), dst(64);
  const auto dst_init = dltest::random_bytes(64, 31);
  dst.write(dst_init);
  GatherShape s;
  s.elem = 4;
  s.count = 0;
  s.src_elems = 16;
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_event done = nullptr;
  auto r = m.enqueue_gather(env.queue, src.mem, 0, index.mem, 0, dst.mem, 0, s, 1, &gate, &done);
  ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
  EXPECT_EQ(r.kernels, 0u);
  EXPECT_EQ(r.plan.bytes_moved, 0u);
  ASSERT_NE(done, nullptr);
  clFlush(env.queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(status_of(done), CL_COMPLETE);  // the marker waits on the gate
  // A wait list without `done`: what follows on the (in-order) queue waits on it too.
  cl_event gate2 = clCreateUserEvent(env.context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  r = m.enqueue_gather(env.queue, src.mem, 0, index.mem, 0, dst.mem, 0, s, 1, &gate2, nullptr);
  ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
  cl_event after = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &after), CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  clFlush(env.queue);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_NE(status_of(after), CL_COMPLETE);  // held by gate2 through the gather's marker
  ASSERT_EQ(clSetUserEventStatus(gate2, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &after), CL_SUCCESS);
  for (cl_event e : {gate, gate2, done, after}) clReleaseEvent(e);
  // Neither: nothing enqueued, nothing returned.
  r = m.enqueue_gather(env.queue, src.mem, 0, index.mem, 0, dst.mem, 0, s);
  EXPECT_EQ(r.status, CL_SUCCESS) << r.error;
  EXPECT_EQ(r.kernels, 0u);
  EXPECT_TRUE(dst.read() == dst_init);
  // Still checked: a source region past the buffer's end.
  s.src_elems = 17;
  done = nullptr;
  r = m.enqueue_gather(env.queue, src.mem, 0, index.mem, 0, dst.mem, 0, s, 0, nullptr, &done);
  EXPECT_EQ(r.status, CL_INVALID_VALUE);
  EXPECT_EQ(done, nullptr);
}

// Every refusal, each by its status and error; nothing is enqueued and `done` stays null.
TEST(Gather, RefusesBadInput) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  DeviceBuffer a(4096), b(4096), c(4096);
  const auto b_init = dltest::random_bytes(4096, 41);
  b.write(b_init);
  GatherShape ok;
  ok.elem = 8;
  ok.count = 100;     // index: 400 bytes, dst: 800 bytes
  ok.src_elems = 64;  // 512 bytes
  ok.index_bytes = 4;
  struct Case {
    const char* name;
    GatherShape s;
    cl_mem src;
    std::size_t soff;
    cl_mem index;
    std::size_t ioff;
    cl_mem dst;
    std::size_t doff;
    cl_int status;
    const char* error;
  };
  auto with = [&](auto change) {
    GatherShape s = ok;
    change(s);
    return s;
  };
  const std::vector<Case> cases = {
      {"element of 0 bytes", with([](GatherShape& s) { s.elem = 0; }), a.mem, 0, c.mem, 0, b.mem, 0,
       CL_INVALID_VALUE, "an element of 0 bytes (1 to 1048576)"},
      {"element over 1 MiB", with([](GatherShape& s) { s.elem = (1u << 20) + 1; }), a.mem, 0, c.mem,
       0, b.mem, 0, CL_INVALID_VALUE, "an element of 1048577 bytes"},
      {"index of 3 bytes", with([](GatherShape& s) { s.index_bytes = 3; }), a.mem, 0, c.mem, 0,
       b.mem, 0, CL_INVALID_VALUE, "an index of 3 bytes (1, 2, 4 or 8)"},
      {"index of 16 bytes", with([](GatherShape& s) { s.index_bytes = 16; }), a.mem, 0, c.mem, 0,
       b.mem, 0, CL_INVALID_VALUE, "an index of 16 bytes"},
      {"misaligned index offset", ok, a.mem, 0, c.mem, 6, b.mem, 0, CL_INVALID_VALUE,
       "not a multiple of the index's 4 bytes"},
      {"count overflows", with([](GatherShape& s) { s.count = std::size_t{1} << 61; }), a.mem, 0,
       c.mem, 0, b.mem, 0, CL_INVALID_VALUE, "the gather's size overflows"},
      {"src_elems overflows", with([](GatherShape& s) { s.src_elems = ~std::size_t{0} / 8; }),
       a.mem, 0, c.mem, 0, b.mem, 0, CL_INVALID_VALUE, "the gather's size overflows"},
      {"source past the end", with([](GatherShape& s) { s.src_elems = 513; }), a.mem, 0, c.mem, 0,
       b.mem, 0, CL_INVALID_VALUE, "the source: buffer of 4096 bytes cannot hold 4104 bytes"},
      {"source offset past the end", ok, a.mem, 5000, c.mem, 0, b.mem, 0, CL_INVALID_VALUE,
       "the source: buffer of 4096 bytes cannot hold 512 bytes at offset 5000"},
      {"index past the end", ok, a.mem, 0, c.mem, 3700, b.mem, 0, CL_INVALID_VALUE,
       "the index: buffer of 4096 bytes cannot hold 400 bytes at offset 3700"},
      {"destination past the end", ok, a.mem, 0, c.mem, 0, b.mem, 3297, CL_INVALID_VALUE,
       "the destination: buffer of 4096 bytes cannot hold 800 bytes at offset 3297"},
      {"source not a buffer", ok, nullptr, 0, c.mem, 0, b.mem, 0, CL_INVALID_MEM_OBJECT,
       "the source: not a buffer"},
      {"index not a buffer", ok, a.mem, 0, nullptr, 0, b.mem, 0, CL_INVALID_MEM_OBJECT,
       "the index: not a buffer"},
      {"destination not a buffer", ok, a.mem, 0, c.mem, 0, nullptr, 0, CL_INVALID_MEM_OBJECT,
       "the destination: not a buffer"},
      {"destination overlaps the source", ok, b.mem, 0, c.mem, 0, b.mem, 511, CL_MEM_COPY_OVERLAP,
       "source and destination overlap"},
      {"source overlaps the destination", ok, b.mem, 1000, c.mem, 0, b.mem, 201,
       CL_MEM_COPY_OVERLAP, "source and destination overlap"},
      {"destination overlaps the index", ok, a.mem, 0, b.mem, 2000, b.mem, 1201,
       CL_MEM_COPY_OVERLAP, "index and destination overlap"},
      {"count 0 still checked", with([](GatherShape& s) { s.count = 0; }), a.mem, 0, c.mem, 2,
       b.mem, 0, CL_INVALID_VALUE, "not a multiple of the index's 4 bytes"},
  };
  for (const Case& k : cases) {
    cl_event done = nullptr;
    const auto r = m.enqueue_gather(env.queue, k.src, k.soff, k.index, k.ioff, k.dst, k.doff, k.s,
                                    0, nullptr, &done);
    EXPECT_EQ(r.status, k.status) << k.name << ": " << r.error;
    EXPECT_NE(r.error.find(k.error), std::string::npos) << k.name << ": " << r.error;
    EXPECT_EQ(r.kernels, 0u) << k.name;
    EXPECT_EQ(done, nullptr) << k.name;
  }
  EXPECT_TRUE(b.read() == b_init);
  // Adjacent regions of one buffer are not an overlap; an empty one overlaps nothing.
  GatherShape s = ok;
  auto r = m.enqueue_gather(env.queue, b.mem, 0, b.mem, 512, b.mem, 912, s);
  EXPECT_EQ(r.status, CL_SUCCESS) << r.error;
  s.src_elems = 0;
  r = m.enqueue_gather(env.queue, b.mem, 1000, c.mem, 0, b.mem, 800, s);
  EXPECT_EQ(r.status, CL_SUCCESS) << r.error;
  clFinish(env.queue);
}

}  // namespace
