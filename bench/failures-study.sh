#!/usr/bin/env bash
# failures-study.sh — policies under host failures: EASY, conservative and
# the knapsack policy (EASY's decisions, hosts of highest availability) on
# hetero-64-avail.xml (four reliability grades per speed class), with
# outages drawn from the hosts' occupation probabilities, jobs killed or
# requeued at a failure. Medians over seeds of every metric.
#
#   bench/failures-study.sh [BUILD_DIR] [OUT_DIR]
#
# Workload: Lublin-Feitelson, FS_JOBS jobs (default 3000) on 64 nodes,
# f-model estimates (f = 1), scaled to FS_LOAD (default 0.7) at the
# reference speed; one workload per seed (FS_SEEDS, default "1 2 3"), the
# same seed drives the outages, so every policy meets the same outages.
# Epoch FS_EPOCH seconds (default 3600). Runs go through GNU parallel when
# it is installed. Prints one table per failure mode and writes
# OUT_DIR/failures.csv (one line per run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-failures-study}
exe=$build/batchlab
jobs=${FS_JOBS:-3000}
load=${FS_LOAD:-0.7}
seeds=${FS_SEEDS:-1 2 3}
epoch=${FS_EPOCH:-3600}
policies=${FS_POLICIES:-easy conservative knapsack}
platform=$src/platforms/hetero-64-avail.xml
[ -x "$exe" ] || { echo "failures-study: $exe is missing; build first" >&2; exit 1; }
mkdir -p "$out"

for s in $seeds; do
    "$exe" generate lublin --nodes 64 --jobs "$jobs" --seed "$s" --estimates f-model --f 1 \
        -o "$out/raw-$s.swf" > /dev/null
    "$exe" scale --workload "$out/raw-$s.swf" --nodes 64 --load "$load" -o "$out/w-$s.swf" \
        > /dev/null
done

tasks=$out/tasks.txt
: > "$tasks"
for s in $seeds; do
    for mode in none kill requeue; do
        for p in $policies; do
            echo "$s $mode $p" >> "$tasks"
        done
    done
done

run_one() {
    local s=$1 mode=$2 p=$3
    local dir=$out/runs/$mode-$p-$s
    local fail=(--failures model --failure-epoch "$epoch" --on-failure "$mode")
    [ "$mode" = none ] && fail=()
    "$exe" run --platform "$platform" --workload "$out/w-$s.swf" --policy "$p" --seed "$s" \
        "${fail[@]}" -q --out "$dir" --outputs summary > /dev/null
}
export -f run_one
export exe out platform epoch
if command -v parallel > /dev/null; then
    parallel --colsep ' ' run_one {1} {2} {3} :::: "$tasks"
else
    while read -r s mode p; do run_one "$s" "$mode" "$p"; done < "$tasks"
fi

# One CSV line per run from summary.json (flat keys, read with awk).
csv=$out/failures.csv
echo "seed,mode,policy,wait_mean_s,bsld_mean,utilization,cost,failed,requeues,wasted_node_s" > "$csv"
while read -r s mode p; do
    f=$out/runs/$mode-$p-$s/summary.json
    awk -v s="$s" -v m="$mode" -v p="$p" -F'[:,]' '
        function val(k) { return v[k] == "" ? 0 : v[k] }
        { gsub(/[ "]/, "", $1); gsub(/ /, "", $2); v[$1] = $2 }
        END { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, m, p, val("wait_mean_s"),
              val("bounded_slowdown_mean"), val("utilization"), val("cost"),
              val("COMPLETED_FAILED"), val("requeued_after_failure"),
              val("failures_wasted_node_s") }' "$f" >> "$csv"
done < "$tasks"

# Medians over seeds, per mode and policy.
for mode in none kill requeue; do
    echo
    echo "== failures: $mode (medians over seeds: $seeds; load $load, epoch $epoch s)"
    printf "%-14s %12s %10s %8s %14s %8s %9s %14s\n" policy "wait (s)" bsld util cost failed \
        requeues "wasted node-s"
    for p in $policies; do
        awk -F, -v m="$mode" -v p="$p" '
            function med(a, n,   i, j, t) {
                for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) {
                    t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
            NR > 1 && $2 == m && $3 == p { n++; for (k = 4; k <= 10; k++) c[k, n] = $k }
            END {
                for (k = 4; k <= 10; k++) { for (i = 1; i <= n; i++) a[i] = c[k, i]; r[k] = med(a, n) }
                printf "%-14s %12.1f %10.2f %8.4f %14.0f %8.0f %9.0f %14.0f\n", p, r[4], r[5],
                       r[6], r[7], r[8], r[9], r[10] }' "$csv"
    done
done
echo
echo "runs: $csv"
