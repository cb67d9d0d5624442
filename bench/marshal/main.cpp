// dl-bench-marshal: throughput of every DL marshaling algorithm on one OpenCL device, next
// to a float4 copy kernel and clEnqueueCopyBuffer measured in the same run.
//
//   dl-bench-marshal [--platform P] [--device D] [--size-mib 1024] [--groups sweep,table1]
//                    [--S 2,5,9,19,32] [--T 16,32,64] [--repeats 5] [--warmup 1]
//                    [--algos barrier-sync,...] [--app-json a.json,b.json] [--json out.json]
//                    [--row-budget-ms 1500] [--resume out.json] [--instance-cycles auto]
//                    [--build-options "-DX=1"] [--tile-groups-per-cu 2]
//                    [--work-group-size 0] [--tile-local-bytes 0] [--scratch-chunk-mib 64]
//                    [--shapes zyx-yzx-c16,planes-1024]
//
// --groups: sweep (records of S floats), table1 (the paper's matrices), swap (swaps of two
// adjacent dimensions of a float array: records of rows, docs/remappings.md), diag
// (diagonalization of float planes, out of place, both directions; not in the default),
// diag-layout (the same planes diagonalized in place as a layout, AoS <-> DIAG(ny): through
// the bounded temporary, Algorithm::Diagonal; not in the default), gather (the indirect
// copy of Marshaler::enqueue_gather, a copy of --size-mib gathered from a source of the
// same size through int indices: in order, within a band of 64 elements, at random;
// floats and float4s; not in the default), far (swaps of two dimensions that are not
// neighbours, AoS <-> SWAP(T,B): two conversions of two views; not in the default).
// --shapes: only these shapes of the groups that convert a buffer in place (sweep, table1,
// swap, diag-layout, app): their names as the output prints them.
// --scratch-chunk-mib: MarshalOptions::scratch_chunk_bytes in MiB (0: one temporary of the
// whole buffer), the chunks of the conversions through a temporary.
// --instance-cycles auto|table|rounds: how PttwacInstance follows its cycles
// (MarshalOptions::instance_cycles).
// --swap-order auto|records|rows: the order of a SWAP conversion's two views
// (MarshalOptions::swap_order).
// --build-options: appended to the marshaling programs' build options (kernel variants).
// --tile-groups-per-cu, --work-group-size, --tile-local-bytes: the MarshalOptions knobs of
// the same names (0: the device default).
// --resume FILE (an earlier, interrupted run's JSON, saved after every buffer): keeps its
// rows and copy references and measures only the buffers it does not hold, so a run can
// span several commands on machines that limit one command's time.
// A row (both directions of one algorithm on one shape) runs --repeats measured rounds,
// at least two, fewer once its rounds took --row-budget-ms (the slow baselines at 1 GiB).
// GB/s counts the bytes a conversion must read and write (2 x buffer bytes); the ratio is
// to the better of the two copies at the same buffer size. Every (layout pair, algorithm)
// is verified once per direction against DL's CPU converter (fully up to --full-verify-mib,
// sampled above). Exit status 1 if any result is wrong.
#include <dl/diagonal.hpp>
#include <dl/layout.hpp>
#include <dl/marshal.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "bench_device.hpp"
#include "clbench.hpp"
#include "verify.hpp"

using nlohmann::json;

namespace {

struct Job {
  dl::Layout from, to;
  dl::Algorithm alg;
  bool copy = false;  // out-of-place into a second buffer (Marshaler::enqueue_copy)
};

struct Bench {
  Bench(dlb::Device& dev, dlbm::Reference& r, dl::Marshaler& mar) : d(dev), ref(r), m(mar) {}
  dlb::Device& d;
  dlbm::Reference& ref;
  dl::Marshaler& m;
  int repeats = 5, warmup = 1;
  std::size_t full_verify_bytes = 64u << 20;
  double row_budget_ms = 1500;   // stop repeating a row once its measured rounds took this
  std::set<std::string> algos;   // empty: all
  std::set<std::string> shapes;  // empty: all
  std::map<std::size_t, json> copies;
  json rows = json::array();
  int wrong = 0;
  std::set<std::string> resumed;  // "group/shape" of the buffers a resumed file holds

