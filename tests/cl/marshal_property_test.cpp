// Property tests: random records (1-32 fields of mixed 1/2/4/8-byte scalars, vectors,
// arrays, padding; some packed), every T in {1, 2, 4, ..., 128}, n with n % T in {0, 1,
// T-1}, every pair of {AoS, DA, ASTA(T), ASTA(T')} and every algorithm whose plan
// accepts the shape: the device result equals dl::convert and the round trip restores
// the input bit-exactly. Inputs random, output guards checked (cl_env.hpp).
// Plus the error contract: refused shapes, failed builds and failed allocations leave
// the buffer untouched.
#include <tuple>

#include "cl_env.hpp"

namespace {

using dl::Algorithm;
using dl::Layout;
using dl::Scalar;
using dltest::ClEnv;

dl::Record random_record(std::uint32_t seed) {
  std::mt19937 rng(seed);
  const Scalar scalars[] = {Scalar::Char, Scalar::UChar, Scalar::Short, Scalar::UShort,
                            Scalar::Half, Scalar::Int,   Scalar::UInt,  Scalar::Float,
                            Scalar::Long, Scalar::ULong, Scalar::Double};
  const unsigned widths[] = {1, 1, 1, 1, 2, 3, 4, 8, 16};
  const unsigned nfields = 1 + rng() % 32;
  std::vector<dl::FieldSpec> fs;
  std::size_t bytes = 0;
  for (unsigned f = 0; f < nfields; ++f) {
    dl::FieldSpec s;
    s.name = "f" + std::to_string(f);
    s.type = scalars[rng() % 11];
    s.vector_width = rng() % 4 == 0 ? widths[rng() % 9] : 1;
    s.count = rng() % 5 == 0 ? 1 + rng() % 4 : 1;
    const std::size_t elem = dl::scalar_size(s.type) * (s.vector_width == 3 ? 4 : s.vector_width);
    if (bytes + elem * s.count > 384) break;  // keep T = 128 tiles testable
    bytes += elem * s.count;
    fs.push_back(s);
  }
  if (fs.empty()) fs.push_back({"f0", Scalar::Int, 1, 1, 0});
  const bool packed = seed % 5 == 3;
  const std::size_t align = seed % 7 == 2 ? 32 : 0;  // extra tail padding
  return dl::Record::make("r" + std::to_string(seed), fs, packed, align);
}

const Algorithm kAlgorithms[] = {
    Algorithm::Auto,       Algorithm::BarrierSync, Algorithm::PttwacInstance,
    Algorithm::Pttwac,     Algorithm::Pipt,        Algorithm::Segmented,
    Algorithm::OutOfPlace, Algorithm::ThreePass,   Algorithm::Square};

class RandomRecord : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(RandomRecord, EveryPairEveryAlgorithm) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const dl::Record rec = random_record(GetParam());
  std::mt19937 rng(GetParam() * 7919u);
  std::uint32_t seed = GetParam() * 100000u;
  std::size_t runs = 0;
  for (std::uint32_t T = 1; T <= 128; T *= 2) {
    const std::uint32_t T2 = T == 128 ? 32 : T * 4;
    const std::vector<Layout> ls = {Layout::aos(), Layout::da(), Layout::asta(T), Layout::asta(T2)};
    const std::size_t k = 1 + rng() % 4;
    for (std::size_t rem : {std::size_t(0), std::size_t(1), std::size_t(T - 1)}) {
      const std::size_t n = k * T + rem;
      for (std::size_t a = 0; a < ls.size(); ++a)
        for (std::size_t b = a + 1; b < ls.size(); ++b)
          for (Algorithm alg : kAlgorithms) {
            const dl::Plan p = m.plan(rec, n, ls[a], ls[b], alg);
            if (!p.ok) {
              EXPECT_FALSE(p.reason.empty());
              EXPECT_TRUE(p.steps.empty());
              continue;
            }
            ASSERT_TRUE(m.plan(rec, n, ls[b], ls[a], alg).ok)
                << "plans must accept both directions: " << rec.describe();
            dltest::check_pair(m, rec, n, ls[a], ls[b], alg, seed++);
            ++runs;
            if (HasFatalFailure()) return;
          }
    }
  }
  EXPECT_GT(runs, 100u);
  RecordProperty("runs", static_cast<int>(runs));
}

INSTANTIATE_TEST_SUITE_P(Records, RandomRecord, ::testing::Range(1u, 25u));

