// The DL tracking runtime (paper §5.2): state of programs, kernels, argument bindings
// and buffers, and the hooks that keep the application's view AoS while annotated
// kernels run on transformed layouts. Internal to libdl_interpose.so.
//
// Locking: one mutex guards all state. Every hooked enqueue that touches a tracked
// buffer runs (conversions and the real call, both non-blocking) under it, so that
// conversions and the application's commands reach the queues in one consistent order;
// blocking calls wait for their event after the lock is released, and nothing is
// compiled while it is held.
//
// The application only ever holds its own objects: its programs are built exactly as it
// asks, and DL keeps a separate build of each annotated program (the *shadow*, with
// -DDL_ASTA_T) whose kernels it launches when it transforms a launch (docs/runtime.md).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "controls.hpp"
#include "dl/annotation.hpp"
#include "dl/layout.hpp"
#include "dl/marshal.hpp"
#include "dl/policy.hpp"

namespace spdlog {
class logger;
}

namespace dl::rt {

/// The real OpenCL entry points (never call cl* by symbol from DL's code).
const cl_icd_dispatch& real();

/// Reads the controls and arranges for the report, summary and trace at exit (once; the
/// interposer calls it when it is loaded).
void start();

/// Installs the hooks into `table` (a copy of the real entry points). Reads the
/// controls; with DL_DISABLE nothing is installed.
void install(cl_icd_dispatch& table, const cl_icd_dispatch& real_entry_points);

spdlog::logger& log();

struct DeviceProfile;  // calibration.hpp
struct WidthTrial;     // policy.hpp

struct ProgramState {
  ProgramState() = default;
  ~ProgramState();
  ProgramState(const ProgramState&) = delete;
  ProgramState& operator=(const ProgramState&) = delete;
  cl_context context = nullptr;
  std::vector<std::string> sources;  // one per compiled input (several after clLinkProgram)
  SourceAnnotations ann;
  /// Records of flat arrays whose length S is a kernel argument, made at launches (by
  /// name, flat_float_62; under the lock, never erased: Need points into it).
  std::map<std::string, Record> flat_records;
  /// The record (in flat_records) and n of an annotation of that kind, by its scalar,
  /// swapped dimensions (-1: none) and the dimensions' values at a launch: made once, not
  /// at every launch (a record of up to 65,535 slots). Under the lock, never erased.
  /// (std::less<>: a launch looks its key up without copying the dimensions.)
  std::map<std::tuple<std::string, int, int, std::vector<std::int64_t>>,
           std::pair<const Record*, std::uint64_t>, std::less<>>
      shapes;
  bool annotated = false;  // has kernels whose annotated buffers all have records
  std::uint32_t tile = 0;  // the T of the shadow build
  std::vector<cl_device_id> devices;
  cl_program shadow = nullptr;  // DL's build of the sources (DL_ASTA_T, argument info)
  cl_program wide = nullptr;    // the same with DL_OFFSET64 (DL_OFFSET_WIDTH measure or 64)
  std::string why;              // why there is no shadow (for the report)
  std::uint32_t app_refs = 1;   // the application's references to the program
  std::string options;          // the application's build (compile) options
  double build_ns = 0;          // how long the application's own build took
  bool deferred = false;        // the shadow is built when a launch wants it (policy auto)
  bool building = false;        // a launch or a background thread is building it now
                                // (without the lock; Runtime::built is notified after)
  std::string auto_source;      // DL_AUTO: the application's unannotated source
};

/// One program DL_AUTO rewrote, or tried to (for the report and the summary).
struct AutoRecord {
  bool ok = false, cached = false;
  double seconds = 0;
  std::string why;                   // when not rewritten
  std::vector<std::string> kernels;  // kernels with an inferred annotation
  std::string report;                // dl-annotate's JSON report
};

struct ArgValue {
  bool set = false;
  std::vector<unsigned char> bytes;  // empty with size for __local arguments
  std::size_t size = 0;
  cl_mem mem = nullptr;  // the value, when it names a buffer DL tracks
};

struct KernelStats {
  std::uint64_t launches = 0, transformed_launches = 0, fallbacks = 0, marshals = 0;
  std::uint64_t kept_aos = 0;  // launches the profitability controller kept in AoS
  std::uint64_t gathers = 0, gathers_reused = 0;  // gathered copies built / read again
  std::uint64_t gather_ns = 0;                    // the gathers' device time
  std::uint64_t host_copies = 0;                  // layout copies of host-visible memory made
  std::uint64_t host_copies_reused = 0;           // ... read again (DL_HOST_PTR=keep)
  std::uint64_t host_copy_ns = 0;                 // their device time
  std::uint64_t copies_freed = 0;  // kept copies no launch could read again, freed for room
  std::string policy;              // the controller's last decision and its numbers
  std::string offsets;             // the width of the transformed kernel's offsets, and why
  std::uint64_t device_ns = 0;
  std::set<std::string> fallback_reasons;
};

/// The profitability controller's state of one kernel on one device (policy.cpp).
struct KernelPolicy {
  std::weak_ptr<const ProgramState> program;
  std::string kernel;
  cl_device_id device = nullptr;
  /// Where its experience is kept across runs (policy.cpp): the device's key and the
  /// program's (empty: not kept).
  std::string device_key, program_key;
  ConversionPolicy rule;  // guarded by Runtime::policy_mutex
  std::uint64_t launches = 0, kept_aos = 0;
  std::string last_reason;
  int last_state = -1;  // the last decision and verdict logged
};

struct KernelState {
  std::string name;
  std::shared_ptr<ProgramState> program;
  int annotation = -1;           // index into program->ann.kernels; -1: not annotated
  cl_kernel shadow = nullptr;    // the same kernel from program->shadow; null: untransformed
  cl_kernel wide = nullptr;      // from program->wide (64-bit offsets); null: none
  bool shadow_failed = false;    // creating or binding it failed: untransformed for good
  std::vector<int> buffer_args;  // argument index of each annotated buffer
  /// Per annotated buffer: the shadow's argument `dl_whole_<name>` that carries n for a
  /// buffer annotated `[*]` (past the application's arguments), or -1.
  std::vector<int> whole_args;
  std::vector<std::uint64_t> whole_set;  // the count last set on each of them (0: none)
  /// Per annotated buffer, the first buffer of its group of [*] buffers that share one
  /// record count (dl::whole_groups: the smallest of theirs), or -1.
  std::vector<int> whole_group;
  /// Per `gather:` clause: the shadow's argument `dl_gather_<x>` that takes the gathered
  /// copy (past the record counts), and the arguments of x and of its index array. For a
  /// `map:` clause: `dl_map_<x>`, the argument of x and -1; its copy's element count
  /// goes in `dl_mapn_<x>` (map_count_args), and the map kernel of the shadow's program
  /// (dl::map_kernel_name) builds it from the arguments map_params name (else -1 and
  /// null).
  std::vector<int> gather_args;
  std::vector<std::pair<int, int>> gather_params;
  std::vector<int> map_count_args;
  std::vector<std::vector<int>> map_params;
  std::vector<cl_kernel> map_kernels;
  std::vector<std::string> arg_names;  // the compiler's parameter names (argument info)
  std::vector<ArgValue> args;
  std::uint32_t app_refs = 1;
  std::shared_ptr<KernelStats> stats;
  const KernelAnnotation& ann() const {
    return program->ann.kernels[static_cast<std::size_t>(annotation)];
  }
  /// Sets argument `at` of the DL builds (shadow, and wide where built) to DL's own value.
  cl_int set_builds_arg(cl_uint at, std::size_t size, const void* value) const;
};

struct BufferStats {
  std::uint64_t id = 0;
  std::size_t size = 0;
  bool listed = false;  // in Runtime::buffer_stats (the report lists it)
  std::uint64_t marshals = 0, bytes = 0, device_ns = 0;
  std::uint64_t to_target = 0, to_aos = 0;
  std::uint64_t state_only = 0;  // layout changes that needed no conversion (content)
  std::uint64_t uploads = 0, upload_chunks = 0;  // writes converted as they landed (uploads.cpp)
  std::set<std::string> algorithms, layouts, kernels;
};

/// A copy of array x gathered through index array col (a `gather:` clause: x[col[i]]
/// at i), kept while neither changes (gathers.cpp).
///
/// A map's copy (a `map:` clause: x[fn(i, ...)] at i) has no index array: it is the one
/// of x made by map kernel `map` of program `program`, from the argument values `key`.
struct GatheredCopy {
  cl_mem x = nullptr, index = nullptr;  // the application's buffers (not retained)
  std::size_t elem = 0;
  unsigned index_bytes = 0;
  bool index_signed = false;
  cl_program program = nullptr;  // a map's: its program (the shadow) and kernel
  std::string map;
  std::vector<unsigned char> key;  // the values of the map's arguments it was made with
  cl_mem copy = nullptr;           // DL's buffer
  std::size_t bytes = 0;
  bool valid = false;        // holds x[col[i]] of the bytes they hold now
  cl_event built = nullptr;  // its last gather (retained)
  double gather_ns = 0;      // the device time of a gather, once measured (not of host copies)
  /// The controller's rules of the kernels that read it: a write to x or col ends their
  /// epoch, as a host access ends the epoch of a converted buffer.
  std::vector<std::shared_ptr<KernelPolicy>> policies;
  cl_command_queue queue = nullptr;  // the in-order queue of that gather and every
                                     // launch that read it since; null: several
  /// A layout copy of host-visible memory (gathers.cpp, host_copies): x's n records of
  /// `record` in `layout` (no index, no map), made again at every launch that reads it
  /// unless DL_HOST_PTR=keep (then `valid` says whether it may be read again).
  bool host = false;
  Layout layout = Layout::aos();
  std::size_t n = 0;
  Record record;
  cl_device_id device = nullptr;  // whose memory `copy` counts against (DL_COPY_BUDGET)
};

/// A command that touched a buffer. `event` may be null for the last command of an
/// in-order queue (queue order stands for it until another queue must wait for it).
struct Access {
  cl_event event = nullptr;
  cl_command_queue queue = nullptr;
  bool tainted = false;  // waits on an event that may still fail (Runtime::tainted)
};

struct BufferState {
  cl_mem mem = nullptr;
  std::uint64_t id = 0;
  cl_context context = nullptr;
  std::size_t size = 0;
  cl_mem_flags flags = 0;
  cl_mem parent = nullptr;  // sub-buffers: the buffer they are a region of
  std::size_t origin = 0;   // offset in the parent
  std::vector<cl_mem> children;
  bool host_visible = false;  // CL_MEM_USE_HOST_PTR here or in the parent: the host sees the
                              // bytes without a map, so they are never converted in place
  std::uint32_t maps = 0;     // maps enqueued and not yet unmapped
  std::uint32_t images = 0;   // live images created over it
  // Layout state (paper §5.2): the current layout, the n and record it was marshaled for.
  Layout layout = Layout::aos();
  std::size_t n = 0;
  Record record;
  bool annotated = false;  // ever bound to an annotated argument: track its users
  std::vector<std::shared_ptr<KernelPolicy>> policies;  // kernels that converted it
  std::vector<Access> users;  // commands that touched it since its last conversion
  bool users_known = false;   // every command on it since its creation is in `users`
                              // (false until it is first watched)
  Access conversion;          // its last conversion (later commands on other queues wait)
  // What the bytes hold, kept on the root of a family (sub-buffers share its bytes;
  // docs/runtime.md, "Content that needs no conversion"). `undefined`: created without
  // host data and no command has touched the bytes since. `uniform`: every byte equals
  // `uniform_byte` (a fill of the whole buffer, and no write since).
  bool undefined = false;
  bool uniform = false;
  unsigned char uniform_byte = 0;
  /// The host has replaced every byte of it (a write or a map invalidating it whole) after
  /// a launch converted it or read a copy of it: it is rewritten between launches, so it is
  /// converted in place rather than read through a layout copy, and later whole writes land
  /// converted (uploads.cpp).
  bool host_replaced = false;
  bool layout_copied = false;  // a launch has read a layout copy of it (gathers.cpp)
  std::shared_ptr<BufferStats> stats;
};

struct QueueInfo {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  bool in_order = true;
  bool profiling_added = false;
  std::uint32_t app_refs = 0;  // the application's references; 0: not created through DL
};

/// Wait list under construction: the application's events plus DL's (retained, released
/// at the end). A conversion waits for the application's events only when none of them
/// may fail: a failed event would cancel the conversion and leave the buffer in a layout
/// DL cannot know (docs/runtime.md, "Events that fail").
class WaitList {
 public:
  WaitList(cl_uint n, const cl_event* events, bool app_may_fail)
      : app_(events, events + n), app_may_fail_(app_may_fail) {}
  ~WaitList();
  WaitList(const WaitList&) = delete;
  WaitList& operator=(const WaitList&) = delete;
  /// Adds `e` to DL's part (retains it; null is ignored).
  void add(cl_event e);
  /// A conversion chained on for_conversion() completes with `done`: DL's part becomes
  /// {done} (takes the reference).
  void converted(cl_event done);
  /// What the application's command waits for: its own events and DL's.
  cl_uint size() const { return static_cast<cl_uint>(all().size()); }
  const cl_event* data() const { return all().empty() ? nullptr : all().data(); }
  /// What a conversion before that command waits for.
  const std::vector<cl_event>& for_conversion() const { return app_may_fail_ ? own_ : all(); }
  bool app_may_fail() const { return app_may_fail_; }
  /// Before a command whose events may fail: waits until DL's own commands (the
  /// conversions it waits for) are complete, so that no failure of the application's
  /// events can cut one short (some implementations cancel the commands in flight).
  void settle_before_failure();

