// One function per op kind. Every return code goes into the stream, every byte the
// host gets back too; commands are ordered by Executor::waits/record.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "executor.hpp"

namespace dl_diff {

void Executor::create(const Op& op) {
  Thread& t = th(op);
  Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  auto data = initial_bytes(op.shape, static_cast<std::size_t>(op.records),
                            static_cast<std::size_t>(op.slack), op.seed);
  cl_mem_flags flags = op.read_only ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
  void* host = nullptr;
  switch (op.mem) {
    case Mem::Copy:
      flags |= CL_MEM_COPY_HOST_PTR, host = data.data();
      break;
    case Mem::AllocCopy:
      flags |= CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, host = data.data();
      break;
    case Mem::Use:
      b.host =
          static_cast<unsigned char*>(std::aligned_alloc(128, (data.size() + 127) / 128 * 128));
      std::memcpy(b.host, data.data(), data.size());
      flags |= CL_MEM_USE_HOST_PTR, host = b.host;
      break;
    case Mem::Alloc:
    case Mem::Emit:
      break;
  }
  cl_int err = CL_SUCCESS;
  b.mem = clCreateBuffer(s_.context, flags, data.size(), host, &err);
  rc(t, op.id, "clCreateBuffer", err);
  b.shape = op.shape;
  b.size = data.size();
  b.root = op.buf;
  b.thread = op.thread;
  b.created = true;
  b.alive = b.mem != nullptr;
  if (b.alive && op.mem == Mem::Alloc)
    rc(t, op.id, "clEnqueueWriteBuffer",
       clEnqueueWriteBuffer(queue(op), b.mem, CL_TRUE, 0, data.size(), data.data(), 0, nullptr,
                            nullptr));
  if (b.alive && op.mem == Mem::Emit) {
    // The write_only kernel over every record (the buffer has no slack bytes): no byte of
    // the undefined content is left for the case to observe. Part of the creation, so that
    // the shrinker cannot separate them.
    cl_kernel k = kernel(t, op.id, Prog::Main, kernel_name(Form::Emit, op.shape));
    if (!k) return;
    const int n = op.records, kk = static_cast<int>(op.seed % 7);
    rc(t, op.id, "clSetKernelArg", clSetKernelArg(k, 0, sizeof b.mem, &b.mem));
    rc(t, op.id, "clSetKernelArg", clSetKernelArg(k, 1, sizeof n, &n));
    rc(t, op.id, "clSetKernelArg", clSetKernelArg(k, 2, sizeof kk, &kk));
    const std::size_t g = static_cast<std::size_t>(n);
    cl_event e = nullptr;
    rc(t, op.id, "clEnqueueNDRangeKernel",
       clEnqueueNDRangeKernel(queue(op), k, 1, nullptr, &g, nullptr, 0, nullptr, &e));
    if (e) {
      rc(t, op.id, "clWaitForEvents", clWaitForEvents(1, &e));
      clReleaseEvent(e);
    }
  }
}

void Executor::sub(const Op& op) {
  if (!live(op.buf2)) return;
  Thread& t = th(op);
  const Buffer& p = bufs_[static_cast<std::size_t>(op.buf2)];
  Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  cl_buffer_region region = {op.off, op.size};
  cl_int err = CL_SUCCESS;
  b.mem = clCreateSubBuffer(p.mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  rc(t, op.id, "clCreateSubBuffer", err);
  b.shape = p.shape;
  b.size = op.size;
  b.root = p.root;
  b.origin = p.origin + op.off;
  b.thread = op.thread;
  b.created = true;
  b.alive = b.mem != nullptr;
}

void Executor::release(const Op& op) {
  if (!live(op.buf)) return;
  Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  for (std::size_t m = 0; m < maps_.size(); ++m)
    if (map_thread_[m] == op.thread && maps_[m].open && maps_[m].buf == op.buf)
      close_map(static_cast<int>(m), "release: mapped bytes");
  rc(th(op), op.id, "clReleaseMemObject", clReleaseMemObject(b.mem));
  b.alive = false;
}

bool Executor::set_args(Thread& t, const Op& op, cl_kernel k, std::vector<Access>& acc) {
  const bool sum = op.form == Form::Sum || op.form == Form::SumK || op.form == Form::SumSwapD ||
                   op.form == Form::SumSwapK || op.form == Form::SumDiag;
  const bool gather = op.form == Form::Gather, map = op.form == Form::Map;
  const bool two = op.form == Form::Pair || op.form == Form::Half || sum || gather || map;
  if (!live(op.buf) || (two && !live(op.buf2)) || (gather && !live(op.buf3))) return false;
  const Buffer& a = bufs_[static_cast<std::size_t>(op.buf)];
  std::vector<std::pair<std::size_t, const void*>> args = {{sizeof(cl_mem), &a.mem}};
  const cl_mem* b = two ? &bufs_[static_cast<std::size_t>(op.buf2)].mem : nullptr;
  acc.push_back({a.root, !sum && !gather && !map});
  if (two) acc.push_back({bufs_[static_cast<std::size_t>(op.buf2)].root, sum || gather || map});
  const cl_mem* idx = gather ? &bufs_[static_cast<std::size_t>(op.buf3)].mem : nullptr;
  if (gather) acc.push_back({bufs_[static_cast<std::size_t>(op.buf3)].root, false});
  // dims_t of records.cl: {int k; uint count;}, passed by value.
  struct Dims {
    cl_int k;
    cl_uint count;
  } dims = {op.k, static_cast<cl_uint>(op.n)};
  const cl_uint un = static_cast<cl_uint>(op.n), ulen = static_cast<cl_uint>(op.len);
  switch (op.form) {
    case Form::UpdK:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.len, &op.len});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::SwapK:
    case Form::SwapD:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.tile, &op.tile});
      args.push_back({sizeof op.len, &op.len});
      args.push_back({sizeof op.row, &op.row});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::DiagK:
    case Form::DiagMK:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.tile, &op.tile});
      args.push_back({sizeof op.len, &op.len});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::SumSwapD:
    case Form::SumSwapK:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.tile, &op.tile});
      args.push_back({sizeof op.len, &op.len});
      args.push_back({sizeof op.row, &op.row});
      args.push_back({sizeof(cl_mem), b});
      break;
    case Form::SumDiag:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.tile, &op.tile});
      args.push_back({sizeof op.len, &op.len});
      args.push_back({sizeof(cl_mem), b});
      break;
    case Form::UpdTK:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.len, &op.len});
      args.push_back({sizeof op.tile, &op.tile});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::SumK:
      args.push_back({sizeof un, &un});
      args.push_back({sizeof ulen, &ulen});
      args.push_back({sizeof(cl_mem), b});
      break;
    case Form::Dims:
      args.push_back({sizeof dims, &dims});
      args.push_back({sizeof op.cap, &op.cap});
      break;
    case Form::UpdG:
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::Cap:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.cap, &op.cap});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::Sum:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof(cl_mem), b});
      break;
    case Form::Gather:
      args.push_back({sizeof(cl_mem), idx});
      args.push_back({sizeof(cl_mem), b});
      args.push_back({sizeof un, &un});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::Map:
      args.push_back({sizeof(cl_mem), b});
      args.push_back({sizeof un, &un});
      args.push_back({sizeof op.row, &op.row});
      args.push_back({sizeof op.k, &op.k});
      break;
    case Form::Pair:
    case Form::Half:
      args.push_back({sizeof(cl_mem), b});
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.k, &op.k});
      break;
    default:
      args.push_back({sizeof op.n, &op.n});
      args.push_back({sizeof op.k, &op.k});
      break;
  }
  for (std::size_t i = 0; i < args.size(); ++i)
    rc(t, op.id, "clSetKernelArg",
       clSetKernelArg(k, static_cast<cl_uint>(i), args[i].first, args[i].second));
  return true;
}

