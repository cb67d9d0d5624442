// The families of generated programs (tests/diff/README.md lists what each covers).
// Every family mixes a few random ops of the basic kind into its own, so that the
// special operations meet transformed buffers in every state.
#include <algorithm>
#include <stdexcept>

#include "generate.hpp"

namespace dl_diff {
namespace {

Mem plain_mem(Rng& r) {
  const auto v = r.in(0, 99);
  // Emit becomes Alloc for the shapes without a write_only kernel (Builder::create).
  return v < 55 ? Mem::Copy : v < 72 ? Mem::Alloc : v < 85 ? Mem::AllocCopy : Mem::Emit;
}

std::vector<int> make_buffers(Builder& b, int count) {
  std::vector<int> v;
  for (int i = 0; i < count; ++i)
    v.push_back(b.create(b.record_shape(), b.records(), plain_mem(b.rng())));
  // A second buffer of a shape already there, so that Pair and Half find partners.
  if (b.rng().chance(50)) v.push_back(b.create(b.buf(v[0]).shape, b.records(), plain_mem(b.rng())));
  return v;
}

void random_ops(Builder& b, const std::vector<int>& queues, const std::vector<int>& pool, int lo,
                int hi) {
  const auto n = b.rng().in(lo, hi);
  for (int i = 0; i < n; ++i) b.random_op(b.rng().pick(queues), pool);
}

void basic(Builder& b) {
  const int q = b.queue(true);
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 3)));
  random_ops(b, {q}, pool, 5, 14);
}

// Kernels whose range is another bound than the annotation's n (n < cap, n = 0; a count
// from a struct argument also past the buffer), and n = 0 or a global size of 0 in the
// other forms.
void bounds(Builder& b) {
  const int q = b.queue(true);
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 2)));
  const auto n = b.rng().in(3, 8);
  for (int i = 0; i < n; ++i) {
    const int a = b.rng().pick(pool);
    const auto v = b.rng().in(0, 99);
    if (v < 35) {
      b.launch(q, Form::Cap, a, -1, b.n_upto(b.buf(a).records()));
    } else if (v < 52) {
      // d.count of a struct argument: 0, smaller than cap, equal, the buffer's records,
      // more than the buffer holds (DL falls back).
      b.launch_dims(q, a, b.rng().chance(10) ? 0 : b.n_upto(b.buf(a).records()), true);
    } else if (v < 62) {
      const Form zero[] = {Form::Upd, Form::Sum, Form::Pair, Form::Plain, Form::UpdK};
      Form f = zero[b.rng().in(0, 4)];
      if (f == Form::UpdK && !info(b.buf(a).shape).flat) f = Form::Upd;
      b.launch(q, f, a, f == Form::Sum ? b.out_for(1) : f == Form::Pair ? a : -1, 0);
      if (f == Form::UpdK) b.kase().ops.back().len = 2;
    } else if (v < 67) {
      b.launch(q, Form::UpdG, a, -1, 0);  // a global size of 0: the implementation's answer
    } else {
      b.random_op(q, pool);
    }
  }
}

// Several queues, in-order and out-of-order, one host thread: commands on one buffer
// from several queues, chained by events (the executor adds the waits). Queue i is on
// device i % 2 where the context has two.
void queues(Builder& b) {
  std::vector<int> qs;
  const auto nq = b.rng().in(2, 3);
  for (int i = 0; i < nq; ++i) qs.push_back(b.queue(b.rng().chance(50), 0, i % 2));
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 3)));
  random_ops(b, qs, pool, 6, 16);
}

// Host threads, each with its own queue and buffers, and buffers shared by all threads
// that are only read (const-annotated kernels, host reads) while the threads run.
void threads(Builder& b) {
  Case& c = b.kase();
  c.threads = static_cast<int>(b.rng().in(2, 3));
  std::vector<int> shared;
  const auto ns = b.rng().in(1, 2);
  for (int i = 0; i < ns; ++i) {
    const int s = b.create(b.record_shape(), b.records(), plain_mem(b.rng()), b.rng().chance(30));
    b.share(s);
    shared.push_back(s);
  }
  std::vector<std::vector<int>> queues(static_cast<std::size_t>(c.threads));
  for (int t = 0; t < c.threads; ++t) {
    // Thread t's first queue on device t % 2, its second on the other (with two).
    queues[static_cast<std::size_t>(t)].push_back(b.queue(b.rng().chance(60), t, t % 2));
    if (b.rng().chance(30))
      queues[static_cast<std::size_t>(t)].push_back(b.queue(b.rng().chance(50), t, (t + 1) % 2));
  }
  // Before the threads start, annotated kernels may leave the shared buffers transformed.
  for (int s : shared)
    if (b.rng().chance(60)) b.random_launch(queues[0][0], s, shared);
  b.phase = 1;
  for (int t = 0; t < c.threads; ++t) {
    b.thread = t;
    const auto& qs = queues[static_cast<std::size_t>(t)];
    std::vector<int> own;
    const auto no = b.rng().in(1, 2);
    for (int i = 0; i < no; ++i) {
      // Often of a shared buffer's shape, so that Half(own, shared) and copies meet.
      const Shape s = b.rng().chance(50) ? b.buf(b.rng().pick(shared)).shape : b.record_shape();
      own.push_back(b.create(s, b.records(), plain_mem(b.rng())));
    }
    std::vector<int> pool = own;
    pool.insert(pool.end(), shared.begin(), shared.end());
    const auto n = b.rng().in(4, 10);
    for (int i = 0; i < n; ++i) {
      const int q = b.rng().pick(qs);
      const auto v = b.rng().in(0, 99);
      if (v < 35)
        b.random_op(q, shared, true);
      else
        b.random_op(q, pool);
    }
  }
  b.phase = 2;
  b.thread = 0;
  for (int s : shared) b.read(0, s);
}