 private:
  const std::vector<cl_event>& all() const;
  std::vector<cl_event> app_;
  std::vector<cl_event> own_;  // retained by DL
  mutable std::vector<cl_event> merged_;
  bool app_may_fail_;
};

/// A command's event: the application's when it asked for one, else DL's own when DL
/// needs one (to track users, to profile), released at the end.
struct EventSlot {
  cl_event e = nullptr;
  cl_event* app;
  cl_event* ptr(bool need) { return app ? app : (need ? &e : nullptr); }
  cl_event get() const { return app ? *app : e; }
  ~EventSlot();
};

class Runtime {
 public:
  static Runtime& get();

  Controls controls;
  std::mutex mutex;
  std::condition_variable built;      // a shadow build ended (ProgramState::building)
  std::size_t background_builds = 0;  // shadow builds running in threads of their own
  std::unordered_map<cl_program, std::shared_ptr<ProgramState>> programs;
  std::vector<AutoRecord> auto_rewrites;  // DL_AUTO, in the order of the builds
  std::unordered_map<cl_kernel, KernelState> kernels;
  std::unordered_map<cl_mem, BufferState> buffers;
  std::unordered_map<cl_command_queue, QueueInfo> queues;
  std::map<std::pair<cl_context, cl_device_id>, std::unique_ptr<Marshaler>> marshalers;
  std::map<cl_context, cl_command_queue> own_queues;
  std::atomic<std::size_t> transformed_buffers{0};  // buffers not in AoS right now
  // Blocking reads and writes of a single-threaded application (observe.hpp): while one
  // application thread alone has enqueued through DL, they reach the implementation
  // blocking, enqueued after DL's lock is released (an implementation may copy a
  // non-blocking command's bytes to pageable memory later than a blocking one's). A
  // second thread, at its first enqueue, waits until such a call has returned.
  std::thread::id enqueue_thread;       // the first thread that enqueued through DL
  bool threaded = false;                // another thread has enqueued since
  std::size_t direct_calls = 0;         // blocking calls on their way, outside the lock
  std::condition_variable direct_done;  // direct_calls went down
  /// Every hook that enqueues calls it first, `lock` held on `mutex`.
  void enter(std::unique_lock<std::mutex>& lock);
  std::uint64_t next_buffer_id = 1;
  Algorithm algorithm = Algorithm::Auto;

