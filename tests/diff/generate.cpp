// The program builder: valid, race-free ops with sizes and arguments chosen from the
// values that matter to DL (n mod T in {0, 1, T-1} for T = 4, 8, 32, n = 0, partial
// regions, unaligned offsets).
#include "generate.hpp"

#include <algorithm>

namespace dl_diff {
namespace {

const std::vector<int> kN = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
const std::vector<int> kRecords = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};

std::size_t round_up(std::size_t v, std::size_t m) {
  return (v + m - 1) / m * m;
}

}  // namespace

std::size_t GenBuffer::records() const {
  return size / info(shape).size;
}

Op& Builder::emit(OpKind kind, int q) {
  Op op;
  op.id = static_cast<int>(c_.ops.size());
  op.kind = kind;
  op.phase = phase;
  op.thread = phase == 1 ? thread : 0;
  op.queue = q;
  if (q >= 0 && q < static_cast<int>(c_.queues.size()) && !c_.queues[q].in_order) op.event = true;
  c_.ops.push_back(op);
  return c_.ops.back();
}

int Builder::queue(bool in_order, int thread_id, int device) {
  c_.queues.push_back({in_order, thread_id, device});
  return static_cast<int>(c_.queues.size()) - 1;
}

int Builder::k() {
  return static_cast<int>(r_.in(-4, 9));
}

int Builder::records() {
  return r_.pick(kRecords);
}

Shape Builder::record_shape() {
  return static_cast<Shape>(r_.in(0, 4));
}

int Builder::n_upto(std::size_t records) {
  if (records == 0) return 0;
  if (r_.chance(40)) return static_cast<int>(records);
  std::vector<int> ok;
  for (int n : kN)
    if (n > 0 && static_cast<std::size_t>(n) <= records) ok.push_back(n);
  return r_.pick(ok);
}

int Builder::create(Shape s, int records, Mem mem, bool read_only) {
  const int id = static_cast<int>(bufs_.size());
  Op& op = emit(OpKind::Create);
  op.buf = id;
  op.shape = s;
  op.records = records;
  op.slack = r_.chance(75) ? 0 : static_cast<int>(r_.pick(std::vector<int>{1, 4, 7, 64}));
  // The write_only kernel that defines every byte exists for flat arrays only, and may not
  // write a READ_ONLY buffer; no slack bytes it would leave undefined.
  if (mem == Mem::Emit && (!info(s).flat || read_only)) mem = Mem::Alloc;
  if (mem == Mem::Emit) op.slack = 0;
  op.mem = mem;
  op.read_only = read_only;
  op.seed = seeds_++;
  GenBuffer b;
  b.shape = s;
  b.size = static_cast<std::size_t>(records) * info(s).size + static_cast<std::size_t>(op.slack);
  b.mem = mem;
  b.root = id;
  b.owner = thread;
  bufs_.push_back(b);
  return id;
}

int Builder::sub(int parent, std::size_t origin, std::size_t size) {
  const GenBuffer& p = buf(parent);
  const int id = static_cast<int>(bufs_.size());
  Op& op = emit(OpKind::Sub);
  op.buf = id;
  op.buf2 = parent;
  op.off = origin;
  op.size = size;
  GenBuffer b = p;
  b.size = size;
  b.root = p.root;
  b.origin = p.origin + origin;
  b.map = -1;
  b.owner = thread;
  bufs_.push_back(b);
  return id;
}

void Builder::release(int b) {
  emit(OpKind::Release).buf = b;
  bufs_[static_cast<std::size_t>(b)].alive = false;
}

bool Builder::writable(int b) const {
  const GenBuffer& g = buf(b);
  if (!g.alive || g.map >= 0) return false;
  return phase != 1 || (!g.shared && g.owner == thread);
}

