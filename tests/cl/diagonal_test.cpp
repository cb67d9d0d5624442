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
