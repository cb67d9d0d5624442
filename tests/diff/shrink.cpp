// Delta debugging (ddmin) over ops. Each round's candidates run in one batch process
// natively and one under DL; a candidate differs when its digest lines differ (or DL's
// process died on it). A candidate is kept only when it differs in a fresh process too.
#include "shrink.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "case.hpp"

namespace dl_diff {
namespace {

std::vector<std::string> base_args(const Config& cfg, const std::string& command,
                                   std::uint64_t index) {
  return {cfg.app,      command,
          "--seed",     std::to_string(cfg.seed),
          "--case",     std::to_string(index),
          "--families", cfg.families};
}

std::string err_file(const Config& cfg, const std::string& what) {
  return cfg.work + "/" + what + ".stderr";
}

/// Writes the batch file: each candidate `repeat` times (a difference that depends on
/// timing, as races do, shows in some repetitions only).
std::string subsets_file(const Config& cfg, std::uint64_t index,
                         const std::vector<std::vector<int>>& candidates, int repeat) {
  const std::string file = cfg.work + "/subsets_" + std::to_string(index) + ".txt";
  std::ofstream out(file);
  for (const auto& c : candidates)
    for (int k = 0; k < repeat; ++k) out << (c.empty() ? "none" : format_ids(c)) << "\n";
  return file;
}

/// Which candidates (op lists) differ between native and `way`.
std::vector<bool> differ(const Config& cfg, const Way& way, std::uint64_t index,
                         const std::vector<std::vector<int>>& candidates, int repeat) {
  auto args = base_args(cfg, "batch", index);
  args.push_back("--subsets");
  args.push_back(subsets_file(cfg, index, candidates, repeat));
  const Outcome n =
      run_app(args, Way{}, cfg.lib, cfg.timeout, cfg.hang, err_file(cfg, "shrink_native"));
  const Outcome d = run_app(args, way, cfg.lib, cfg.timeout, cfg.hang, err_file(cfg, "shrink_dl"));
  std::vector<bool> r(candidates.size(), false);
  bool died = false;
  for (std::size_t i = 0; i < candidates.size() * static_cast<std::size_t>(repeat); ++i) {
    const std::string label = std::to_string(i);
    const std::size_t c = i / static_cast<std::size_t>(repeat);
    auto ni = n.lines.find(label), di = d.lines.find(label);
    if (ni == n.lines.end()) continue;  // native could not run it: no verdict
    if (di == d.lines.end()) {
      // The first candidate DL's process did not finish is the one it died on.
      if (!died && !d.ok()) r[c] = died = true;
      continue;
    }
    if (ni->second.digest != di->second.digest || ni->second.size != di->second.size) r[c] = true;
  }
  return r;
}

/// Whether case `index` differs when the process runs cases from..index.
bool differs_after(const Config& cfg, const Way& way, std::uint64_t from, std::uint64_t index) {
  std::vector<std::string> args = {
      cfg.app,      "run",
      "--seed",     std::to_string(cfg.seed),
      "--cases",    std::to_string(from) + ":" + std::to_string(index + 1),
      "--families", cfg.families};
  const Outcome n =
      run_app(args, Way{}, cfg.lib, cfg.timeout, cfg.hang, err_file(cfg, "after_native"));
  const Outcome d = run_app(args, way, cfg.lib, cfg.timeout, cfg.hang, err_file(cfg, "after_dl"));
  const std::string label = std::to_string(index);
  auto ni = n.lines.find(label), di = d.lines.find(label);
  // Only a difference in the case itself counts (an earlier case may kill DL's process).
  if (ni == n.lines.end() || di == d.lines.end()) return false;
  return ni->second.digest != di->second.digest || ni->second.size != di->second.size;
}

std::vector<std::vector<int>> split(const std::vector<int>& ops, std::size_t n) {
  std::vector<std::vector<int>> parts(n);
  for (std::size_t i = 0; i < ops.size(); ++i) parts[i * n / ops.size()].push_back(ops[i]);
  return parts;
}

std::vector<int> minus(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> r;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}

using Sections = std::map<std::string, std::vector<std::string>>;

/// The traces of a batch run, by label ("op N | what | payload" lines); `how` says how
/// it ended.
Sections traces(const Config& cfg, const Way& way, std::uint64_t index, const std::string& subsets,
                const std::string& name, Outcome* how) {
  const std::string file = cfg.work + "/trace_" + name + ".txt";
  std::remove(file.c_str());
  auto args = base_args(cfg, "batch", index);
  args.insert(args.end(), {"--subsets", subsets, "--trace", file});
  *how = run_app(args, way, cfg.lib, cfg.timeout, cfg.hang, err_file(cfg, "trace_" + name));
  std::ifstream in(file);
  Sections out;
  std::vector<std::string>* cur = nullptr;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("== ", 0) == 0)
      cur = &out[l.substr(3)];
    else if (cur)
      cur->push_back(l);
  }
  return out;
}

