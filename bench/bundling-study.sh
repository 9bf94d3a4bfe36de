#!/usr/bin/env bash
# bench/bundling-study.sh [BUILD_DIR] [OUT_DIR] — the job-bundling study of
# Baranov & Lyakhovets 2022 (../shared/seeds/job-bundling-alea-summary.md):
# FCFS, EASY backfilling and Packet on 500 single-processor nodes, on six
# workloads (orig-85/90/95: Lublin-Feitelson; mod-85/90/95: the modified
# generator), for average initialization shares 0..10 % in steps of 1 % and
# 20..50 % in steps of 10 %, over SEEDS workloads of each kind (default 3).
#
# Writes OUT_DIR/results.csv (one line per run), prints Tables 2 and 3 in the
# paper's layout (mean and median wait, utilization, mean queue length; ours
# are means over the seeds) next to the paper's values, the share from which
# Packet beats EASY per workload and metric next to the paper's thresholds,
# and draws OUT_DIR/fig-*.png (metrics against the share per workload; queue
# length over time for orig-90 at 5 % and 10 %, the paper's Figures 11-12).
#
# Workloads: 5000 jobs, 500 nodes, job type uniform in 1..8 in field 15.
# orig-XX uses the reference generator's 128-node size parameters (see
# bench/bundling-workloads.sh for why) and, unlike the paper (which kept
# workloads whose 100-hour compression happened to give these loads), every
# seed is rescaled to the exact target load; mod-XX is the modified generator
# at lambda 0.0142 rescaled to the load. Packet runs with its defaults
# (mode=easy, horizon=3600): nothing here is tuned to the paper's numbers.
#
# Runs go through GNU parallel when it is installed (JOBS at a time,
# default: the number of cores), else one after another. About 810 runs of a
# few tenths of a second each.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-bundling-study}
seeds=${SEEDS:-3}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
bl=$build/batchlab
[ -x "$bl" ] || { echo "bundling-study: $bl is missing; build first" >&2; exit 1; }
platform=$src/platforms/uniform-500.xml
mkdir -p "$out/workloads" "$out/runs"
shares="0 1 2 3 4 5 6 7 8 9 10 20 30 40 50"
policies="fcfs easy packet"

# 1. Workloads.
for r in $(seq 1 "$seeds"); do
    for t in 85 90 95; do
        o=$out/workloads/orig-$t-s$r.swf
        m=$out/workloads/mod-$t-s$r.swf
        if [ ! -s "$o" ]; then
            "$bl" generate lublin --nodes 500 --jobs 5000 --seed $((100 * r + t)) \
                --param batch.UHi=7 --param batch.UMed=5 \
                --param interactive.UHi=5.5 --param interactive.UMed=3 \
                -o "$out/workloads/raw.swf" > /dev/null
            "$bl" scale --workload "$out/workloads/raw.swf" --nodes 500 --load "0.$t" \
                --types 8 --seed "$r" -o "$o" > /dev/null
        fi
        if [ ! -s "$m" ]; then
            "$bl" generate modified --nodes 500 --jobs 5000 --seed $((100 * r + t)) \
                -o "$out/workloads/raw.swf" > /dev/null
            "$bl" scale --workload "$out/workloads/raw.swf" --nodes 500 --load "0.$t" \
                -o "$m" > /dev/null
        fi
    done
done
rm -f "$out/workloads/raw.swf"

# 2. One task per run; finished runs are skipped.
tasks=$out/tasks.txt
: > "$tasks"
for r in $(seq 1 "$seeds"); do
    for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
        for sh in $shares; do
            for p in $policies; do
                dir=$out/runs/$w-s$r-$sh-$p
                [ -s "$dir/summary.json" ] && continue
                what=summary
                [ "$w" = orig-90 ] && [ "$r" = 1 ] && { [ "$sh" = 5 ] || [ "$sh" = 10 ]; } &&
                    what=summary,timeseries
                x=$(awk -v s="$sh" 'BEGIN {printf "%.2f", s / 100}')
                echo "'$bl' run --platform '$platform' --workload '$out/workloads/$w-s$r.swf'" \
                     "--policy $p --init-share $x --out '$dir' --outputs $what -q > /dev/null" >> "$tasks"
            done
        done
    done