void Executor::launch(const Op& op) {
  Thread& t = th(op);
  if (!live(op.buf)) return;
  if (op.prog == Prog::Binary && !binary_) return;
  cl_kernel k = kernel(t, op.id, op.prog, kernel_name(op.form, op.shape));
  if (!k) return;
  std::vector<Access> acc;
  if (!set_args(t, op, k, acc)) return;
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  cl_command_queue own = nullptr;
  if (op.kind == OpKind::UserEvent) {
    // A queue of its own, like the op's: PoCL 3.1 fails the commands that follow a
    // failed one in an in-order queue depending on timing (and trips an assertion
    // doing so), so a failure must not reach the case's queues.
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        in_order(q) ? cl_queue_properties{0}
                    : cl_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE},
        0};
    cl_int err = CL_SUCCESS;
    cl_device_id dev = s_.device;
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
    own = clCreateCommandQueueWithProperties(s_.context, dev, props, &err);
    rc(t, op.id, "clCreateCommandQueueWithProperties", err);
    if (!own) return;
    q = own;
  }
  auto w = waits(t, q, acc);
  cl_event user = nullptr;
  if (op.kind == OpKind::UserEvent) {
    // The launch waits on the user event alone: PoCL 3.1 races (and crashes) when a
    // failed status reaches a command whose other dependencies complete meanwhile.
    for (cl_event e : w) rc(t, op.id, "clWaitForEvents", clWaitForEvents(1, &e));
    w.clear();
    cl_int err = CL_SUCCESS;
    user = clCreateUserEvent(s_.context, &err);
    rc(t, op.id, "clCreateUserEvent", err);
    if (user) w.push_back(user);
  }
  cl_event e = nullptr;
  const bool want = op.event || op.kind == OpKind::UserEvent || !in_order(q);
  rc(t, op.id, "clEnqueueNDRangeKernel",
     clEnqueueNDRangeKernel(q, k, 1, nullptr, &op.g, op.l ? &op.l : nullptr,
                            static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(),
                            want ? &e : nullptr));
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
  if (!user) {
    if (own) clReleaseCommandQueue(own);
    return;
  }
  // The user event decides: a read chained after the launch, then the status, then the
  // host waits for both and sees the launch's status and the bytes read.
  const Buffer& a = bufs_[static_cast<std::size_t>(op.buf)];
  unsigned char* host = nullptr;
  cl_event re = nullptr;
  if (op.follow && e) {
    host = memory(t, a.size, 0xA5);
    rc(t, op.id, "clEnqueueReadBuffer",
       clEnqueueReadBuffer(q, a.mem, CL_FALSE, 0, a.size, host, 1, &e, &re));
    if (re) t.events.push_back(re);
  }
  rc(t, op.id, "clSetUserEventStatus",
     clSetUserEventStatus(user, op.status == 0 ? CL_COMPLETE : op.status));
  if (e) {
    rc(t, op.id, "clWaitForEvents", clWaitForEvents(1, &e));
    cl_int st = 1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    t.stream.value(op.id, "launch status", st);
  }
  if (re) {
    rc(t, op.id, "clWaitForEvents", clWaitForEvents(1, &re));
    t.stream.bytes(op.id, "read after the launch", host, a.size);
  }
  clReleaseEvent(user);
  // Whatever failed, nothing later waits on it: every queue of the thread drains here.
  clFinish(own);
  clReleaseCommandQueue(own);
  for (std::size_t i = 0; i < queues_.size(); ++i)
    if (c_.queues[i].thread == op.thread) clFinish(queues_[i]);
  t.track.clear();
}

