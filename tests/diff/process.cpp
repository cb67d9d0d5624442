#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dl_diff {

std::string Way::label() const {
  if (mode == "native") return mode;
  return mode + (tile == "default" ? " (DL_TILE unset)" : " DL_TILE=" + tile) +
         (width == "measure" ? "" : " DL_OFFSET_WIDTH=" + width);
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Way::env_prefix(const std::string& lib) const {
  std::string p;
  if (mode == "preload" || mode == "both") p += "LD_PRELOAD=" + shell_quote(lib) + " ";
  if (mode == "layer" || mode == "both") p += "OPENCL_LAYERS=" + shell_quote(lib) + " ";
  if (mode != "native" && tile != "default") p += "DL_TILE=" + tile + " ";
  if (mode != "native" && width != "measure") p += "DL_OFFSET_WIDTH=" + width + " ";
  return p;
}

std::vector<Way> parse_ways(const std::string& text) {
  std::vector<Way> ways;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) {
    if (item.empty()) continue;
    Way w;
    const auto colon = item.find(':');
    w.mode = item.substr(0, colon);
    if (colon != std::string::npos) {
      w.tile = item.substr(colon + 1);
      if (const auto c2 = w.tile.find(':'); c2 != std::string::npos) {
        w.width = w.tile.substr(c2 + 1);
        w.tile.resize(c2);
      }
    }
    if (w.mode != "preload" && w.mode != "layer" && w.mode != "both")
      throw std::invalid_argument("unknown mode '" + w.mode + "' in '" + text +
                                  "' (preload, layer, both)");
    if (w.tile != "default" &&
        (w.tile.empty() || w.tile.find_first_not_of("0123456789") != std::string::npos))
      throw std::invalid_argument("bad tile '" + w.tile + "' in '" + text +
                                  "' (a number or default)");
    if (w.width != "measure" && w.width != "32" && w.width != "64")
      throw std::invalid_argument("bad offset width '" + w.width + "' in '" + text +
                                  "' (measure, 32 or 64)");
    ways.push_back(w);
  }
  if (ways.empty()) throw std::invalid_argument("no mode in '" + text + "'");
  return ways;
}

std::string last_lines(const std::string& text, std::size_t count, const std::string& indent) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l.size() > 200 ? l.substr(0, 200) + "..." : l);
  std::string out;
  for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
    out += indent + lines[i] + "\n";
  return out;
}

std::string Outcome::what() const {
  if (timed_out) return "timed out";
  if (status > 128)
    return "signal " + std::to_string(status - 128) + " (" + strsignal(status - 128) + ")";
  return "exit " + std::to_string(status);
}

namespace {

void parse_lines(const std::string& out, Outcome& o) {
  std::stringstream s(out);
  std::string l;
  while (std::getline(s, l)) {
    std::stringstream w(l);
    std::string label;
    Line line;
    if (!(w >> label >> line.family >> line.digest >> line.size)) continue;
    o.lines[label] = line;
    o.order.push_back(label);
  }
}

std::string tail(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::string t = s.str();
  return t.size() > n ? "..." + t.substr(t.size() - n) : t;
}

}  // namespace

Outcome run_app(const std::vector<std::string>& args, const Way& way, const std::string& lib,
                int first_s, int idle_s, const std::string& err_file) {
  int out[2];
  if (pipe(out) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    unsetenv("LD_PRELOAD");
    unsetenv("OPENCL_LAYERS");
    unsetenv("DL_TILE");
    unsetenv("DL_OFFSET_WIDTH");
    if (way.mode == "preload" || way.mode == "both") setenv("LD_PRELOAD", lib.c_str(), 1);
    if (way.mode == "layer" || way.mode == "both") setenv("OPENCL_LAYERS", lib.c_str(), 1);
    if (way.mode != "native" && way.tile != "default") setenv("DL_TILE", way.tile.c_str(), 1);
    if (way.mode != "native" && way.width != "measure")
      setenv("DL_OFFSET_WIDTH", way.width.c_str(), 1);
    dup2(out[1], 1);
    const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err >= 0) dup2(err, 2);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    std::perror("execv");
    _exit(127);
  }
  close(out[1]);
  Outcome o;
  std::string text;
  // The first line may wait for cold program builds; later lines come every few
  // milliseconds, so a silence of idle_s means a hang.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(first_s);
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      o.timed_out = true;
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p = {out[0], POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (std::memchr(buf, '\n', static_cast<std::size_t>(n)))
      deadline = std::chrono::steady_clock::now() + std::chrono::seconds(idle_s);
  }
  close(out[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  parse_lines(text, o);
  o.err = tail(err_file, 8000);
  return o;
}

}  // namespace dl_diff