  const json& copy(std::size_t bytes) {
    auto it = copies.find(bytes);
    if (it != copies.end()) return it->second;
    const int reps = bytes < (64u << 20) ? 4 * repeats : repeats;
    const auto t = ref.copy(bytes, reps);
    auto gbps = [&](double ms) { return ms > 0 ? 2e-6 * double(bytes) / ms : 0.0; };
    json c{{"bytes", bytes},
           {"copy_kernel_ms", t.kernel_ms},
           {"copy_kernel_spaced_ms", t.kernel_spaced_ms},
           {"copy_buffer_ms", t.buffer_ms},
           {"copy_buffer_spaced_ms", t.buffer_spaced_ms},
           {"copy_kernel_gbps", gbps(t.kernel_ms)},
           {"copy_buffer_gbps", gbps(t.buffer_ms)}};
    // The reference is timed exactly as the marshals are (after a spacer).
    c["reference_gbps"] = std::max(gbps(t.kernel_spaced_ms), gbps(t.buffer_spaced_ms));
    return copies[bytes] = c;
  }
};

std::string steps_text(const dl::Plan& p) {
  std::string s;
  for (const auto& st : p.steps) {
    if (!s.empty()) s += " + ";
    s += std::string(dl::algorithm_name(st.algorithm)) + " " + st.from.str() + "->" + st.to.str();
  }
  return s;
}

json base_row(const std::string& group, const std::string& shape, const dl::Record& rec,
              std::size_t n, const dl::Layout& from, const dl::Layout& to, dl::Algorithm alg) {
  return json{{"group", group},
              {"shape", shape},
              {"record", rec.describe()},
              {"S", rec.slots().size()},
              {"record_bytes", rec.size()},
              {"n", n},
              {"bytes", n * rec.size()},
              {"T", to.kind == dl::LayoutKind::ASTA     ? to.tile
                    : from.kind == dl::LayoutKind::ASTA ? from.tile
                                                        : 0},
              {"from", from.str()},
              {"to", to.str()},
              {"algorithm", dl::algorithm_name(alg)}};
}

/// Measures a -> b and b -> a (alternating, so the buffer returns to its first content).
void measure_pair(Bench& B, const std::string& group, const std::string& shape,
                  const dl::Record& rec, std::size_t n, cl_mem buf,
                  const std::vector<unsigned char>& orig, const Job& job) {
  const std::size_t bytes = n * rec.size();
  const dl::Layout dirs[2][2] = {{job.from, job.to}, {job.to, job.from}};
  json row[2];
  dl::Plan plan[2];
  bool ok[2];
  for (int k = 0; k < 2; ++k) {
    row[k] = base_row(group, shape, rec, n, dirs[k][0], dirs[k][1], job.alg);
    plan[k] = B.m.plan(rec, n, dirs[k][0], dirs[k][1], job.alg);
    ok[k] = plan[k].ok;
    if (!ok[k]) {
      row[k]["status"] = "refused";
      row[k]["reason"] = plan[k].reason;
      continue;
    }
    std::string log;
    const cl_int st = B.m.prepare(rec, plan[k], &log);
    if (st != CL_SUCCESS) {
      ok[k] = false;
      row[k]["status"] = "error";
      row[k]["reason"] = "prepare: OpenCL error " + std::to_string(st) + " " + log.substr(0, 2000);
    }
  }
  const json& c = B.copy(bytes);
  std::vector<double> times[2];
  bool verified[2] = {false, false};
  bool checked[2] = {false, false};
  bool single[2] = {false, false};
  int reps = B.repeats;
  // Invariant at the start of every round: the buffer holds `orig` (read as dirs[0][0]).
  dlb::write(B.d, buf, orig.data(), bytes);
  for (int r = -B.warmup; r < reps; ++r) {
    for (int k = 0; k < 2; ++k) {
      if (!ok[k]) continue;
      const bool round_trip = k == 1 && ok[0];  // direction 1 undoes direction 0
      dl::MarshalResult res;
      const double ms =
          dlbm::timed_marshal(B.d, B.ref, B.m, buf, rec, n, dirs[k][0], dirs[k][1], job.alg, &res);
      bool restore = !round_trip && !(k == 0 && ok[1]);
      if (ms < 0) {
        ok[k] = false;
        row[k]["status"] = "error";
        row[k]["reason"] = "enqueue: " + res.error;
        dlb::write(B.d, buf, orig.data(), bytes);
        continue;
      }
      row[k]["kernels"] = res.kernels;
      if (!checked[k]) {
        checked[k] = true;
        std::vector<unsigned char> got(bytes);
        dlb::read(B.d, buf, got.data(), bytes);
        std::string why;
        if (round_trip) {
          verified[k] = std::memcmp(got.data(), orig.data(), bytes) == 0;
          if (!verified[k]) why = "round trip differs from the input";
        } else {
          verified[k] = dlbm::verify_conversion(rec, n, dirs[k][0], dirs[k][1], orig, got,
                                                bytes <= B.full_verify_bytes, &why);
        }
        if (!verified[k]) {
          ++B.wrong;
          row[k]["reason"] = "WRONG RESULT: " + why;
          std::fprintf(stderr, "*** WRONG RESULT: %s %s %s->%s n=%zu: %s\n", shape.c_str(),
                       dl::algorithm_name(job.alg), dirs[k][0].str().c_str(),
                       dirs[k][1].str().c_str(), n, why.c_str());
          restore = true;
          if (k == 0 && ok[1]) {
            ok[1] = false;  // its input would be wrong: not measured
            row[1]["status"] = "skipped";
            row[1]["reason"] = "forward conversion was wrong";
          }
        }
      }
      if (restore) dlb::write(B.d, buf, orig.data(), bytes);
      // Very slow algorithms (P-IPT on unlucky shapes): the first run is the only one.
      if (r == -B.warmup && ms > 2000.0) {
        reps = r + 1;
        single[k] = true;
        times[k].push_back(ms);
      }
      if (r >= 0) times[k].push_back(ms);
    }
    // Slow baselines (P-IPT, PTTWAC at 1 GiB): at least two measured rounds, then stop once
    // the rounds took the row's time budget (`repeats` in the row says how many ran).
    double spent = 0;
    for (int k = 0; k < 2; ++k)
      for (double t : times[k]) spent += t;
    if (r >= 1 && spent > B.row_budget_ms) reps = r + 1;
  }
  for (int k = 0; k < 2; ++k) {
    json& w = row[k];
    if (!plan[k].ok) {
      B.rows.push_back(w);
      continue;
    }
    w["plan"] = steps_text(plan[k]);
    w["extra_bytes"] = plan[k].extra_bytes;
    w["extra_pct"] = 100.0 * double(plan[k].extra_bytes) / double(bytes);
    w["bytes_moved"] = plan[k].bytes_moved;
    w["verified"] = verified[k];
    if (!w.contains("status")) w["status"] = verified[k] ? "ok" : "wrong";
    if (!times[k].empty()) {
      const double ms = dlb::median(times[k]);
      w["repeats"] = times[k].size();
      if (single[k]) w["single_run"] = true;
      w["ms"] = ms;
      w["ms_min"] = *std::min_element(times[k].begin(), times[k].end());
      w["gbps"] = 2e-6 * double(bytes) / ms;
      w["gbps_moved"] = 1e-6 * double(plan[k].bytes_moved) / ms;
      w["copy_gbps"] = c["reference_gbps"];
      w["ratio"] = w["gbps"].get<double>() / c["reference_gbps"].get<double>();
    }
    B.rows.push_back(w);
  }
}

/// The out-of-place tiled transpose (the paper's reference): `from` in `buf` -> `to` in a
/// second buffer, and back; each direction verified once against the CPU oracle.
void measure_tiled_copy(Bench& B, const std::string& group, const std::string& shape,
                        const dl::Record& rec, std::size_t n, cl_mem buf,
                        const std::vector<unsigned char>& orig, const Job& job) {
  const std::size_t bytes = n * rec.size();
  cl_mem other = dlb::make_buffer(B.d, bytes);
  const json& c = B.copy(bytes);
  dlb::write(B.d, buf, orig.data(), bytes);
  const dl::Layout dirs[2][2] = {{job.from, job.to}, {job.to, job.from}};
  cl_mem mems[2][2] = {{buf, other}, {other, buf}};
  for (int k = 0; k < 2; ++k) {
    json w = base_row(group, shape, rec, n, dirs[k][0], dirs[k][1], job.alg);
    w["algorithm"] = "tiled-transpose";
    w["extra_bytes"] = bytes;
    w["extra_pct"] = 100.0;
    std::vector<double> times;
    bool ok = true;
    for (int r = -B.warmup; r < B.repeats && ok; ++r) {
      dl::MarshalResult res;
      const double ms = dlbm::timed_copy(B.d, B.ref, B.m, mems[k][0], mems[k][1], rec, n,
                                         dirs[k][0], dirs[k][1], &res);
      if (ms < 0) {
        ok = false;
        w["status"] = "error";
        w["reason"] = "enqueue_copy: " + res.error;
        break;
      }
      w["kernels"] = res.kernels;
      if (r >= 0) times.push_back(ms);
    }
    if (ok) {
      std::vector<unsigned char> got(bytes);
      dlb::read(B.d, mems[k][1], got.data(), bytes);
      std::string why;
      bool good;
      if (k == 1) {
        good = std::memcmp(got.data(), orig.data(), bytes) == 0;
        if (!good) why = "round trip differs from the input";
      } else {
        good = dlbm::verify_conversion(rec, n, dirs[k][0], dirs[k][1], orig, got,
                                       bytes <= B.full_verify_bytes, &why);
      }
      if (!good) {
        ++B.wrong;
        w["reason"] = "WRONG RESULT: " + why;
        std::fprintf(stderr, "*** WRONG RESULT: %s tiled-transpose %s->%s n=%zu: %s\n",
                     shape.c_str(), dirs[k][0].str().c_str(), dirs[k][1].str().c_str(), n,
                     why.c_str());
      }
      w["verified"] = good;
      w["status"] = good ? "ok" : "wrong";
      const double ms = dlb::median(times);
      w["repeats"] = times.size();
      w["ms"] = ms;
      w["ms_min"] = *std::min_element(times.begin(), times.end());
      w["gbps"] = 2e-6 * double(bytes) / ms;
      w["copy_gbps"] = c["reference_gbps"];
      w["ratio"] = w["gbps"].get<double>() / c["reference_gbps"].get<double>();
    }
    B.rows.push_back(w);
  }
  clReleaseMemObject(other);
  dlb::write(B.d, buf, orig.data(), bytes);
}

void print_row(const json& w) {
  auto num = [&](const char* k) { return w.contains(k) ? w[k].get<double>() : -1.0; };
  std::printf("%-9s %-10s %4zu %4u %10zu %-9s -> %-9s %-16s", w["group"].get<std::string>().c_str(),
              w["shape"].get<std::string>().c_str(), w["S"].get<std::size_t>(),
              w["T"].get<unsigned>(), w["n"].get<std::size_t>(),
              w["from"].get<std::string>().c_str(), w["to"].get<std::string>().c_str(),
              w["algorithm"].get<std::string>().c_str());
  const std::string st = w.value("status", "");
  if (w.contains("ms"))
    std::printf(" %9.3f ms %8.1f GB/s %6.1f%% extra %6.3f%% %s\n", num("ms"), num("gbps"),
                100 * num("ratio"), num("extra_pct"), st.c_str());
  else
    std::printf(" %s: %s\n", st.c_str(), w.value("reason", "").substr(0, 100).c_str());
  std::fflush(stdout);
}

void run_buffer(Bench& B, const std::string& group, const std::string& shape, const dl::Record& rec,
                std::size_t n, const std::vector<Job>& jobs) {
  std::vector<Job> todo;
  if (!B.shapes.empty() && !B.shapes.count(shape)) return;
  for (const auto& j : jobs)
    if (B.algos.empty() || B.algos.count(j.copy ? "tiled-transpose" : dl::algorithm_name(j.alg)))
      todo.push_back(j);
  if (todo.empty()) return;
  if (B.resumed.count(group + "/" + shape)) {
    std::printf("%-9s %-10s in the resumed file\n", group.c_str(), shape.c_str());
    return;
  }
  const std::size_t bytes = n * rec.size();
  std::vector<unsigned char> orig(bytes);
  dlb::Rng(bytes ^ 0x5eedull).fill_nonzero(orig.data(), bytes);
  cl_mem buf = dlb::make_buffer(B.d, bytes);
  for (const auto& j : todo) {
    const std::size_t before = B.rows.size();
    if (j.copy)
      measure_tiled_copy(B, group, shape, rec, n, buf, orig, j);
    else
      measure_pair(B, group, shape, rec, n, buf, orig, j);
    for (std::size_t i = before; i < B.rows.size(); ++i) print_row(B.rows[i]);
  }
  clReleaseMemObject(buf);
}

/// The timing of an out-of-place row (diag, gather): its median of `ms`, its rate (the
/// copy's bytes read and written) and ratio to the copy `c`; a wrong result counted and
/// said on stderr (`what` names the row).
void complete_row(Bench& B, json& row, std::vector<double> ms, const dl::MarshalResult& res,
                  const json& c, std::size_t bytes, bool right, const char* what) {
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2], gbps = 2e-6 * double(bytes) / med;
  row["ms"] = med;
  row["gbps"] = gbps;
  row["ratio_to_copy"] = gbps / c["reference_gbps"].get<double>();
  row["repeats"] = ms.size();
  row["kernels"] = res.kernels;
  if (!right) {
    ++B.wrong;
    row["reason"] = "WRONG RESULT";
    std::fprintf(stderr, "*** WRONG RESULT: %s %s\n", what,
                 row["shape"].get<std::string>().c_str());
  }
}

