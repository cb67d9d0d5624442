// dl_diff_driver: runs cases [A, B) of a seed natively (twice: the generated programs
// must be deterministic) and under DL in the given ways (load mode and tile), compares
// the digests, and prints a minimal reproducer per differing family. Exit status 0
// when every way saw exactly the native bytes, 1 on a difference, 2 on bad usage, 3 when
// the native runs themselves fail or disagree.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "case.hpp"
#include "shrink.hpp"

namespace dl_diff {
namespace {

const char* kUsage = R"(usage: dl_diff_driver --app PATH --lib PATH --seed S --cases A:B [options]

  --families LIST    families of generated programs (default all)   env DL_DIFF_FAMILIES
  --ways LIST        DL's ways, mode:tile[:width] (default preload:4:64,layer:32,both:default);
                     mode preload|layer|both, tile a number or default (DL_TILE unset),
                     width measure (default), 32 or 64 (DL_OFFSET_WIDTH)
  --shrink N         differing cases shrunk per way and family (default 1; 0: none)
  --shrink-seconds T time for shrinking in this run (default 120)
  --timeout T        seconds to a process's first case, builds included (default 300)
  --hang T           seconds without a finished case that count as a hang (default 10;
                     the application builds every program before its first case)
  --max-deaths N     deaths (crash, hang) of a way's processes in one family's cases
                     before that family's remaining cases of the chunk are skipped
                     (default 2)
  --work DIR         scratch files (default: the current directory)
  --claims DIR       chunks of one test run share it: each family's reproducers are
                     shrunk by the first chunk that claims them (a file in DIR)

The environment variable DL_DIFF_SEED overrides --seed.
)";

std::uint64_t number(const std::string& s, const char* what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size() || s[0] == '-')
    throw std::invalid_argument(std::string("bad ") + what + " '" + s + "'");
  return v;
}

void make_dirs(const std::string& path) {
  for (std::size_t at = path.find('/', 1); at != std::string::npos; at = path.find('/', at + 1))
    mkdir(path.substr(0, at).c_str(), 0755);
  mkdir(path.c_str(), 0755);
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw std::invalid_argument("cannot create the directory " + path);
}

Config parse(int argc, char** argv) {
  Config c;
  c.ways = parse_ways("preload:4:64,layer:32,both:default");
  c.work = ".";
  bool seed = false, cases = false;
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(o + " needs a value");
      return argv[++i];
    };
    if (o == "--app")
      c.app = value();
    else if (o == "--lib")
      c.lib = value();
    else if (o == "--seed")
      c.seed = number(value(), "seed"), seed = true;
    else if (o == "--cases") {
      const std::string v = value();
      const auto colon = v.find(':');
      if (colon == std::string::npos)
        throw std::invalid_argument("--cases wants A:B, got '" + v + "'");
      c.first = number(v.substr(0, colon), "first case");
      c.last = number(v.substr(colon + 1), "end case");
      if (c.last <= c.first) throw std::invalid_argument("--cases " + v + ": no case");
      cases = true;
    } else if (o == "--families")
      c.families = value();
    else if (o == "--ways")
      c.ways = parse_ways(value());
    else if (o == "--shrink")
      c.shrink = static_cast<int>(number(value(), "--shrink"));
    else if (o == "--shrink-seconds")
      c.shrink_seconds = static_cast<int>(number(value(), "--shrink-seconds"));
    else if (o == "--timeout")
      c.timeout = static_cast<int>(number(value(), "--timeout"));
    else if (o == "--hang")
      c.hang = static_cast<int>(number(value(), "--hang"));
    else if (o == "--max-deaths")
      c.max_deaths = static_cast<int>(number(value(), "--max-deaths"));
    else if (o == "--work")
      c.work = value();
    else if (o == "--claims")
      c.claims = value();
    else if (o == "-h" || o == "--help")
      throw std::invalid_argument("");
    else
      throw std::invalid_argument("unknown option '" + o + "'");
  }
  if (const char* s = std::getenv("DL_DIFF_SEED"); s && *s)
    c.seed = number(s, "DL_DIFF_SEED"), seed = true;
  if (const char* f = std::getenv("DL_DIFF_FAMILIES"); f && *f) c.families = f;
  if (c.app.empty() || c.lib.empty()) throw std::invalid_argument("--app and --lib are required");
  if (!seed || !cases) throw std::invalid_argument("--seed and --cases are required");
  parse_families(c.families);  // names checked here, with the list of known ones
  if (access(c.app.c_str(), X_OK) != 0) throw std::invalid_argument("cannot execute " + c.app);
  if (access(c.lib.c_str(), R_OK) != 0) throw std::invalid_argument("cannot read " + c.lib);
  make_dirs(c.work);
  if (!c.claims.empty()) make_dirs(c.claims);
  return c;
}