std::vector<int> Builder::alive(int shape, std::size_t min_records) const {
  std::vector<int> v;
  for (std::size_t i = 0; i < bufs_.size(); ++i) {
    const GenBuffer& g = bufs_[i];
    if (!g.alive || (shape >= 0 && static_cast<int>(g.shape) != shape)) continue;
    if (g.records() < min_records) continue;
    v.push_back(static_cast<int>(i));
  }
  return v;
}

int Builder::out_for(int n) {
  for (int b : alive(static_cast<int>(Shape::U32), static_cast<std::size_t>(std::max(n, 1))))
    if (writable(b)) return b;
  return create(Shape::U32, std::max(65, n), r_.chance(80) ? Mem::Copy : Mem::Alloc);
}

void Builder::sizes(Op& op, std::size_t g_min) {
  if (g_min == 0) {
    op.g = r_.chance(50) ? 1 : 8;
  } else {
    switch (r_.in(0, 2)) {
      case 0:
        op.g = g_min;
        break;
      case 1:
        op.g = round_up(g_min, 8);
        break;
      default:
        op.g = g_min + static_cast<std::size_t>(r_.in(1, 5));
        break;
    }
  }
  op.l = 0;
  const auto v = r_.in(0, 99);
  if (v < 15)
    op.l = 1;
  else if (v < 30 && op.g % 8 == 0)
    op.l = 8;
}

void Builder::launch(int q, Form f, int a, int b, int n, Prog prog) {
  const GenBuffer& A = buf(a);
  Op& op = emit(OpKind::Launch, q);
  op.form = f;
  op.shape = A.shape;
  op.buf = a;
  op.buf2 = b;
  op.n = n;
  op.k = k();
  op.prog = prog;
  if (!op.event) op.event = r_.chance(30);
  switch (f) {
    case Form::UpdG:
      op.g = static_cast<std::size_t>(n);
      op.l = n > 0 && r_.chance(20) ? 1 : 0;
      break;
    case Form::Cap: {
      // The kernel touches records [0, cap); the annotation says n (smaller, 0, equal...).
      op.cap = n;
      const int choice = static_cast<int>(r_.in(0, 4));
      op.n = choice == 0   ? 0
             : choice == 1 ? n / 2
             : choice == 2 ? std::max(n - 1, 0)
             : choice == 3 ? n
                           : n_upto(A.records());
      sizes(op, static_cast<std::size_t>(n));
      break;
    }
    case Form::Dims:  // touches records [0, cap); d.count is n (launch_dims may vary it)
      op.cap = n;
      sizes(op, static_cast<std::size_t>(n));
      break;
    default:
      sizes(op, static_cast<std::size_t>(n));
      break;
  }
}