// Records of rows (Record::blocks, the records of a swap of two dimensions): slots of
// several units, of lengths that are no power of two; every pair, every algorithm whose
// plan accepts the shape, the device against dl::convert and back.
TEST(MarshalRows, EveryPairEveryAlgorithm) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  struct Shape {
    Scalar type;
    unsigned rows, row;
  };
  const Shape shapes[] = {{Scalar::Float, 5, 3},  {Scalar::Char, 7, 5},   {Scalar::Short, 4, 8},
                          {Scalar::Double, 3, 2}, {Scalar::Float, 9, 33}, {Scalar::UChar, 2, 100}};
  std::uint32_t seed = 4242;
  std::size_t runs = 0;
  for (const Shape& sh : shapes) {
    const dl::Record rec = dl::Record::blocks("rows", sh.type, sh.rows, sh.row);
    // T = the rows per record: square tiles (Algorithm::Square where n is whole tiles).
    for (std::uint32_t T : {1u, 3u, 8u, 32u, sh.rows})
      for (std::size_t n : {std::size_t(T), std::size_t(2 * T), std::size_t(3 * T + 1)}) {
        const std::vector<Layout> ls = {Layout::aos(), Layout::da(), Layout::asta(T)};
        for (std::size_t a = 0; a < ls.size(); ++a)
          for (std::size_t b = a + 1; b < ls.size(); ++b)
            for (Algorithm alg : kAlgorithms) {
              if (!m.plan(rec, n, ls[a], ls[b], alg).ok) continue;
              dltest::check_pair(m, rec, n, ls[a], ls[b], alg, seed++);
              ++runs;
              if (HasFatalFailure()) return;
            }
      }
  }
  EXPECT_GT(runs, 200u);
  RecordProperty("runs", static_cast<int>(runs));
}

// SWAP(T, B), a swap of two dimensions that are not neighbours: two conversions of two
// views of the bytes. Every pair with AoS, DA, ASTA and another SWAP, odd and non-square
// extents, rows of one scalar and of several, A = 1 (one tile) and more; the device
// against dl::convert and back, bit for bit.
TEST(MarshalSwap, EveryPairAgainstTheOracle) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions records, rows;
  records.swap_order = dl::MarshalOptions::SwapOrder::RecordsFirst;
  rows.swap_order = dl::MarshalOptions::SwapOrder::RowsFirst;
  dl::Marshaler by_records(env.context, env.device, nullptr, records);
  dl::Marshaler by_rows(env.context, env.device, nullptr, rows);
  struct Shape {
    Scalar type;
    unsigned a, t, b, d, c;
  };
  const Shape shapes[] = {{Scalar::Float, 1, 5, 7, 3, 1},  {Scalar::Int, 2, 3, 4, 5, 2},
                          {Scalar::Char, 3, 7, 2, 9, 3},   {Scalar::Double, 1, 16, 3, 16, 1},
                          {Scalar::Short, 4, 6, 5, 1, 4},  {Scalar::Float, 2, 33, 2, 31, 1},
                          {Scalar::UChar, 1, 64, 1, 64, 1}};
  std::uint32_t seed = 777;
  std::size_t runs = 0;
  for (const Shape& sh : shapes) {
    const dl::Record rec = dl::Record::blocks("rows", sh.type, sh.b * sh.d, sh.c);
    const std::size_t n = std::size_t{sh.a} * sh.t;
    const Layout swap = Layout::swap(sh.t, sh.b);
    const std::vector<Layout> others = {Layout::aos(), Layout::da(), Layout::asta(sh.t),
                                        Layout::swap(sh.t, sh.d), Layout::swap(1, sh.b)};
    for (const Layout& o : others) {
      // (A map equal to SWAP for this shape, D = 1 or B = 1, moves nothing: not a test.)
      const auto in = dltest::random_bytes(n * rec.size(), 5);
      std::vector<unsigned char> moved(in.size());
      dl::convert(rec, n, o, in.data(), swap, moved.data());
      if (moved == in) continue;
      for (dl::Marshaler* m : {env.marshaler.get(), &by_records, &by_rows})
        for (Algorithm alg : {Algorithm::Auto, Algorithm::OutOfPlace, Algorithm::Pttwac}) {
          if (!m->plan(rec, n, o, swap, alg).ok) continue;
          dltest::check_pair(*m, rec, n, o, swap, alg, seed++);
          ++runs;
          if (HasFatalFailure()) return;
        }
    }
  }
  EXPECT_GT(runs, 120u);
  RecordProperty("runs", static_cast<int>(runs));
}