void Executor::read(const Op& op) {
  if (!live(op.buf)) return;
  Thread& t = th(op);
  const Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  std::vector<Access> acc = {{b.root, false}};
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  auto w = waits(t, q, acc);
  const bool want = op.event || !in_order(q);
  cl_event e = nullptr;
  unsigned char* host;
  std::size_t n;
  cl_int err;
  if (op.kind == OpKind::Read) {
    n = op.size;
    host = memory(t, n, 0xA5);
    err = clEnqueueReadBuffer(q, b.mem, op.blocking, op.off, op.size, host,
                              static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(),
                              want ? &e : nullptr);
  } else {
    const std::size_t* r = op.rect;
    n = r[5] * r[3];
    host = memory(t, n, 0xA5);
    const std::size_t origin[3] = {r[0], r[1], 0}, host_origin[3] = {0, 0, 0},
                      region[3] = {r[2], r[3], 1};
    err = clEnqueueReadBufferRect(q, b.mem, op.blocking, origin, host_origin, region, r[4], 0, r[5],
                                  0, host, static_cast<cl_uint>(w.size()),
                                  w.empty() ? nullptr : w.data(), want ? &e : nullptr);
  }
  rc(t, op.id, op.kind == OpKind::Read ? "clEnqueueReadBuffer" : "clEnqueueReadBufferRect", err);
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
  if (err != CL_SUCCESS) return;
  if (op.blocking)
    t.stream.bytes(op.id, "read", host, n);
  else
    t.pending.push_back({op.id, "non-blocking read", host, n, q, e});
}

