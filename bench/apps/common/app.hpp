// The common frame of DL's benchmark applications (plain OpenCL, no DL calls).
//
// Every application runs its kernel in three hand-written layouts (AoS, DA, ASTA(T)) from
// one source with an index macro (common/layouts.h), checks that all layouts give the
// results of a CPU reference, and times the kernels with event profiling. Its "app" mode
// is the unmodified AoS application with the annotated kernel: that is what runs under
// DL's interposer (dl-run), where DL marshals behind the application's back.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "clbench.hpp"

namespace dlb {

/// A layout of an application buffer: tile width 1 = AoS, 0 = DA, T = ASTA(T).
struct AppLayout {
  unsigned tile = 1;
  std::string name() const {
    return tile == 1 ? "AoS" : tile == 0 ? "DA" : "ASTA(" + std::to_string(tile) + ")";
  }
  /// Build options selecting the layout in common/layouts.h.
  std::string options() const {
    return tile == 1 ? "-DL_AOS" : tile == 0 ? "-DL_DA" : "-DL_ASTA -DL_T=" + std::to_string(tile);
  }
  /// Tile width for n records (for dlb::to_tiled).
  std::size_t width(std::size_t n) const { return tile == 0 ? n : tile; }
};

/// A kernel file rewritten by dl-annotate (`--rewritten [label=]FILE[@OPTIONS],...`),
/// timed on data in the layout its annotations chose: tile width 1 = AoS kept, 0 = DA,
/// 3 = a swap of dimensions (`-> [..]`), 2 = ASTA (the run's tile widths T, built with
/// -DDL_ASTA_T=T as DL's runtime builds it, plus OPTIONS, e.g. -DDL_OFFSET64).
struct Rewritten {
  std::string label, path, options, source;
  unsigned target = 2;
  std::set<std::size_t> record_bytes;  // of its `//DL: record` lines
};

struct AppOptions {
  unsigned platform = 0, device = 0;
  std::vector<AppLayout> layouts;  // AoS first
  int repeats = 5;
  int iters = 10;              // iterations of the "app" mode
  std::string mode = "bench";  // bench | app
  std::string kernel_dir;      // where the .cl files are
  std::string kernel;          // the annotated AoS kernel file ("app" mode)
  std::string json;            // output file ("" = none)
  std::vector<Rewritten> rewritten;
};

/// The layout a rewritten file's annotations chose for all its buffers (the `-> X` of
/// every `//DL: AoS:` line); a file whose buffers differ cannot run on one data layout.
inline unsigned rewritten_target(const std::string& src, const std::string& path) {
  std::set<std::string> targets;
  std::istringstream in(src);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("//DL: AoS:", 0) != 0) continue;
    for (auto at = line.find("-> "); at != std::string::npos; at = line.find("-> ", at + 3)) {
      const auto end = line.find_first_of(" ,", at + 3);
      const std::string t = line.substr(at + 3, end == std::string::npos ? end : end - at - 3);
      targets.insert(t[0] == '[' ? "[..]" : t);  // every swap of dimensions: one kind
    }
  }
  if (targets.size() != 1)
    fail(path +
         ": expected one written target for all annotated buffers (a dl-annotate "
         "output), found " +
         std::to_string(targets.size()));
  const std::string& t = *targets.begin();
  if (t == "AoS") return 1;
  if (t == "DA") return 0;
  if (t == "ASTA" || t.rfind("ASTA(", 0) == 0) return 2;  // ASTA(E): run it with T = E
  if (!t.empty() && t[0] == '[') return 3;  // a swap of dimensions (dl-app-swap)
  fail(path + ": unknown target " + t);
}