void Builder::launch_k(int q, int a, bool sum, int not_len) {
  const std::size_t floats = buf(a).size / sizeof(float);
  std::vector<int> lens;
  for (int K : kFlatLens)
    if (K != not_len && floats >= static_cast<std::size_t>(K)) lens.push_back(K);
  if (lens.empty()) return;
  const int K = r_.pick(lens);
  const int n = n_upto(floats / static_cast<std::size_t>(K));  // n records of K floats fit
  // Two dimensions swapped (neighbours, or t and J): records of K rows of J floats, t and
  // the outer count m of every size, t and m DL must refuse (0, negative), and rows with
  // J = 1. Read only (t and J), each record's hash into an output.
  if (r_.chance(20)) {
    const int rows[] = {1, 2, 3, 7};
    const int tiles[] = {1, 2, 3, 7, 16, 0, -2};
    int J = rows[r_.in(0, 3)], t = tiles[r_.in(0, 6)], len = K;
    std::size_t room = floats;
    bool wide = false;  // two planes that are not square: both converted (m = 2)
    bool far = false;   // tiles of 3 x 24 floats: the far swap (SWAP) in one step
    // Now and then square planes in a buffer of their own: 128 x 128 rows (one or two
    // planes; beyond a GPU's local memory), or tiles beyond even PoCL's 1 MiB, so that
    // AoS <-> ASTA(t) goes through Algorithm::Square's kernels with edge blocks: 600 x 600
    // rows of 1-3 floats (rows of one unit of 4 or 8 bytes, of three units) and 192 x 192
    // rows of 8 floats (two 16-byte units). Or two planes that are not square, beyond
    // PoCL's 1 MiB, which go through the temporary and the block transposes of
    // tile_oop.cl: 300 x 1000 floats, 300 x 500 rows of 2 floats (one 8-byte unit), 160 x
    // 700 and 200 x 500 rows of 3 floats. Or 1-3 tiles of t = 40 records of 3 x 24 floats,
    // whose far swap (SWAP(40, 3)) converts in one step through those block transposes.
    if (r_.chance(15)) {
      const int kind = static_cast<int>(r_.in(0, 4));
      t = len = kind == 0 ? 128 : kind == 1 ? 600 : 192;
      if (kind == 1) J = std::min(J, 3);
      if (kind == 2) J = 8;
      if (kind == 3) {
        wide = true;
        const int shapes[4][3] = {{300, 1000, 1}, {160, 700, 3}, {300, 500, 2}, {200, 500, 3}};
        const int* sh = shapes[r_.in(0, 3)];
        t = sh[0];
        len = sh[1];
        J = sh[2];
      }
      if (kind == 4) {
        far = true;
        t = 40;
        len = 3;
        J = 24;
      }
      const int planes = kind == 0 || kind == 4 ? static_cast<int>(r_.in(1, kind == 4 ? 3 : 2))
                         : kind == 3            ? 2
                                                : 1;
      // Host-visible where the case's buffer is (the launch reads a layout copy of it).
      a = create(Shape::F3, (planes * t * len * J + 2) / 3,
                 buf(a).mem == Mem::Use ? Mem::Use : Mem::Copy);
      room = buf(a).size / sizeof(float);
    }
    const std::size_t plane = static_cast<std::size_t>(std::max(t, 1) * len * J);
    // Both planes that are not square: one plane alone is one tile of all its records
    // (DA), which the planner converts through ASTA tiles in place instead.
    const int m = wide ? 2 : t < 1 ? static_cast<int>(r_.in(0, 3)) : n_upto(room / plane);
    // The planes that are not square with the neighbours' swap (ASTA(t) in blocks), the
    // tiles of 3 x 24 with the far one (SWAP in one step): the block transposes, and for
    // read-only kernels the layout copies of read-only buffers and host-visible memory.
    const bool swapk = wide ? true : far ? false : r_.chance(50);
    if (sum)
      launch(q, swapk ? Form::SumSwapK : Form::SumSwapD, a, out_for(m * std::max(t, 1)), m);
    else
      launch(q, swapk ? Form::SwapK : Form::SwapD, a, -1, m);
    Op& op = c_.ops.back();
    op.len = len;
    op.tile = t;
    op.row = J;
    if (t >= 1) sizes(op, static_cast<std::size_t>(m * t));
    return;
  }
  // Planes diagonalized (both directions): m planes of t rows of K floats, planes of one
  // row, of one column (K = 1), square and not, and rows per plane DL must refuse. Read
  // only (DIAG), each row's hash into an output.
  if (r_.chance(20)) {
    const int tiles[] = {1, 2, 3, 7, 16, 0, -2};
    const int t = tiles[r_.in(0, 6)];
    const std::size_t plane = static_cast<std::size_t>(std::max(t, 1) * K);
    const int m = t < 1 ? static_cast<int>(r_.in(0, 3)) : n_upto(floats / plane);
    if (sum)
      launch(q, Form::SumDiag, a, out_for(m * std::max(t, 1)), m);
    else
      launch(q, r_.chance(50) ? Form::DiagK : Form::DiagMK, a, -1, m);
    Op& op = c_.ops.back();
    op.len = K;
    op.tile = t;
    if (t >= 1) sizes(op, static_cast<std::size_t>(m * t));
    return;
  }
  // An update in ASTA with the tile width an argument: of every size, whole and partial
  // last tiles, one record per tile, all in one tile, and widths DL must refuse.
  const bool tiled = !sum && r_.chance(40);
  launch(q, sum ? Form::SumK : tiled ? Form::UpdTK : Form::UpdK, a, sum ? out_for(n) : -1, n);
  c_.ops.back().len = K;
  if (tiled) {
    const int t[] = {1, 2, 3, 7, 16, 33, n, n + 5, 0, -4, (1 << 20) + 1};
    c_.ops.back().tile = t[r_.in(0, 10)];
  }
}