done
n=$(wc -l < "$tasks")
echo "bundling-study: $n runs to do in $out" >&2
if [ "$n" -gt 0 ]; then
    if command -v parallel > /dev/null; then
        parallel --will-cite --halt now,fail=1 -j "$jobs" < "$tasks"
    else
        sh "$tasks"
    fi
fi

# 3. Results.
csv=$out/results.csv
echo "workload,seed,share,policy,mean_wait_s,median_wait_s,utilization,queue_mean,init_share" > "$csv"
for r in $(seq 1 "$seeds"); do
    for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
        for sh in $shares; do
            for p in $policies; do
                awk -v w="$w" -v r="$r" -v s="$sh" -v p="$p" -F'[:,]' '
                    /"wait_mean_s"/ {m = $2} /"wait_median_s"/ {d = $2}
                    /"utilization"/ {u = $2} /"queue_length_mean"/ {q = $2}
                    /"initialization_share"/ {i = $2}
                    END {gsub(/ /, "", m); printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
                         w, r, s, p, m + 0, d + 0, u + 0, q + 0, i + 0}' \
                    "$out/runs/$w-s$r-$sh-$p/summary.json" >> "$csv"
            done
        done
    done
done

# 4. Tables next to the paper's (Tables 2 and 3; the OCR lost decimal
#    separators, restored here: utilization in %, some queue lengths).
paper=$out/paper.txt
cat > "$paper" << 'EOF'
# metric workload share fcfs backfill packet
wait orig-85 5 11043 3488 11095
wait orig-85 6 11257 3949 7284
wait orig-85 7 11484 4411 6962
wait orig-85 8 11714 4981 6611
wait orig-85 9 11929 5254 5742
wait orig-85 10 12150 5761 6224
wait orig-90 5 15923 6215 7141
wait orig-90 6 16582 7397 10555
wait orig-90 7 17314 8215 9308
wait orig-90 8 18167 8735 6501
wait orig-90 9 19234 10449 7649
wait orig-90 10 20017 11151 5462
wait orig-95 5 25367 8923 11845
wait orig-95 6 25898 10245 9673
wait orig-95 7 26426 11722 9908
wait orig-95 8 26866 12554 6675
wait orig-95 9 27480 13694 9874
wait orig-95 10 28066 14643 13445
median orig-85 5 9768 712 7681
median orig-85 6 10113 941 2870
median orig-85 7 10540 1309 2706
median orig-85 8 10905 1717 3033
median orig-85 9 11305 1693 2108
median orig-85 10 11749 2177 3007
median orig-90 5 10667 4465 3206
median orig-90 6 11446 5164 5155
median orig-90 7 12134 5659 3852
median orig-90 8 12960 6453 3234
median orig-90 9 14021 7364 3681
median orig-90 10 14655 7785 2376
median orig-95 5 26301 6570 6643
median orig-95 6 27338 6528 5664
median orig-95 7 28289 7772 4966
median orig-95 8 29268 9388 3366
median orig-95 9 29907 9885 5782
median orig-95 10 30531 11121 8579
util orig-85 5 80.2 82.2 79.6
util orig-85 6 80.6 82.6 73.3
util orig-85 7 81.0 83.1 75.7
util orig-85 8 81.5 83.6 81.1
util orig-85 9 81.9 84.0 78.6
util orig-85 10 82.4 84.5 79.8
util orig-90 5 91.5 92.3 83.1
util orig-90 6 91.9 92.9 84.8
util orig-90 7 92.3 93.4 87.0
util orig-90 8 92.6 93.8 81.3
util orig-90 9 92.8 94.4 85.9
util orig-90 10 93.0 94.9 78.5
util orig-95 5 87.2 91.3 86.8
util orig-95 6 87.4 91.7 85.3
util orig-95 7 87.6 92.0 82.6
util orig-95 8 87.8 92.3 80.2
util orig-95 9 87.9 92.5 83.3
util orig-95 10 88.1 92.7 88.0
queue orig-85 5 159 51 158
queue orig-85 6 162 58 112
queue orig-85 7 164.4 65.9 99.7
queue orig-85 8 168 74 94
queue orig-85 9 170.8 78.6 81.3
queue orig-85 10 174 86 89
queue orig-90 5 230 90 103
queue orig-90 6 240 107 152
queue orig-90 7 250.4 118.9 134.1
queue orig-90 8 261 126 94
queue orig-90 9 272.5 151.2 110.2
queue orig-90 10 284 161 79
queue orig-95 5 351 128 168
queue orig-95 6 358 147 145
queue orig-95 7 365 167 140
queue orig-95 8 373 179 97
queue orig-95 9 382 194 140.5
queue orig-95 10 390 207 190
wait mod-85 2 5300 957 1250
wait mod-85 3 5961 1042 1211
wait mod-85 4 7176 1189 1437
wait mod-85 5 8122 1280 1486
wait mod-85 6 9039 1454 1755
wait mod-85 7 10046 1565 1438
wait mod-90 2 20759 1664 2060
wait mod-90 3 21724 1928 2168
wait mod-90 4 22886 2234 2344
wait mod-90 5 23988 2657 2610
wait mod-90 6 25261 3122 2837
wait mod-90 7 26351 3703 2258
wait mod-95 2 24723 2578 2652
wait mod-95 3 25528 2921 2843
wait mod-95 4 26861 3514 3061
wait mod-95 5 28220 3968 3388
wait mod-95 6 29414 4856 3724
wait mod-95 7 30631 6056 3227
median mod-85 2 4025 545 540
median mod-85 3 4622 639 572
median mod-85 4 6008 789 736
median mod-85 5 7161 846 825
median mod-85 6 8158 1002 975
median mod-85 7 9232 1107 855
median mod-90 2 22750 1079 1074
median mod-90 3 23623 1249 1141
median mod-90 4 24269 1543 1348
median mod-90 5 25371 1968 1533
median mod-90 6 26685 2395 1717
median mod-90 7 27456 3070 1512
median mod-95 2 22851 1874 1562
median mod-95 3 23759 2190 1790
median mod-95 4 24997 2799 2083
median mod-95 5 26147 3167 2390
median mod-95 6 27294 3934 2608
median mod-95 7 28405 4854 2304
util mod-85 2 82.4 85.8 92.6
util mod-85 3 82.5 86.6 94.4
util mod-85 4 82.7 87.5 96.1
util mod-85 5 82.9 88.3 97.2
util mod-85 6 83.0 89.0 98.0
util mod-85 7 83.1 89.7 98.4
util mod-90 2 80.1 90.6 95.1
util mod-90 3 80.2 91.2 96.4
util mod-90 4 80.3 92.0 97.4
util mod-90 5 80.5 92.9 98.5
util mod-90 6 80.6 93.6 99.1
util mod-90 7 80.5 94.3 99.0
util mod-95 2 81.9 94.3 97.0
util mod-95 3 82.1 94.9 97.9
util mod-95 4 82.1 95.7 98.7
util mod-95 5 82.2 96.1 99.1
util mod-95 6 82.3 96.5 99.4
util mod-95 7 82.3 96.5 99.4
queue mod-85 2 78 14 18
queue mod-85 3 88 15 17
queue mod-85 4 105 17 21
queue mod-85 5 119 18 21
queue mod-85 6 133 21 25
queue mod-85 7 147 23 21
queue mod-90 2 293 24 30
queue mod-90 3 306 28 32
queue mod-90 4 324 32 33
queue mod-90 5 339 38 37
queue mod-90 6 356 45 40
queue mod-90 7 373 53 32
queue mod-95 2 364 37 38
queue mod-95 3 378 42 41
queue mod-95 4 397 51 44
queue mod-95 5 414 57 49
queue mod-95 6 430 70 54
queue mod-95 7 448 87 47
EOF