// What a SWAP conversion cannot take is refused before anything is enqueued: partial
// tiles, a split that does not divide the rows, a second view over the slot table's limit, a
// leg the forced algorithm refuses; the buffer keeps its bytes.
TEST(MarshalSwap, RefusesBeforeWriting) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  struct Case {
    dl::Record rec;
    std::size_t n;
    Layout to;
    Algorithm a;
    const char* want;
  };
  const Case cases[] = {
      {dl::Record::blocks("r", Scalar::Float, 6, 1), 10, Layout::swap(4, 2), Algorithm::Auto,
       "needs whole tiles"},
      {dl::Record::blocks("r", Scalar::Float, 6, 1), 8, Layout::swap(4, 4), Algorithm::Auto,
       "does not divide"},
      {dl::Record::blocks("r", Scalar::Float, 70000, 1), 2, Layout::swap(2, 2), Algorithm::Auto,
       "larger than the slot table"},
      {dl::Record::blocks("r", Scalar::Float, 6, 1), 8, Layout::swap(4, 2), Algorithm::Segmented,
       "segmented converts between DA and ASTA(T) only"},
  };
  for (const Case& c : cases) {
    const dl::Plan p = m.plan(c.rec, c.n, Layout::aos(), c.to, c.a);
    EXPECT_FALSE(p.ok) << c.to.str();
    EXPECT_NE(p.reason.find(c.want), std::string::npos) << c.to.str() << ": " << p.reason;
    auto in = dltest::random_bytes(c.n * c.rec.size(), 11);
    dltest::DeviceBuffer buf(in.size());
    buf.write(in);
    auto r = m.enqueue(env.queue, buf.mem, 0, c.rec, c.n, Layout::aos(), c.to, c.a);
    EXPECT_NE(r.status, CL_SUCCESS) << c.to.str();
    EXPECT_EQ(r.kernels, 0u);
    clFinish(env.queue);
    EXPECT_TRUE(buf.read() == in) << c.to.str();
  }
  // The out-of-place copies take SWAP only where the block transposes do (matrices of at
  // least 16 x 16 slots).
  const dl::Record rec = dl::Record::blocks("r", Scalar::Float, 6, 1);
  dltest::DeviceBuffer a(8 * rec.size()), b(8 * rec.size());
  auto r = m.enqueue_copy(env.queue, a.mem, 0, b.mem, 0, rec, 8, Layout::aos(), Layout::swap(4, 2));
  EXPECT_NE(r.status, CL_SUCCESS);
  EXPECT_NE(r.error.find("out of place only between AoS and SWAP"), std::string::npos) << r.error;
  // RecordsFirst's view of a tile (D rows of T x C scalars) can be over the slot table where
  // RowsFirst's (D rows of C) is not: Auto converts such a shape rows first.
  const dl::Record big = dl::Record::blocks("r", Scalar::Float, 512, 1);
  dl::MarshalOptions ro;
  ro.swap_order = dl::MarshalOptions::SwapOrder::RecordsFirst;
  dl::Marshaler records(env.context, env.device, nullptr, ro);
  const dl::Plan p = records.plan(big, 1024, Layout::aos(), Layout::swap(1024, 2));
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("larger than the slot table"), std::string::npos) << p.reason;
  ASSERT_TRUE(m.plan(big, 1024, Layout::aos(), Layout::swap(1024, 2)).ok);
  dltest::check_pair(m, big, 1024, Layout::aos(), Layout::swap(1024, 2), Algorithm::Auto, 5);
}

// AoS <-> SWAP(T, B) whose matrices the block transposes take converts in one step out of
// place (a temporary, then the blocks), not over the two views: under Auto, and under
// OutOfPlace. An explicit order of the views, or a scratch bound below one tile, keeps the
// views; every plan's round trip is bit-exact (the blocks' shapes: BlockTransposesOfAnyShape).
TEST(MarshalSwap, OneStepWhereTheBlocksTakeIt) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  const dl::Record rec = dl::Record::blocks("w72", Scalar::Float, 3 * 24, 1);
  const std::size_t n = 80;
  const Layout swap = Layout::swap(40, 3);
  for (Algorithm a : {Algorithm::Auto, Algorithm::OutOfPlace})
    for (const auto& [from, to] :
         {std::pair{Layout::aos(), swap}, std::pair{swap, Layout::aos()}}) {
      const dl::Plan p = m.plan(rec, n, from, to, a);
      ASSERT_TRUE(p.ok) << p.reason;
      ASSERT_EQ(p.steps.size(), 1u) << dl::algorithm_name(a);
      EXPECT_EQ(p.steps[0].algorithm, Algorithm::OutOfPlace);
      EXPECT_TRUE(p.records.empty());
      EXPECT_EQ(p.extra_bytes, n * rec.size());  // one chunk: the whole buffer
    }
  dltest::check_pair(m, rec, n, Layout::aos(), swap, Algorithm::Auto, 91);
  if (HasFatalFailure()) return;
  dl::MarshalOptions rows, bound;
  rows.swap_order = dl::MarshalOptions::SwapOrder::RowsFirst;
  bound.max_extra_bytes = 40 * rec.size() - 1;
  for (const dl::MarshalOptions& o : {rows, bound}) {
    dl::Marshaler views(env.context, env.device, nullptr, o);
    const dl::Plan p = views.plan(rec, n, Layout::aos(), swap, Algorithm::Auto);
    ASSERT_TRUE(p.ok) << p.reason;
    EXPECT_FALSE(p.records.empty()) << "the rows' view";
    dltest::check_pair(views, rec, n, Layout::aos(), swap, Algorithm::Auto, 92);
    if (HasFatalFailure()) return;
  }
}