void Builder::launch_dims(int q, int a, int cap, bool vary) {
  launch(q, Form::Dims, a, -1, cap);
  if (!vary) return;
  const int records = static_cast<int>(buf(a).records());
  const int choice = static_cast<int>(r_.in(0, 7));
  Op& op = c_.ops.back();
  op.n = choice == 0   ? 0
         : choice == 1 ? (cap > 1 ? static_cast<int>(r_.in(1, cap - 1)) : 0)
         : choice == 2 ? cap
         : choice == 3 ? records
         : choice == 4 ? records + 1
         : choice == 5 ? records + static_cast<int>(r_.in(2, 40))
         : choice == 6 ? 0x7FFFFFFF
                       : -1;  // 0xFFFFFFFF
}

bool Builder::launch_gather(int q, int a, const std::vector<int>& pool) {
  // x and idx: any buffers of the pool (x of 256 bytes or more: every byte index is
  // inside it), the same one or not, not mapped for writing; the output a uint buffer
  // whose bytes neither shares (a kernel writing what it gathers from would race).
  auto readable = [&](int b) {
    const GenBuffer& g = buf(b);
    return g.alive && (g.map < 0 || g.map_kind == MapKind::Read);
  };
  std::vector<int> xs, idxs;
  for (int b : pool)
    if (readable(b)) {
      idxs.push_back(b);
      if (buf(b).size >= 256) xs.push_back(b);
    }
  if (readable(a) && buf(a).size >= 256 && r_.chance(60)) xs = {a};
  if (xs.empty() || idxs.empty()) return false;
  const int x = r_.pick(xs), idx = r_.chance(15) ? x : r_.pick(idxs);
  const int m = n_upto(buf(idx).size);
  const int out = out_for(m);
  if (buf(out).root == buf(x).root || buf(out).root == buf(idx).root) return false;
  launch(q, Form::Gather, x, out, m);
  c_.ops.back().buf3 = idx;
  return true;
}

bool Builder::launch_map(int q, int a, const std::vector<int>& pool) {
  // x: a buffer of the pool of 256 bytes or more (scramble's range), not mapped for
  // writing; m up to twice its bytes (past them the kernel reads x itself); s one of a
  // few values (a copy is made again when it changes, read again when not); the output
  // a uint buffer whose bytes x does not share.
  std::vector<int> xs;
  for (int b : pool)
    if (buf(b).alive && (buf(b).map < 0 || buf(b).map_kind == MapKind::Read) && buf(b).size >= 256)
      xs.push_back(b);
  if (buf(a).alive && (buf(a).map < 0 || buf(a).map_kind == MapKind::Read) && buf(a).size >= 256 &&
      r_.chance(60))
    xs = {a};
  if (xs.empty()) return false;
  const int x = r_.pick(xs);
  const int m = n_upto(2 * buf(x).size);
  const int out = out_for(m);
  if (buf(out).root == buf(x).root) return false;
  launch(q, Form::Map, x, out, m);
  c_.ops.back().row = static_cast<int>(r_.in(0, 3));
  return true;
}