  // Everything below is called with `mutex` held.
  BufferState* buffer(cl_mem m);
  QueueInfo& queue(cl_command_queue q);
  Marshaler* marshaler(cl_context c, cl_device_id d);
  std::uint32_t tile_for(cl_context c, cl_device_id d);

  /// Sets the layout state of `b` (keeps transformed_buffers in step).
  void set_layout(BufferState& b, const Layout& l, std::size_t n, const Record* rec);
  /// Enqueues one conversion of `b` from its current layout to `to` on `q`, after
  /// wait.for_conversion() and every earlier command on its bytes. Returns an error text,
  /// empty on success. When the content makes the conversion a permutation of bytes
  /// nobody can tell apart (content_shortcut()), only the layout state changes: nothing
  /// is enqueued and the ordering state (users, last conversion, `wait`) stays as it was.
  /// `write_only`: the launch the conversion serves never reads `b`.
  std::string marshal(BufferState& b, cl_command_queue q, const Record& rec, std::size_t n,
                      const Layout& to, WaitList& wait, const std::string& why,
                      bool write_only = false);
  /// Brings every buffer overlapping `m` (itself, its parent, sub-buffers) back to AoS.
  /// `skip_self`: leave `m` itself (its contents are about to be replaced). False when a
  /// conversion failed (the buffer could not be restored; logged).
  bool ensure_aos(cl_mem m, cl_command_queue q, WaitList& wait, const char* why,
                  bool skip_self = false);
  /// The same for the bytes [lo, hi) of `m` only: converted regions that do not overlap
  /// them stay (the bytes from n·R on are AoS anyway). `replaced`: the command overwrites
  /// [lo, hi); a converted region inside it becomes AoS without a conversion.
  bool ensure_aos_range(cl_mem m, std::size_t lo, std::size_t hi, bool replaced, cl_command_queue q,
                        WaitList& wait, const char* why);
  // Content marks (docs/runtime.md, "Content that needs no conversion").
  /// The buffer whose marks stand for the bytes of `b`: its root; null when the root is
  /// not tracked (its content is then unknown).
  BufferState* content_root(const BufferState& b);
  /// Why converting `b` to `to` needs no conversion kernel: its content is uniform (any
  /// permutation of equal bytes is the identity), or undefined and the conversion serves
  /// a launch that never reads it (`write_only`), or undefined and goes back to AoS (the
  /// bytes never moved). Empty when it needs one.
  std::string content_shortcut(const BufferState& b, const Layout& to, bool write_only);
  /// A command touches the bytes of `m` (or of a buffer overlapping it): they are no
  /// longer undefined, and no longer uniform when it `writes`.
  void touched(cl_mem m, bool writes);
  /// clEnqueueFillBuffer of [offset, offset + size) of `m` with a pattern whose bytes all
  /// equal `byte` (-1: they do not): uniform when it covers the whole root and runs for
  /// sure (`may_fail`: its wait list may fail, then it may not run); else as touched().
  void filled(cl_mem m, std::size_t offset, std::size_t size, int byte, bool may_fail);
  /// A command DL cannot see into may have written any buffer: every mark goes.
  void forget_content();
  /// Gathered copies (gathers.cpp), and the ones to build again because a command may
  /// have written the bytes of `m` (all of them for `m` null: a command DL cannot see).
  std::vector<GatheredCopy> gathered;
  void gathered_written(cl_mem m);
  /// Buffer `m` is destroyed (or its handle recycled): its gathered copies go.
  void gathered_gone(cl_mem m);
  /// A kernel with map kernels of program `p` (a DL build) is released: the copies those
  /// made go, so that no copy outlives the program whose function made it (a later
  /// program could get its handle).
  void maps_gone(cl_program p);
  /// Bytes the kept copies (`gathered`) may hold on device `d` together (DL_COPY_BUDGET).
  std::size_t copy_budget(cl_device_id d);
  std::map<cl_device_id, std::size_t> copy_budgets;
  /// Whether a new copy of `bytes` on `d` fits the budget once the copies no launch can
  /// read again (not valid) are freed; `self`, the entry it is for, does not count.
  bool copy_fits(cl_device_id d, std::size_t bytes, const GatheredCopy* self = nullptr);
  /// Frees such copies on `d`, the first made first, until `bytes` more fit; how many it
  /// freed, or -1 when they do not fit even so (then it frees none).
  int make_room(cl_device_id d, std::size_t bytes, const GatheredCopy* self);
  void set_content(BufferState& root, bool undefined, bool uniform, unsigned char byte = 0);
  std::size_t content_marked = 0;  // roots with a mark (0: the hooks skip all this)