void Executor::write(const Op& op) {
  if (!live(op.buf)) return;
  Thread& t = th(op);
  const Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  std::vector<Access> acc = {{b.root, true}};
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  auto w = waits(t, q, acc);
  auto data = random_bytes(op.size, op.seed);
  unsigned char* host = memory(t, data.size(), 0);
  std::memcpy(host, data.data(), data.size());
  cl_event e = nullptr;
  rc(t, op.id, "clEnqueueWriteBuffer",
     clEnqueueWriteBuffer(q, b.mem, op.blocking, op.off, op.size, host,
                          static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(),
                          op.event || !in_order(q) ? &e : nullptr));
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
}

void Executor::fill(const Op& op) {
  if (!live(op.buf)) return;
  Thread& t = th(op);
  const Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  std::vector<Access> acc = {{b.root, true}};
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  auto w = waits(t, q, acc);
  auto pattern = random_bytes(static_cast<std::size_t>(op.pattern), op.seed);
  if (op.fill_byte >= 0)
    std::fill(pattern.begin(), pattern.end(), static_cast<unsigned char>(op.fill_byte));
  cl_event e = nullptr;
  rc(t, op.id, "clEnqueueFillBuffer",
     clEnqueueFillBuffer(q, b.mem, pattern.data(), pattern.size(), op.off, op.size,
                         static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(),
                         op.event || !in_order(q) ? &e : nullptr));
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
}

void Executor::copy(const Op& op) {
  if (!live(op.buf) || !live(op.buf2)) return;
  Thread& t = th(op);
  const Buffer& s = bufs_[static_cast<std::size_t>(op.buf)];
  const Buffer& d = bufs_[static_cast<std::size_t>(op.buf2)];
  std::vector<Access> acc = {{s.root, false}, {d.root, true}};
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  auto w = waits(t, q, acc);
  cl_event e = nullptr;
  rc(t, op.id, "clEnqueueCopyBuffer",
     clEnqueueCopyBuffer(q, s.mem, d.mem, op.off, op.off2, op.size, static_cast<cl_uint>(w.size()),
                         w.empty() ? nullptr : w.data(), op.event || !in_order(q) ? &e : nullptr));
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
}

void Executor::map(const Op& op) {
  if (!live(op.buf)) return;
  Thread& t = th(op);
  const Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  std::vector<Access> acc = {{b.root, op.map_kind != MapKind::Read}};
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  auto w = waits(t, q, acc);
  const cl_map_flags flags[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION};
  cl_event e = nullptr;
  cl_int err = CL_SUCCESS;
  void* p =
      clEnqueueMapBuffer(q, b.mem, op.blocking, flags[static_cast<int>(op.map_kind)], op.off,
                         op.size, static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(),
                         op.event || !op.blocking || !in_order(q) ? &e : nullptr, &err);
  rc(t, op.id, "clEnqueueMapBuffer", err);
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
  if (!p || err != CL_SUCCESS) return;
  if (!op.blocking) rc(t, op.id, "clWaitForEvents", clWaitForEvents(1, &e));
  auto* bytes = static_cast<unsigned char*>(p);
  if (op.map_kind != MapKind::Invalidate) t.stream.bytes(op.id, "mapped bytes", bytes, op.size);
  if (op.map_kind != MapKind::Read) {
    // WRITE: every third byte changes (the others must keep their values);
    // WRITE_INVALIDATE_REGION: every byte (the old ones are undefined).
    auto data = random_bytes(op.size, op.seed);
    for (std::size_t i = 0; i < op.size; ++i)
      if (op.map_kind == MapKind::Invalidate || i % 3 == 0) bytes[i] = data[i];
  }
  Map& m = maps_[static_cast<std::size_t>(op.map)];
  m = Map{};
  m.open = true;
  m.buf = op.buf;
  m.thread = op.thread;
  m.op = op.id;
  m.q = q;
  m.ptr = p;
  m.size = op.size;
  m.kind = op.map_kind;
}

void Executor::finish(const Op& op) {
  Thread& t = th(op);
  rc(t, op.id, "clFinish", clFinish(queue(op)));
  flush(t);
}

void Executor::observe_host(const Op& op) {
  if (op.buf < 0 || op.buf >= static_cast<int>(bufs_.size())) return;
  const Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  if (!b.created || !b.host) return;
  Thread& t = th(op);
  drain(t, op.id, b.root);
  t.stream.bytes(op.id, "host array", b.host, b.size);
  // Then written directly, as applications on CPUs do between commands; not where DL is
  // told that the application changes its host arrays only through commands
  // (DL_HOST_PTR=keep; the native run of the case skips it alike).
  static const bool commands_only = [] {
    const char* v = std::getenv("DL_HOST_PTR");
    return v && std::string(v) == "keep";
  }();
  if (op.size && op.off + op.size <= b.size && !commands_only) {
    const auto data = random_bytes(op.size, op.seed);
    std::memcpy(b.host + op.off, data.data(), op.size);
  }
}

