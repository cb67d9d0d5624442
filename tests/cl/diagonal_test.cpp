// Diagonalization on the device (kernels/diagonal.cl) against the CPU reference: every
// shape case of both directions (square, wider, taller planes; single rows and columns;
// odd sizes), elements of 1 to 16 bytes and of 12, several planes, buffer offsets, the
// tiled kernel and the gather; bit-exact both ways, bytes around the region untouched.
#include <algorithm>

#include "cl_env.hpp"
#include "dl/diagonal.hpp"

namespace {

using dl::Diagonal;
using dl::DiagonalShape;
using dltest::ClEnv;

/// Diagonalizes `in` on the device from src[soff] to dst[doff] (or back); returns dst whole.
std::vector<unsigned char> on_device(const DiagonalShape& s, const std::vector<unsigned char>& in,
                                     bool to_diagonal, bool tiled, std::size_t soff,
                                     std::size_t doff, const std::vector<unsigned char>& dinit) {
  auto& env = ClEnv::get();
  dltest::DeviceBuffer src(soff + in.size()), dst(dinit.size());
  auto sinit = dltest::random_bytes(src.size, 5);
  std::copy(in.begin(), in.end(), sinit.begin() + static_cast<std::ptrdiff_t>(soff));
  src.write(sinit);
  dst.write(dinit);
  cl_event done = nullptr;
  auto r = env.marshaler->enqueue_diagonal(env.queue, src.mem, soff, dst.mem, doff, s, to_diagonal,
                                           tiled, 0, nullptr, &done);
  EXPECT_EQ(r.status, CL_SUCCESS) << r.error;
  if (done) {
    clWaitForEvents(1, &done);
    clReleaseEvent(done);
  }
  EXPECT_EQ(r.plan.bytes_moved, 2 * s.bytes());
  EXPECT_TRUE(src.read() == sinit);
  return dst.read();
}

TEST(Diagonal, DeviceMatchesTheReferenceBothWays) {
  REQUIRE_CL();
  std::uint32_t seed = 40;
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main})
    for (auto [ny, nx] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{1, 1},
                                                                              {1, 37},
                                                                              {37, 1},
                                                                              {5, 5},
                                                                              {6, 11},
                                                                              {11, 6},
                                                                              {33, 70},
                                                                              {70, 33},
                                                                              {64, 64},
                                                                              {100, 257}})
      for (std::size_t elem : {1u, 2u, 4u, 8u, 12u, 16u})
        for (bool tiled : {true, false}) {
          const DiagonalShape s{ny, nx, ny * nx < 1000 ? 3u : 1u, elem, dir};
          const auto in = dltest::random_bytes(s.bytes(), seed++);
          std::vector<unsigned char> diag(in.size());
          dl::diagonalize(s, in.data(), diag.data(), true);
          const std::size_t soff = elem % 4 == 0 ? 16 : 3, doff = 32;
          const auto dinit = dltest::random_bytes(doff + in.size() + 48, 6);
          const auto tag = ::testing::Message()
                           << ny << "x" << nx << " x" << s.planes << " elem " << elem
                           << (dir == Diagonal::Main ? " main" : " secondary")
                           << (tiled ? " tiled" : " gather");
          for (bool to : {true, false}) {
            const auto& from = to ? in : diag;
            const auto& want = to ? diag : in;
            const auto got = on_device(s, from, to, tiled, soff, doff, dinit);
            ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + doff))
                << tag << (to ? " to the diagonals" : " back");
            ASSERT_TRUE(std::equal(dinit.begin(), dinit.begin() + doff, got.begin()));
            ASSERT_TRUE(std::equal(dinit.begin() + static_cast<std::ptrdiff_t>(doff + in.size()),
                                   dinit.end(),
                                   got.begin() + static_cast<std::ptrdiff_t>(doff + in.size())));
          }
        }
}