inline AppOptions parse_app_options(const Args& a, const std::string& app) {
  AppOptions o;
  o.platform = unsigned(a.num("platform", 0));
  o.device = unsigned(a.num("device", 0));
  o.layouts.push_back({1});
  o.layouts.push_back({0});
  for (long long t : a.list("T", {16, 32, 64})) o.layouts.push_back({unsigned(t)});
  o.repeats = int(a.num("repeats", 5));
  o.iters = int(a.num("iters", 10));
  o.mode = a.str("mode", "bench");
  o.kernel_dir = a.str("kernel-dir", exe_dir() + "/kernels");
  o.kernel = a.str("kernel", o.kernel_dir + "/" + app + ".cl");
  o.json = a.str("json", "");
  for (const auto& w : a.words("rewritten", {})) {
    Rewritten r;
    const auto eq = w.find('=');
    r.label = eq == std::string::npos ? "rewritten" : w.substr(0, eq);
    r.path = eq == std::string::npos ? w : w.substr(eq + 1);
    if (const auto at = r.path.find('@'); at != std::string::npos) {
      r.options = r.path.substr(at + 1);
      r.path.resize(at);
    }
    r.source = read_text(r.path);
    r.target = rewritten_target(r.source, r.path);
    std::istringstream in(r.source);
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string dl, kw, name;
      std::size_t bytes = 0;
      if (words >> dl >> kw >> name >> bytes && dl == "//DL:" && kw == "record")
        r.record_bytes.insert(bytes);
    }
    o.rewritten.push_back(r);
  }
  return o;
}

/// Times every `--rewritten` file for every tile width T of the run, on data in the
/// layout its annotations chose: `run(src, opts, W, what)` returns the kernel's median ms
/// and checks its result. `opts` are the application's own build options. A file whose
/// records are declared (`//DL: record`) is rewritten for their sizes: it runs only with a
/// record of `record_bytes`; one without (flat arrays whose length is a kernel argument,
/// SpMV's `val:float[rows][K]`) serves every size.
/// Returns {label: {"layout": ..., "ms": {"T=16": ...}}}.
template <class Run>
nlohmann::json time_rewritten(const AppOptions& o, std::size_t n, std::size_t record_bytes,
                              const std::string& opts, Run&& run) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& r : o.rewritten) {
    if (r.target == 3) fail(r.path + ": a swap of dimensions: dl-app-swap times those");
    if (!r.record_bytes.empty() && !r.record_bytes.count(record_bytes)) continue;
    nlohmann::json ms = nlohmann::json::object();
    for (const auto& l : o.layouts) {
      if (l.tile < 2) continue;
      const std::size_t W = r.target == 2 ? l.tile : r.target == 1 ? 1 : n;
      const std::string what = r.label + " T=" + std::to_string(l.tile);
      ms["T=" + std::to_string(l.tile)] =
          run(r.source, "-DDL_ASTA_T=" + std::to_string(l.tile) + " " + r.options + " " + opts, W,
              what);
      std::printf("  %-24s %9.4f ms\n", what.c_str(),
                  ms["T=" + std::to_string(l.tile)].get<double>());
    }
    out[r.label] = {{"layout", r.target == 2   ? "ASTA"
                               : r.target == 1 ? "AoS"
                                               : "DA"},
                    {"file", r.path.substr(r.path.rfind('/') + 1)},
                    {"options", r.options},
                    {"ms", ms}};
  }
  return out;
}

/// Bench mode of one case: every hand-written layout of `variants`, the annotated AoS
/// kernel, and the --rewritten files, each through `run(src, opts, W, what)` (median ms,
/// result checked; records of `record_bytes`). Fills c["kernel_ms"], c["speedup"] (over the
/// hand-written AoS), c["annotated_aos_ms"] and c["rewritten_ms"]; `opts` are the application's own
/// options.
template <class Run>
void bench_case(const AppOptions& o, std::size_t n, std::size_t record_bytes,
                const std::string& variants, const std::string& annotated, const std::string& opts,
                nlohmann::json& c, Run&& run) {
  nlohmann::json ms = nlohmann::json::object(), speed = nlohmann::json::object();
  double aos = 0;
  for (const auto& l : o.layouts) {
    const double t = run(variants, l.options() + " " + opts, l.width(n), l.name());
    if (l.tile == 1) aos = t;
    ms[l.name()] = t;
    speed[l.name()] = aos / t;
    std::printf("  %-10s %9.4f ms  speedup %.2f\n", l.name().c_str(), t, aos / t);
  }
  c["kernel_ms"] = ms;
  c["speedup"] = speed;
  c["annotated_aos_ms"] = run(annotated, opts, 1, "annotated");
  std::printf("  %-10s %9.4f ms\n", "annotated", c["annotated_aos_ms"].get<double>());
  c["rewritten_ms"] = time_rewritten(o, n, record_bytes, opts, run);
}

/// Source of an application's hand-written layout variants: layouts.h + <app>_layouts.cl.
inline std::string variant_source(const AppOptions& o, const std::string& app) {
  return read_text(o.kernel_dir + "/layouts.h") + "\n" +
         read_text(o.kernel_dir + "/" + app + "_layouts.cl");
}