void Builder::random_launch(int q, int a, const std::vector<int>& pool, bool read_only) {
  if (r_.chance(6) && launch_gather(q, a, pool)) return;
  if (r_.chance(5) && launch_map(q, a, pool)) return;
  const GenBuffer& A = buf(a);
  const ShapeInfo& si = info(A.shape);
  if (!si.record || A.records() == 0) {
    if (!read_only)
      launch(q, Form::Bump, a, -1, static_cast<int>(r_.in(0, static_cast<std::int64_t>(A.size))));
    return;
  }
  if (read_only) {
    if (si.flat && r_.chance(30)) {
      launch_k(q, a, true);
      return;
    }
    const int n = n_upto(A.records());
    launch(q, Form::Sum, a, out_for(n), n);
    return;
  }
  // Cap and n = 0 belong to the bounds family, so that each family's differences stay
  // its own.
  std::vector<Form> forms = {Form::Upd, Form::Upd,  Form::Upd,   Form::UpdG, Form::Sum,
                             Form::Sum, Form::Pair, Form::Plain, Form::Bump, Form::Dims};
  if (si.flat) {
    forms.push_back(Form::Emit);
    forms.push_back(Form::UpdK);
    forms.push_back(Form::UpdK);
    forms.push_back(Form::SumK);
    forms.push_back(Form::UpdDA);
  }
  if (!si.flat) {
    forms.push_back(Form::UpdDA);
    forms.push_back(Form::UpdT);
    forms.push_back(Form::Half);
    forms.push_back(Form::Whole);
  }
  const Form f = r_.pick(forms);
  switch (f) {
    case Form::Sum: {
      const int n = n_upto(A.records());
      launch(q, f, a, out_for(n), n);
      return;
    }
    case Form::Pair:
    case Form::Half: {
      std::vector<int> partners;
      for (int b : pool)
        if (buf(b).alive && buf(b).shape == A.shape && b != a && buf(b).records() > 0 &&
            (buf(b).map < 0 || buf(b).map_kind == MapKind::Read))
          partners.push_back(b);
      const int b = partners.empty() || r_.chance(20) ? a : r_.pick(partners);
      launch(q, f, a, b, n_upto(std::min(A.records(), buf(b).records())));
      return;
    }
    case Form::Bump:
      launch(q, f, a, -1, static_cast<int>(r_.in(0, static_cast<std::int64_t>(A.size))));
      return;
    case Form::UpdG:
      launch(q, f, a, -1, static_cast<int>(r_.in(1, static_cast<std::int64_t>(A.records()))));
      return;
    case Form::UpdK:
    case Form::SumK: {
      launch_k(q, a, f == Form::SumK);
      // Often the same buffer again with another K: converted with one record length,
      // wanted with another.
      if (r_.chance(40) && c_.ops.back().kind == OpKind::Launch && c_.ops.back().buf == a)
        launch_k(q, a, r_.chance(30), c_.ops.back().len);
      return;
    }
    case Form::Dims:
      launch_dims(q, a, n_upto(A.records()), false);
      return;
    default:
      launch(q, f, a, -1, n_upto(A.records()));
      return;
  }
}

void Builder::read(int q, int b) {
  const std::size_t sz = buf(b).size;
  const auto v = r_.in(0, 99);
  Op& op = emit(v < 80 ? OpKind::Read : OpKind::ReadRect, q);
  op.buf = b;
  op.blocking = r_.chance(70);
  if (!op.event) op.event = r_.chance(30);
  if (v < 50) {
    op.off = 0;
    op.size = sz;
  } else if (v < 80) {
    op.off = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(sz) - 1));
    op.size = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(sz - op.off)));
  } else {
    const std::size_t pitch = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(sz)));
    const std::size_t rows = sz / pitch;
    const std::size_t h = static_cast<std::size_t>(
        r_.in(1, static_cast<std::int64_t>(std::min<std::size_t>(rows, 4))));
    const std::size_t y = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(rows - h)));
    const std::size_t w = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(pitch)));
    const std::size_t x = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(pitch - w)));
    const std::size_t host_pitch = w + static_cast<std::size_t>(r_.in(0, 8));
    const std::size_t rect[6] = {x, y, w, h, pitch, host_pitch};
    std::copy(rect, rect + 6, op.rect);
  }
}