// The clipping copy on the device against the CPU reference: rectangles at the corners,
// inside, whole planes, empty; out of the diagonalized planes and back into them.
TEST(Diagonal, ClipOnTheDeviceMatchesTheReference) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  std::uint32_t seed = 70;
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main})
    for (std::size_t elem : {4u, 12u})
      for (dl::Rect r : {dl::Rect{0, 0, 33, 70}, dl::Rect{5, 7, 10, 20}, dl::Rect{32, 0, 1, 70},
                         dl::Rect{0, 69, 33, 1}, dl::Rect{1, 1, 0, 5}}) {
        const DiagonalShape s{33, 70, 2, elem, dir};
        const auto diag = dltest::random_bytes(s.bytes(), seed++);
        const std::size_t rect_bytes = s.planes * r.h * r.w * elem;
        std::vector<unsigned char> want(rect_bytes);
        auto d = diag;
        dl::clip_diagonal(s, r, d.data(), want.data(), true);
        dltest::DeviceBuffer dbuf(diag.size()), rbuf(rect_bytes + 16);
        dbuf.write(diag);
        auto r0 = dltest::random_bytes(rbuf.size, 8);
        rbuf.write(r0);
        auto res =
            env.marshaler->enqueue_diagonal_clip(env.queue, dbuf.mem, 0, rbuf.mem, 16, s, r, true);
        ASSERT_EQ(res.status, CL_SUCCESS) << res.error;
        clFinish(env.queue);
        auto got = rbuf.read();
        ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + 16)) << r.y0 << "," << r.x0;
        ASSERT_TRUE(std::equal(r0.begin(), r0.begin() + 16, got.begin()));
        // A new halo written back: the planes change in the rectangle only.
        auto fresh = dltest::random_bytes(rect_bytes + 16, seed++);
        rbuf.write(fresh);
        res =
            env.marshaler->enqueue_diagonal_clip(env.queue, dbuf.mem, 0, rbuf.mem, 16, s, r, false);
        ASSERT_EQ(res.status, CL_SUCCESS) << res.error;
        clFinish(env.queue);
        std::vector<unsigned char> in(fresh.begin() + 16, fresh.end());
        dl::clip_diagonal(s, r, d.data(), in.data(), false);
        ASSERT_TRUE(dbuf.read() == d);
      }
  dltest::DeviceBuffer a(4096), b(4096);
  auto res = env.marshaler->enqueue_diagonal_clip(env.queue, a.mem, 0, b.mem, 0, {16, 16, 1, 4},
                                                  dl::Rect{10, 0, 7, 1}, true);
  EXPECT_EQ(res.status, CL_INVALID_VALUE);
  EXPECT_NE(res.error.find("not inside"), std::string::npos) << res.error;
}

TEST(Diagonal, RefusesWhatItCannotDo) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dltest::DeviceBuffer a(4096), b(4096);
  auto& m = *env.marshaler;
  auto r = m.enqueue_diagonal(env.queue, a.mem, 0, b.mem, 0, {32, 33, 1, 4}, true);
  EXPECT_EQ(r.status, CL_INVALID_VALUE);  // 4224 bytes in a buffer of 4096
  EXPECT_NE(r.error.find("cannot hold"), std::string::npos) << r.error;
  r = m.enqueue_diagonal(env.queue, a.mem, 0, a.mem, 512, {16, 16, 1, 4}, true);
  EXPECT_EQ(r.status, CL_MEM_COPY_OVERLAP);
  r = m.enqueue_diagonal(env.queue, a.mem, 0, b.mem, 0, {16, 16, 1, 0}, true);
  EXPECT_EQ(r.status, CL_INVALID_VALUE);
  r = m.enqueue_diagonal(env.queue, a.mem, 0, b.mem, 0,
                         {std::uint64_t{1} << 40, std::uint64_t{1} << 40, 1, 4}, true);
  EXPECT_EQ(r.status, CL_INVALID_VALUE);
  EXPECT_NE(r.error.find("overflows"), std::string::npos) << r.error;
  EXPECT_EQ(r.kernels, 0u);
}

}  // namespace