# Means over seeds: metric workload share fcfs easy packet.
means=$out/means.txt
awk -F, 'NR > 1 {
        k = $1 " " $3
        key[k] = 1
        n[k, $4]++
        w[k, $4] += $5; d[k, $4] += $6; u[k, $4] += $7 * 100; q[k, $4] += $8
    }
    END {
        for (k in key) {
            printf "wait %s %.0f %.0f %.0f\n", k, w[k, "fcfs"] / n[k, "fcfs"], w[k, "easy"] / n[k, "easy"], w[k, "packet"] / n[k, "packet"]
            printf "median %s %.0f %.0f %.0f\n", k, d[k, "fcfs"] / n[k, "fcfs"], d[k, "easy"] / n[k, "easy"], d[k, "packet"] / n[k, "packet"]
            printf "util %s %.1f %.1f %.1f\n", k, u[k, "fcfs"] / n[k, "fcfs"], u[k, "easy"] / n[k, "easy"], u[k, "packet"] / n[k, "packet"]
            printf "queue %s %.1f %.1f %.1f\n", k, q[k, "fcfs"] / n[k, "fcfs"], q[k, "easy"] / n[k, "easy"], q[k, "packet"] / n[k, "packet"]
        }
    }' "$csv" | sort -k2,2 -k3,3n -k1,1 > "$means"