void Builder::write(int q, int b, bool whole) {
  const std::size_t sz = buf(b).size;
  Op& op = emit(OpKind::Write, q);
  op.buf = b;
  op.blocking = r_.chance(60);
  if (!op.event) op.event = r_.chance(30);
  op.seed = seeds_++;
  if (whole || r_.chance(50)) {
    op.off = 0;
    op.size = sz;
  } else {
    op.off = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(sz) - 1));
    op.size = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(sz - op.off)));
  }
}

void Builder::fill(int q, int b) {
  const std::size_t sz = buf(b).size;
  // A third of the fills have a pattern of one byte value (zero or not), of a size that
  // divides the buffer's: covering the whole buffer, DL converts nothing for them.
  const bool uniform = r_.chance(35);
  std::vector<int> patterns;
  for (int p : {1, 2, 4, 8, 16, 32, 64, 128})
    if (static_cast<std::size_t>(p) <= sz && (!uniform || sz % static_cast<std::size_t>(p) == 0))
      patterns.push_back(p);
  Op& op = emit(OpKind::Fill, q);
  op.buf = b;
  op.pattern = r_.pick(patterns);
  op.seed = seeds_++;
  if (uniform) op.fill_byte = r_.chance(50) ? 0 : static_cast<int>(r_.in(1, 255));
  if (!op.event) op.event = r_.chance(30);
  const std::size_t units = sz / static_cast<std::size_t>(op.pattern);
  if (r_.chance(uniform ? 75 : 50)) {
    op.off = 0;
    op.size = units * static_cast<std::size_t>(op.pattern);
  } else {
    const std::size_t a = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(units) - 1));
    const std::size_t n = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(units - a)));
    op.off = a * static_cast<std::size_t>(op.pattern);
    op.size = n * static_cast<std::size_t>(op.pattern);
  }
}

void Builder::copy(int q, int src, int dst) {
  const GenBuffer& S = buf(src);
  const GenBuffer& D = buf(dst);
  const std::size_t most = std::min(S.size, D.size);
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::size_t size =
        r_.chance(40) ? most : static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(most)));
    std::size_t so = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(S.size - size)));
    std::size_t d_o = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(D.size - size)));
    if (S.root == D.root) {  // regions of one buffer must not overlap (CL_MEM_COPY_OVERLAP)
      const std::size_t a = S.origin + so, b = D.origin + d_o;
      if (a < b + size && b < a + size) continue;
    }
    Op& op = emit(OpKind::Copy, q);
    op.buf = src;
    op.buf2 = dst;
    op.off = so;
    op.off2 = d_o;
    op.size = size;
    if (!op.event) op.event = r_.chance(30);
    return;
  }
}

int Builder::map(int q, int b, MapKind kind) {
  const std::size_t sz = buf(b).size;
  Op& op = emit(OpKind::Map, q);
  op.buf = b;
  op.map = c_.maps++;
  op.map_kind = kind;
  op.blocking = r_.chance(80);
  if (!op.event) op.event = r_.chance(30);
  op.seed = seeds_++;
  if (r_.chance(50)) {
    op.off = 0;
    op.size = sz;
  } else {
    op.off = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(sz) - 1));
    op.size = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(sz - op.off)));
  }
  bufs_[static_cast<std::size_t>(b)].map = op.map;
  bufs_[static_cast<std::size_t>(b)].map_kind = kind;
  return op.map;
}

void Builder::unmap(int m) {
  int q = 0;
  for (const Op& op : c_.ops)
    if (op.kind == OpKind::Map && op.map == m) q = op.queue;
  emit(OpKind::Unmap, q).map = m;
  for (auto& g : bufs_)
    if (g.map == m) g.map = -1;
}

