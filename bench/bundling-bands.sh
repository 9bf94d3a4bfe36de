#!/usr/bin/env bash
# bench/bundling-bands.sh [BUILD_DIR] [OUT_DIR] — the job-bundling study of
# Baranov & Lyakhovets 2022 over many draws: every paper value placed in our
# distribution (REPRODUCTIONS.md, "Job bundling"). bundling-study.sh is the
# earlier one-draw study with its readings (bench/HISTORY.md).
#
# The baseline rule, fixed on 2026-12-02 before any run of this script:
#   the paper compares Packet with the two policies built into Alea that it
#   names "FCFS" and "Backfill", and implements Packet as an Alea queue
#   policy (addNewJob / selectJob). Alea (aleasimulator/alea,
#   ExperimentSetup.java) numbers its policies 0 FCFS, 2 EASY (the queue
#   policy EASY_Backfilling), 3 backfilling without a reservation, 4 CONS
#   with compression (a schedule-based policy), 21 CONS without; the
#   configuration shipped with it runs algorithms=0,2, FCFS and EASY, the
#   pair the paper compares. So "Backfill" is read as EASY (`easy`): the
#   baseline of every threshold and ratio, and the scheduler inside Packet
#   (variant=paper, select=backfill: EASY over the queues' head packets).
#   Conservative backfilling with compression (`conservative`, Alea's
#   alg. 4) is reported beside it as the second baseline; Packet keeps EASY
#   inside for both (pol_packet offers no conservative inner scheduler).
#
# Workloads, 500 single-node hosts, 5000 jobs, types uniform in 1..8:
#   orig-XX  Lublin-Feitelson logs (the reference 128-node size parameters,
#            bench/bundling-workloads.sh) compressed to 100 hours; of seeds
#            1, 2, ... MAXSEED the first DRAWS whose computed load is within
#            0.005 of XX % are draws 1..DRAWS (the paper kept the logs whose
#            compression gave its loads).
#   mod-XX   the modified generator at the paper's rate, lambda = 0.0142
#            jobs/s (its inter-arrival statistics: 289 gaps over 200 s, mean
#            271 s, are those of Poisson arrivals at that rate), not
#            rescaled: 3 x DRAWS draws (seeds 1001, 1002, ...) sorted by
#            computed load, the lowest third mod-85, the middle mod-90, the
#            highest mod-95 (the paper picked its three from 20 draws at that
#            rate by load). The loads are recorded in OUT_DIR/draws.csv.
# Shares: the paper's grid, 0..10 % by 1 and 20..50 % by 10 (SHARES).
# Policies, the same draws for each: easy, conservative, paper
# (packet:variant=paper, the paper's accounting: pseudo-jobs left out),
# paper-nb (packet:variant=paper:max_members=1: the same queues, weights and
# inner EASY without bundling, the ablation of the paper's idea), and fcfs
# at the shares of Tables 2-3 only (5-10 % orig, 2-7 % mod).
#
# Outputs in OUT_DIR: results.csv (one line per run), bands.csv (per
# workload, share, series and metric: draws, p10, median, p90, the paper's
# value and its percentile among our draws; series are the policies and the
# ratios paper/easy, paper/conservative, paper-nb/easy of mean wait),
# thresholds.csv (variant,workload,baseline,metric,draws,p10,median,p90,
# paper,paper_percentile: per draw, the share from which the variant beats
# the baseline at every larger share of the grid; "never" when it does not
# at 50 %), shape.txt (the shape checks, holds / does not hold), the tables
# printed beside the paper's, and fig-bands-wait.png, fig-bands-ratio.png,
# fig-thresholds.png (bundling-bands.gp).
#
# Percentiles: p-th percentile of n sorted values x_1..x_n is
# x_h + (h - floor h)(x_{h+1} - x_h) at h = 1 + (n - 1) p, the definition of
# gsl_stats_quantile_from_sorted_data; "never" sorts above every share. A
# paper value's percentile is 100 (b + e / 2) / n, b of our draws below it
# and e equal to it.
#
# Environment: DRAWS (default 20), MAXSEED (default 4000), SHARES, JOBS
# (parallel runs, default the cores). Runs go through GNU parallel when it
# is installed; finished runs are skipped, so an interrupted study resumes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-bundling-bands}
draws=${DRAWS:-20}
maxseed=${MAXSEED:-4000}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
shares=${SHARES:-0 1 2 3 4 5 6 7 8 9 10 20 30 40 50}
bl=$build/batchlab
[ -x "$bl" ] || { echo "bundling-bands: $bl is missing; build first" >&2; exit 1; }
case "$draws" in '' | *[!0-9]* | 0) echo "bundling-bands: DRAWS must be a positive integer" >&2; exit 2 ;; esac
platform=$src/platforms/uniform-500.xml
ws=$out/workloads
mkdir -p "$ws" "$out/runs"
t_begin=$(date +%s)
load_of() { # computed load of an SWF file on 500 nodes
    awk '/^[ \t]*;/ || NF < 18 { next }
        { if (!n++) f = $2; l = $2; w += $4 * ($5 >= 1 ? $5 : $8) }
        END { printf "%.6f\n", (l > f ? w / ((l - f) * 500) : 0) }' "$1"
}