inline nlohmann::json device_json(const Device& d) {
  return {{"device", d.name},   {"vendor", d.vendor},          {"platform", d.platform_name},
          {"driver", d.driver}, {"device_version", d.version}, {"gpu", d.gpu}};
}

/// The head of an application's JSON: the device, the application, the date, the
/// command and the tile widths of the run.
inline nlohmann::json app_json(const Device& d, const AppOptions& o, const std::string& app,
                               int argc, char** argv) {
  nlohmann::json out = device_json(d);
  out["app"] = app;
  out["date"] = now_utc();
  out["command"] = command_line(argc, argv);
  out["tiles"] = nlohmann::json::array();
  for (const auto& l : o.layouts)
    if (l.tile > 1) out["tiles"].push_back(l.tile);
  return out;
}

/// Times `launch` (which enqueues one kernel and returns its event): warm-up, then the
/// median of `repeats` device times in ms.
template <class Launch>
double time_kernel(int repeats, Launch&& launch) {
  std::vector<double> t;
  for (int r = -1; r < repeats; ++r) {
    cl_event e = launch();
    check(clWaitForEvents(1, &e), "clWaitForEvents");
    if (r >= 0) t.push_back(event_ms(e));
    clReleaseEvent(e);
  }
  return median(t);
}

/// The application's loop: `iters` launches, each waited for and followed by `after(it)`
/// (reading and checking its results, say); the mean kernel ms.
template <class Launch, class After>
double app_loop(int iters, Launch&& launch, After&& after) {
  double ms = 0;
  for (int it = 0; it < iters; ++it) {
    cl_event e = launch();
    check(clWaitForEvents(1, &e), "clWaitForEvents");
    ms += event_ms(e) / iters;
    clReleaseEvent(e);
    after(it);
  }
  return ms;
}

inline cl_event launch_1d(const Device& d, cl_kernel k, std::size_t global, std::size_t local) {
  cl_event e = nullptr;
  const std::size_t g = local ? (global + local - 1) / local * local : global;
  check(
      clEnqueueNDRangeKernel(d.queue, k, 1, nullptr, &g, local ? &local : nullptr, 0, nullptr, &e),
      "clEnqueueNDRangeKernel");
  return e;
}

/// Relative difference |a - b| / max(|b|, floor).
inline double rel_diff(double a, double b, double floor = 1e-3) {
  const double m = std::max(std::abs(b), floor);
  return std::abs(a - b) / m;
}

/// Writes the JSON document if a path was given.
inline void write_json(const std::string& path, const nlohmann::json& j) {
  if (path.empty()) return;
  std::ofstream(path) << j.dump(1) << "\n";
  std::printf("wrote %s\n", path.c_str());
}

/// The launches of an application that writes a new input now and then (dl-app-gather,
/// dl-app-map): prints the mean kernel time per launch (and the first launch's, and the
/// others' mean), the wall time and the checks, and adds them to its JSON case `c` with
/// every launch's time and the hash of the last read.
inline void report_launches(const std::vector<double>& launch_ms, int updates, double wall_ms,
                            int checks, nlohmann::json& c) {
  const auto iters = launch_ms.size();
  double kernel_ms = 0, rest_ms = 0;
  for (double ms : launch_ms) kernel_ms += ms / double(iters);
  for (std::size_t i = 1; i < iters; ++i) rest_ms += launch_ms[i] / double(iters - 1);
  std::printf(
      "%zu launches (%d new x): kernel %.4f ms per launch (first %.4f, the others %.4f), "
      "wall %.2f ms, %d checks ok\n",
      iters, updates, kernel_ms, launch_ms[0], rest_ms, wall_ms, checks);
  c["x_updates"] = updates;
  c["checks"] = checks;
  c["kernel_ms"] = kernel_ms;
  c["first_kernel_ms"] = launch_ms[0];
  c["launch_ms"] = launch_ms;
  c["wall_ms"] = wall_ms;
  c["result_fnv"] = last_read_fnv();
}

/// Whether the process runs under DL's interposer (for the record only).
inline bool under_dl() {
  for (const char* var : {"LD_PRELOAD", "OPENCL_LAYERS"}) {
    const char* p = std::getenv(var);
    if (p && std::string(p).find("dl_interpose") != std::string::npos) return true;
  }
  return false;
}

}  // namespace dlb
