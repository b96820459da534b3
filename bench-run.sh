set -u
cat /proc/loadavg; nproc; date -u
for i in 1 2 3; do for b in base new; do echo "== throughput $b run $i"; RAYON_NUM_THREADS=2 BENCH_ROUNDS=5 taskset -c 2,3 target/bench/throughput-$b --bench 2>&1 | tail -6; done; done
date -u

date -u