// The loader's entry points, except that enqueue command number `fail_at` (kernels,
// copies and fills counted together from 1; 0: none) fails with CL_OUT_OF_RESOURCES, as a
// driver out of resources would: the device runs every other command.
struct FailingEnqueue {
  static inline std::size_t count = 0, fail_at = 0;
  static inline bool persist = false;  // every command from fail_at on fails
  static bool fails() { return ++count == fail_at || (persist && fail_at && count > fail_at); }
  static cl_int CL_API_CALL kernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t* off,
                                   const size_t* global, const size_t* local, cl_uint nw,
                                   const cl_event* wl, cl_event* ev) {
    return fails() ? CL_OUT_OF_RESOURCES
                   : dl::loader_dispatch().clEnqueueNDRangeKernel(q, k, dim, off, global, local, nw,
                                                                  wl, ev);
  }
  static cl_int CL_API_CALL copy(cl_command_queue q, cl_mem src, cl_mem dst, size_t so, size_t d,
                                 size_t bytes, cl_uint nw, const cl_event* wl, cl_event* ev) {
    return fails()
               ? CL_OUT_OF_RESOURCES
               : dl::loader_dispatch().clEnqueueCopyBuffer(q, src, dst, so, d, bytes, nw, wl, ev);
  }
  static cl_int CL_API_CALL fill(cl_command_queue q, cl_mem m, const void* pattern, size_t psize,
                                 size_t off, size_t bytes, cl_uint nw, const cl_event* wl,
                                 cl_event* ev) {
    return fails() ? CL_OUT_OF_RESOURCES
                   : dl::loader_dispatch().clEnqueueFillBuffer(q, m, pattern, psize, off, bytes, nw,
                                                               wl, ev);
  }
  static cl_icd_dispatch table() {
    cl_icd_dispatch d = dl::loader_dispatch();
    d.clEnqueueNDRangeKernel = &kernel;
    d.clEnqueueCopyBuffer = &copy;
    d.clEnqueueFillBuffer = &fill;
    return d;
  }
};

// A SWAP conversion is two conversions (legs) of two views of the bytes. When the second
// fails to enqueue after the first ran, the first is undone: the bytes come back in the
// layout they were in, both ways (AoS -> SWAP and SWAP -> AoS), in either order of legs.
TEST(MarshalSwap, SecondLegFailingUndoesTheFirst) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  const cl_icd_dispatch api = FailingEnqueue::table();
  // 2 tiles of T = 5 records of B x D = 4 x 3 rows of one float.
  const dl::Record rec = dl::Record::blocks("rows", Scalar::Float, 4 * 3, 1);
  const std::size_t n = 10;
  const Layout swap = Layout::swap(5, 4), asta = Layout::asta(5);
  const auto aos = dltest::random_bytes(n * rec.size(), 21);
  std::vector<unsigned char> swapped(aos.size());
  dl::convert(rec, n, Layout::aos(), aos.data(), swap, swapped.data());
  ASSERT_NE(swapped, aos);
  dltest::DeviceBuffer buf(aos.size());
  using Order = dl::MarshalOptions::SwapOrder;
  for (Order order : {Order::RecordsFirst, Order::RowsFirst}) {
    dl::MarshalOptions o;
    o.swap_order = order;
    dl::Marshaler m(env.context, env.device, &api, o);
    // How many commands a conversion enqueues when none fails.
    auto commands = [&](const std::vector<unsigned char>& in, const Layout& from,
                        const Layout& to) {
      buf.write(in);
      FailingEnqueue::count = 0;
      FailingEnqueue::fail_at = 0;
      const auto r = m.enqueue(env.queue, buf.mem, 0, rec, n, from, to);
      EXPECT_EQ(r.status, CL_SUCCESS) << r.error;
      clFinish(env.queue);
      return FailingEnqueue::count;
    };
    struct Way {
      const std::vector<unsigned char>& in;
      Layout from, to;
      std::size_t first_leg;  // the commands of the first leg
    };
    // The records' leg (AoS <-> ASTA(T) of `rec`) is the first into SWAP and the second out
    // of it with RecordsFirst, the other way round with RowsFirst.
    const bool rf = order == Order::RecordsFirst;
    const std::size_t records_in = commands(aos, Layout::aos(), asta);
    const std::size_t records_out = commands(aos, asta, Layout::aos());
    const std::size_t into = rf ? records_in : commands(aos, Layout::aos(), swap) - records_in;
    const std::size_t out = rf ? commands(swapped, swap, Layout::aos()) - records_out : records_out;
    ASSERT_GT(into, 0u);
    ASSERT_GT(out, 0u);
    for (const Way& w :
         {Way{aos, Layout::aos(), swap, into}, Way{swapped, swap, Layout::aos(), out}}) {
      const std::string what = w.from.str() + " -> " + w.to.str() + (rf ? " records" : " rows");
      buf.write(w.in);
      FailingEnqueue::count = 0;
      FailingEnqueue::fail_at = w.first_leg + 1;
      const auto r = m.enqueue(env.queue, buf.mem, 0, rec, n, w.from, w.to);
      FailingEnqueue::fail_at = 0;
      EXPECT_EQ(r.status, CL_OUT_OF_RESOURCES) << what;
      EXPECT_NE(r.error.find("failed with OpenCL error"), std::string::npos) << r.error;
      EXPECT_EQ(r.error.find("neither layout"), std::string::npos) << r.error;
      EXPECT_FALSE(r.partial) << what;
      EXPECT_GT(FailingEnqueue::count, w.first_leg + 1) << what << ": the first leg was not undone";
      clFinish(env.queue);
      EXPECT_TRUE(buf.read() == w.in) << what;
    }
  }
}

