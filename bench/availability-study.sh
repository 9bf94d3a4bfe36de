#!/usr/bin/env bash
# availability-study.sh — the window-availability study of Toporkov,
# Yemelyanov & Grigorenko 2021 (seed 000): Knapsack against GreedyJnt over
# job load (their Fig. 5) and the time-scan optimization (their Table 1),
# with the paper's numbers beside ours, figures, and the performance target
# of issue 7.
#
#   bench/availability-study.sh [BUILD_DIR] [OUT_DIR]
#
# 1. `batchlab study availability` at full size: AV_SCENARIOS environments
#    per job load (default 1000; the paper ran 10 000) and AV_TS_SCENARIOS
#    for Table 1 (default 1000, as the paper). Printout and JSON in OUT_DIR.
# 2. Timing, AV_REPS times (default 5) on the same environments: the full
#    Knapsack time scan against the GreedyJnt full scan (both computing the
#    nodes' availability at every t, as a scheduler must), and the
#    allocation step alone; medians of the per-run ratios. Target (issue 7):
#    the full Knapsack scan within 10x GreedyJnt's, at accuracy 1.0 (the
#    full scan is exact by construction) — printed as PASS/MISS, never
#    asserted in tests. Wall times on a shared machine vary from run to
#    run; the medians damp that.
# 3. fig5.csv, table1.csv and, with gnuplot, fig5.png (P_a^w against job
#    load) and table1.png (accuracy and speed-up against starting points,
#    ours and the paper's).
#
# Environment: AV_SCENARIOS, AV_TS_SCENARIOS, AV_REPS, AV_SEED (default 1),
# AV_TIMING_SCENARIOS (environments per timing run, default 200).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-availability-study}
exe=$build/batchlab
scen=${AV_SCENARIOS:-1000}
tscen=${AV_TS_SCENARIOS:-1000}
reps=${AV_REPS:-5}
seed=${AV_SEED:-1}
tim=${AV_TIMING_SCENARIOS:-200}
[ -x "$exe" ] || { echo "availability-study: $exe is missing; build first" >&2; exit 1; }
mkdir -p "$out"

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# The values of a one-line JSON array "key": [a, b, ...], one per line.
jarr() { sed -n "s/^ *\"$2\": \[\(.*\)\],\{0,1\}$/\1/p" "$1" | head -1 | tr ',' '\n' | sed 's/^ *//'; }
# A number by key inside the one-line object "obj": {...}.
jobj() { sed -n "s/^ *\"$2\": {.*\"$3\": \([^,}]*\).*/\1/p" "$1" | head -1; }

echo "availability-study: build $build, seed $seed"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"

# 1. The study at full size.
json=$out/availability.json
"$exe" study availability --seed "$seed" --scenarios "$scen" --timescan-scenarios "$tscen" \
    --json "$json" | tee "$out/availability.txt"

# 2. Timing: only Table 1's scans (one job load for Fig. 5, one scenario).
echo
echo "Timing: $reps runs of $tim environments at job load 0.5"
ratios=() allocs=() fulls=() greedys=() boundeds=()
for r in $(seq 1 "$reps"); do
    tj=$out/timing-$r.json
    "$exe" study availability --seed "$seed" --scenarios 1 --job-loads 0 \
        --timescan-scenarios "$tim" --json "$tj" > /dev/null
    full=$(jobj "$tj" seconds_per_scenario knapsack_full_scan)
    greedy=$(jobj "$tj" seconds_per_scenario greedyjnt_full_scan)
    bounded=$(jobj "$tj" seconds_per_scenario knapsack_bounded_scan)
    ak=$(jobj "$tj" seconds_per_scenario knapsack_alloc_only)
    ag=$(jobj "$tj" seconds_per_scenario greedyjnt_alloc_only)
    fulls+=("$full") greedys+=("$greedy") boundeds+=("$bounded")
    ratios+=("$(awk -v a="$full" -v b="$greedy" 'BEGIN {print a / b}')")
    allocs+=("$(awk -v a="$ak" -v b="$ag" 'BEGIN {print a / b}')")
    printf '  run %d: full Knapsack scan %.2f ms, GreedyJnt %.2f ms, bounded Knapsack %.2f ms; allocation alone %.2f / %.2f ms\n' \
        "$r" "$(awk -v x="$full" 'BEGIN {print 1e3 * x}')" "$(awk -v x="$greedy" 'BEGIN {print 1e3 * x}')" \
        "$(awk -v x="$bounded" 'BEGIN {print 1e3 * x}')" "$(awk -v x="$ak" 'BEGIN {print 1e3 * x}')" \
        "$(awk -v x="$ag" 'BEGIN {print 1e3 * x}')"
done
mr=$(printf '%s\n' "${ratios[@]}" | median)
ma=$(printf '%s\n' "${allocs[@]}" | median)
mf=$(printf '%s\n' "${fulls[@]}" | median)
mg=$(printf '%s\n' "${greedys[@]}" | median)
mb=$(printf '%s\n' "${boundeds[@]}" | median)
printf 'median per environment: full Knapsack scan %.2f ms, GreedyJnt full scan %.2f ms, bounded Knapsack scan %.2f ms\n' \
    "$(awk -v x="$mf" 'BEGIN {print 1e3 * x}')" "$(awk -v x="$mg" 'BEGIN {print 1e3 * x}')" \
    "$(awk -v x="$mb" 'BEGIN {print 1e3 * x}')"
verdict=$(awk -v r="$mr" 'BEGIN {print (r <= 10) ? "PASS" : "MISS"}')
printf 'target: full Knapsack scan <= 10x GreedyJnt full scan: median ratio %.2f (allocation alone %.2f): %s (paper: 143x)\n' \
    "$mr" "$ma" "$verdict"

# 3. CSV and figures.
{
    echo "job_load,knapsack,greedyjnt,knapsack_found,greedyjnt_found,found"
    paste -d, <(jarr "$json" job_load) <(jarr "$json" knapsack) <(jarr "$json" greedyjnt) \
        <(jarr "$json" knapsack_found) <(jarr "$json" greedyjnt_found) <(jarr "$json" found)
} > "$out/fig5.csv"
{
    echo "starting_points,mode,accuracy,speedup,evaluations,paper_accuracy,paper_speedup"
    grep '"starting_points"' "$json" | sed 's/[{}"]//g; s/[a-z_]*: //g; s/ //g; s/,$//'
} > "$out/table1.csv"
echo
echo "wrote $out/fig5.csv $out/table1.csv"

if command -v gnuplot > /dev/null; then
    term=png
    gnuplot -e 'set terminal pngcairo' > /dev/null 2>&1 && term=pngcairo
    gnuplot -e "term='$term'; dir='$out'" "$here/availability-study.gp"
    echo "wrote $out/fig5.png $out/table1.png"
else
    echo "gnuplot not found: no figures"
fi