void Executor::image(const Op& op) {
  if (!live(op.buf)) return;
  Thread& t = th(op);
  const Buffer& b = bufs_[static_cast<std::size_t>(op.buf)];
  cl_image_format format = {
      op.pattern == 16 ? static_cast<cl_channel_order>(CL_RGBA) : CL_R,
      op.pattern == 1 ? static_cast<cl_channel_type>(CL_UNSIGNED_INT8) : CL_UNSIGNED_INT32};
  cl_image_desc desc;
  std::memset(&desc, 0, sizeof desc);
  desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  desc.image_width = b.size / static_cast<std::size_t>(op.pattern);
  desc.buffer = b.mem;
  cl_int err = CL_SUCCESS;
  cl_mem img = clCreateImage(s_.context, CL_MEM_READ_ONLY, &format, &desc, nullptr, &err);
  rc(t, op.id, "clCreateImage", err);
  if (!img) return;
  std::vector<Access> acc = {{b.root, false}};
  close_maps(op, acc);
  cl_command_queue q = queue(op);
  auto w = waits(t, q, acc);
  const std::size_t n = op.size * static_cast<std::size_t>(op.pattern);
  unsigned char* host = memory(t, n, 0xA5);
  const std::size_t origin[3] = {op.off, 0, 0}, region[3] = {op.size, 1, 1};
  cl_event e = nullptr;
  err = clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, host,
                           static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(),
                           op.event || !in_order(q) ? &e : nullptr);
  rc(t, op.id, "clEnqueueReadImage", err);
  if (e) t.events.push_back(e);
  record(t, q, e, acc);
  if (err == CL_SUCCESS) t.stream.bytes(op.id, "image pixels", host, n);
  rc(t, op.id, "clReleaseMemObject", clReleaseMemObject(img));
}

void Executor::binary(const Op& op) {
  Thread& t = th(op);
  cl_program p = s_.family();
  std::size_t n = 0;
  rc(t, op.id, "clGetProgramBuildInfo",
     clGetProgramBuildInfo(p, s_.device, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &n));
  std::string options(n, '\0');
  clGetProgramBuildInfo(p, s_.device, CL_PROGRAM_BUILD_OPTIONS, n, options.data(), nullptr);
  t.stream.text(op.id, "CL_PROGRAM_BUILD_OPTIONS", options.c_str());
  // The binary's bytes are not compared: PoCL's differ between a fresh compile and a
  // cache hit. What a program built from them computes is (launches with Prog::Binary).
  std::size_t size = 0;
  rc(t, op.id, "clGetProgramInfo",
     clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  std::vector<unsigned char> bin(size);
  unsigned char* bp = bin.data();
  rc(t, op.id, "clGetProgramInfo",
     clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bp, &bp, nullptr));
  for (auto it = t.kernels.begin(); it != t.kernels.end();) {
    if (it->first.first == static_cast<int>(Prog::Binary)) {
      clReleaseKernel(it->second);
      it = t.kernels.erase(it);
    } else {
      ++it;
    }
  }
  if (binary_) clReleaseProgram(binary_);
  const unsigned char* cbp = bin.data();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  binary_ = clCreateProgramWithBinary(s_.context, 1, &s_.device, &size, &cbp, &status, &err);
  rc(t, op.id, "clCreateProgramWithBinary", err);
  t.stream.value(op.id, "binary status", status);
  if (binary_)
    rc(t, op.id, "clBuildProgram",
       clBuildProgram(binary_, 1, &s_.device, Session::kOptions, nullptr, nullptr));
}

void Executor::rebuild(const Op& op) {
  Thread& t = th(op);
  if (!kernel(t, op.id, Prog::Family, kernel_name(Form::Upd, op.shape))) return;
  cl_program p = s_.family();
  rc(t, op.id, "clBuildProgram",
     clBuildProgram(p, 1, &s_.device, Session::kOptions, nullptr, nullptr));
  cl_build_status st = CL_BUILD_NONE;
  rc(t, op.id, "clGetProgramBuildInfo",
     clGetProgramBuildInfo(p, s_.device, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, nullptr));
  t.stream.value(op.id, "CL_PROGRAM_BUILD_STATUS", st);
}

}  // namespace dl_diff