// A command after a conversion's first that the driver refuses for lack of resources is
// enqueued again (the buffer is partly converted by then): a refusal that passes leaves
// the result right; one that persists is reported as leaving the buffer partly converted.
TEST(MarshalFaults, OutOfResourcesMidwayIsEnqueuedAgain) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  const cl_icd_dispatch api = FailingEnqueue::table();
  dl::MarshalOptions o;
  o.scratch_chunk_bytes = 4096;  // 4 chunks through the temporary: 8 commands
  dl::Marshaler m(env.context, env.device, &api, o);
  const dl::Record rec = dl::Record::uniform("u16", Scalar::Float, 16);
  const std::size_t n = 256;
  const Layout to = Layout::asta(8);
  const auto in = dltest::random_bytes(n * rec.size(), 23);
  std::vector<unsigned char> want(in.size());
  dl::convert(rec, n, Layout::aos(), in.data(), to, want.data());
  dltest::DeviceBuffer buf(in.size());
  auto convert = [&](std::size_t fail_at, bool persist) {
    buf.write(in);
    FailingEnqueue::count = 0;
    FailingEnqueue::fail_at = fail_at;
    FailingEnqueue::persist = persist;
    const auto r =
        m.enqueue(env.queue, buf.mem, 0, rec, n, Layout::aos(), to, Algorithm::OutOfPlace);
    FailingEnqueue::fail_at = 0;
    FailingEnqueue::persist = false;
    clFinish(env.queue);
    return r;
  };
  ASSERT_EQ(convert(0, false).status, CL_SUCCESS);
  const std::size_t total = FailingEnqueue::count;
  ASSERT_GE(total, 3u);
  for (std::size_t at : {std::size_t{2}, total}) {
    const auto r = convert(at, false);
    EXPECT_EQ(r.status, CL_SUCCESS) << "failing command " << at << ": " << r.error;
    EXPECT_EQ(FailingEnqueue::count, total + 1) << "failing command " << at;
    EXPECT_TRUE(buf.read() == want) << "failing command " << at;
  }
  // The first command refused: nothing enqueued, the bytes untouched, no retry.
  auto r = convert(1, false);
  EXPECT_EQ(r.status, CL_OUT_OF_RESOURCES);
  EXPECT_FALSE(r.partial);
  EXPECT_EQ(FailingEnqueue::count, 1u);
  EXPECT_TRUE(buf.read() == in);
  // Refused for good after the first: reported as partly converted.
  r = convert(2, true);
  EXPECT_EQ(r.status, CL_OUT_OF_RESOURCES);
  EXPECT_NE(r.error.find("partly converted"), std::string::npos) << r.error;
  EXPECT_TRUE(r.partial);
  EXPECT_GT(FailingEnqueue::count, 3u) << "enqueued again before giving up";
}

/// n records of `rec` and the tiled layout a test converts them to from AoS.
struct TiledShape {
  dl::Record rec;
  std::size_t n;
  Layout tiled;
};

// Square tiles through blocks much smaller than a tile (a 1 KiB local budget): pairs of
// blocks across the diagonal, partial blocks at the edges, several tiles, DA (T = n),
// slots of one unit and of several; both directions, against dl::convert.
TEST(MarshalSquare, BlocksPairsAndEdges) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions small;
  small.tile_local_bytes = 1024;
  dl::Marshaler m(env.context, env.device, nullptr, small);
  const TiledShape shapes[] = {
      {dl::Record::uniform("u37", Scalar::Float, 37), 74, Layout::asta(37)},
      {dl::Record::uniform("u37", Scalar::Float, 37), 37, Layout::da()},
      {dl::Record::blocks("r13", Scalar::Float, 13, 5), 39, Layout::asta(13)},
      {dl::Record::blocks("r9", Scalar::UChar, 9, 3), 9, Layout::da()},
      {dl::Record::blocks("r6", Scalar::Double, 6, 2), 24, Layout::asta(6)},
      {dl::Record::uniform("u100", Scalar::Short, 100), 100, Layout::asta(100)}};
  std::uint32_t seed = 99;
  for (const TiledShape& s : shapes) {
    const dl::Plan p = m.plan(s.rec, s.n, Layout::aos(), s.tiled, Algorithm::Square);
    ASSERT_TRUE(p.ok) << s.rec.describe() << ": " << p.reason;
    ASSERT_EQ(p.steps.size(), 1u);
    dltest::check_pair(m, s.rec, s.n, Layout::aos(), s.tiled, Algorithm::Square, seed++);
    if (HasFatalFailure()) return;
    // Auto converts it in place in one step: Square, or BarrierSync where the tile fits.
    const dl::Plan a = m.plan(s.rec, s.n, s.tiled, Layout::aos());
    ASSERT_EQ(a.steps.size(), 1u) << s.rec.describe();
    EXPECT_TRUE(a.steps[0].algorithm == Algorithm::Square ||
                a.steps[0].algorithm == Algorithm::BarrierSync)
        << s.rec.describe();
  }
  // The default local budget: elements of 2^k units through dl_square_batched (units of
  // 1, 2, 4, 8 and 16 bytes, one to four units per element; full, edge and diagonal
  // blocks; at an offset of 12 bytes, which moves them as 4-byte units, so doubles and
  // 16- and 32-byte rows become elements of 2, 4 and 8 units), and elements of 3 units
  // through dl_square's blocks.
  dl::Marshaler wide(env.context, env.device);
  const TiledShape large[] = {
      {dl::Record::uniform("u96", Scalar::Float, 96), 192, Layout::asta(96)},
      {dl::Record::uniform("u70", Scalar::Float, 70), 70, Layout::da()},
      {dl::Record::uniform("c130", Scalar::UChar, 130), 260, Layout::asta(130)},
      {dl::Record::uniform("s64", Scalar::Short, 64), 64, Layout::da()},
      {dl::Record::uniform("d45", Scalar::Double, 45), 90, Layout::asta(45)},
      {dl::Record::blocks("v33", Scalar::Float, 33, 4), 66, Layout::asta(33)},
      {dl::Record::blocks("w40", Scalar::Float, 40, 8), 80, Layout::asta(40)},
      {dl::Record::blocks("x20", Scalar::Float, 20, 16), 20, Layout::da()},
      {dl::Record::blocks("r40", Scalar::Float, 40, 3), 80, Layout::asta(40)}};
  for (const TiledShape& s : large) {
    dltest::check_pair(wide, s.rec, s.n, Layout::aos(), s.tiled, Algorithm::Square, seed++);
    if (HasFatalFailure()) return;
    dltest::check_pair(wide, s.rec, s.n, Layout::aos(), s.tiled, Algorithm::Square, seed++, 12);
    if (HasFatalFailure()) return;
  }
  // Refused: not square, not whole tiles.
  EXPECT_FALSE(m.plan(dl::Record::uniform("u5", Scalar::Float, 5), 8, Layout::aos(),
                      Layout::asta(4), Algorithm::Square)
                   .ok);
  const dl::Plan partial = m.plan(dl::Record::uniform("u4", Scalar::Float, 4), 9, Layout::aos(),
                                  Layout::asta(4), Algorithm::Square);
  EXPECT_FALSE(partial.ok);
  EXPECT_NE(partial.reason.find("whole tiles"), std::string::npos) << partial.reason;
}