# 1. Workloads (cached in OUT_DIR/workloads; draws.csv says which seed and load).
list=$out/draws.csv
lf() { # lf SEED FILE: a Lublin-Feitelson log compressed to 100 hours
    "$bl" generate lublin --nodes 500 --jobs 5000 --seed "$1" \
        --param batch.UHi=7 --param batch.UMed=5 \
        --param interactive.UHi=5.5 --param interactive.UMed=3 -o "$2.raw" > /dev/null
    "$bl" scale --workload "$2.raw" --span 360000 -o "$2" > /dev/null
    rm -f "$2.raw"
}
if [ ! -s "$list" ] || [ "$(sed -n 2p "$out/draws.key" 2>/dev/null)" != "$draws $maxseed" ]; then
    rows=$ws/rows.tmp
    : > "$rows"
    cand=$ws/candidates.txt # lublin seed, load after compression (cached)
    touch "$cand"
    declare -A got=([85]=0 [90]=0 [95]=0)
    c=1
    while [ "$c" -le "$maxseed" ] &&
          { [ "${got[85]}" -lt "$draws" ] || [ "${got[90]}" -lt "$draws" ] || [ "${got[95]}" -lt "$draws" ]; }; do
        u=$(awk -v c="$c" '$1 == c { print $2 }' "$cand")
        if [ -z "$u" ]; then
            lf "$c" "$ws/cand.swf"
            echo "$c" > "$ws/cand.seed"
            u=$(load_of "$ws/cand.swf")
            echo "$c $u" >> "$cand"
        fi
        for t in 85 90 95; do
            [ "${got[$t]}" -lt "$draws" ] || continue
            awk -v u="$u" -v t="$t" 'BEGIN { d = u - t / 100; exit !(d <= 0.005 && d >= -0.005) }' || continue
            got[$t]=$((got[$t] + 1))
            f=$ws/orig-$t-d${got[$t]}.swf
            [ -s "$ws/cand.swf" ] && [ "$(sed -n 1p "$ws/cand.seed" 2>/dev/null)" = "$c" ] || {
                lf "$c" "$ws/cand.swf"; echo "$c" > "$ws/cand.seed"; }
            "$bl" scale --workload "$ws/cand.swf" --types 8 --seed "$c" -o "$f" > /dev/null
            echo "orig-$t,${got[$t]},lublin,$c,$u" >> "$rows"
        done
        rm -f "$ws/cand.swf" "$ws/cand.seed"
        c=$((c + 1))
    done
    for t in 85 90 95; do
        if [ "${got[$t]}" -lt "$draws" ]; then
            echo "bundling-bands: only ${got[$t]} of $draws Lublin-Feitelson seeds in 1..$maxseed have load 0.$t +- 0.005; raise MAXSEED" >&2
            exit 1
        fi
    done
    m=$ws/mod-cand.txt # modified seed, load at lambda 0.0142
    : > "$m"
    for i in $(seq 1 $((3 * draws))); do
        s=$((1000 + i))
        "$bl" generate modified --nodes 500 --jobs 5000 --seed "$s" --lambda 0.0142 \
            -o "$ws/mod-$s.swf" > /dev/null
        echo "$s $(load_of "$ws/mod-$s.swf")" >> "$m"
    done
    sort -k2,2g -k1,1n "$m" | awk -v d="$draws" '{ t = (NR <= d ? 85 : NR <= 2 * d ? 90 : 95); print t, $1, $2 }' |
        sort -k1,1n -k2,2n | awk '{ r[$1]++; print $1, r[$1], $2, $3 }' |
        while read -r t r s u; do
            mv "$ws/mod-$s.swf" "$ws/mod-$t-d$r.swf"
            echo "mod-$t,$r,modified,$s,$u" >> "$rows"
        done
    { echo "workload,draw,generator,seed,load"; sort -t, -k1,1 -k2,2n "$rows"; } > "$list"
    rm -f "$rows"
    printf 'draws maxseed\n%s %s\n' "$draws" "$maxseed" > "$out/draws.key"