std::string short_line(const std::string& l) {
  return l.size() > 160 ? l.substr(0, 160) + "..." : l;
}

/// Where two trace lines of byte observations differ, with 16 bytes around.
std::string byte_diff(const std::string& a, const std::string& b) {
  const auto pa = a.find("bytes: "), pb = b.find("bytes: ");
  if (pa == std::string::npos || pb == std::string::npos || a.substr(0, pa) != b.substr(0, pb))
    return "";
  const std::string ha = a.substr(pa + 7), hb = b.substr(pb + 7);
  std::size_t i = 0;
  while (i < ha.size() && i < hb.size() && ha[i] == hb[i]) ++i;
  const std::size_t byte = i / 2, from = byte >= 8 ? byte - 8 : 0;
  std::size_t count = 0;
  for (std::size_t k = 0; k + 1 < std::min(ha.size(), hb.size()); k += 2)
    if (ha.compare(k, 2, hb, k, 2) != 0) ++count;
  std::ostringstream s;
  s << "      first differing byte: " << byte << " (" << count << " of " << ha.size() / 2
    << " bytes differ); bytes " << from << "..:\n"
    << "        native: " << ha.substr(2 * from, 64) << "\n"
    << "        DL:     " << hb.substr(2 * from, 64) << "\n";
  return s.str();
}

/// The first observation that differs; `*repetition` (1-based) is the repetition of the
/// case in one process that showed it.
std::string first_difference(const Config& cfg, const Way& way, std::uint64_t index,
                             const std::vector<int>& ops, int* repetition) {
  const int repeat = 4;
  *repetition = 1;
  const std::string subsets = subsets_file(cfg, index, {ops}, repeat);
  Outcome na, dl;
  const Sections n = traces(cfg, Way{}, index, subsets, "native", &na);
  const Sections d = traces(cfg, way, index, subsets, "dl", &dl);
  const auto& a = n.count("0") ? n.at("0") : std::vector<std::string>{};
  for (int k = 0; k < repeat; ++k) {
    auto it = d.find(std::to_string(k));
    if (it == d.end()) {
      if (dl.ok()) continue;
      *repetition = k + 1;
      return "    under DL the process did not finish the case: " + dl.what() +
             "; its stderr ends:\n" + last_lines(dl.err, 6, "        ");
    }
    const auto& b = it->second;
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    if (i == a.size() && i == b.size()) continue;
    *repetition = k + 1;
    std::size_t differing = 0;
    for (std::size_t j = 0; j < std::min(a.size(), b.size()); ++j) differing += a[j] != b[j];
    std::ostringstream s;
    s << "    first differing observation (" << differing << " of " << a.size()
      << " native lines differ";
    if (a.size() != b.size()) s << "; DL has " << b.size() << " lines";
    if (k > 0) s << "; in repetition " << k + 1 << " of " << repeat << " in one process";
    s << "):\n";
    s << "      native: " << (i < a.size() ? short_line(a[i]) : "(nothing more)") << "\n";
    s << "      DL:     " << (i < b.size() ? short_line(b[i]) : "(nothing more)") << "\n";
    if (i < a.size() && i < b.size()) s << byte_diff(a[i], b[i]);
    return s.str();
  }
  *repetition = 8;
  return "    (" + std::to_string(repeat) +
         " traced repetitions showed no difference: it depends on timing)\n";
}

}  // namespace

std::string command_line(const Config& cfg, const Way& way, std::uint64_t index,
                         const std::string& ops, int repeat) {
  std::string c = way.env_prefix(cfg.lib) + shell_quote(cfg.app) + " run --seed " +
                  std::to_string(cfg.seed) + " --case " + std::to_string(index) + " --families " +
                  shell_quote(cfg.families);
  if (!ops.empty()) c += " --ops " + ops;
  if (repeat > 1) c += " --repeat " + std::to_string(repeat);
  return c;
}