// Out of place between AoS and ASTA(T), DA or SWAP(T, B) where the slots have one size:
// the block transposes of kernels/tile_oop.cl, into a second buffer (enqueue_copy, both
// ways, at offsets that keep the record's unit and at 12 bytes, which moves 4-byte units)
// and in place through a temporary (OutOfPlace, one temporary and chunks of one tile).
// Matrices of every shape: wider and taller than a block, a short last tile, one-unit
// elements of 1, 2, 4, 8 and 16 bytes (dl_oop_block1), elements of 2, 3, 7 and 300 units
// (dl_oop_block), a tile too small for blocks (the map copy), matrices of two blocks by
// 33 (both ways), and SWAP's B matrices per tile (1 to 5 of them, one tile or several, a
// short last tile), against dl::convert.
TEST(MarshalOop, BlockTransposesOfAnyShape) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  dl::MarshalOptions tiny;
  tiny.scratch_chunk_bytes = 1;  // one tile per chunk
  dl::Marshaler chunked(env.context, env.device, nullptr, tiny);
  const TiledShape shapes[] = {
      {dl::Record::uniform("f100", Scalar::Float, 100), 223, Layout::asta(70)},
      {dl::Record::uniform("f40", Scalar::Float, 40), 150, Layout::da()},
      {dl::Record::uniform("f200", Scalar::Float, 200), 40, Layout::asta(33)},
      {dl::Record::uniform("d50", Scalar::Double, 50), 77, Layout::asta(33)},
      {dl::Record::uniform("c90", Scalar::UChar, 90), 130, Layout::asta(64)},
      {dl::Record::uniform("s5", Scalar::Short, 5), 100, Layout::asta(16)},
      {dl::Record::blocks("v33", Scalar::Float, 33, 4), 50, Layout::asta(20)},
      {dl::Record::blocks("p45", Scalar::Float, 45, 2), 100, Layout::asta(30)},
      {dl::Record::blocks("t37", Scalar::Float, 37, 3), 80, Layout::asta(25)},
      {dl::Record::blocks("r24", Scalar::Float, 24, 7), 61, Layout::asta(24)},
      {dl::Record::blocks("k32", Scalar::Float, 32, 300), 40, Layout::asta(16)},
      {dl::Record::blocks("f2100", Scalar::Float, 2100, 1), 200, Layout::asta(100)},
      {dl::Record::blocks("c100", Scalar::UChar, 100, 1), 4200, Layout::asta(2100)},
      {dl::Record::blocks("w72", Scalar::Float, 3 * 24, 1), 80, Layout::swap(40, 3)},
      {dl::Record::blocks("w200", Scalar::Float, 2 * 100, 1), 70, Layout::swap(70, 2)},
      {dl::Record::blocks("x132", Scalar::Double, 4 * 33, 1), 60, Layout::swap(20, 4)},
      {dl::Record::blocks("y160", Scalar::Float, 5 * 32, 3), 34, Layout::swap(17, 5)},
      {dl::Record::blocks("q40", Scalar::Char, 2 * 20, 7), 66, Layout::swap(33, 2)},
      {dl::Record::blocks("s40", Scalar::Float, 2 * 20, 1), 105, Layout::swap(40, 2)}};
  std::uint32_t seed = 7100;
  for (const TiledShape& s : shapes) {
    SCOPED_TRACE(s.rec.describe() + " n=" + std::to_string(s.n) + " " + s.tiled.str());
    const std::size_t bytes = s.n * s.rec.size();
    const auto in = dltest::random_bytes(bytes, seed++);
    std::vector<unsigned char> want(bytes);
    dl::convert(s.rec, s.n, Layout::aos(), in.data(), s.tiled, want.data());
    ASSERT_FALSE(want == in);
    for (std::size_t off : {std::size_t(0), std::size_t(12)}) {
      dltest::DeviceBuffer a(off + bytes), b(off + bytes + 16);
      auto ainit = dltest::random_bytes(a.size, 1);
      std::copy(in.begin(), in.end(), ainit.begin() + std::ptrdiff_t(off));
      a.write(ainit);
      const auto binit = dltest::random_bytes(b.size, 2);
      b.write(binit);
      auto r =
          m.enqueue_copy(env.queue, a.mem, off, b.mem, off, s.rec, s.n, Layout::aos(), s.tiled);
      ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
      clFinish(env.queue);
      auto got = b.read();
      ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + std::ptrdiff_t(off)))
          << "AoS -> " << s.tiled.str() << " at offset " << off;
      ASSERT_TRUE(std::equal(binit.begin(), binit.begin() + std::ptrdiff_t(off), got.begin()));
      ASSERT_TRUE(std::equal(binit.end() - 16, binit.end(), got.end() - 16));
      // Back from the converted copy into the first buffer, over different bytes.
      a.write(dltest::random_bytes(a.size, 3));
      r = m.enqueue_copy(env.queue, b.mem, off, a.mem, off, s.rec, s.n, s.tiled, Layout::aos());
      ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
      clFinish(env.queue);
      got = a.read();
      ASSERT_TRUE(std::equal(in.begin(), in.end(), got.begin() + std::ptrdiff_t(off)))
          << s.tiled.str() << " -> AoS at offset " << off;
    }
    dltest::check_pair(m, s.rec, s.n, Layout::aos(), s.tiled, Algorithm::OutOfPlace, seed++);
    if (HasFatalFailure()) return;
    dltest::check_pair(chunked, s.rec, s.n, Layout::aos(), s.tiled, Algorithm::OutOfPlace, seed++,
                       12);
    if (HasFatalFailure()) return;
  }
}

