#!/usr/bin/env bash
# bench/memory.sh [BUILD_DIR] [LOG] [PLATFORM] — peak memory against the
# number of jobs: replays growing prefixes (1/8, 1/4, 1/2, all) of a log
# (default: SDSC-SP2 from $BATCHLAB_TRACES, default traces/) under EASY and
# conservative, and prints the peak resident memory of each simulation and
# the memory per added job between prefixes. A per-job cost that stays flat
# as the simulated time grows means nothing accumulates beyond the per-job
# records the outputs need and the live queue.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
traces=${BATCHLAB_TRACES:-$src/traces}
log=${2:-$traces/SDSC-SP2-1998-4.2-cln.swf.gz}
platform=${3:-$src/platforms/sdsc-sp2.xml}
exe=$build/batchlab
[ -x "$exe" ] || { echo "memory: $exe is missing; build first" >&2; exit 1; }
[ -r "$log" ] || { echo "memory: $log not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(case $log in *.gz) zcat "$log" ;; *) cat "$log" ;; esac) > "$tmp/all.swf"
total=$(grep -vc '^;' "$tmp/all.swf")
printf '%-14s %10s %10s %10s %12s\n' policy jobs "peak MB" "KB/job" "KB/added job"
for policy in easy conservative; do
    prev_mb=0 prev_n=0
    for frac in 8 4 2 1; do
        n=$((total / frac))
        awk -v n="$n" '/^;/ {print; next} {if (++k <= n) print}' "$tmp/all.swf" > "$tmp/part.swf"
        mb=$("$exe" run --platform "$platform" --workload "$tmp/part.swf" --policy "$policy" -q |
             sed -n 's/.*peak memory \([0-9.]*\) MB.*/\1/p')
        awk -v p="$policy" -v n="$n" -v m="$mb" -v pm="$prev_mb" -v pn="$prev_n" 'BEGIN {
            printf "%-14s %10d %10.1f %10.2f %12s\n", p, n, m, m * 1024 / n,
                   pn ? sprintf("%.2f", (m - pm) * 1024 / (n - pn)) : "-" }'
        prev_mb=$mb prev_n=$n
    done
done