Reproducer reproduce(const Config& cfg, const Way& way, std::uint64_t index,
                     Clock::time_point deadline) {
  Reproducer r;
  const Case full = generate(cfg.seed, index, parse_families(cfg.families));
  std::vector<int> ops;
  for (const Op& op : full.ops) ops.push_back(op.id);
  r.total_ops = ops.size();
  r.ops = ops;
  r.alone = differ(cfg, way, index, {ops}, 8)[0];
  std::ostringstream s;
  if (!r.alone) {
    // The nearest start from which the case differs again: the earlier case whose
    // leftovers in the process (DL's state) change it.
    std::uint64_t from = cfg.first;
    for (std::uint64_t k = index; k-- > cfg.first && index - k <= 6 && Clock::now() < deadline;)
      if (differs_after(cfg, way, k, index)) {
        from = k;
        break;
      }
    s << "  case " << index << " (family " << full.family
      << ") does not differ when run by itself, only after "
      << (from + 1 == index ? "case " + std::to_string(from)
                            : "cases " + std::to_string(from) + ".." + std::to_string(index - 1))
      << " in the same process (state left by an earlier case):\n";
    if (index - from <= 2) {
      for (std::uint64_t k = from; k <= index; ++k) {
        std::istringstream prog(print(generate(cfg.seed, k, parse_families(cfg.families))));
        for (std::string l; std::getline(prog, l);) s << "    " << l << "\n";
      }
    } else {
      s << "    (no case among the 6 before it is enough; dl_diff_app print shows each program)\n";
    }
    s << "    re-run natively: " << shell_quote(cfg.app) << " run --seed " << cfg.seed
      << " --cases " << from << ":" << index + 1 << " --families " << shell_quote(cfg.families)
      << "\n";
    s << "    re-run under DL: " << way.env_prefix(cfg.lib) << shell_quote(cfg.app)
      << " run --seed " << cfg.seed << " --cases " << from << ":" << index + 1 << " --families "
      << shell_quote(cfg.families) << "\n";
    r.report = s.str();
    return r;
  }
  std::size_t n = 2;
  while (ops.size() >= 2 && Clock::now() < deadline) {
    n = std::min(n, ops.size());
    const auto parts = split(ops, n);
    std::vector<std::vector<int>> cands = parts;
    for (const auto& p : parts) cands.push_back(minus(ops, p));
    const auto d = differ(cfg, way, index, cands, 3);
    // A candidate is taken once it differs in a process of its own too: in the batch,
    // state DL kept from the candidates before it may be what made it differ.
    bool taken = false;
    for (std::size_t k = 0, tried = 0; k < cands.size() && tried < 3 && !taken; ++k) {
      if (!d[k]) continue;
      ++tried;
      if (!differ(cfg, way, index, {cands[k]}, 4)[0]) continue;
      ops = cands[k];
      n = k < n ? 2 : std::max<std::size_t>(n - 1, 2);
      taken = true;
    }
    if (taken) continue;
    if (n >= ops.size()) {
      r.minimal = true;
      break;
    }
    n = std::min(2 * n, ops.size());
  }
  if (ops.size() == 1) r.minimal = true;
  // Checked alone, in fresh processes.
  const bool still = differ(cfg, way, index, {ops}, 8)[0];
  if (!still) ops = r.ops;
  r.ops = ops;
  const std::string ids = format_ids(ops);
  s << "  case " << index << " (family " << full.family << "): " << ops.size() << " of "
    << r.total_ops << " ops"
    << (r.minimal && still ? " (1-minimal: no op can be dropped)"
        : still            ? " (shrinking stopped: time)"
                           : " (not shrunk: the shrunk case did not differ alone)")
    << "\n";
  std::istringstream prog(print(restrict_ops(full, ops)));
  for (std::string l; std::getline(prog, l);) s << "    " << l << "\n";
  int repetition = 1;
  s << first_difference(cfg, way, index, ops, &repetition);
  s << "    re-run natively: " << command_line(cfg, Way{}, index, ids, 1) << "\n";
  s << "    re-run under DL: " << command_line(cfg, way, index, ids, repetition) << "\n";
  if (repetition > 1)
    s << "    (--repeat runs the case several times in one process; the difference showed in "
         "repetition "
      << (repetition > 4 ? std::string("none of 4 traced") : std::to_string(repetition)) << ")\n";
  s << "    (add --trace FILE to write every observation; print shows the program: "
    << shell_quote(cfg.app) << " print --seed " << cfg.seed << " --case " << index << " --families "
    << shell_quote(cfg.families) << " --ops " << ids << ")\n";
  r.report = s.str();
  return r;
}

}  // namespace dl_diff