// Tile widths of any size, as `-> ASTA(E)` gives them (E an argument: a plane's row
// count): small odd ones, tiles larger than local memory, tiles of more records than the
// buffer's; the planner's choice, both directions, round trips bit-exact.
TEST(MarshalTiles, WidthsOfAnySize) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 4242;
  for (unsigned s : {5u, 100u}) {
    const dl::Record rec = dl::Record::uniform("plane_row", dl::Scalar::Float, s);
    for (std::uint32_t T : {3u, 17u, 100u, 1000u, 4099u})
      for (std::size_t n : {std::size_t(T) * 3 + 1, std::size_t(T) / 2 + 1}) {
        SCOPED_TRACE("S = " + std::to_string(s) + ", T = " + std::to_string(T) +
                     ", n = " + std::to_string(n));
        dltest::check_pair(m, rec, n, Layout::aos(), Layout::asta(T), Algorithm::Auto, seed++);
        dltest::check_pair(m, rec, n, Layout::da(), Layout::asta(T), Algorithm::Auto, seed++);
        if (HasFatalFailure()) return;
      }
  }
}

TEST(MarshalErrors, EveryAlgorithmRefusesWhatItCannotTake) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  const dl::Record rec = random_record(4);
  const std::size_t n = 1000;
  struct Case {
    Algorithm a;
    Layout from, to;
  };
  const Case cases[] = {{Algorithm::BarrierSync, Layout::da(), Layout::asta(32)},
                        {Algorithm::PttwacInstance, Layout::da(), Layout::asta(32)},
                        {Algorithm::Segmented, Layout::aos(), Layout::asta(32)},
                        {Algorithm::Pttwac, Layout::aos(), Layout::asta(16)},
                        {Algorithm::Pipt, Layout::asta(8), Layout::aos()}};
  for (const auto& c : cases) {
    const dl::Plan p = m.plan(rec, n, c.from, c.to, c.a);
    EXPECT_FALSE(p.ok) << dl::algorithm_name(c.a);
    EXPECT_NE(p.reason.find(dl::algorithm_name(c.a)), std::string::npos) << p.reason;
    auto in = dltest::random_bytes(n * rec.size(), 8);
    dltest::DeviceBuffer buf(in.size());
    buf.write(in);
    auto r = m.enqueue(env.queue, buf.mem, 0, rec, n, c.from, c.to, c.a);
    EXPECT_NE(r.status, CL_SUCCESS);
    EXPECT_EQ(r.kernels, 0u);
    clFinish(env.queue);
    EXPECT_TRUE(buf.read() == in) << dl::algorithm_name(c.a);
  }
}

