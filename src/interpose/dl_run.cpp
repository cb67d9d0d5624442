// dl-run: runs an unmodified OpenCL application under DL (libdl_interpose.so).
//
// Every process DL runs pays for its launcher, so dl-run is a small program: its default
// path reads its options, sets the environment and execs the application, forking
// nothing. Finding the OpenCL loader an application gets (--which, --layer, or when it
// is asked to say how DL comes in) runs ldd and ldconfig.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#ifndef DL_RUN_LIB_HINT
#define DL_RUN_LIB_HINT "lib"
#endif

extern char** environ;

namespace {

const char kUsage[] = R"(usage: dl-run [options] [--] program [args...]
       dl-run --which [--] [program]

Runs an unmodified OpenCL application with DL's transparent data-layout runtime.
Kernels annotated with //DL: (and rewritten by dl-annotate) run on ASTA/DA layouts
while the application keeps reading and writing AoS.

Options:
  (default)          load DL both with LD_PRELOAD and as an OpenCL loader layer: the
                     layer takes over when the application's OpenCL loader takes layers
                     (it also covers applications that dlopen libOpenCL.so.1), preload
                     otherwise; --log info or --summary says which
  --layer            only as an OpenCL loader layer (OPENCL_LAYERS). When the loader the
                     application would load takes no layers (an old Khronos loader, the
                     one CUDA ships), a layer-capable loader found on the system (ocl-icd
                     >= 2.3, the Khronos loader >= 2021) is preloaded in its place; if
                     there is none, dl-run stops with an error instead of running
                     without DL
  --preload          only with LD_PRELOAD (calls reached through dlsym are not seen)
  --loader PATH      the layer-capable libOpenCL.so.1 --layer preloads when needed
                     (default: the first found in the linker's cache and usual paths)
  --which            print the libOpenCL.so.1 the program (or dlopen) would load,
                     whether it takes layers, and what --layer would do; run nothing
  --report FILE      write a JSON report at exit (marshals, bytes, device time)   DL_REPORT
  --trace FILE       write a Chrome-trace JSON timeline (open it in Perfetto)        DL_TRACE
  --summary          print what DL did on stderr at exit                        DL_SUMMARY
  --log LEVEL        trace, debug, info, warn (default), error, critical, off     DL_LOG_LEVEL
  --disable          pure pass-through                                             DL_DISABLE
  --tile T           ASTA tile width for transformed kernels (default: per device) DL_TILE
  --algorithm A      force a marshaling algorithm (auto, barrier-sync, ...)        DL_ALGORITHM
  --policy P         when to convert: auto (default: only where measured to pay),
                     always (every launch of an annotated kernel), never          DL_POLICY
  --host-ptr M       kernels that only read CL_MEM_USE_HOST_PTR memory read a copy in
                     their layout: copy (default: made before every launch), keep (kept
                     until a command may write the buffer: the program changes the
                     array only through commands and maps)                     DL_HOST_PTR
  --calibrate        measure the device again, and start without the controller's
                     experience of earlier runs                                   DL_CALIBRATE
  --auto             zero-touch: kernels without //DL: annotations get inferred ones;
                     dl-annotate --auto rewrites each program as the application
                     builds it (cached under the cache directory)             DL_AUTO
  --annotate PATH    the dl-annotate --auto runs (default: the one beside dl-run, then
                     PATH)                                                     DL_ANNOTATE
  --fault LIST       testing: force failures (build,alloc,program,eval)            DL_FAULT
  --lib PATH         the libdl_interpose.so to use (or set DL_INTERPOSE_LIB)
  -h, --help         this text

Every DL_* variable of docs/controls.md can also be set in the environment.
)";

[[noreturn]] void die(const std::string& msg, int code = 2) {
  std::fprintf(stderr, "dl-run: %s\n", msg.c_str());
  std::exit(code);
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

void set_env(const char* name, const std::string& value) {
  ::setenv(name, value.c_str(), 1);
}

/// Puts `value` in front of the colon-separated list `name`.
void prepend_env(const char* name, const std::string& value) {
  const std::string old = env(name);
  set_env(name, old.empty() ? value : value + ":" + old);
}

bool is_file(const std::string& p) {
  struct stat st;
  return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_executable(const std::string& p) {
  return is_file(p) && ::access(p.c_str(), X_OK) == 0;
}

std::string dir_of(const std::string& p) {
  const auto slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

std::string absolute(const std::string& p) {
  if (p.empty() || p[0] == '/') return p;
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? std::string(cwd) + "/" + p : p;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

/// The program `name` names: itself when it holds a '/', else the first executable of
/// that name on PATH (what the shell's `command -v` finds); empty if none.
std::string find_program(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return name;
  for (const auto& d : split(env("PATH"), ':')) {
    const std::string c = (d.empty() ? "." : d) + "/" + name;
    if (is_executable(c)) return c;
  }
  return {};
}

/// The standard output of a command (run without a shell); empty if it cannot run.
std::string capture(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  std::string out;
  if (rc == 0) {
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(fds[0]);
  return out;
}

// ---- which OpenCL loader an application gets ------------------------------------------

/// The libOpenCL.so.1 entries of the dynamic linker's cache for this machine's
/// architecture, in the cache's order.
std::vector<std::string> cached_loaders() {
  std::string ldconfig;
  for (const char* c : {"/sbin/ldconfig", "/usr/sbin/ldconfig"})
    if (is_executable(c)) ldconfig = c;
  if (const auto p = find_program("ldconfig"); !p.empty()) ldconfig = p;
  if (ldconfig.empty()) return {};
#if defined(__x86_64__)
  const std::string tag = "x86-64";
#elif defined(__aarch64__)
  const std::string tag = "AArch64";
#else
  const std::string tag;
#endif
  // Lines like "\tlibOpenCL.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libOpenCL.so.1".
  std::vector<std::string> out;
  for (const auto& line : split(capture({ldconfig, "-p"}), '\n')) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first != "libOpenCL.so.1") continue;
    if (!tag.empty() && line.find(tag) == std::string::npos) continue;
    const auto arrow = line.rfind("=> ");
    if (arrow != std::string::npos) out.push_back(line.substr(arrow + 3));
  }
  return out;
}

/// What dlopen("libOpenCL.so.1") finds: LD_LIBRARY_PATH, the cache, the default paths.
std::string dlopen_loader() {
  for (const auto& d : split(env("LD_LIBRARY_PATH"), ':'))
    if (!d.empty() && is_file(d + "/libOpenCL.so.1")) return d + "/libOpenCL.so.1";
  if (const auto cached = cached_loaders(); !cached.empty()) return cached.front();
  for (const char* d : {"/lib64", "/usr/lib64", "/lib", "/usr/lib"})
    if (is_file(std::string(d) + "/libOpenCL.so.1")) return std::string(d) + "/libOpenCL.so.1";
  return {};
}

struct Loader {
  std::string path;     // empty if none was found
  bool linked = false;  // from ldd (honouring LD_LIBRARY_PATH); else what dlopen finds
};

/// The libOpenCL.so.1 `program` loads: the one it links (ldd), else (scripts, programs
/// that dlopen the loader) what dlopen finds.
Loader find_loader(const std::string& program) {
  const std::string exe = find_program(program);
  if (is_file(exe)) {
    // Lines like "\tlibOpenCL.so.1 => /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 (0x...)".
    for (const auto& line : split(capture({"ldd", "--", exe}), '\n')) {
      std::istringstream words(line);
      std::string name, arrow, path;
      if ((words >> name >> arrow >> path) && name == "libOpenCL.so.1" && arrow == "=>" &&
          path != "not")
        return {path, true};
    }
  }
  return {dlopen_loader(), false};
}

/// ocl-icd >= 2.3 and the Khronos loader (since 2021) read OPENCL_LAYERS; older loaders
/// do not know it.
bool takes_layers(const std::string& loader) {
  if (loader.empty()) return false;
  std::ifstream f(loader, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return bytes.find("OPENCL_LAYERS") != std::string::npos;
}

/// The first layer-capable loader: --loader, else the cache's, dlopen's and the usual paths.
std::string capable_loader(const std::string& forced) {
  if (!forced.empty()) return takes_layers(forced) ? forced : "";
#if defined(__x86_64__)
  const std::string m = "x86_64-linux-gnu";
#elif defined(__aarch64__)
  const std::string m = "aarch64-linux-gnu";
#else
  const std::string m = "linux-gnu";
#endif
  std::vector<std::string> candidates = cached_loaders();
  for (const std::string& c :
       {dlopen_loader(), "/usr/lib/" + m + "/libOpenCL.so.1", "/lib/" + m + "/libOpenCL.so.1",
        std::string("/usr/lib64/libOpenCL.so.1"), std::string("/usr/lib/libOpenCL.so.1"),
        std::string("/usr/local/lib/libOpenCL.so.1")})
    candidates.push_back(c);
  for (const auto& c : candidates)
    if (is_file(c) && takes_layers(c)) return c;
  return {};
}

bool verbose() {
  const std::string level = env("DL_LOG_LEVEL");
  return level == "trace" || level == "debug" || level == "info" || env("DL_SUMMARY") == "1";
}

void info(const std::string& msg) {
  if (verbose()) std::fprintf(stderr, "[dl] [info] dl-run: %s\n", msg.c_str());
}

int which(const std::string& program, const std::string& forced) {
  const Loader loader = find_loader(program);
  const std::string capable = capable_loader(forced);
  if (!program.empty() && loader.linked)
    std::printf("loader: %s (linked by %s)\n", loader.path.c_str(), program.c_str());
  else
    std::printf("loader: %s (what dlopen(\"libOpenCL.so.1\") finds)\n",
                loader.path.empty() ? "none found" : loader.path.c_str());
  if (loader.path.empty()) {
    std::printf("takes layers: no loader\n");
  } else if (takes_layers(loader.path)) {
    std::printf("takes layers: yes\n");
    std::printf("default mode: DL comes in as an OpenCL layer (LD_PRELOAD stands by)\n");
    std::printf("--layer: OPENCL_LAYERS with this loader\n");
    return 0;
  } else {
    std::printf("takes layers: no (no OPENCL_LAYERS support)\n");
  }
  std::printf("layer-capable loader: %s\n", capable.empty() ? "none found" : capable.c_str());
  std::printf("default mode: DL comes in through LD_PRELOAD\n");
  if (!capable.empty())
    std::printf("--layer: preloads %s in its place\n", capable.c_str());
  else
    std::printf("--layer: stops with an error\n");
  return 0;
}

/// The directory dl-run runs from (symbolic links resolved).
std::string own_dir(const char* argv0) {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) return dir_of(std::string(buf, static_cast<size_t>(n)));
  return absolute(dir_of(argv0));
}

}  // namespace

int main(int argc, char** argv) {
  enum class Mode { kBoth, kLayer, kPreload } mode = Mode::kBoth;
  bool which_only = false;
  std::string lib = env("DL_INTERPOSE_LIB");
  std::string forced_loader;

  // Options that set a DL_* variable: the variable, and whether it takes a value.
  struct Setter {
    const char* option;
    const char* variable;
    bool takes_value;
  };
  static const Setter kSetters[] = {
      {"--report", "DL_REPORT", true},       {"--trace", "DL_TRACE", true},
      {"--summary", "DL_SUMMARY", false},    {"--log", "DL_LOG_LEVEL", true},
      {"--disable", "DL_DISABLE", false},    {"--tile", "DL_TILE", true},
      {"--algorithm", "DL_ALGORITHM", true}, {"--fault", "DL_FAULT", true},
      {"--policy", "DL_POLICY", true},       {"--calibrate", "DL_CALIBRATE", false},
      {"--auto", "DL_AUTO", false},          {"--annotate", "DL_ANNOTATE", true},
      {"--host-ptr", "DL_HOST_PTR", true},
  };

  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) die(std::string(a) + " needs a value (see --help)");
      return argv[++i];
    };
    const Setter* setter = nullptr;
    for (const auto& s : kSetters)
      if (a == s.option) setter = &s;
    if (setter) {
      set_env(setter->variable, setter->takes_value ? value() : "1");
    } else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--layer") {
      mode = Mode::kLayer;
    } else if (a == "--preload") {
      mode = Mode::kPreload;
    } else if (a == "--which") {
      which_only = true;
    } else if (a == "--loader") {
      forced_loader = value();
    } else if (a == "--lib") {
      lib = value();
    } else if (a == "--") {
      ++i;
      break;
    } else if (!a.empty() && a[0] == '-') {
      die("unknown option " + std::string(a) + " (see --help)");
    } else {
      break;
    }
  }
  if (!forced_loader.empty() && !is_file(forced_loader))
    die("--loader " + forced_loader + ": no such file");

  const std::string program = i < argc ? argv[i] : "";
  if (which_only) return which(program, forced_loader);
  if (program.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }

  const std::string here = own_dir(argv[0]);
  if (!lib.empty() && !is_file(lib)) die(lib + " (--lib or DL_INTERPOSE_LIB): no such file");
  if (lib.empty()) {
    for (const std::string& c :
         {here + "/libdl_interpose.so", here + "/../" DL_RUN_LIB_HINT "/libdl_interpose.so"})
      if (is_file(c)) {
        lib = c;
        break;
      }
  }
  if (!is_file(lib)) die("libdl_interpose.so not found (use --lib)");
  lib = absolute(lib);  // the loader resolves it from any directory

  // The annotator of --auto: installed beside dl-run, or in the build tree's annotate/.
  const std::string auto_mode = env("DL_AUTO");
  if (!auto_mode.empty() && auto_mode != "0" && env("DL_ANNOTATE").empty()) {
    for (const std::string& c : {here + "/dl-annotate", here + "/../../annotate/dl-annotate"})
      if (is_executable(c)) {
        set_env("DL_ANNOTATE", c);
        break;
      }
  }

  // Which way DL comes in. Both ways at once work with any loader, so the default path
  // finds out nothing (it would cost an ldd) unless asked to say which.
  std::string preload_loader;
  if (mode == Mode::kPreload) {
    info("DL comes in through LD_PRELOAD");
  } else if (mode == Mode::kLayer || verbose()) {
    const Loader loader = find_loader(program);
    const std::string missing = loader.path.empty() ? "the missing loader" : loader.path;
    if (takes_layers(loader.path)) {
      info("DL comes in as an OpenCL layer of " + loader.path +
           (mode == Mode::kLayer ? "" : " (LD_PRELOAD stands by)"));
    } else if (mode == Mode::kLayer) {
      preload_loader = capable_loader(forced_loader);
      if (preload_loader.empty()) {
        std::fprintf(
            stderr,
            "dl-run: --layer: %s loads %s, which takes no\n"
            "  OpenCL layers (no OPENCL_LAYERS support), and no layer-capable loader\n"
            "  (ocl-icd >= 2.3, the Khronos ICD loader >= 2021) was found%s.\n"
            "  Install one (Debian/Ubuntu: ocl-icd-libopencl1) and name it with --loader PATH,\n"
            "  or run without --layer (LD_PRELOAD covers applications linked to libOpenCL).\n",
            program.c_str(),
            loader.path.empty() ? "no libOpenCL.so.1 (none found)" : loader.path.c_str(),
            forced_loader.empty()
                ? ""
                : (" (--loader " + forced_loader + " takes none either)").c_str());
        return 2;
      }
      info("DL comes in as an OpenCL layer of " + preload_loader + ", preloaded in place of " +
           missing + ", which takes no layers");
    } else {
      info(
          "DL comes in through LD_PRELOAD: " +
          (loader.path.empty() ? std::string("no libOpenCL.so.1 was found, and it") : loader.path) +
          " takes no layers (entry points taken with dlsym() bypass DL; --layer preloads a "
          "layer-capable loader)");
    }
  }

  if (mode != Mode::kPreload) prepend_env("OPENCL_LAYERS", lib);
  if (mode != Mode::kLayer) prepend_env("LD_PRELOAD", lib);
  if (!preload_loader.empty()) prepend_env("LD_PRELOAD", preload_loader);
  ::execvp(program.c_str(), argv + i);
  die(program + ": " + std::strerror(errno), errno == ENOENT ? 127 : 126);
}
