#!/usr/bin/env bash
# What the compiler made of the MD kernel's layouts: builds each variant with
# bench/tools/cl_binary.cpp (on NVIDIA's OpenCL the binary is PTX) and counts global
# loads and stores, per file, into $OUT/ptx/counts.txt (the PTX files beside it).
#   OUT=<dir> bench/scripts/rewrite-ptx.sh
set -euo pipefail
: "${OUT:?set OUT to the output directory}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
A="$root/bench/apps/annotated" V="$A/variants" P="$OUT/ptx"
mkdir -p "$P"
g++ -O1 -o "$P/cl_binary" "$root/bench/tools/cl_binary.cpp" -lOpenCL
cat "$root/bench/apps/common/layouts.h" "$root/bench/apps/md/md_layouts.cl" >"$P/md_hand.cl"
python3 "$root/bench/scripts/rewrite_variants.py" "$V/md_asta.cl" "$P"
build() {  # name source options...
  local name=$1 src=$2
  shift 2
  "$P/cl_binary" "$src" "$P/$name.ptx" "$@"
  printf '%-22s ld.global %4d  st.global %4d  ld.global.v4 %3d  st.global.v4 %3d\n' "$name" \
    "$(grep -c 'ld.global' "$P/$name.ptx")" "$(grep -c 'st.global' "$P/$name.ptx")" \
    "$(grep -c 'ld.global.v4' "$P/$name.ptx")" "$(grep -c 'st.global.v4' "$P/$name.ptx")" |
    tee -a "$P/counts.txt"
}
: >"$P/counts.txt"
build md_original "$root/bench/apps/md/md.cl"
build md_hand_aos "$P/md_hand.cl" -DL_AOS
build md_hand_asta32 "$P/md_hand.cl" -DL_ASTA -DL_T=32
build md_asta32 "$V/md_asta.cl" -DDL_ASTA_T=32
build md_asta32_fulltile "$P/md_asta_fulltile.cl" -DDL_ASTA_T=32
build md_asta32_scalar "$P/md_asta_scalar.cl" -DDL_ASTA_T=32
build md_aos_helpers "$V/md_aos_helpers.cl" -DDL_ASTA_T=32
rm -f "$P/cl_binary"