TEST(MarshalErrors, BuildFailureLeavesBufferUntouched) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.build_options = "-DDL_SEG_K=0 -Ddl_tile_local=";  // breaks the program
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  const dl::Record rec = random_record(2);
  auto in = dltest::random_bytes(300 * rec.size(), 9);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  auto r = m.enqueue(env.queue, buf.mem, 0, rec, 300, Layout::aos(), Layout::asta(16));
  EXPECT_EQ(r.status, CL_BUILD_PROGRAM_FAILURE);
  EXPECT_FALSE(r.error.empty());
  std::string log;
  EXPECT_EQ(m.prepare(rec, m.plan(rec, 300, Layout::aos(), Layout::asta(16)), &log),
            CL_BUILD_PROGRAM_FAILURE);
  EXPECT_FALSE(log.empty());
  clFinish(env.queue);
  EXPECT_TRUE(buf.read() == in);
}

TEST(MarshalErrors, ScratchLimitRefusesBeforeWriting) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.max_extra_bytes = 8;
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  const dl::Record rec = random_record(6);
  const std::size_t n = 32 * 50 + 3;
  for (Algorithm a : {Algorithm::Auto, Algorithm::Segmented, Algorithm::OutOfPlace}) {
    auto p = m.plan(rec, n, Layout::da(), Layout::asta(32), a);
    EXPECT_FALSE(p.ok) << dl::algorithm_name(a);
    auto in = dltest::random_bytes(n * rec.size(), 10);
    dltest::DeviceBuffer buf(in.size());
    buf.write(in);
    auto r = m.enqueue(env.queue, buf.mem, 0, rec, n, Layout::da(), Layout::asta(32), a);
    EXPECT_NE(r.status, CL_SUCCESS);
    clFinish(env.queue);
    EXPECT_TRUE(buf.read() == in);
  }
}

// Out of place through a bounded temporary: chunks of whole tiles of both layouts (T,
// the least common multiple of two widths), of one tile where the bound is below it, the
// last chunk shorter and ending in a partial tile; against dl::convert both ways. The
// plan's scratch is one chunk, and a scratch limit (max_extra_bytes) cuts chunks instead
// of refusing the conversion, except into DA (one tile of all n records).
TEST(MarshalScratch, OutOfPlaceInChunksOfWholeTiles) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  std::uint32_t seed = 9000;
  for (std::uint32_t r : {3u, 11u, 17u}) {
    const dl::Record rec = random_record(r);
    const std::size_t R = rec.size();
    for (std::size_t bound : {std::size_t{1}, 5 * 24 * R + 7, 50 * 24 * R}) {
      dl::MarshalOptions opt;
      opt.scratch_chunk_bytes = bound;
      dl::Marshaler m(env.context, env.device, nullptr, opt);
      for (auto [from, to, tiles] : std::vector<std::tuple<Layout, Layout, std::size_t>>{
               {Layout::aos(), Layout::asta(8), 8},
               {Layout::asta(6), Layout::asta(8), 24},
               {Layout::asta(24), Layout::aos(), 24}}) {
        const std::size_t n = 24 * 13 + 5;
        const dl::Plan p = m.plan(rec, n, from, to, Algorithm::OutOfPlace);
        ASSERT_TRUE(p.ok) << p.reason;
        const std::size_t per = std::min(n, std::max<std::size_t>(1, bound / (tiles * R)) * tiles);
        EXPECT_EQ(p.extra_bytes, per * R) << from.str() << " -> " << to.str() << ", " << bound;
        SCOPED_TRACE(::testing::Message() << rec.describe() << " chunks of " << bound << " bytes "
                                          << from.str() << " -> " << to.str());
        dltest::check_pair(m, rec, n, from, to, Algorithm::OutOfPlace, seed++, 8);
        if (HasFatalFailure()) return;
      }
    }
  }
  dl::MarshalOptions opt;
  const dl::Record rec = random_record(5);
  opt.max_extra_bytes = 32 * rec.size();
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  const std::size_t n = 32 * 40 + 3;
  dl::Plan p = m.plan(rec, n, Layout::aos(), Layout::asta(32), Algorithm::OutOfPlace);
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_EQ(p.extra_bytes, 32 * rec.size());
  dltest::check_pair(m, rec, n, Layout::aos(), Layout::asta(32), Algorithm::OutOfPlace, seed++);
  p = m.plan(rec, n, Layout::aos(), Layout::da(), Algorithm::OutOfPlace);
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("scratch"), std::string::npos) << p.reason;
}

TEST(MarshalErrors, ScratchAllocationFailureLeavesBufferUntouched) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.scratch_padding = std::size_t(1) << 60;  // every scratch allocation is absurd
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  const dl::Record rec = random_record(3);
  const std::size_t n = 16 * 40 + 15;
  for (Algorithm a : {Algorithm::Segmented, Algorithm::Pttwac, Algorithm::OutOfPlace}) {
    auto in = dltest::random_bytes(n * rec.size(), 11);
    dltest::DeviceBuffer buf(in.size());
    buf.write(in);
    auto r = m.enqueue(env.queue, buf.mem, 0, rec, n, Layout::asta(16), Layout::da(), a);
    EXPECT_NE(r.status, CL_SUCCESS) << dl::algorithm_name(a);
    EXPECT_EQ(r.kernels, 0u);
    clFinish(env.queue);
    EXPECT_TRUE(buf.read() == in) << dl::algorithm_name(a);
  }
}

}  // namespace