std::vector<std::string> chunk_args(const Config& c, std::uint64_t first) {
  return {c.app,        "run",
          "--seed",     std::to_string(c.seed),
          "--cases",    std::to_string(first) + ":" + std::to_string(c.last),
          "--families", c.families};
}

/// Runs the chunk one way; a process that dies is restarted after the case it died in.
/// `died`: case -> what happened; `skipped`: cases of families given up after
/// --max-deaths deaths; `at_exit`: what happened when a process that finished every case
/// did not exit cleanly.
std::map<std::uint64_t, Line> run_way(const Config& c, const Way& w,
                                      std::map<std::uint64_t, std::string>& died,
                                      std::set<std::uint64_t>& skipped, std::string& at_exit) {
  const auto families = parse_families(c.families);
  std::map<std::uint64_t, Line> lines;
  std::map<std::string, int> deaths;
  std::string skip;
  std::uint64_t next = c.first;
  std::string tag = w.mode + (w.tile == "default" ? "" : "_" + w.tile) +
                    (w.width == "measure" ? "" : "_w" + w.width);
  while (next < c.last) {
    const std::string err = c.work + "/" + tag + "_" + std::to_string(next) + ".stderr";
    auto args = chunk_args(c, next);
    if (!skip.empty()) args.insert(args.end(), {"--skip-families", skip});
    const Outcome o = run_app(args, w, c.lib, c.timeout, c.hang, err);
    for (const auto& label : o.order) {
      const std::uint64_t i = number(label, "case label");
      if (o.lines.at(label).digest == "skipped")
        skipped.insert(i);
      else
        lines[i] = o.lines.at(label);
    }
    std::uint64_t done = next;
    while (lines.count(done) || skipped.count(done)) ++done;
    if (done >= c.last) {
      if (!o.ok())
        at_exit =
            o.what() + (o.err.empty() ? "\n" : "; stderr ends:\n" + last_lines(o.err, 6, "      "));
      break;
    }
    died[done] =
        o.what() + (o.err.empty() ? "\n" : "; stderr ends:\n" + last_lines(o.err, 6, "      "));
    next = done + 1;
    // A family that keeps killing the process would stop every other family's cases:
    // its remaining cases are skipped.
    const std::string family = generate(c.seed, done, families).family;
    if (++deaths[family] == c.max_deaths && w.mode != "native") {
      skip += (skip.empty() ? "" : ",") + family;
      std::cout << "  " << w.label() << ": family " << family << " killed the process "
                << c.max_deaths << " times; its cases after case " << done
                << " are skipped (--max-deaths)\n";
    }
  }
  return lines;
}

