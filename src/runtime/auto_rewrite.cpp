// Zero-touch mode (auto_rewrite.hpp). The annotator (Clang libTooling) never runs inside
// the application: a child process reads the program from a file and writes the rewrite,
// its report and the files it included; a crash, a hang (killed after kTimeout) or an
// error costs the program nothing but its transformation. A cache entry is two files
// under <cache>/rewrite: <key>.json (what the rewrite was made from, the included files'
// hashes, the report; or why it failed) and <key>.cl (the rewrite). The key hashes the
// DL version with the hash of the rewrite's sources, the annotator options and the source; the
// entry repeats them in full and is used only when they, and every included file, match: the key
// has no device in it (the tile width T is a build macro), so a rewrite made on one machine serves
// another.
#include "auto_rewrite.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "calibration.hpp"
#include "runtime.hpp"

extern char** environ;

namespace dl::rt {
namespace {

constexpr auto kTimeout = std::chrono::seconds(120);
// DL's version and the hash of the sources that make the rewrite (src/runtime/CMakeLists.txt).
constexpr const char* kIdentity = "DL " DL_VERSION " rewrite " DL_REWRITE_ID;

std::string cwd() {
  std::vector<char> b(4096);
  return ::getcwd(b.data(), b.size()) ? std::string(b.data()) : std::string(".");
}

/// Splits build options on blanks; "..." and '...' group (without the quotes).
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      have = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (have) out.push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) out.push_back(cur);
  return out;
}

std::string find_annotator() {
  const std::string& set = Runtime::get().controls.DL_ANNOTATE;
  if (!set.empty()) return ::access(set.c_str(), X_OK) == 0 ? set : std::string();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::string c = (d.empty() ? "." : d) + "/dl-annotate";
    if (::access(c.c_str(), X_OK) == 0) return c;
  }
  return {};
}

/// Runs `argv` with stdout to /dev/null and stderr to `log`, without DL in its
/// environment; its exit status, -1 when it could not run or was killed.
int run_child(const std::vector<std::string>& argv, const std::string& log, std::string& why) {
  std::vector<char*> av;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  std::vector<char*> env;
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0 && std::strncmp(*e, "OPENCL_LAYERS=", 14) != 0)
      env.push_back(*e);
  env.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int e = posix_spawn(&pid, av[0], &fa, nullptr, av.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  if (e != 0) {
    why = std::string("cannot run ") + argv[0] + ": " + std::strerror(e);
    return -1;
  }
  const auto deadline = std::chrono::steady_clock::now() + kTimeout;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      why = "dl-annotate ended by signal " + std::to_string(WTERMSIG(status));
      return -1;
    }
    if (r < 0) {
      why = std::string("waiting for dl-annotate: ") + std::strerror(errno);
      return -1;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      why = "dl-annotate ran past " + std::to_string(kTimeout.count()) + " s and was stopped";
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

/// The first error line of an annotator log (or its first line).
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string first, line;
  while (std::getline(in, line)) {
    if (first.empty()) first = line;
    if (line.find("error:") != std::string::npos) return line;
  }
  return first;
}

nlohmann::json dep_hashes(const std::string& deps_text, bool& ok) {
  nlohmann::json out = nlohmann::json::array();
  std::istringstream in(deps_text);
  ok = true;
  for (std::string p; std::getline(in, p);) {
    if (p.empty()) continue;
    std::string text;
    if (!read_file(p, text)) ok = false;
    out.push_back({{"path", p}, {"fnv", hex(fnv1a(text))}});
  }
  return out;
}

/// The cached entry for `key`, when it was made from exactly this input.
bool lookup(const std::string& base, const std::string& source, const std::string& opts,
            AutoRewrite& r) {
  std::string text;
  if (!read_file(base + ".json", text)) return false;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || j.value("format", 0) != 1 || j.value("dl", "") != kIdentity ||
      j.value("options", "") != opts || j.value("source", "") != source)
    return false;
  for (const auto& d : j.value("deps", nlohmann::json::array())) {
    std::string t;
    if (!d.is_object() || !read_file(d.value("path", ""), t) || hex(fnv1a(t)) != d.value("fnv", ""))
      return false;  // an included file changed (or is gone): rewrite again
  }
  r.report = j.value("report", "");
  if (!j.value("ok", false)) {
    r.why = j.value("why", "dl-annotate failed") + " (cached)";
    return true;
  }
  if (!read_file(base + ".cl", r.source)) return false;
  r.ok = true;
  return true;
}

}  // namespace