void Builder::finish(int q) {
  emit(OpKind::Finish, q);
}

void Builder::observe_host(int b, bool write) {
  Op& op = emit(OpKind::ObserveHost);
  op.buf = b;
  const std::size_t size = buf(b).size;
  if (!write || size == 0) return;
  op.seed = seeds_++;
  op.off = static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(size) - 1));
  op.size = static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(size - op.off)));
}

void Builder::user_event(int q, int b, const std::vector<int>& pool) {
  random_launch(q, b, pool);
  Op& op = c_.ops.back();
  if (op.kind != OpKind::Launch) return;
  op.kind = OpKind::UserEvent;
  op.event = true;
  op.status = r_.chance(50) ? 0 : (r_.chance(50) ? -1 : -42);
  op.follow = r_.chance(50);
}

void Builder::image(int q, int b) {
  const std::size_t sz = buf(b).size;
  std::vector<int> pixels;
  for (int p : {1, 4, 16})
    if (sz >= static_cast<std::size_t>(p)) pixels.push_back(p);
  Op& op = emit(OpKind::Image, q);
  op.buf = b;
  op.pattern = r_.pick(pixels);
  const std::size_t w = sz / static_cast<std::size_t>(op.pattern);
  op.off = r_.chance(50) ? 0 : static_cast<std::size_t>(r_.in(0, static_cast<std::int64_t>(w) - 1));
  op.size = r_.chance(50)
                ? w - op.off
                : static_cast<std::size_t>(r_.in(1, static_cast<std::int64_t>(w - op.off)));
}

void Builder::binary() {
  emit(OpKind::Binary);
}

void Builder::rebuild(Shape s) {
  emit(OpKind::Rebuild).shape = s;
}

void Builder::random_op(int q, const std::vector<int>& pool, bool read_only) {
  std::vector<int> live;
  for (int b : pool)
    if (buf(b).alive && (buf(b).map < 0 || buf(b).map_kind == MapKind::Read)) live.push_back(b);
  if (live.empty()) return;
  const int b = r_.pick(live);
  const bool w = !read_only && writable(b);
  const auto v = r_.in(0, 99);
  if (!w) {
    if (v < 50 || !info(buf(b).shape).record)
      read(q, b);
    else
      random_launch(q, b, pool, true);
    return;
  }
  if (v < 40) {
    random_launch(q, b, pool);
    // The whole buffer written between two launches: the write DL converts as it lands
    // under DL_UPLOAD_CHUNK.
    if (r_.chance(25)) {
      write(q, b, true);
      random_launch(q, b, pool);
    }
  } else if (v < 60)
    read(q, b);
  else if (v < 70)
    write(q, b);
  else if (v < 78)
    fill(q, b);
  else if (v < 88 && live.size() > 1) {
    int src = r_.pick(live);
    if (src == b)
      src = live[(std::find(live.begin(), live.end(), b) - live.begin() + 1) % live.size()];
    copy(q, src, b);
  } else if (v < 94)
    finish(q);
  else
    random_launch(q, b, pool);
}

Case generate(std::uint64_t seed, std::uint64_t index, const std::vector<std::string>& families) {
  Case c;
  c.seed = seed;
  c.index = index;
  Rng r(seed * 0x100000001B3ull ^ (index + 1) * 0x9E3779B97F4A7C15ull);
  r.next();
  c.family = r.pick(families);
  Builder b(c, r);
  generate_family(c.family, b);
  int buffers = 0;
  for (const Op& op : c.ops)
    if (op.kind == OpKind::Create || op.kind == OpKind::Sub)
      buffers = std::max(buffers, op.buf + 1);
  c.buffers = buffers;
  if (c.queues.empty()) c.queues.push_back({true, 0});
  return c;
}

}  // namespace dl_diff
