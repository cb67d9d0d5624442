# The applications and sizes of the DL-mode benchmarks at 10 iterations (sourced by
# controller-curve.sh and width-bench.sh): `cases` per profile, gpu or cpu.
if [ "${profile:-gpu}" = gpu ]; then
  cases=("micro --S 16 --n 1048576" "lbm --nx 100 --ny 100 --nz 130 --steps 2"
         "blackscholes --n 4194304" "spmv --matrices table1:e40r0000")
else
  cases=("micro --S 16 --n 262144" "lbm --nx 40 --ny 40 --nz 50 --steps 2"
         "blackscholes --n 1048576" "spmv --matrices table1:e40r0000")
fi