// Maps for reading, writing and write-invalidate; a READ map left open while
// const-annotated kernels and host reads use the buffer (the bytes behind the mapped
// pointer are observed before the unmap).
void maps(Builder& b) {
  std::vector<int> qs = {b.queue(true)};
  if (b.rng().chance(30)) qs.push_back(b.queue(false));
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 2)));
  const auto n = b.rng().in(2, 4);
  for (int i = 0; i < n; ++i) {
    const int q = b.rng().pick(qs);
    if (b.rng().chance(60)) b.random_launch(q, b.rng().pick(pool), pool);
    const int a = b.rng().pick(pool);
    if (!b.buf(a).alive) continue;
    const auto v = b.rng().in(0, 99);
    const MapKind kind = v < 50 ? MapKind::Read : v < 75 ? MapKind::Write : MapKind::Invalidate;
    const int m = b.map(q, a, kind);
    const auto inner = b.rng().in(0, 3);
    for (int j = 0; j < inner; ++j) {
      const int q2 = b.rng().pick(qs);
      if (kind == MapKind::Read && b.rng().chance(60))
        b.random_launch(q2, a, pool, true);
      else
        b.random_op(q2, pool);
    }
    b.unmap(m);
    if (b.rng().chance(50)) b.random_op(b.rng().pick(qs), pool);
  }
}

// Sub-buffers: at aligned origins on record boundaries and not, overlapping ones bound
// to two arguments of one launch (parent and sub-buffer, two overlapping sub-buffers,
// annotated and plain).
void subbuf(Builder& b) {
  const int q = b.queue(b.rng().chance(80));
  const Shape s = b.record_shape();
  const std::size_t R = info(s).size;
  std::size_t step = kAlign;  // origins on record boundaries: multiples of lcm(R, align)
  while (step % R) step += kAlign;
  const int records = static_cast<int>(std::max<std::size_t>(step / R + 1, 33) + b.rng().in(0, 32));
  const int parent = b.create(s, records, plain_mem(b.rng()));
  const std::size_t size = b.buf(parent).size;
  std::vector<int> pool = {parent};
  const auto ns = b.rng().in(1, 3);
  for (int i = 0; i < ns; ++i) {
    std::size_t origin;
    if (b.rng().chance(70) && step < size)
      origin = step * static_cast<std::size_t>(
                          b.rng().in(0, static_cast<std::int64_t>((size - 1) / step)));
    else
      origin = kAlign * static_cast<std::size_t>(
                            b.rng().in(0, static_cast<std::int64_t>((size - 1) / kAlign)));
    const std::size_t most = size - origin;
    const std::size_t sub_size =
        b.rng().chance(50)
            ? most
            : static_cast<std::size_t>(b.rng().in(1, static_cast<std::int64_t>(most)));
    pool.push_back(b.sub(parent, origin, sub_size));
  }
  const auto n = b.rng().in(4, 12);
  for (int i = 0; i < n; ++i) {
    const auto v = b.rng().in(0, 99);
    if (v < 30) {
      // Two arguments of one launch over the same bytes: a writes one field, b reads another.
      std::vector<int> aligned;
      for (int x : pool)
        if (b.buf(x).alive && (b.buf(x).origin % R) == 0) aligned.push_back(x);
      if (aligned.empty()) continue;
      const int x = b.rng().pick(aligned), y = b.rng().pick(aligned);
      const Form f = info(s).flat || b.rng().chance(50) ? Form::Pair : Form::Half;
      b.launch(q, f, x, y, b.n_upto(std::min(b.buf(x).records(), b.buf(y).records())));
    } else {
      b.random_op(q, pool);
    }
  }
}

