#!/usr/bin/env bash
# DL set-up on Debian 12: installs what the project needs (when missing), builds, and
#   ./setup.sh run    runs the main job: an unmodified example application under the
#                     interposer on the machine's OpenCL CPU device (PoCL)
#   ./setup.sh test   runs the whole test suite
#   ./setup.sh deps   only installs the Debian packages
# BUILD_DIR (default: build) and JOBS (default: all cores) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
          clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev
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

build() {
  cmake -S . -B "${BUILD_DIR:-build}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "${BUILD_DIR:-build}" -j "${JOBS:-$(nproc)}"
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
  *)
    echo "usage: $0 run|test|deps" >&2
    exit 2
    ;;
esac