std::string annotator_options(const std::string& build_options) {
  std::vector<std::string> w = words(build_options), out;
  auto absolute = [](const std::string& d) {
    return d.empty() || d[0] == '/' ? d : cwd() + "/" + d;
  };
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& a = w[i];
    if ((a == "-D" || a == "-U" || a == "-I") && i + 1 < w.size()) {
      out.push_back(a);
      out.push_back(a == "-I" ? absolute(w[++i]) : w[++i]);
    } else if (a.rfind("-I", 0) == 0) {
      out.push_back("-I");
      out.push_back(absolute(a.substr(2)));
    } else if (a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0 || a.rfind("-cl-std=", 0) == 0) {
      out.push_back(a);
    }
  }
  std::string s;
  for (const auto& a : out) s += (s.empty() ? "" : "\n") + a;
  return s;
}

AutoRewrite auto_rewrite(const std::string& source, const std::string& build_options) {
  const auto start = std::chrono::steady_clock::now();
  AutoRewrite r;
  r.options = annotator_options(build_options);
  auto done = [&] {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  const std::string dir = cache_dir() + "/rewrite";
  const std::string base =
      dir + "/" + hex(fnv1a(source, fnv1a(std::string(kIdentity) + "\n" + r.options)));
  if (lookup(base, source, r.options, r)) {
    r.cached = true;
    return done();
  }
  const std::string annotator = find_annotator();
  if (annotator.empty()) {
    r.why = "no cached rewrite, and no dl-annotate to make one (DL_ANNOTATE, PATH)";
    return done();
  }
  mkdirs(dir);
  std::string tmpl = dir + "/run.XXXXXX";
  if (!::mkdtemp(tmpl.data())) {
    r.why = "cannot make a directory in " + dir + ": " + std::strerror(errno);
    return done();
  }
  const std::string work = tmpl;
  const std::string in = work + "/program.cl", out = work + "/rewritten.cl",
                    rep = work + "/report.json", deps = work + "/deps.txt", log = work + "/log.txt";
  std::vector<std::string> argv{annotator,
                                "--auto",
                                "-o",
                                out,
                                "--report=json",
                                "--no-reuse",
                                "--report-out=" + rep,
                                "--deps-out=" + deps,
                                in,
                                "--"};
  {
    std::istringstream o(r.options);
    for (std::string a; std::getline(o, a);)
      if (!a.empty()) argv.push_back(a);
  }
  std::string why;
  int status = write_file(in, source) ? run_child(argv, log, why) : -1;
  if (status < 0 && why.empty()) why = "cannot write " + in;
  std::string log_text, deps_text;
  read_file(log, log_text);
  read_file(deps, deps_text);
  read_file(rep, r.report);
  if (status == 0 && read_file(out, r.source)) {
    r.ok = true;
  } else {
    r.why = status > 0 ? "dl-annotate failed (exit status " + std::to_string(status) +
                             "): " + first_error(log_text)
                       : why;
  }
  // Into the cache, success or failure, unless an included file could not be read back.
  bool deps_ok = true;
  nlohmann::json j{{"format", 1},          {"dl", kIdentity},
                   {"options", r.options}, {"source", source},
                   {"ok", r.ok},           {"why", r.why},
                   {"report", r.report},   {"deps", dep_hashes(deps_text, deps_ok)},
                   {"log", log_text}};
  if (deps_ok && status >= 0 && (!r.ok || write_file(base + ".cl", r.source)))
    write_file(base + ".json", j.dump(1) + "\n");
  for (const auto& f : {in, out, rep, deps, log}) std::remove(f.c_str());
  ::rmdir(work.c_str());
  return done();
}

}  // namespace dl::rt