// A launch that waits on a user event later set to CL_COMPLETE or to a negative status.
void uevent(Builder& b) {
  std::vector<int> qs = {b.queue(b.rng().chance(60))};
  if (b.rng().chance(30)) qs.push_back(b.queue(b.rng().chance(50)));
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 2)));
  random_ops(b, qs, pool, 0, 3);
  const auto n = b.rng().in(1, 2);
  for (int i = 0; i < n; ++i) {
    b.user_event(b.rng().pick(qs), b.rng().pick(pool), pool);
    random_ops(b, qs, pool, 1, 4);
  }
}

// CL_MEM_USE_HOST_PTR buffers (and sub-buffers of them): the host array is observed
// after clFinish (and half the time written directly then: the launches that read it
// through a copy in their layout must see the new bytes) and after the buffer's release.
void hostptr(Builder& b) {
  const int q = b.queue(b.rng().chance(70));
  std::vector<int> pool;
  const auto nb = b.rng().in(1, 2);
  for (int i = 0; i < nb; ++i) pool.push_back(b.create(b.record_shape(), b.records(), Mem::Use));
  if (b.rng().chance(40)) {
    const int p = pool[0];
    if (b.buf(p).size > kAlign)
      pool.push_back(b.sub(p, kAlign, b.buf(p).size - kAlign));
    else
      pool.push_back(b.sub(p, 0, b.buf(p).size));
  }
  const auto n = b.rng().in(3, 8);
  for (int i = 0; i < n; ++i) {
    const auto v = b.rng().in(0, 99);
    if (v < 45) {
      b.random_launch(q, b.rng().pick(pool), pool);
    } else if (v < 70) {
      if (b.rng().chance(60)) b.finish(q);
      b.observe_host(b.buf(b.rng().pick(pool)).root, b.rng().chance(50));
    } else {
      b.random_op(q, pool);
    }
  }
  if (b.rng().chance(50)) {
    const int x = b.rng().pick(pool);
    b.release(x);
    b.observe_host(b.buf(x).root);
  }
}

// Program objects: build options and binaries queried, a program created from the
// binaries and launched, a rebuild while kernels exist (CL_INVALID_OPERATION), then
// more launches.
void program(Builder& b) {
  const int q = b.queue(true);
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 2)));
  const Shape s = b.buf(pool[0]).shape;
  const auto steps = b.rng().in(3, 7);
  for (int i = 0; i < steps; ++i) {
    const int a = b.rng().pick(pool);
    const int n = b.n_upto(b.buf(a).records());
    switch (b.rng().in(0, 5)) {
      case 0:
        b.binary();
        break;
      case 1:
        b.rebuild(s);
        break;
      case 2:
        b.launch(q, Form::Upd, a, -1, n, Prog::Binary);
        break;
      case 3:
        b.launch(q, Form::Upd, a, -1, n, Prog::Family);
        break;
      default:
        b.random_op(q, pool);
        break;
    }
  }
}

// image1d_buffer objects over buffers that annotated kernels used, read with
// clEnqueueReadImage.
void image(Builder& b) {
  const int q = b.queue(b.rng().chance(80));
  auto pool = make_buffers(b, static_cast<int>(b.rng().in(1, 2)));
  const auto n = b.rng().in(2, 6);
  for (int i = 0; i < n; ++i) {
    const int a = b.rng().pick(pool);
    if (b.rng().chance(60))
      b.random_launch(q, a, pool);
    else
      b.random_op(q, pool);
    if (b.rng().chance(60)) b.image(q, b.rng().pick(pool));
  }
}

// Create, launch, read, release, again and again (handles are recycled).
void churn(Builder& b) {
  const int q = b.queue(b.rng().chance(80));
  std::vector<int> kept;
  const auto rounds = b.rng().in(3, 7);
  for (int i = 0; i < rounds; ++i) {
    const int x = b.create(b.record_shape(), b.records(), plain_mem(b.rng()));
    std::vector<int> pool = kept;
    pool.push_back(x);
    b.random_launch(q, x, pool);
    if (b.rng().chance(40)) b.random_launch(q, x, pool);
    b.read(q, x);
    if (b.rng().chance(25))
      kept.push_back(x);
    else
      b.release(x);
  }
}

}  // namespace

void generate_family(const std::string& family, Builder& b) {
  if (family == "basic")
    basic(b);
  else if (family == "bounds")
    bounds(b);
  else if (family == "queues")
    queues(b);
  else if (family == "threads")
    threads(b);
  else if (family == "maps")
    maps(b);
  else if (family == "subbuf")
    subbuf(b);
  else if (family == "uevent")
    uevent(b);
  else if (family == "hostptr")
    hostptr(b);
  else if (family == "program")
    program(b);
  else if (family == "image")
    image(b);
  else if (family == "churn")
    churn(b);
  else
    throw std::invalid_argument("unknown family " + family);
}

}  // namespace dl_diff