/// Diagonalization (docs/remappings.md): planes of floats filling `size` bytes, square,
/// wider, taller and a batch of small planes, both directions of diagonals, to the
/// diagonals and back, the tiled kernel and the gather; each verified once against the
/// CPU reference (every element up to --full-verify-mib, else sampled).
void run_diagonal(Bench& B, std::size_t size) {
  const std::size_t f = size / sizeof(float);
  struct Shape {
    const char* name;
    std::uint64_t ny, nx, planes;
  };
  const std::uint64_t side = 1ull << (63 - __builtin_clzll(std::max<std::uint64_t>(
                                               4, static_cast<std::uint64_t>(std::sqrt(f)))));
  const Shape shapes[] = {{"square", side, side, 1},
                          {"wide", side / 2, side * 2, 1},
                          {"tall", side * 2, side / 2, 1},
                          {"planes-1024", 1024, 1024, std::max<std::uint64_t>(1, f >> 20)},
                          {"odd-9973x6007", 9973, 6007, 1}};
  for (const auto& sh : shapes) {
    const std::uint64_t count = sh.ny * sh.nx * sh.planes;
    if (count > f || count == 0) continue;
    const std::size_t bytes = count * sizeof(float);
    std::vector<unsigned char> orig(bytes);
    std::uint32_t s = 12345;
    for (auto& c : orig) c = static_cast<unsigned char>((s = s * 1664525u + 1013904223u) >> 24);
    cl_mem a = dlb::make_buffer(B.d, bytes), b = dlb::make_buffer(B.d, bytes);
    const json& c = B.copy(bytes);
    for (dl::Diagonal dir : {dl::Diagonal::Secondary, dl::Diagonal::Main})
      for (bool tiled : {true, false}) {
        const dl::DiagonalShape ds{sh.ny, sh.nx, sh.planes, sizeof(float), dir};
        dlb::write(B.d, a, orig.data(), bytes);
        for (bool to : {true, false}) {
          json row{{"group", "diag"},
                   {"shape", std::string(sh.name) + (dir == dl::Diagonal::Main ? "-main" : "")},
                   {"ny", sh.ny},
                   {"nx", sh.nx},
                   {"planes", sh.planes},
                   {"bytes", bytes},
                   {"from", to ? "row-major" : "diagonal"},
                   {"to", to ? "diagonal" : "row-major"},
                   {"algorithm", tiled ? "diag-tiled" : "diag-gather"}};
          cl_mem src = to ? a : b, dst = to ? b : a;
          std::vector<double> ms;
          dl::MarshalResult res;
          for (int r = -B.warmup; r < B.repeats; ++r) {
            const double t = dlbm::timed_diagonal(B.d, B.ref, B.m, src, dst, ds, to, tiled, &res);
            if (t < 0) break;
            if (r >= 0) ms.push_back(t);
          }
          if (ms.empty()) {
            row["status"] = "error";
            row["reason"] = res.error;
            B.rows.push_back(row);
            continue;
          }
          // After the way back the planes must be the original bytes; after the way there,
          // each sampled element where the map puts it.
          std::vector<unsigned char> got(bytes);
          dlb::read(B.d, dst, got.data(), bytes);
          bool right = true;
          if (!to) {
            right = got == orig;
          } else {
            const std::uint64_t step = bytes <= B.full_verify_bytes ? 1 : 9973;
            for (std::uint64_t e = 0; e < count && right; e += step) {
              const std::uint64_t plane = sh.ny * sh.nx, z = e / plane, q = e % plane;
              const std::uint64_t at = z * plane + dl::diagonal_position(ds, q / sh.nx, q % sh.nx);
              right = std::memcmp(&orig[e * 4], &got[at * 4], 4) == 0;
            }
          }
          complete_row(B, row, ms, res, c, bytes, right, "diag");
          std::printf("diag %-22s %-9s -> %-9s %-11s %8.3f ms %7.1f GB/s %5.1f%% of copy%s\n",
                      row["shape"].get<std::string>().c_str(), to ? "row-major" : "diagonal",
                      to ? "diagonal" : "row-major", tiled ? "tiled" : "gather",
                      row["ms"].get<double>(), row["gbps"].get<double>(),
                      100 * row["ratio_to_copy"].get<double>(), right ? "" : " WRONG");
          B.rows.push_back(row);
        }
      }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
  }
}

