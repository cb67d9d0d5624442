#!/usr/bin/env bash
# DL set-up on Debian 12: installs what the project needs (when missing), builds, and
#   ./setup.sh run    runs the main job: an unmodified example application under the
#                     interposer on the machine's OpenCL CPU device (PoCL)
#   ./setup.sh test   runs the whole test suite
#   ./setup.sh sanitize  builds with sanitizers (BUILD_DIR-asan, BUILD_DIR-tsan) and runs
#                     the suite under ASan+UBSan, the threaded host test under TSan
#   ./setup.sh deps   only installs the Debian packages
# BUILD_DIR (default: build) and JOBS (default: all cores) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
          clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev libclang-rt-14-dev
          libspdlog-dev libgtest-dev nlohmann-json3-dev python3)

install_deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# Line tables only (-g1): stack traces and sanitizer reports keep functions, files and
# lines; full debug information made every build a third slower (configure a build of
# your own for a debugger).
build() {
  cmake -S . -B "${BUILD_DIR:-build}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
  cmake --build "${BUILD_DIR:-build}" -j "${JOBS:-$(nproc)}"
}

# ASan+UBSan over the suite (benchmarks are not built: they are not tests), then
# TSan over the threaded scenario of tests/interpose. Debug builds: -O0 compiles three
# times faster than -O2 with sanitizers, and assertions stay on. PoCL and LLVM are not
# instrumented; tests/sanitize/*.supp may silence findings inside them, never in DL.
# The ASan+UBSan build is Clang's where clang++-14 is installed (setup.sh installs it):
# it compiles the instrumented tree in well under half of GCC's CPU time (3.7 against 8.5
# minutes of compiler time; 2.3-2.7 minutes on two cores), and a second compiler's
# sanitizers and evaluation orders check DL too.
# TSan stays GCC's: Clang has no shared TSan runtime for libdl_interpose.so to link.
sanitize() {
  local b="${BUILD_DIR:-build}" j="${JOBS:-$(nproc)}" supp="$PWD/tests/sanitize"
  # The fuzzers are built with ASan and UBSan already, and run in the test job. The
  # differential tester runs one of its ten chunks here (every tile width and each load
  # mode in two pairings, both three-pass settings, two devices, split uploads; seven
  # times slower than in the test job, which runs all ten), every family but
  # `program`: its cases rebuild the tester's whole program several times, which PoCL's
  # compiler does 40x slower inside an instrumented process (about 10 s a case, the
  # tester's hang limit); the test job runs them, the interpose tests cover DL's program
  # hooks under the sanitizers.
  # The build's kernels are rewritten by the test job's dl-annotate where it exists (the
  # same sources): rebuilding the whole rewriter with sanitizers took a third of this job's
  # build, and dl-annotate's tests run in the test job (its fuzzers with ASan and UBSan).
  local tool=() cc=()
  [ -x "$PWD/$b/annotate/dl-annotate" ] && tool=(-DDL_ANNOTATE_EXECUTABLE="$PWD/$b/annotate/dl-annotate")
  command -v clang++-14 >/dev/null && [ ! -e "$b-asan/CMakeCache.txt" ] &&
    cc=(-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14)
  cmake -S . -B "$b-asan" "${cc[@]}" -DCMAKE_BUILD_TYPE=Debug -DDL_SANITIZE=address,undefined \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
    -DDL_BUILD_BENCH=OFF -DDL_BUILD_FUZZERS=OFF -DDL_DIFF_CASES=340 -DDL_DIFF_PASSTHROUGH_CASES=50 \
    -DDL_DIFF_FAMILIES=basic,bounds,queues,threads,maps,subbuf,uevent,hostptr,image,churn "${tool[@]}"
  cmake --build "$b-asan" -j "$j"
  # verify_asan_link_order=0: tests preload the instrumented libdl_interpose.so into
  # instrumented programs, whose ASan runtime then loads just after it.
  # intercept_tls_get_addr=0: in programs that load DL as a loader layer (dlopen),
  # LeakSanitizer read a bogus dynamic-TLS range at exit and its tracer crashed ("Tracer
  # caught signal 11", DTLS at 0x757); without the interception it scans no dynamic TLS,
  # which can only add leak reports, never hide one.
  # Skipped here, run in the test job: dl-annotate's own tests (its fuzzers, built with
  # ASan and UBSan, run there), the interpose scenarios in the "preload" and "layer"
  # modes (the "both" mode, which loads DL both ways at once, runs every scenario here),
  # and the policy and experience scenarios, which time hundreds of launches to judge the
  # controller's decisions (a fifth of this job's time), and the offset-width scenarios
  # of the same file, which time both builds of each kernel (a minute of this job's
  # time); the differential tester's auto_policy, recalled_experience and
  # background_build families run the same controller code here. Also skipped: the
  # tester's test of itself (a library that flips a bit of the application's reads finds
  # a difference), which runs no DL code of its own, and 18 of the 24 random records of
  # the marshaling property test (a third of this job's marshaling time): each record
  # runs every pair of layouts with every algorithm, and the six kept (seeds 1-6)
  # include a packed record and one with tail padding; the device kernels are not
  # instrumented anyway.
  ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:verify_asan_link_order=0:intercept_tls_get_addr=0" \
    LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    ctest --test-dir "$b-asan" --output-on-failure -j "$j" \
    -E '^annotate\.|^interpose\.Modes/.*"(preload|layer)"$|^interpose\.(Policy|Experience|Widths)\.|^diff\.detects_a_corrupted_read$|^cl\.Records/RandomRecord\..*/([6-9]|[1-9][0-9]+)$'
  cmake -S . -B "$b-tsan" -DCMAKE_BUILD_TYPE=Debug -DDL_SANITIZE=thread \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
    -DDL_BUILD_BENCH=OFF -DDL_BUILD_ANNOTATOR=OFF -DDL_BUILD_EXAMPLES=OFF
  cmake --build "$b-tsan" -j "$j" --target dl_interpose dl_hook_app
  ctest --test-dir "$b-tsan" --output-on-failure -R '^sanitize\.tsan'
}

case "${1:-}" in
  deps) install_deps ;;
  run)
    install_deps
    build
    "${BUILD_DIR:-build}/examples/run-example.sh"
    ;;
  test)
    install_deps
    build
    ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-$(nproc)}"
    ;;
  sanitize)
    install_deps
    sanitize
    ;;
  *)
    echo "usage: $0 run|test|sanitize|deps" >&2
    exit 2
    ;;
esac
