// Executes one case on the session's device and hashes what the host observes.
//
// Race freedom is the executor's job, not the generator's, so that any subset of a
// case's ops (the shrinker drops ops) still runs deterministically: every command
// waits for the earlier commands on the same bytes (per root buffer: a read waits for
// the last writer, a write for the writer and every reader since), through events, or
// through clFinish of the other queue where that command asked for none. An open map
// is closed (observed and unmapped) before a command writes its buffer; ops on
// buffers never created or already released are skipped.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "case.hpp"
#include "observe.hpp"
#include "session.hpp"

namespace dl_diff {

struct Digest {
  std::uint64_t hash = 0;
  std::uint64_t size = 0;
  std::string trace;  // with tracing on
};

class Executor {
 public:
  Executor(Session& s, const Case& c, bool trace);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  Digest run();

 private:
  struct Buffer {
    cl_mem mem = nullptr;
    bool alive = false;
    bool created = false;
    Shape shape = Shape::FD;
    std::size_t size = 0;
    int root = -1;
    std::size_t origin = 0;
    unsigned char* host = nullptr;  // USE_HOST_PTR array (roots)
    int thread = 0;                 // the stream its end-of-case observations go to
  };
  struct Dep {
    cl_command_queue q = nullptr;
    cl_event e = nullptr;  // nullptr: an in-order queue's command without an event
  };
  struct Track {
    std::vector<Dep> writer, readers;
  };
  struct Access {
    int root;
    bool write;
  };
  struct Pending {
    int op;
    const char* what;
    const unsigned char* data;
    std::size_t size;
    cl_command_queue q;
    cl_event e;
  };
  struct Map {
    bool open = false;
    int buf = -1, thread = 0, op = 0;
    cl_command_queue q = nullptr;
    void* ptr = nullptr;
    std::size_t size = 0;
    MapKind kind = MapKind::Read;
  };
  struct Thread {
    explicit Thread(bool trace) : stream(trace) {}
    Stream stream;
    std::map<int, Track> track;
    std::vector<Pending> pending;
    std::map<std::pair<int, std::string>, cl_kernel> kernels;
    std::vector<cl_event> events;  // every event the case asked for, in order
    std::deque<std::vector<unsigned char>> memory;
  };

  // execute.cpp: the case's flow and the ordering rules.
  void phase(int p);
  void boundary();
  void finish_case();
  void exec(const Op& op);
  bool live(int b) const;
  Thread& th(const Op& op) { return *threads_[static_cast<std::size_t>(op.thread)]; }
  cl_command_queue queue(const Op& op) const { return queues_[static_cast<std::size_t>(op.queue)]; }
  bool in_order(cl_command_queue q) const;
  /// Closes open maps that conflict with `acc` (all maps of a root written; WRITE maps
  /// of a root read).
  void close_maps(const Op& op, const std::vector<Access>& acc);
  void close_map(int m, const char* why);
  /// The wait list a command on q with accesses `acc` needs (may clFinish other queues).
  std::vector<cl_event> waits(Thread& t, cl_command_queue q, const std::vector<Access>& acc);
  void record(Thread& t, cl_command_queue q, cl_event e, const std::vector<Access>& acc);
  /// Waits on the host for every command on `root`.
  void drain(Thread& t, int op, int root);
  void flush(Thread& t);
  unsigned char* memory(Thread& t, std::size_t n, unsigned char fill);
  cl_kernel kernel(Thread& t, int op, Prog prog, const std::string& name);
  void rc(Thread& t, int op, const char* call, cl_int code) { t.stream.value(op, call, code); }

  // execute_ops.cpp: one function per op kind.
  void create(const Op& op);
  void sub(const Op& op);
  void release(const Op& op);
  void launch(const Op& op);
  void read(const Op& op);
  void write(const Op& op);
  void fill(const Op& op);
  void copy(const Op& op);
  void map(const Op& op);
  void finish(const Op& op);
  void observe_host(const Op& op);
  void image(const Op& op);
  void binary(const Op& op);
  void rebuild(const Op& op);
  /// Sets the launch's arguments; false (skip) when a buffer is missing.
  bool set_args(Thread& t, const Op& op, cl_kernel k, std::vector<Access>& acc);

  Session& s_;
  const Case& c_;
  bool trace_;
  std::vector<std::unique_ptr<Thread>> threads_;
  std::vector<cl_command_queue> queues_;
  std::vector<Buffer> bufs_;
  std::vector<Map> maps_;
  std::vector<int> map_thread_;  // the thread that owns each map slot (from the case)
  cl_program binary_ = nullptr;  // the case's program from binaries
};

/// Bytes of a new buffer: records with small integers in float fields, random bytes
/// elsewhere (padding included).
std::vector<unsigned char> initial_bytes(Shape s, std::size_t records, std::size_t slack,
                                         std::uint32_t seed);
/// Random bytes for writes, fills and mapped writes.
std::vector<unsigned char> random_bytes(std::size_t n, std::uint32_t seed);

}  // namespace dl_diff