  /// Adds to `wait` the last conversions of the buffers overlapping `m` that a command
  /// on `q` does not follow by queue order.
  void order_after_conversions(cl_mem m, cl_command_queue q, WaitList& wait);
  /// Why the bytes of `m` cannot be converted in place now (host-visible memory, an open
  /// map, an image over them, a pending command that may fail); empty when they can.
  /// `host_visible_ok`: host-visible memory is not a reason (a launch reads a copy of it).
  std::string pinned(cl_mem m, bool host_visible_ok = false);
  /// Whether `m` or a buffer it is a region of is host-visible memory (CL_MEM_USE_HOST_PTR).
  bool host_visible(cl_mem m);
  /// DL's own in-order queue on the first device of `c`, for conversions that belong to
  /// no command of the application (an image created over a converted buffer).
  cl_command_queue own_queue(cl_context c);
  /// Records `e`, enqueued on `q`, as a user of `m` (only for buffers that are watched).
  void add_user(cl_mem m, cl_event e, cl_command_queue q, bool tainted);
  /// True when `m` or a buffer overlapping it is tracked closely (annotated).
  bool watched(cl_mem m);
  /// The buffers overlapping `m` (itself first).
  std::vector<BufferState*> family(cl_mem m);
  /// The root buffer and the byte range of `b` in it.
  struct Range {
    cl_mem root;
    std::size_t lo, hi;
    /// Whether the two ranges share a byte (of the same root).
    bool overlaps(const Range& o) const { return root == o.root && lo < o.hi && o.lo < hi; }
  };
  Range range(const BufferState& b);