/// Whether this run prints reproducer `k` of `family`: with --claims DIR, the first chunk
/// of a test run to claim it (a file created in DIR) does; the others only list cases.
bool claim(const Config& c, const std::string& family, int k) {
  if (c.claims.empty()) return true;
  const std::string f = c.claims + "/" + family + "_" + std::to_string(k);
  const int fd = open(f.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (fd < 0) return false;
  close(fd);
  return true;
}

std::string family_counts(const std::map<std::string, int>& m) {
  std::string s;
  for (const auto& [f, n] : m) s += (s.empty() ? "" : ", ") + f + " " + std::to_string(n);
  return s;
}

int drive(const Config& c) {
  const auto families = parse_families(c.families);
  // PoCL compiles one work-group function per kernel instead of one per local size (the
  // cases launch many sizes); results are the same, cold program caches fill faster.
  setenv("POCL_WORK_GROUP_SPECIALIZATION", "0", 0);
  std::cout << "dl_diff: seed " << c.seed << ", cases " << c.first << ".." << c.last - 1
            << ", families " << c.families << "\n";
  // Native, twice: the programs themselves must be deterministic.
  std::map<std::uint64_t, std::string> native_died;
  std::string native_exit;
  std::set<std::uint64_t> native_skipped;
  const auto native = run_way(c, Way{}, native_died, native_skipped, native_exit);
  const auto again = run_way(c, Way{}, native_died, native_skipped, native_exit);
  if (!native_died.empty() || !native_exit.empty()) {
    for (const auto& [i, what] : native_died)
      std::cout << "NATIVE RUN FAILED in case " << i << ": " << what;
    if (!native_exit.empty()) std::cout << "NATIVE RUN FAILED at exit: " << native_exit;
    return 3;
  }
  std::vector<std::uint64_t> unstable;
  for (const auto& [i, l] : native) {
    auto it = again.find(i);
    if (it == again.end() || it->second.digest != l.digest || it->second.size != l.size)
      unstable.push_back(i);
  }
  if (!unstable.empty()) {
    std::cout << "NATIVE NONDETERMINISM: " << unstable.size()
              << " cases differ between two native runs "
              << "(a generator or executor bug, not DL's):\n";
    for (std::size_t k = 0; k < std::min<std::size_t>(unstable.size(), 3); ++k)
      std::cout << print(generate(c.seed, unstable[k], families));
    return 3;
  }
  std::cout << "native: " << native.size() << " cases, deterministic over two runs\n";
  const auto deadline = Clock::now() + std::chrono::seconds(c.shrink_seconds);
  bool failed = false;
  std::map<std::string, int> shrunk;  // reproducers printed per family (all ways)
  std::set<std::string> elsewhere;    // families another chunk shrinks
  for (const Way& w : c.ways) {
    std::map<std::uint64_t, std::string> died;
    std::string at_exit;
    std::set<std::uint64_t> skipped;
    const auto dl = run_way(c, w, died, skipped, at_exit);
    if (!at_exit.empty()) {
      failed = true;
      std::cout << "\nDL's process, " << w.label()
                << ", failed at exit after its last case: " << at_exit;
    }
    std::vector<std::uint64_t> diff;
    std::map<std::string, int> by_family;
    std::size_t died_in = 0, not_run = 0;
    for (const auto& [i, l] : native) {
      auto it = dl.find(i);
      if (it != dl.end() && it->second.digest == l.digest && it->second.size == l.size) continue;
      if (it == dl.end() && !died.count(i)) {
        not_run += skipped.count(i);
        continue;
      }
      diff.push_back(i);
      by_family[l.family]++;
      died_in += it == dl.end();
    }
    if (diff.empty() && not_run == 0) {
      std::cout << w.label() << ": " << native.size() << " cases, all identical to native\n";
      continue;
    }
    failed = true;
    std::cout << "\nDIFFERENCE under DL, " << w.label() << ": " << diff.size() << " of "
              << native.size() << " cases differ (" << family_counts(by_family) << ")";
    if (died_in) std::cout << ", " << died_in << " of them killed DL's process";
    if (not_run) std::cout << "; " << not_run << " cases skipped";
    std::cout << "\n  cases:";
    for (std::size_t k = 0; k < diff.size(); ++k) {
      if (k == 40) {
        std::cout << " ...";
        break;
      }
      std::cout << " " << diff[k];
    }
    std::cout << "\n";
    for (const auto& [i, what] : died)
      std::cout << "  DL's process died in case " << i << ": " << what;
    // Reproducers for the first cases of each family, shrunk while time is left.
    for (std::uint64_t i : diff) {
      const std::string& fam = native.at(i).family;
      if (shrunk[fam] >= c.shrink) continue;
      if (Clock::now() >= deadline) {
        std::cout << "  (no time left to shrink more cases: --shrink-seconds)\n";
        break;
      }
      if (!claim(c, fam, shrunk[fam])) {  // another chunk of this test run has it
        if (elsewhere.insert(fam).second)
          std::cout << "  (family " << fam
                    << ": its reproducer is printed by another chunk of this run)\n";
        continue;
      }
      ++shrunk[fam];
      std::cout << "\n  REPRODUCER (" << w.label() << ", family " << fam << "):\n";
      std::cout << reproduce(c, w, i, deadline).report << std::flush;
    }
  }
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace dl_diff

int main(int argc, char** argv) {
  dl_diff::Config c;
  try {
    c = dl_diff::parse(argc, argv);
  } catch (const std::invalid_argument& e) {
    if (*e.what()) std::cerr << "dl_diff_driver: " << e.what() << "\n";
    std::cerr << dl_diff::kUsage;
    return 2;
  }
  try {
    return dl_diff::drive(c);
  } catch (const std::exception& e) {
    std::cerr << "dl_diff_driver: " << e.what() << "\n";
    return 3;
  }
}
