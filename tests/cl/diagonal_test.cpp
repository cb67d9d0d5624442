// Diagonalization on the device (kernels/diagonal.cl) against the CPU reference: every
// shape case of both directions (square, wider, taller planes; single rows and columns;
// odd sizes), elements of 1 to 16 bytes and of 12, several planes, buffer offsets, the
// tiled kernel and the gather; bit-exact both ways, bytes around the region untouched.
#include <algorithm>
#include <array>

#include "cl_env.hpp"
#include "dl/diagonal.hpp"

namespace {

using dl::Diagonal;
using dl::DiagonalShape;
using dltest::ClEnv;

/// Diagonalizes `in` on the device from src[soff] to dst[doff] (or back); returns dst whole.
std::vector<unsigned char> on_device(const DiagonalShape& s, const std::vector<unsigned char>& in,
                                     bool to_diagonal, bool tiled, std::size_t soff,
                                     std::size_t doff, const std::vector<unsigned char>& dinit,
                                     dl::Marshaler* m = nullptr) {
  auto& env = ClEnv::get();
  if (!m) m = env.marshaler.get();
  dltest::DeviceBuffer src(soff + in.size()), dst(dinit.size());
  auto sinit = dltest::random_bytes(src.size, 5);
  std::copy(in.begin(), in.end(), sinit.begin() + static_cast<std::ptrdiff_t>(soff));
  src.write(sinit);
  dst.write(dinit);
  cl_event done = nullptr;
  auto r = m->enqueue_diagonal(env.queue, src.mem, soff, dst.mem, doff, s, to_diagonal, tiled, 0,
                               nullptr, &done);
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

// Elements of one unit take dl_diag_tiled64 (128 work-items per group, one group per
// tile up to 64 per compute unit and option's group); with groups of 64 they take the
// general tiled kernel. Both must give the same planes, also where they loop over the
// tiles: one group per compute unit (the general kernel), and 5,000 planes of two tiles
// with 64 x groups_per_cu = 64 groups per unit (dl_diag_tiled64, below 156 units).
TEST(Diagonal, OneUnitElementsTakeEitherTiledKernel) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.groups_per_cu = 1;
  dl::Marshaler few(env.context, env.device, nullptr, opt);
  opt.work_group_size = 64;
  dl::Marshaler small(env.context, env.device, nullptr, opt);
  std::uint32_t seed = 90;
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main})
    for (auto [ny, nx, planes] : std::vector<std::array<std::uint64_t, 3>>{
             {6, 11, 5000}, {70, 33, 1}, {100, 257, 1}, {130, 70, 2}})
      for (std::size_t elem : {1u, 4u, 8u}) {
        const DiagonalShape s{ny, nx, planes, elem, dir};
        const auto in = dltest::random_bytes(s.bytes(), seed++);
        std::vector<unsigned char> diag(in.size());
        dl::diagonalize(s, in.data(), diag.data(), true);
        const std::size_t doff = 8 * elem;
        const auto dinit = dltest::random_bytes(doff + in.size() + 40, 7);
        for (dl::Marshaler* m : {&small, &few, env.marshaler.get()})
          for (bool to : {true, false}) {
            const auto got = on_device(s, to ? in : diag, to, true, 0, doff, dinit, m);
            ASSERT_TRUE(std::equal((to ? diag : in).begin(), (to ? diag : in).end(),
                                   got.begin() + static_cast<std::ptrdiff_t>(doff)))
                << ny << "x" << nx << " x" << planes << " elem " << elem
                << (dir == Diagonal::Main ? " main" : " secondary")
                << (m == &small ? " groups of 64"
                    : m == &few ? " few groups"
                                : " default")
                << (to ? " to" : " back");
            ASSERT_TRUE(std::equal(dinit.begin(), dinit.begin() + static_cast<std::ptrdiff_t>(doff),
                                   got.begin()));
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

// The layouts DIAG(H) and DIAG_MAIN(H) through Marshaler::enqueue, in place: rows of
// planes of H rows diagonalized, against the layout map (dl::convert) and back, from and
// to AoS, DA, ASTA and the other diagonal layouts; offsets, one plane and many.
TEST(Diagonal, LayoutConvertsInPlace) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  using dl::Layout;
  std::uint32_t seed = 300;
  for (auto [h, planes, nx] : std::vector<std::array<std::uint32_t, 3>>{
           {1, 1, 1}, {5, 1, 7}, {7, 3, 5}, {33, 2, 70}, {64, 1, 64}, {100, 1, 257}})
    for (const dl::Record& rec : {dl::Record::uniform("f", dl::Scalar::Float, nx),
                                  dl::Record::blocks("b", dl::Scalar::UChar, nx, 3)}) {
      const std::size_t n = std::size_t{h} * planes;
      for (bool main : {false, true}) {
        const Layout d = Layout::diag(h, main);
        for (const Layout& other : {Layout::aos(), Layout::da(), Layout::asta(8),
                                    Layout::diag(0, !main), Layout::diag(0, main)})
          for (std::size_t offset : {std::size_t{0}, std::size_t{16}}) {
            SCOPED_TRACE(::testing::Message() << rec.describe() << " n " << n << " " << d.str()
                                              << " <-> " << other.str() << " at " << offset);
            dltest::check_pair(m, rec, n, other, d, dl::Algorithm::Auto, seed++, offset);
          }
      }
    }
}

// The layout conversions through a bounded temporary: chunks of whole planes (two planes
// and a part, one plane, and less than a plane: one each), the last chunk shorter, at a
// buffer offset; against dl::convert both ways, the plan's scratch a chunk.
TEST(Diagonal, LayoutConvertsInChunksOfPlanes) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  using dl::Layout;
  const auto row = dl::Record::uniform("f", dl::Scalar::Float, 37);
  const std::size_t h = 9, planes = 5, n = h * planes, plane = h * row.size();
  std::uint32_t seed = 700;
  for (std::size_t chunk : {2 * plane + plane / 2, plane, plane / 3}) {
    dl::MarshalOptions opt;
    opt.scratch_chunk_bytes = chunk;
    dl::Marshaler m(env.context, env.device, nullptr, opt);
    const std::size_t per = std::max<std::size_t>(1, chunk / plane) * plane;
    for (bool main : {false, true}) {
      const dl::Plan p = m.plan(row, n, Layout::aos(), Layout::diag(h, main));
      ASSERT_TRUE(p.ok) << p.reason;
      EXPECT_EQ(p.extra_bytes, per) << chunk;
      for (const Layout& other : {Layout::aos(), Layout::asta(4)}) {
        SCOPED_TRACE(::testing::Message() << "chunks of " << chunk << " bytes, "
                                          << (main ? "main " : "secondary ") << other.str());
        dltest::check_pair(m, row, n, other, Layout::diag(h, main), dl::Algorithm::Auto, seed++,
                           16);
      }
    }
  }
}