  // Events that may fail (user events, and commands waiting on them): conversions never
  // wait on them. Guarded by `mutex`; `tainted_count` lets hot paths skip the lookup.
  std::unordered_map<cl_event, std::uint32_t> tainted_events;  // retained; the application's
                                                               // references (0: DL's event)
  std::atomic<std::size_t> tainted_count{0};
  /// True when `e` may still fail or has failed (its command, or one it waits on, is an
  /// unresolved or failed user event).
  bool tainted(cl_event e);
  bool any_tainted(cl_uint n, const cl_event* list);
  /// Remembers `e` as tainted (retains it); `app_holds`: the application has the handle.
  void taint(cl_event e, bool app_holds);

  // Report and trace.
  /// Records command `e`'s device time (report, summary, trace) once it completes; with
  /// `first`, from that command's start (a conversion of several commands) to e's end.
  void profile(cl_event e, std::string name, std::string category, cl_command_queue q,
               std::shared_ptr<KernelStats> ks, std::shared_ptr<BufferStats> bs,
               cl_event first = nullptr);
  void write_outputs();
  void summary();
  /// The controller's calibrations and per-kernel decisions, for the report.
  nlohmann::json policy_report();

  // The profitability controller (policy.cpp, calibration.cpp).
  std::mutex policy_mutex;  // guards KernelPolicy::rule (completion callbacks update it)
  /// The controller's rule of each kernel of each program on each device.
  std::map<std::tuple<const ProgramState*, std::string, cl_device_id>,
           std::shared_ptr<KernelPolicy>>
      policies;
  /// The offset width of each kernel of each program on each device (policy.cpp,
  /// pick_wide).
  std::map<std::tuple<const ProgramState*, std::string, cl_device_id>, std::shared_ptr<WidthTrial>>
      widths;
  /// The widths earlier runs measured (the cache's widths.json): by device key, then
  /// program key / kernel, the best times of the 32-bit and the 64-bit build.
  std::map<std::string, std::map<std::string, std::pair<double, double>>> recalled_widths;
  bool widths_loaded = false;
  std::map<cl_device_id, std::shared_ptr<const DeviceProfile>> profiles;
  /// Whether DL converts for launches on device `d` (DL_DEVICES; policy.cpp): devices it
  /// leaves out keep every buffer their kernels use in AoS.
  bool converts_on(cl_device_id d);
  std::map<cl_device_id, bool> device_converts;
  /// The controller's state of kernel `ks` on device `d`; when new, it starts from the
  /// experience of earlier runs (policy.cpp).
  std::shared_ptr<KernelPolicy> policy_for(const KernelState& ks, cl_device_id d);
  /// Experience of earlier runs (the cache's experience.json, loaded once), by device key,
  /// then program key + "/" + kernel name.
  std::map<std::string, std::map<std::string, ConversionPolicy::Experience>> experience;
  bool experience_loaded = false;
  /// The device's profile if known (no measuring here: see programs.cpp).
  std::shared_ptr<const DeviceProfile> profile(cl_device_id d);
  /// The host (or a plain kernel) needs the bytes of `m` in AoS: an epoch of the kernels
  /// that convert it ends.
  void epoch_end(cl_mem m);