/// The indirect copy (docs/remappings.md, "Indirect copies"): dst[i] = src[index[i]] for
/// a dst of `size` bytes from a src of as many elements, int indices in order (a copy
/// through an index), within +-64 elements of i (a banded matrix's columns) and uniform
/// over src; verified once against the CPU (every element up to --full-verify-mib, else
/// sampled). The rate counts the copy's bytes read and written, as the copy kernel's does
/// (the index is 4 bytes more per element read: 1/elem of the copy more).
void run_gather(Bench& B, std::size_t size) {
  for (std::size_t elem : {std::size_t{4}, std::size_t{16}}) {
    const std::size_t count = size / elem;
    if (count == 0 || count > 0x7fffffff) continue;
    const std::size_t bytes = count * elem;
    std::vector<unsigned char> src(bytes);
    std::uint32_t s = 12345;
    for (auto& c : src) c = static_cast<unsigned char>((s = s * 1664525u + 1013904223u) >> 24);
    cl_mem x = dlb::make_buffer(B.d, bytes), dst = dlb::make_buffer(B.d, bytes),
           idx = dlb::make_buffer(B.d, count * 4);
    dlb::write(B.d, x, src.data(), bytes);
    const json& c = B.copy(bytes);
    for (const char* pattern : {"in-order", "band-64", "random"}) {
      std::vector<std::int32_t> index(count);
      for (std::size_t i = 0; i < count; ++i) {
        s = s * 1664525u + 1013904223u;
        const std::int64_t j = pattern[0] == 'i'   ? std::int64_t(i)
                               : pattern[0] == 'b' ? std::int64_t(i) + std::int64_t(s >> 25) - 64
                                                   : std::int64_t(s % count);
        index[i] = std::int32_t(std::clamp<std::int64_t>(j, 0, std::int64_t(count) - 1));
      }
      dlb::write(B.d, idx, index.data(), count * 4);
      const dl::GatherShape gs{elem, count, count, 4, true};
      json row{
          {"group", "gather"}, {"shape", std::string(pattern) + "-" + std::to_string(elem) + "B"},
          {"elem", elem},      {"count", count},
          {"bytes", bytes},    {"algorithm", "gather"}};
      std::vector<double> ms;
      dl::MarshalResult res;
      for (int r = -B.warmup; r < B.repeats; ++r) {
        const double t = dlbm::timed_gather(B.d, B.ref, B.m, x, idx, dst, gs, &res);
        if (t < 0) break;
        if (r >= 0) ms.push_back(t);
      }
      if (ms.empty()) {
        row["status"] = "error";
        row["reason"] = res.error;
        B.rows.push_back(row);
        continue;
      }
      std::vector<unsigned char> got(bytes);
      dlb::read(B.d, dst, got.data(), bytes);
      bool right = true;
      const std::size_t step = bytes <= B.full_verify_bytes ? 1 : 9973;
      for (std::size_t i = 0; i < count && right; i += step)
        right = std::memcmp(&got[i * elem], &src[std::size_t(index[i]) * elem], elem) == 0;
      complete_row(B, row, ms, res, c, bytes, right, "gather");
      std::printf("gather %-16s %8.3f ms %7.1f GB/s %5.1f%% of copy%s\n",
                  row["shape"].get<std::string>().c_str(), row["ms"].get<double>(),
                  row["gbps"].get<double>(), 100 * row["ratio_to_copy"].get<double>(),
                  right ? "" : " WRONG");
      std::fflush(stdout);
      B.rows.push_back(row);
    }
    clReleaseMemObject(x);
    clReleaseMemObject(dst);
    clReleaseMemObject(idx);
  }
}