TEST(Diagonal, LayoutPlansAndRefusals) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  using dl::Algorithm;
  using dl::Layout;
  const auto row = dl::Record::uniform("f", dl::Scalar::Float, 10);
  dl::Plan p = m.plan(row, 40, Layout::aos(), Layout::diag(8));
  ASSERT_TRUE(p.ok) << p.reason;
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].algorithm, Algorithm::Diagonal);
  EXPECT_EQ(p.extra_bytes, 40 * row.size());  // the temporary
  EXPECT_EQ(p.bytes_moved, 4 * 40 * row.size());
  p = m.plan(row, 40, Layout::diag(8), Layout::asta(4));
  ASSERT_TRUE(p.ok) << p.reason;
  ASSERT_GE(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[0].algorithm, Algorithm::Diagonal);
  EXPECT_EQ(p.steps[0].to, Layout::aos());
  p = m.plan(row, 40, Layout::diag(8), Layout::diag(8, true), Algorithm::Diagonal);
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_EQ(p.steps.size(), 2u);
  EXPECT_TRUE(m.plan(row, 40, Layout::diag(40), Layout::diag()).steps.empty());  // one map
  // Whole planes only; rows of elements of one size; the diagonal algorithm only.
  p = m.plan(row, 41, Layout::aos(), Layout::diag(8));
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("whole planes"), std::string::npos) << p.reason;
  const auto mixed =
      dl::Record::make("m", {{"a", dl::Scalar::Float, 1, 1}, {"b", dl::Scalar::Double, 1, 1}});
  p = m.plan(mixed, 8, Layout::aos(), Layout::diag());
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("one size"), std::string::npos) << p.reason;
  p = m.plan(row, 40, Layout::aos(), Layout::diag(8), Algorithm::BarrierSync);
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("diagonal algorithm"), std::string::npos) << p.reason;
  // Refused before anything reaches the buffer.
  auto& env = ClEnv::get();
  dltest::DeviceBuffer buf(41 * row.size());
  const auto init = dltest::random_bytes(buf.size, 3);
  buf.write(init);
  const auto r = m.enqueue(env.queue, buf.mem, 0, row, 41, Layout::aos(), Layout::diag(8));
  EXPECT_EQ(r.status, CL_INVALID_VALUE);
  EXPECT_EQ(r.kernels, 0u);
  EXPECT_TRUE(buf.read() == init);
  // A temporary that cannot be allocated (PoCL refuses it when it is made, the NVIDIA
  // driver when the copy into it is enqueued): nothing runs, the buffer as it was.
  dl::MarshalOptions opt;
  opt.scratch_padding = std::size_t(1) << 62;
  dl::Marshaler starved(env.context, env.device, nullptr, opt);
  const auto s = starved.enqueue(env.queue, buf.mem, 0, row, 40, Layout::aos(), Layout::diag(8));
  EXPECT_NE(s.status, CL_SUCCESS);
  EXPECT_TRUE(s.error.find("temporary") != std::string::npos ||
              s.error.find("command 0 (copy)") != std::string::npos)
      << s.error;
  EXPECT_EQ(s.kernels, 0u);
  clFinish(env.queue);
  EXPECT_TRUE(buf.read() == init);
}

}  // namespace