  std::map<std::string, std::shared_ptr<KernelStats>> kernel_stats;  // by kernel name
  /// Buffers the report lists, by creation number. Released buffers beyond the first
  /// kListedBuffers are folded into `other_buffers` (the state of released objects goes).
  static constexpr std::size_t kListedBuffers = 1000;
  std::map<std::uint64_t, std::shared_ptr<BufferStats>> buffer_stats;
  BufferStats other_buffers;
  std::uint64_t other_buffer_count = 0;
  std::shared_ptr<KernelStats> stats_for(const std::string& kernel);
  /// The report lists `b` from now on.
  void list(BufferState& b);
  /// `b` is released: keep its row, or fold it into other_buffers.
  void retire(BufferState& b);

  // The trace is streamed to its file as commands complete (trace.cpp).
  std::mutex trace_mutex;
  std::uint64_t pending_profiles = 0;

  /// The event a command on `q` waits for to follow `a`; null when queue order suffices.
  /// Creates a marker on `a`'s queue when `a` has no event yet.
  cl_event wait_event(Access& a, cl_command_queue q);

 private:
  Runtime() = default;
};

/// trace.cpp: ends the trace file (at exit).
void close_trace();
/// trace.cpp: records the device times of profiled commands that completed but whose
/// callback has not run yet (at exit, trace_mutex held).
void settle_profiles();

/// kernels.cpp: creates the shadow kernel of `ks` once its program has a shadow, binds
/// its annotation, sets the arguments recorded so far. Called with the lock held.
bool attach_shadow(KernelState& ks);

/// A string a clGet*Info call gives: `query(size, value, size_ret)` is the call with its
/// object and name bound. Empty when the call fails; the terminating NULs dropped.
template <typename Query>
std::string info_string(Query&& query) {
  std::size_t n = 0;
  if (query(std::size_t{0}, nullptr, &n) != CL_SUCCESS) return {};
  std::string s(n, '\0');
  if (n && query(n, static_cast<void*>(s.data()), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

/// Retains `e` through the real table (null-safe).
void retain(cl_event e);
void release(cl_event e);
/// The device time of completed command `e` (event profiling); negative when it failed,
/// is not complete or was not profiled.
double device_ns(cl_event e);
/// From the start of `first` to the end of `last` (complete, after `first`), likewise.
double span_ns(cl_event first, cl_event last);
/// Commands of DL's own that a launch needed, each from its first event to its last.
using Spans = std::vector<std::pair<cl_event, cl_event>>;
/// Releases the events of `s` and empties it.
void release(Spans& s);
/// Waits for `e` and releases it unless the application keeps it.
cl_int finish_blocking(cl_event e, bool app_keeps);

// The hooks (one file per concept). They keep the exact signatures of the entry points.
namespace hook {
// programs.cpp
decltype(::clCreateProgramWithSource) clCreateProgramWithSource;
decltype(::clBuildProgram) clBuildProgram;
decltype(::clCompileProgram) clCompileProgram;
decltype(::clLinkProgram) clLinkProgram;
decltype(::clRetainProgram) clRetainProgram;
decltype(::clReleaseProgram) clReleaseProgram;
// kernels.cpp
decltype(::clCreateKernel) clCreateKernel;
decltype(::clCreateKernelsInProgram) clCreateKernelsInProgram;
decltype(::clCloneKernel) clCloneKernel;
decltype(::clSetKernelArg) clSetKernelArg;
decltype(::clRetainKernel) clRetainKernel;
decltype(::clReleaseKernel) clReleaseKernel;
// buffers.cpp
decltype(::clCreateBuffer) clCreateBuffer;
decltype(::clCreateBufferWithProperties) clCreateBufferWithProperties;
decltype(::clCreateSubBuffer) clCreateSubBuffer;
// images.cpp
decltype(::clCreateImage) clCreateImage;
decltype(::clCreateImageWithProperties) clCreateImageWithProperties;
// queues.cpp
decltype(::clCreateCommandQueue) clCreateCommandQueue;
decltype(::clCreateCommandQueueWithProperties) clCreateCommandQueueWithProperties;
decltype(::clGetCommandQueueInfo) clGetCommandQueueInfo;
decltype(::clRetainCommandQueue) clRetainCommandQueue;
decltype(::clReleaseCommandQueue) clReleaseCommandQueue;
// launch.cpp
decltype(::clEnqueueNDRangeKernel) clEnqueueNDRangeKernel;
decltype(::clEnqueueTask) clEnqueueTask;
decltype(::clEnqueueNativeKernel) clEnqueueNativeKernel;
// transfers.cpp (whole writes of converted buffers: uploads.cpp)
decltype(::clEnqueueReadBuffer) clEnqueueReadBuffer;
decltype(::clEnqueueReadBufferRect) clEnqueueReadBufferRect;
decltype(::clEnqueueWriteBuffer) clEnqueueWriteBuffer;
decltype(::clEnqueueWriteBufferRect) clEnqueueWriteBufferRect;
decltype(::clEnqueueFillBuffer) clEnqueueFillBuffer;
// copies.cpp
decltype(::clEnqueueCopyBuffer) clEnqueueCopyBuffer;
decltype(::clEnqueueCopyBufferRect) clEnqueueCopyBufferRect;
decltype(::clEnqueueCopyBufferToImage) clEnqueueCopyBufferToImage;
decltype(::clEnqueueCopyImageToBuffer) clEnqueueCopyImageToBuffer;
// maps.cpp
decltype(::clEnqueueMapBuffer) clEnqueueMapBuffer;
decltype(::clEnqueueUnmapMemObject) clEnqueueUnmapMemObject;
// events.cpp
decltype(::clCreateUserEvent) clCreateUserEvent;
decltype(::clRetainEvent) clRetainEvent;
decltype(::clReleaseEvent) clReleaseEvent;
}  // namespace hook

/// events.cpp: every other enqueue entry point of `table` forwards and marks its event
/// tainted when its wait list is (so that no event that may fail goes unnoticed).
void install_taint_forwarders(cl_icd_dispatch& table);
/// After a forwarded command: its event is tainted when its wait list is.
void propagate_taint(cl_uint n, const cl_event* list, const cl_event* event);

/// Runs `f`, turning any C++ exception into `error` (never let one cross the C ABI).
template <typename F, typename R>
R guarded(F&& f, R error) {
  try {
    return f();
  } catch (...) {
    return error;
  }
}

}  // namespace dl::rt