table() { # KIND ("orig" or "mod")
    echo
    echo "Table $([ "$1" = orig ] && echo 2 || echo 3): $1 workloads, ours (mean of $seeds seeds) / paper"
    printf '%-7s %-6s %5s  %21s %21s %21s\n' metric load share "FCFS" "EASY (Backfill)" "Packet"
    for metric in wait median util queue; do
        awk -v kind="$1" -v metric="$metric" '
            NR == FNR { if ($0 !~ /^#/) p[$1, $2, $3] = $4 " " $5 " " $6; next }
            $1 == metric && $2 ~ "^" kind "-" && (($1 SUBSEP $2 SUBSEP $3) in p) {
                split(p[$1, $2, $3], q, " ")
                printf "%-7s %-6s %4s%%  %10s /%9s %10s /%9s %10s /%9s\n", $1,
                       substr($2, length(kind) + 2), $3, $4, q[1], $5, q[2], $6, q[3]
            }' "$paper" "$means" | sort -k2,2 -k3,3n
    done
}
table orig
table mod

echo
echo "Share from which Packet beats EASY at every larger share (ours; paper in brackets)"
awk 'BEGIN {
        paper["orig-85 wait"] = "10%?"; paper["orig-85 median"] = "10%?"; paper["orig-85 queue"] = "10%?"
        paper["orig-90 wait"] = "8%"; paper["orig-90 median"] = "6%"; paper["orig-90 queue"] = "8%"
        paper["orig-95 wait"] = "6%"; paper["orig-95 median"] = "6%"; paper["orig-95 queue"] = "6%"
        paper["mod-85 wait"] = "7%"; paper["mod-85 median"] = "7%"; paper["mod-85 queue"] = "7%"
        paper["mod-90 wait"] = "5%"; paper["mod-90 median"] = "2%"; paper["mod-90 queue"] = "5%"
        paper["mod-95 wait"] = "3%"; paper["mod-95 median"] = "2%"; paper["mod-95 queue"] = "3%"
    }
    $1 == "wait" || $1 == "median" || $1 == "queue" {
        k = $2 " " $1
        better[k, $3] = ($6 < $5)
        if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
        s[k, ++ns[k]] = $3
    }
    END {
        for (i = 1; i <= nk; i++) {
            k = keys[i]; from = "none"
            for (j = ns[k]; j >= 1; j--) {
                if (better[k, s[k, j]]) from = s[k, j] "%"; else break
            }
            printf "  %-16s %6s  (%s)\n", k, from, paper[k]
        }
    }' "$means" | sort

# 5. Figures.
if command -v gnuplot > /dev/null; then
    for metric in wait median util queue; do
        for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
            awk -v m="$metric" -v w="$w" '$1 == m && $2 == w {print $3, $4, $5, $6}' "$means" |
                sort -n > "$out/$metric-$w.dat"
        done
    done
    gnuplot -e "dir='$out'" "$here/bundling-study.gp"
    echo
    echo "figures: $out/fig-*.png"
fi
