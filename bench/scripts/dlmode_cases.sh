# What the DL-mode benchmarks share (sourced by controller-curve.sh and width-bench.sh,
# with $root and $profile set): `cases`, the applications and their sizes per profile, gpu
# or cpu, and dlmode_kernels <dir>, which fills <dir> with the applications' annotated
# kernels and their headers.
if [ "${profile:-gpu}" = gpu ]; then
  cases=("micro --S 16 --n 1048576" "lbm --nx 100 --ny 100 --nz 130 --steps 2"
         "blackscholes --n 4194304" "spmv --matrices table1:e40r0000")
else
  cases=("micro --S 16 --n 262144" "lbm --nx 40 --ny 40 --nz 50 --steps 2"
         "blackscholes --n 1048576" "spmv --matrices table1:e40r0000")
fi
dlmode_kernels() {
  mkdir -p "$1"
  for d in "$root"/bench/apps/*/; do cp "$d"*.h "$1/" 2>/dev/null || true; done
  cp "$root"/bench/apps/annotated/*.cl "$1/"
}