json targets(const json& rows) {
  struct Target {
    const char* name;
    const char* group;
    std::vector<std::string> algorithms;
    double min_ratio;
    double max_extra_pct;
    bool da_asta = false;  // only rows between DA and ASTA(T)
  };
  const Target ts[] = {
      {"AoS<->ASTA barrier-sync >= 90% of copy", "sweep", {"barrier-sync"}, 0.90, 1e9},
      {"AoS<->ASTA PTTWAC-in-instance >= 40% of copy", "sweep", {"pttwac-instance"}, 0.40, 1e9},
      {"DA<->ASTA in place (DL's segmented) >= 30% of copy, extra <= 2%",
       "sweep",
       {"segmented"},
       0.30,
       2.0},
      {"out-of-place tiled transpose >= 85% of copy", "sweep", {"tiled-transpose"}, 0.85, 1e9},
      {"Table 1 shapes: AoS<->ASTA barrier-sync >= 90% of copy",
       "table1",
       {"barrier-sync"},
       0.90,
       1e9},
      {"Table 1 shapes: DA<->ASTA in place (planner's choice) >= 30% of copy, extra <= 2%",
       "table1",
       {"auto"},
       0.30,
       2.0,
       true},
  };
  json out = json::array();
  for (const auto& t : ts) {
    double worst = 1e9, worst_extra = 0;
    int n = 0, failed = 0;
    std::string worst_row;
    json worst_detail;
    for (const auto& w : rows) {
      if (w["group"] != t.group) continue;
      if (t.da_asta) {
        const std::string f = w["from"], to = w["to"];
        if (!((f == "DA" && to.rfind("ASTA", 0) == 0) || (to == "DA" && f.rfind("ASTA", 0) == 0)))
          continue;
      }
      const std::string a = w["algorithm"];
      if (std::find(t.algorithms.begin(), t.algorithms.end(), a) == t.algorithms.end()) continue;
      ++n;
      if (!w.contains("ratio") || w.value("status", "") != "ok") {
        ++failed;
        continue;
      }
      const double r = w["ratio"], x = w["extra_pct"];
      worst_extra = std::max(worst_extra, x);
      if (r < t.min_ratio || x > t.max_extra_pct) ++failed;
      if (r < worst) {
        worst = r;
        worst_detail = json{{"kernels", w.value("kernels", 0u)},
                            {"traffic_factor", double(w.value("bytes_moved", std::size_t(0))) /
                                                   (2.0 * double(w["bytes"].get<std::size_t>()))},
                            {"plan", w.value("plan", "")},
                            {"ms", w.value("ms", 0.0)},
                            {"copy_gbps", w.value("copy_gbps", 0.0)}};
        worst_row = w["shape"].get<std::string>() + " T=" + std::to_string(w["T"].get<int>()) +
                    " " + w["from"].get<std::string>() + "->" + w["to"].get<std::string>();
      }
    }
    json j{{"target", t.name}, {"rows", n}, {"failed_rows", failed}, {"min_ratio", t.min_ratio}};
    if (n) {
      j["worst_ratio"] = worst < 1e9 ? worst : 0.0;
      j["worst_row"] = worst_row;
      // What limits the worst row: kernels per conversion and traffic (bytes the kernels
      // move / 2 x buffer bytes; above 1 means extra passes over memory).
      j["worst_detail"] = worst_detail;
      j["max_extra_pct"] = worst_extra;
      j["pass"] = failed == 0;
    } else {
      j["pass"] = nullptr;
    }
    out.push_back(j);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  dlb::Device d;
  dlb::open_device(d, unsigned(args.num("platform", 0)), unsigned(args.num("device", 0)));
  std::printf("device: %s (%s, driver %s)\n", d.name.c_str(), d.platform_name.c_str(),
              d.driver.c_str());
  dlbm::Reference ref(d);
  dl::MarshalOptions mopt;
  const std::string cycles = args.str("instance-cycles", "auto");
  if (cycles == "table")
    mopt.instance_cycles = dl::MarshalOptions::Cycles::Table;
  else if (cycles == "rounds")
    mopt.instance_cycles = dl::MarshalOptions::Cycles::Rounds;
  else if (cycles != "auto")
    throw std::runtime_error("--instance-cycles: auto, table or rounds, not " + cycles);
  const std::string order = args.str("swap-order", "auto");
  if (order == "records")
    mopt.swap_order = dl::MarshalOptions::SwapOrder::RecordsFirst;
  else if (order == "rows")
    mopt.swap_order = dl::MarshalOptions::SwapOrder::RowsFirst;
  else if (order != "auto")
    throw std::runtime_error("--swap-order: auto, records or rows, not " + order);
  mopt.build_options = args.str("build-options", "");
  mopt.tile_groups_per_cu = std::size_t(args.num("tile-groups-per-cu", 2));
  mopt.work_group_size = std::size_t(args.num("work-group-size", 0));
  mopt.tile_local_bytes = std::size_t(args.num("tile-local-bytes", 0));
  mopt.scratch_chunk_bytes = std::size_t(args.real("scratch-chunk-mib", 64) * 1048576.0);
  dl::Marshaler m(d.context, d.device, nullptr, mopt);
  Bench B(d, ref, m);
  B.repeats = int(args.num("repeats", 5));
  B.warmup = int(args.num("warmup", 1));
  B.full_verify_bytes = std::size_t(args.num("full-verify-mib", 64)) << 20;
  B.row_budget_ms = args.real("row-budget-ms", 1500.0);
  for (const auto& a : args.words("algos", {})) B.algos.insert(a);
  for (const auto& a : args.words("shapes", {})) B.shapes.insert(a);
  const std::size_t size = std::size_t(args.real("size-mib", 1024) * 1048576.0);
  const auto groups = args.words("groups", {"sweep", "table1"});
  const auto Ss = args.list("S", {2, 5, 9, 19, 32});
  const auto Ts = args.list("T", {16, 32, 64});
  auto has = [&](const char* g) {
    return std::find(groups.begin(), groups.end(), g) != groups.end();
  };

  // The JSON document, rewritten after every buffer so that a run cut short keeps its rows.
  const std::string path = args.str("json", "marshal.json");
  json earlier = json::array();  // command and date of each resumed run
  if (const std::string prev = args.str("resume", ""); !prev.empty() && std::ifstream(prev)) {
    const json old = json::parse(dlb::read_text(prev));
    if (old.value("device", "") != d.name)
      throw std::runtime_error("--resume " + prev + ": measured on " + old.value("device", "?") +
                               ", not " + d.name);
    for (const auto& c : old.value("copies", json::array()))
      B.copies[c.at("bytes").get<std::size_t>()] = c;
    B.rows = old.value("rows", json::array());
    B.wrong = old.value("wrong_results", 0);
    for (const auto& r : B.rows)
      B.resumed.insert(r.at("group").get<std::string>() + "/" + r.at("shape").get<std::string>());
    earlier = old.value("resumed", json::array());
    earlier.push_back({{"command", old.value("command", "")}, {"date", old.value("date", "")}});
    std::printf("resuming %s: %zu rows of %zu buffers\n", prev.c_str(), B.rows.size(),
                B.resumed.size());
  }
  json out;
  auto save = [&] {
    out = json{{"benchmark", "dl-bench-marshal"},
               {"device", d.name},
               {"vendor", d.vendor},
               {"platform", d.platform_name},
               {"driver", d.driver},
               {"device_version", d.version},
               {"date", dlb::now_utc()},
               {"command", dlb::command_line(argc, argv)},
               {"size_bytes", size},
               {"repeats", B.repeats},
               {"preferred_tile", m.preferred_tile()},
               {"instance_cycles", cycles},
               {"build_options", mopt.build_options},
               {"tile_groups_per_cu", mopt.tile_groups_per_cu},
               {"scratch_chunk_bytes", mopt.scratch_chunk_bytes},
               {"work_group_size", mopt.work_group_size},
               {"tile_local_bytes", mopt.tile_local_bytes},
               {"timing",
                "OpenCL event profiling: end of the last kernel minus end of a spacer "
                "kernel enqueued just before; median of repeats after warm-up"},
               {"gbps_definition",
                "2 x buffer bytes (read + written) / device time; ratio to the "
                "better of float4 copy kernel and clEnqueueCopyBuffer at the same size, both timed "
                "after the same spacer as the marshals"}};
    if (!earlier.empty()) out["resumed"] = earlier;  // earlier parts of this run
    out["copies"] = json::array();
    for (const auto& [bytes, c] : B.copies) out["copies"].push_back(c);
    out["rows"] = B.rows;
    out["targets"] = targets(B.rows);
    out["wrong_results"] = B.wrong;
    std::ofstream(path) << out.dump(1) << "\n";
  };

  using A = dl::Algorithm;
  const auto aos = dl::Layout::aos(), da = dl::Layout::da();
  if (has("sweep")) {
    for (long long S : Ss) {
      const auto rec = dl::Record::uniform("s" + std::to_string(S), dl::Scalar::Float, unsigned(S));
      const std::size_t n = std::max<std::size_t>(size / rec.size() / 1024 * 1024, 1024);
      std::vector<Job> jobs;
      for (long long T : Ts) {
        const auto asta = dl::Layout::asta(std::uint32_t(T));
        for (A a : {A::BarrierSync, A::PttwacInstance, A::OutOfPlace})
          jobs.push_back({aos, asta, a});
        for (A a : {A::Segmented, A::Pttwac, A::Pipt, A::ThreePass, A::Auto})
          jobs.push_back({da, asta, a});
      }
      jobs.push_back({aos, da, A::ThreePass});
      jobs.push_back({aos, da, A::Auto});
      jobs.push_back({aos, da, A::OutOfPlace});
      jobs.push_back({aos, da, A::OutOfPlace, true});
      run_buffer(B, "sweep", "S" + std::to_string(S), rec, n, jobs);
      save();
    }
  }
  if (has("table1")) {
    // The paper's Table 1: ELL matrices as rows x max nonzeros per row (floats).
    const std::pair<const char*, std::pair<unsigned, unsigned>> shapes[] = {
        {"bcsstk18", {11948, 40}},  {"e40r0000", {17281, 62}}, {"bcsstk31", {35588, 197}},
        {"bcsstk32", {44609, 215}}, {"s3dkq4m2", {90449, 59}}, {"conf6.0", {49152, 39}}};
    for (const auto& [name, shape] : shapes) {
      const auto rec = dl::Record::uniform(name, dl::Scalar::Float, shape.second);
      std::vector<Job> jobs;
      for (long long T : Ts) {
        const auto asta = dl::Layout::asta(std::uint32_t(T));
        for (A a : {A::BarrierSync, A::PttwacInstance, A::OutOfPlace})
          jobs.push_back({aos, asta, a});
        for (A a : {A::Segmented, A::Pttwac, A::Pipt, A::ThreePass, A::Auto})
          jobs.push_back({da, asta, a});
      }
      jobs.push_back({aos, da, A::ThreePass});
      jobs.push_back({aos, da, A::OutOfPlace});
      jobs.push_back({aos, da, A::OutOfPlace, true});
      jobs.push_back({aos, da, A::Auto});
      run_buffer(B, "table1", name, rec, shape.first, jobs);
      save();
    }
  }
  if (has("swap")) {
    // Swaps of two adjacent dimensions of a float array (docs/remappings.md): records of
    // d2 rows of C floats, AoS <-> ASTA(d1) (d1 = n: the two slowest of three, DA).
    struct Swap {
      const char* name;
      std::size_t outer, d1, d2, c;
    };
    const std::size_t f = size / sizeof(float);
    const Swap shapes[] = {
        {"zyx-yzx-c256", 1, f / (512 * 256), 512, 256},  // rows of 1 KiB
        {"zyx-yzx-c16", 1, f / (4096 * 16), 4096, 16},   // rows of 64 B
        {"zyx-yzx-c4", 1, f / (8192 * 4), 8192, 4},      // rows of 16 B
        {"zyx-yzx-c7", 1, f / (8191 * 7), 8191, 7},      // rows of 28 B (unit 4)
        {"wzyx-wyzx-c256", f / (64 * 256 * 256), 64, 256, 256},
        {"wzyx-wyzx-c16", f / (64 * 1024 * 16), 64, 1024, 16},
        // Square planes (d1 = d2: Algorithm::Square), 1 GiB at --size-mib 1024.
        {"sq-zyx-yzx-c64", 1, 2048, 2048, 64},
        {"sq-wzyx-wyzx-c16", f / (256 * 256 * 16), 256, 256, 16},
        {"sq-zyx-zxy", f / (256 * 256), 256, 256, 1},
        {"sq-zyx-zxy-32", f / (32 * 32), 32, 32, 1},  // tiles of 4 KiB: barrier-sync too
        {"sq-yx-xy", 1, 16384, 16384, 1},
        // Planes that are not square: float planes of 256 x 1024, one 8192 x 32768 matrix.
        {"zyx-zxy", f / (256 * 1024), 256, 1024, 1},
        {"yx-xy", 1, 8192, f / 8192, 1}};
    for (const auto& sh : shapes) {
      const std::size_t n = sh.outer * sh.d1;
      if (n == 0 || n * sh.d2 * sh.c > f) continue;  // does not fit --size-mib
      const auto rec =
          dl::Record::blocks(sh.name, dl::Scalar::Float, unsigned(sh.d2), unsigned(sh.c));
      const auto to = dl::Layout::asta(std::uint32_t(sh.d1));
      std::vector<Job> jobs;
      for (A a : {A::Auto, A::Square, A::BarrierSync, A::PttwacInstance, A::Segmented, A::Pttwac,
                  A::OutOfPlace})
        jobs.push_back({aos, to, a});
      jobs.push_back({aos, to, A::OutOfPlace, true});  // into a second buffer, one pass
      run_buffer(B, "swap", sh.name, rec, n, jobs);
      save();
    }
  }
  if (has("far")) {
    // Swaps of two dimensions that are not neighbours (docs/remappings.md), the array
    // [A][T][B][D][C] of floats to [A][D][B][T][C]: records of B x D rows of C floats,
    // AoS <-> SWAP(T, B). The 3-D shapes at 1 GiB only rows first (--swap-order): records
    // first, their second view (D rows of T x C floats) is over the slot table.
    struct Far {
      const char* name;
      std::size_t outer, t, b, d, c;
    };
    const std::size_t f = size / sizeof(float);
    const Far shapes[] = {
        {"wzyx-wxyz", f / (64 * 128 * 128), 64, 128, 128, 1},     // 4-D, z and x exchanged
        {"wzyx-wxyz-c4", f / (64 * 64 * 64 * 4), 64, 64, 64, 4},  // rows of 16 B
        {"zyx-xyz", 1, f / (1024 * 32), 1024, 32, 1},             // one tile of all z
        {"zyx-xyz-c16", 1, f / (256 * 16 * 16), 256, 16, 16},     // rows of 64 B
        {"zyx-xyz-x4", 1, f / (256 * 4), 256, 4, 1}};             // dl-app-swap's x4
    for (const auto& sh : shapes) {
      const std::size_t n = sh.outer * sh.t;
      if (n == 0 || n * sh.b * sh.d * sh.c > f) continue;  // does not fit --size-mib
      const auto rec =
          dl::Record::blocks(sh.name, dl::Scalar::Float, unsigned(sh.b * sh.d), unsigned(sh.c));
      const auto to = dl::Layout::swap(std::uint32_t(sh.t), std::uint32_t(sh.b));
      std::vector<Job> jobs;
      for (A a : {A::Auto, A::OutOfPlace}) jobs.push_back({aos, to, a});
      jobs.push_back({aos, to, A::OutOfPlace, true});  // into a second buffer, one pass
      run_buffer(B, "far", sh.name, rec, n, jobs);
      save();
    }
  }
  if (has("diag")) run_diagonal(B, size);
  if (has("gather")) {
    run_gather(B, size);
    save();
  }
  if (has("diag-layout")) {
    // Planes of ny rows of nx floats as a layout (records: the rows), in place through the
    // bounded temporary: many small planes, a few large ones, one plane (never cut).
    struct Planes {
      const char* name;
      std::size_t ny, nx;
    };
    const std::size_t f = size / sizeof(float);
    for (const Planes& sh :
         {Planes{"planes-1024", 1024, 1024}, Planes{"planes-4096", 4096, 4096},
          Planes{"planes-1000x999", 1000, 999}, Planes{"one-plane", f / 8192, 8192}}) {
      const std::size_t planes = f / (sh.ny * sh.nx);
      if (planes == 0) continue;
      const auto rec = dl::Record::uniform(sh.name, dl::Scalar::Float, unsigned(sh.nx));
      const std::uint32_t ny = std::uint32_t(sh.ny);
      run_buffer(B, "diag-layout", sh.name, rec, planes * sh.ny,
                 {{aos, dl::Layout::diag(ny), A::Diagonal},
                  {aos, dl::Layout::diag(ny, true), A::Diagonal}});
      save();
    }
  }
  // Marshaling cost of the applications' buffers (bench/apps write these descriptions).
  for (const auto& file : args.words("app-json", {})) {
    const json app = json::parse(dlb::read_text(file));
    std::vector<long long> tiles(Ts.begin(), Ts.end());
    if (app.contains("tiles") && !app["tiles"].empty())
      tiles = app["tiles"].get<std::vector<long long>>();
    for (const auto& c : app.value("cases", json::array())) {
      for (const auto& b : c.value("buffers", json::array())) {
        const auto rec = dl::Record::parse(b.at("record").get<std::string>());
        const std::size_t n = b.at("n");
        std::vector<Job> jobs{{aos, da, A::Auto}};
        for (long long T : tiles)
          jobs.push_back({aos, dl::Layout::asta(std::uint32_t(T)), A::Auto});
        run_buffer(B, "app",
                   app.at("app").get<std::string>() + ":" + c.at("case").get<std::string>() + ":" +
                       b.at("name").get<std::string>(),
                   rec, n, jobs);
        save();
      }
    }
  }
  std::printf("\ntargets:\n");
  for (const auto& t : out["targets"]) {
    std::printf("  %-66s %s", t["target"].get<std::string>().c_str(),
                t["pass"].is_null() ? "n/a" : (t["pass"].get<bool>() ? "PASS" : "FAIL"));
    if (t.contains("worst_ratio"))
      std::printf("  worst %.1f%% (%s)", 100 * t["worst_ratio"].get<double>(),
                  t["worst_row"].get<std::string>().c_str());
    std::printf("\n");
  }
  save();
  std::printf("wrote %s\n", path.c_str());
  if (B.wrong) {
    std::fprintf(stderr, "*** %d wrong results\n", B.wrong);
    return 1;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-bench-marshal: %s\n", e.what());
  return 2;
}