fi
STATS_ONLY=-d1 bash "$here/bundling-workloads.sh" "$ws" > "$out/workloads.txt"
echo "bundling-bands: workloads took $(($(date +%s) - t_begin)) s" >&2

# 2. One task per run, each writing its row; finished runs are skipped.
spec() {
    case "$1" in
    paper) echo packet:variant=paper ;;
    paper-nb) echo packet:variant=paper:max_members=1 ;;
    *) echo "$1" ;;
    esac
}
table_share() { # WORKLOAD SHARE: a share of the paper's Tables 2-3
    case "$1" in
    orig-*) [ "$2" -ge 5 ] && [ "$2" -le 10 ] ;;
    *) [ "$2" -ge 2 ] && [ "$2" -le 7 ] ;;
    esac
}
# One summary.json to one CSV row: the run's metrics up to its breakdowns;
# for the paper variants the pseudo_job_accounting block (the paper's
# accounting) replaces mean wait, median wait and queue length.
rowawk=$out/row.awk
cat > "$rowawk" << 'EOF'
BEGIN { FS = "[:,]" }
/"breakdowns"/ { exit }
/"pseudo_job_accounting"/ { pk = 1 }
/"wait_mean_s"/ { if (pk) pm = $2; else m = $2 }
/"wait_median_s"/ { if (pk) pd = $2; else d = $2 }
/"queue_length_mean"/ { if (pk) pq = $2; else q = $2 }
/"utilization"/ { u = $2 }
END {
    jm = m
    if (p ~ /^paper/ && pk) { m = pm; d = pd; q = pq }
    printf "%s,%s,%s,%s,%.1f,%.1f,%.2f,%.4f,%.1f\n", w, r, s, p, m, d, q, u, jm
}
EOF
tasks=$out/tasks.txt
: > "$tasks"
tail -n +2 "$list" | while IFS=, read -r w r _ _ _; do
    for sh in $shares; do
        for p in easy conservative paper paper-nb fcfs; do
            [ "$p" != fcfs ] || table_share "$w" "$sh" || continue
            dir=$out/runs/$w-d$r-$sh-$p
            [ -s "$dir/row.csv" ] && continue
            x=$(awk -v s="$sh" 'BEGIN { printf "%.2f", s / 100 }')
            echo "'$bl' run --platform '$platform' --workload '$ws/$w-d$r.swf' --policy $(spec "$p")" \
                 "--init-share $x --out '$dir' --outputs summary -q > /dev/null &&" \
                 "awk -v w=$w -v r=$r -v s=$sh -v p=$p -f '$rowawk' '$dir/summary.json' > '$dir/row.tmp' &&" \
                 "mv '$dir/row.tmp' '$dir/row.csv'" >> "$tasks"
        done
    done
done
n=$(wc -l < "$tasks")
echo "bundling-bands: $n runs to do in $out" >&2
t_start=$(date +%s)
if [ "$n" -gt 0 ]; then
    if command -v parallel > /dev/null; then
        parallel --will-cite --halt now,fail=1 -j "$jobs" < "$tasks"
    else
        sh "$tasks"
    fi
fi
echo "bundling-bands: runs took $(($(date +%s) - t_start)) s" >&2

csv=$out/results.csv
{
    echo "workload,draw,share,policy,mean_wait_s,median_wait_s,queue_mean,utilization,jobs_mean_wait_s"
    tail -n +2 "$list" | while IFS=, read -r w r _ _ _; do
        cat "$out/runs/$w-d$r-"*/row.csv
    done | sort -t, -k1,1 -k2,2n -k3,3n -k4,4
} > "$csv"

# 3. Bands, thresholds and shapes (bundling-bands.awk), then the figures.
awk -F, -v out="$out" -v shares="$shares" -f "$here/bundling-bands.awk" \
    "$here/bundling-paper.txt" "$csv"
cat "$out/tables.txt" "$out/shape.txt"
if command -v gnuplot > /dev/null; then
    gnuplot -e "dir='$out'" "$here/bundling-bands.gp"
    echo
    echo "figures: $out/fig-bands-wait.png $out/fig-bands-ratio.png $out/fig-thresholds.png"
fi
echo "bundling-bands: $(($(date +%s) - t_begin)) s in all ($draws draws per workload)" >&2
