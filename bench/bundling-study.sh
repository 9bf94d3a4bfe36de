#!/usr/bin/env bash
# bench/bundling-study.sh [BUILD_DIR] [OUT_DIR] — the job-bundling study of
# Baranov & Lyakhovets 2022 with the ablations that isolate Packet's
# mechanisms: EASY backfilling,
# four readings of Packet and FCFS (at the shares of the paper's Tables 2-3
# only) on 500 single-processor nodes, on
# six workloads (orig-85/90/95: Lublin-Feitelson compressed to 100 hours;
# mod-85/90/95: the modified generator), for average initialization shares
# 0..10 % in steps of 1 % and 20..50 % in steps of 10 %, over SEEDS workloads
# of each kind (default 3).
#
# Packet readings (one set of choices for every workload and share; see
# policies/pol_packet.c):
#   default      packet                    our policy: every queue, reservation
#   paper        packet:variant=paper      the paper's reading in Alea (EASY
#                                          over the queues' head packets), its
#                                          metrics with pseudo-jobs left out
#   no-bundling  packet:max_members=1      queues, weights, reservation only
#   no-scaling   packet:scaling=none       members keep their own node count
#
# Writes OUT_DIR/results.csv (one line per run), OUT_DIR/thresholds.csv
# (variant,workload,metric,ours,paper: the share in percent from which that
# variant beats EASY at every larger share, empty when never; metrics
# mean_wait, median_wait, mean_queue), OUT_DIR/saving.csv (per variant,
# workload and share: initialization time saved against EASY and the mean
# wait gained over EASY), OUT_DIR/utilization.csv (EASY's utilization over
# the whole run and over the arrival window), prints Tables 2 and 3 in the
# paper's layout next to the paper's values, and draws OUT_DIR/fig-*.png.
#
# Workloads, as the paper built them: orig-XX are Lublin-Feitelson logs
# (the reference generator's 128-node size parameters on 500 nodes, see
# bench/bundling-workloads.sh) compressed to 100 hours (`scale --span
# 360000`); of candidate seeds 1, 2, ... the r-th whose computed load after
# compression is within 0.005 of XX % becomes orig-XX seed r (the paper kept
# the generated workloads whose compression gave 0.85 / 0.90 / 0.95). Where
# fewer than SEEDS of MAXSEED candidates (default 400) match, the closest
# unused one is rescaled to the load and OUT_DIR/workloads/how.txt says so.
# OUT_DIR/workloads.txt has each workload's statistics beside the paper's
# (bench/bundling-workloads.sh).
# mod-XX is the modified generator at lambda 0.0142 rescaled to the load
# (the paper tuned lambda to its target load). Job types uniform in 1..8.
#
# DRAWS=K runs only the baselines over the first K Lublin-Feitelson draws of
# each orig load (OUT_DIR/draws.csv; see the DRAWS block below).
#
# INIT_PLANNED=no runs every variant (FCFS, EASY and every Packet reading),
# on every workload and share, with `--init-planned no`: policies plan each
# job with its request alone while it still runs its initialization first,
# the reading in which the paper added S_i inside Alea rather than to the
# log's requested times (bench/HISTORY.md, "Job bundling": measured, and
# ruled out). One switch for the whole study; OUT_DIR/init-planned.txt
# records it and a study folder is never continued in the other mode.
#
# Runs go through GNU parallel when it is installed (JOBS at a time, default
# the number of cores), else one after another; finished runs are skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-bundling-study}
seeds=${SEEDS:-3}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
maxseed=${MAXSEED:-400}
bl=$build/batchlab
[ -x "$bl" ] || { echo "bundling-study: $bl is missing; build first" >&2; exit 1; }
platform=$src/platforms/uniform-500.xml
mkdir -p "$out/workloads" "$out/runs"
init_planned=${INIT_PLANNED:-yes}
case "$init_planned" in
yes | no) ;;
*) echo "bundling-study: INIT_PLANNED must be yes or no, not '$init_planned'" >&2; exit 2 ;;
esac
stamp=$out/init-planned.txt
if [ -s "$stamp" ] && [ "$(cat "$stamp")" != "$init_planned" ]; then
    echo "bundling-study: $out holds runs with INIT_PLANNED=$(cat "$stamp"); use another OUT_DIR" >&2
    exit 2
fi
echo "$init_planned" > "$stamp"
iplan="--init-planned $init_planned"
shares="0 1 2 3 4 5 6 7 8 9 10 20 30 40 50"
variants="fcfs easy default paper no-bundling no-scaling"
# READINGS=1 adds the paper variant's other readings of what happens when
# the top queue's packet cannot start (paper = select=backfill: it holds a
# promised reservation, later packets backfill): paper-block (nothing starts
# until it does) and paper-pass (the next queue in weight order is tried),
# and prints how each reading matches the paper (OUT_DIR/readings.csv); and
# paper-h900 and paper-h14400, the paper reading with packets planned within
# 15 minutes or 4 hours instead of 1 hour (fewer or more members, hence
# fewer or more pseudo-jobs left out of its metrics), whose thresholds go
# to thresholds.csv.
readings=${READINGS:-0}
[ "$readings" = 0 ] || variants="$variants paper-block paper-pass paper-h900 paper-h14400"
spec() {
    case "$1" in
    default) echo packet ;;
    paper) echo packet:variant=paper ;;
    paper-h*) echo "packet:variant=paper:horizon=${1#paper-h}" ;;
    paper-*) echo "packet:variant=paper:select=${1#paper-}" ;;
    no-bundling) echo packet:max_members=1 ;;
    no-scaling) echo packet:scaling=none ;;
    *) echo "$1" ;;
    esac
}
# FCFS only at the shares of the paper's Tables 2-3 (5-10 % orig, 2-7 %
# mod): it is far behind everywhere and, with thousands waiting, the slowest.
fcfs_share() { # WORKLOAD SHARE
    case "$1" in
    orig-*) [ "$2" -ge 5 ] && [ "$2" -le 10 ] ;;
    *) [ "$2" -ge 2 ] && [ "$2" -le 7 ] ;;
    esac
}
load_of() { # computed load of an SWF file on 500 nodes
    awk '/^[ \t]*;/ || NF < 18 { next }
        { if (!n++) f = $2; l = $2; w += $4 * ($5 >= 1 ? $5 : $8) }
        END { printf "%.6f\n", (l > f ? w / ((l - f) * 500) : 0) }' "$1"
}

# 1. Workloads.
t_begin=$(date +%s)
ws=$out/workloads
how=$ws/how.txt
lf() { # lf SEED FILE: a Lublin-Feitelson log compressed to 100 hours
    "$bl" generate lublin --nodes 500 --jobs 5000 --seed "$1" \
        --param batch.UHi=7 --param batch.UMed=5 \
        --param interactive.UHi=5.5 --param interactive.UMed=3 -o "$2.raw" > /dev/null
    "$bl" scale --workload "$2.raw" --span 360000 -o "$2" > /dev/null
    rm -f "$2.raw"
}

# DRAWS=K: only the baselines' spread over Lublin-Feitelson draws of the
# same computed load (why our EASY waits less than the paper's Backfill on
# orig; bench/README.md). For each orig target, the first K candidates whose
# load after compression is within 0.005 of XX % (the study's seed r is
# draw r), and the first K within 0.005 of 0.96 x XX % (the paper's formula
# read with D = 4 days while the log spans 100 hours); at the shares 5 and
# 10 %: EASY, FCFS and Packet's paper variant, and two ablations of EASY
# (easy-int: submit times rounded to whole seconds, as Alea reads field 2;
# easy-uinit: one initialization time for every type, f/(1 - f) x the mean
# run time). Writes OUT_DIR/draws.csv and prints min / median / max over
# the draws beside the paper's Backfill, FCFS and Packet, then stops.
draws=${DRAWS:-0}
if [ "$draws" != 0 ]; then
    dd=$out/draws
    mkdir -p "$dd/runs"
    cand=$ws/candidates.txt
    touch "$cand"
    list=$dd/list.txt # kind target draw lublin_seed load
    : > "$list"
    declare -A got=()
    for k in 85 90 95 d4-85 d4-90 d4-95; do got[$k]=0; done
    c=1
    while [ "$c" -le "$maxseed" ]; do
        done_all=1
        for k in "${!got[@]}"; do [ "${got[$k]}" -lt "$draws" ] && done_all=0; done
        [ "$done_all" = 1 ] && break
        u=$(awk -v c="$c" '$1 == c { print $2 }' "$cand")
        if [ -z "$u" ]; then
            lf "$c" "$dd/cand.swf"
            u=$(load_of "$dd/cand.swf")
            echo "$c $u" >> "$cand"
        fi
        for k in 85 90 95 d4-85 d4-90 d4-95; do
            t=${k#d4-}
            want=$(awk -v t="$t" -v d4="${k%%-*}" 'BEGIN { printf "%.6f", (d4 == "d4" ? 0.96 : 1) * t / 100 }')
            [ "${got[$k]}" -lt "$draws" ] || continue
            awk -v u="$u" -v w="$want" 'BEGIN { d = u - w; exit !(d <= 0.005 && d >= -0.005) }' || continue
            got[$k]=$((got[$k] + 1))
            f=$dd/$k-d${got[$k]}.swf
            if [ ! -s "$f" ]; then
                lf "$c" "$dd/cand.swf"
                "$bl" scale --workload "$dd/cand.swf" --types 8 --seed "$c" -o "$f" > /dev/null
                awk 'BEGIN { OFS = " " } /^[ \t]*;/ || NF < 18 { print; next }
                     { $2 = sprintf("%d", $2 + 0.5); print }' "$f" > "${f%.swf}-int.swf"
            fi
            echo "${k%%-*} $t ${got[$k]} $c $u" >> "$list"
        done
        c=$((c + 1))
    done
    rm -f "$dd/cand.swf"
    tasks=$dd/tasks.txt
    : > "$tasks"
    while read -r kind t d c u; do
        k=$t
        [ "$kind" = d4 ] && k=d4-$t
        for sh in 5 10; do
            x=$(awk -v s="$sh" 'BEGIN {printf "%.2f", s / 100}')
            pols="easy fcfs paper easy-int easy-uinit"
            [ "$kind" = d4 ] && pols=easy
            for p in $pols; do
                run=$dd/runs/$k-d$d-$sh-$p
                [ -s "$run/summary.json" ] && continue
                wl=$dd/$k-d$d.swf
                init="--init-share $x"
                case "$p" in
                easy-int) wl=$dd/$k-d$d-int.swf ;;
                easy-uinit)
                    awk -v f="$x" '/^[ \t]*;/ || NF < 18 { next } { n++; e += $4 }
                        END { printf "* %.6f\n", f / (1 - f) * e / n }' "$wl" > "$dd/$k-d$d-$sh.init"
                    init="--init-times '$dd/$k-d$d-$sh.init'" ;;
                esac
                echo "'$bl' run --platform '$platform' --workload '$wl' --policy $(spec "${p%%-*}")" \
                     "$init $iplan --out '$run' --outputs summary -q > /dev/null" >> "$tasks"
            done
        done
    done < "$list"
    echo "bundling-study: $(wc -l < "$tasks") draw runs to do in $dd" >&2
    if command -v parallel > /dev/null; then
        parallel --will-cite --halt now,fail=1 -j "$jobs" < "$tasks"
    else
        sh "$tasks"
    fi
    dcsv=$out/draws.csv
    echo "workload,draw,lublin_seed,load,share,policy,mean_wait_s,median_wait_s,queue_mean" > "$dcsv"
    while read -r kind t d c u; do
        k=$t
        [ "$kind" = d4 ] && k=d4-$t
        for sh in 5 10; do
            for run in "$dd/runs/$k-d$d-$sh-"*; do
                p=${run##*-"$sh"-}
                awk -v w="orig-$k" -v d="$d" -v c="$c" -v u="$u" -v s="$sh" -v p="$p" -F'[:,]' '
                    /"breakdowns"/ { exit } # the per-class breakdowns repeat the keys
                    /"pseudo_job_accounting"/ { pk = 1 }
                    /"wait_mean_s"/ { if (pk) pm = $2; else m = $2 }
                    /"wait_median_s"/ { if (pk) pd = $2; else md = $2 }
                    /"queue_length_mean"/ { if (pk) pq = $2; else q = $2 }
                    END { if (p == "paper" && pk) { m = pm; md = pd; q = pq }
                          printf "%s,%s,%s,%s,%s,%s,%.0f,%.0f,%.1f\n", w, d, c, u, s, p, m, md, q }' \
                    "$run/summary.json" >> "$dcsv"
            done
        done
    done < "$list"
    echo
    echo "Mean wait (s) over $draws Lublin-Feitelson draws per orig workload (the study's seed r is draw r):"
    echo "min / median / max, the study's seed 1, and the paper's value (Tables 2-3) with its rank among ours"
    printf '  %-12s %5s %-12s %7s %7s %7s %7s %8s %6s\n' workload share policy min median max seed1 paper rank
    awk -F, 'NR > 1 { k = $1 " " $5 " " $6; n[k]++; v[k, n[k]] = $7; if ($2 == 1) s1[k] = $7 }
        END {
            split("orig-85 5 11043 3488 11095|orig-85 10 12150 5761 6224|orig-90 5 15923 6215 7141|orig-90 10 20017 11151 5462|orig-95 5 25367 8923 11845|orig-95 10 28066 14643 13445", rows, "|")
            for (i in rows) { split(rows[i], f, " ")
                              pap[f[1] " " f[2] " fcfs"] = f[3]; pap[f[1] " " f[2] " easy"] = f[4]
                              pap[f[1] " " f[2] " paper"] = f[5] }
            for (k in n) {
                c = n[k]
                for (i = 1; i <= c; i++) x[i] = v[k, i]
                for (i = 2; i <= c; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
                med = c % 2 ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2
                split(k, kk, " "); pk = kk[1]; sub(/d4-/, "", pk); pol = kk[3]; sub(/-.*/, "", pol)
                pk = pk " " kk[2] " " pol
                p = (pk in pap) ? pap[pk] : "-"; rank = "-"
                if (p != "-") { r = 1; for (i = 1; i <= c; i++) if (x[i] < p) r++; rank = r "/" c + 1 }
                printf "  %-12s %5s %-12s %7.0f %7.0f %7.0f %7s %8s %6s\n", kk[1], kk[2], kk[3], x[1], med, x[c],
                       (k in s1) ? s1[k] : "-", p, rank
            }
        }' "$dcsv" | sort -k1,1 -k2,2n -k3,3
    echo "(d4-XX: draws of load 0.96 x XX % over 100 hours; paper: FCFS, Backfill for easy*, Packet for paper)"
    exit 0
fi

need_orig=0
for r in $(seq 1 "$seeds"); do
    for t in 85 90 95; do [ -s "$ws/orig-$t-s$r.swf" ] || need_orig=1; done
done
if [ "$need_orig" = 1 ]; then
    cand=$ws/candidates.txt # seed load, cached
    touch "$cand"
    : > "$how"
    declare -A count=([85]=0 [90]=0 [95]=0)
    used=" "
    c=1
    while [ "$c" -le "$maxseed" ] &&
          { [ "${count[85]}" -lt "$seeds" ] || [ "${count[90]}" -lt "$seeds" ] ||
            [ "${count[95]}" -lt "$seeds" ]; }; do
        u=$(awk -v c="$c" '$1 == c { print $2 }' "$cand")
        if [ -z "$u" ]; then
            lf "$c" "$ws/cand.swf"
            u=$(load_of "$ws/cand.swf")
            echo "$c $u" >> "$cand"
        fi
        for t in 85 90 95; do
            if [ "${count[$t]}" -lt "$seeds" ] &&
               awk -v u="$u" -v t="$t" 'BEGIN { d = u - t / 100; exit !(d <= 0.005 && d >= -0.005) }'; then
                count[$t]=$((count[$t] + 1))
                r=${count[$t]}
                lf "$c" "$ws/cand.swf"
                "$bl" scale --workload "$ws/cand.swf" --types 8 --seed "$c" \
                    -o "$ws/orig-$t-s$r.swf" > /dev/null
                echo "orig-$t seed $r: lublin seed $c, compressed to 100 h, load $u" >> "$how"
                used="$used$c "
            fi
        done
        c=$((c + 1))
    done
    for t in 85 90 95; do # too few matches: the closest unused, rescaled
        while [ "${count[$t]}" -lt "$seeds" ]; do
            best=$(awk -v t="$t" -v used="$used" '
                { d = $2 - t / 100; if (d < 0) d = -d
                  if (index(used, " " $1 " ") == 0 && (b == "" || d < bd)) { b = $1; bd = d } }
                END { print b }' "$cand")
            count[$t]=$((count[$t] + 1))
            r=${count[$t]}
            lf "$best" "$ws/cand.swf"
            "$bl" scale --workload "$ws/cand.swf" --nodes 500 --load "0.$t" --types 8 \
                --seed "$best" -o "$ws/orig-$t-s$r.swf" > /dev/null
            echo "orig-$t seed $r: lublin seed $best (no match in $maxseed), rescaled to load 0.$t" >> "$how"
            used="$used$best "
        done
    done
    rm -f "$ws/cand.swf"
fi
for r in $(seq 1 "$seeds"); do
    for t in 85 90 95; do
        m=$ws/mod-$t-s$r.swf
        [ -s "$m" ] && continue
        "$bl" generate modified --nodes 500 --jobs 5000 --seed $((100 * r + t)) \
            -o "$ws/raw.swf" > /dev/null
        "$bl" scale --workload "$ws/raw.swf" --nodes 500 --load "0.$t" -o "$m" > /dev/null
        echo "mod-$t seed $r: modified seed $((100 * r + t)), rescaled to load 0.$t" >> "$how"
    done
done
rm -f "$ws/raw.swf"
for r in $(seq 1 "$seeds"); do
    STATS_ONLY=-s$r bash "$here/bundling-workloads.sh" "$ws"
done > "$out/workloads.txt"

echo "bundling-study: workloads took $(( $(date +%s) - t_begin )) s" >&2

# 2. One task per run; finished runs are skipped.
tasks=$out/tasks.txt
: > "$tasks"
for r in $(seq 1 "$seeds"); do
    for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
        for sh in $shares; do
            for v in $variants; do
                dir=$out/runs/$w-s$r-$sh-$v
                [ -s "$dir/summary.json" ] && continue
                fcfs_share "$w" "$sh" || [ "$v" != fcfs ] || continue
                what=summary
                [ "$v" = easy ] && what=summary,timeseries
                [ "$w" = orig-90 ] && [ "$r" = 1 ] && { [ "$sh" = 5 ] || [ "$sh" = 10 ]; } &&
                    what=summary,timeseries
                x=$(awk -v s="$sh" 'BEGIN {printf "%.2f", s / 100}')
                echo "'$bl' run --platform '$platform' --workload '$ws/$w-s$r.swf'" \
                     "--policy $(spec "$v") --init-share $x $iplan --out '$dir' --outputs $what -q > /dev/null" >> "$tasks"
            done
        done
    done
done
n=$(wc -l < "$tasks")
echo "bundling-study: $n runs to do in $out" >&2
t_start=$(date +%s)
if [ "$n" -gt 0 ]; then
    if command -v parallel > /dev/null; then
        parallel --will-cite --halt now,fail=1 --joblog "$out/joblog.txt" -j "$jobs" < "$tasks"
    else
        sh "$tasks"
    fi
fi
echo "bundling-study: runs took $(( $(date +%s) - t_start )) s" >&2

# 3. Results. The paper variant reports the paper's accounting (its
#    pseudo-jobs left out: the summary's pseudo_job_accounting block); the
#    jobs_* columns count every job for every variant.
csv=$out/results.csv
echo "workload,seed,share,variant,mean_wait_s,median_wait_s,utilization,queue_mean,init_share,init_total_s,jobs_mean_wait_s,jobs_median_wait_s,jobs_queue_mean,util_arrivals" > "$csv"
for r in $(seq 1 "$seeds"); do
    for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
        last=$(awk '/^[ \t]*;/ || NF < 18 { next } { if (!n++) f = $2; l = $2 } END { print f, l }' "$ws/$w-s$r.swf")
        for sh in $shares; do
            for v in $variants; do
                [ "$v" != fcfs ] || fcfs_share "$w" "$sh" || continue
                d=$out/runs/$w-s$r-$sh-$v
                ua=""
                if [ -f "$d/timeseries.csv" ]; then # busy nodes over [first, last arrival]
                    ua=$(awk -F, -v win="$last" 'BEGIN { split(win, a, " "); f = a[1]; l = a[2] }
                        NR > 1 { if (pt != "") { lo = pt > f ? pt : f; hi = $1 < l ? $1 : l
                                   if (hi > lo) area += pb * (hi - lo) }
                                 pt = $1; pb = $4 }
                        END { printf "%.6f", area / ((l - f) * 500) }' "$d/timeseries.csv")
                fi
                awk -v w="$w" -v r="$r" -v s="$sh" -v v="$v" -v ua="$ua" -F'[:,]' '
                    /"breakdowns"/ { exit } # the per-class breakdowns repeat the keys
                    /"pseudo_job_accounting"/ { pk = 1 }
                    /"wait_mean_s"/ { if (pk) pm = $2; else m = $2 }
                    /"wait_median_s"/ { if (pk) pd = $2; else d = $2 }
                    /"queue_length_mean"/ { if (pk) pq = $2; else q = $2 }
                    /"utilization"/ { u = $2 } /"initialization_share"/ { i = $2 }
                    /"initialization_total_s"/ { it = $2 }
                    END {
                        mm = m; md = d; mq = q
                        if (v ~ /^paper/ && pk) { mm = pm; md = pd; mq = pq }
                        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", w, r, s, v,
                               mm + 0, md + 0, u + 0, mq + 0, i + 0, it + 0, m + 0, d + 0, q + 0, ua
                    }' "$d/summary.json" >> "$csv"
            done
        done
    done
done

# 4. Tables next to the paper's (Tables 2 and 3; the OCR lost decimal
#    separators, restored here: utilization in %, some queue lengths).
paper=$out/paper.txt
cp "$here/bundling-paper.txt" "$paper" # Tables 2-3 and the thresholds

# Means over seeds: metric workload share fcfs easy default paper no-bundling no-scaling.
means=$out/means.txt
awk -F, -v vars="$variants" 'NR > 1 {
        k = $1 " " $3
        key[k] = 1
        n[k, $4]++
        w[k, $4] += $5; d[k, $4] += $6; u[k, $4] += $7 * 100; q[k, $4] += $8
    }
    END {
        nv = split(vars, v, " ")
        for (k in key) {
            lw = "wait " k; lm = "median " k; lu = "util " k; lq = "queue " k
            for (i = 1; i <= nv; i++) {
                c = n[k, v[i]]
                if (!c) { lw = lw " NaN"; lm = lm " NaN"; lu = lu " NaN"; lq = lq " NaN"; continue }
                lw = lw sprintf(" %.0f", w[k, v[i]] / c); lm = lm sprintf(" %.0f", d[k, v[i]] / c)
                lu = lu sprintf(" %.1f", u[k, v[i]] / c); lq = lq sprintf(" %.1f", q[k, v[i]] / c)
            }
            print lw; print lm; print lu; print lq
        }
    }' "$csv" | sort -k2,2 -k3,3n -k1,1 > "$means"

table() { # KIND ("orig" or "mod"): FCFS, EASY and the paper variant against the paper
    echo
    echo "Table $([ "$1" = orig ] && echo 2 || echo 3): $1 workloads, ours (mean of $seeds seeds) / paper; Packet = variant=paper"
    printf '%-7s %-6s %5s  %21s %21s %21s   %9s\n' metric load share "FCFS" "EASY (Backfill)" "Packet" "default"
    for metric in wait median util queue; do
        awk -v kind="$1" -v metric="$metric" '
            NR == FNR { if ($0 !~ /^#/) p[$1, $2, $3] = $4 " " $5 " " $6; next }
            $1 == metric && $2 ~ "^" kind "-" && (($1 SUBSEP $2 SUBSEP $3) in p) {
                split(p[$1, $2, $3], q, " ")
                printf "%-7s %-6s %4s%%  %10s /%9s %10s /%9s %10s /%9s   %9s\n", $1,
                       substr($2, length(kind) + 2), $3, $4, q[1], $5, q[2], $7, q[3], $6
            }' "$paper" "$means" | sort -k2,2 -k3,3n
    done
}
table orig
table mod

# 5. Thresholds: the share from which a variant beats EASY at every larger
#    share (means over the seeds), next to the paper's Packet thresholds.
thr=$out/thresholds.csv
awk -v vars="${variants#fcfs easy }" 'BEGIN {
        split("orig-85 10 10 10|orig-90 8 6 8|orig-95 6 6 6|mod-85 7 7 7|mod-90 5 2 5|mod-95 3 2 3", rows, "|")
        for (i in rows) { split(rows[i], f, " "); pap[f[1], "mean_wait"] = f[2]
                          pap[f[1], "median_wait"] = f[3]; pap[f[1], "mean_queue"] = f[4] }
        split("wait mean_wait|median median_wait|queue mean_queue", mm, "|")
        for (i in mm) { split(mm[i], f, " "); metric[f[1]] = f[2] }
        # columns of means.txt: 4 fcfs, 5 easy, then the Packet variants in order
        nv = split(vars, vv, " ")
        for (a = 1; a <= nv; a++) col[vv[a]] = 5 + a
    }
    ($1 in metric) {
        k = $2 SUBSEP metric[$1]
        if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
        s[k, ++ns[k]] = $3
        for (v in col) better[v, k, $3] = ($(col[v]) < $5)
    }
    END {
        print "variant,workload,metric,ours,paper"
        nv = split(vars, vv, " ")
        for (a = 1; a <= nv; a++)
            for (i = 1; i <= nk; i++) {
                k = keys[i]; from = ""
                for (j = ns[k]; j >= 1; j--) {
                    if (better[vv[a], k, s[k, j]]) from = s[k, j]; else break
                }
                split(k, kk, SUBSEP)
                print vv[a] "," kk[1] "," kk[2] "," from "," pap[kk[1], kk[2]]
            }
    }' "$means" > "$thr"
echo
echo "Share (%) from which each variant beats EASY at every larger share (ours), and the paper's Packet"
printf "  %-22s %9s %9s %12s %11s   %s\n" "workload metric" default paper no-bundling no-scaling "paper's"
awk -F, 'NR > 1 { k = $2 " " $3; v[$1, k] = ($4 == "" ? "never" : $4); p[k] = $5; keys[k] = 1 }
    END {
        for (k in keys) printf "  %-22s %9s %9s %12s %11s   %s\n", k, v["default", k], v["paper", k], v["no-bundling", k], v["no-scaling", k], p[k]
    }' "$thr" | sort

# 5b. READINGS=1: the paper variant's readings against the paper, per
#     workload: the mean-wait threshold (ours, paper's), and at the sample
#     points of Tables 2-3 how many mean waits lie within 30 % of the
#     paper's Packet and the median of |ours - paper| / paper.
if [ "$readings" != 0 ]; then
    rd=$out/readings.csv
    awk -F'[ ,]' -v vars="${variants#fcfs easy }" '
        FILENAME ~ /paper.txt$/ { if ($1 == "wait") { pk[$2, $3] = $6; pb[$2, $3] = $5 }; next }
        FILENAME ~ /thresholds.csv$/ { if ($3 == "mean_wait") { th[$1, $2] = $4; pt[$2] = $5 }; next }
        $1 == "wait" && (($2 SUBSEP $3) in pk) {
            for (v in col) {
                e = ($(col[v]) - pk[$2, $3]) / pk[$2, $3]; if (e < 0) e = -e
                n[v, $2]++; if (e <= 0.3) ok[v, $2]++
                # Packet over EASY (ours) against Packet over Backfill (paper)
                q = ($(col[v]) / $5) / (pk[$2, $3] / pb[$2, $3]) - 1; if (q < 0) q = -q
                if (q <= 0.3) rok[v, $2]++
                err[v, $2, n[v, $2]] = e
            }
        }
        BEGIN { nv = split(vars, vv, " "); for (a = 1; a <= nv; a++) col[vv[a]] = 5 + a
                split("paper paper-block paper-pass", rr, " ")
                split("backfill block pass", nm, " ")
                split("orig-85 orig-90 orig-95 mod-85 mod-90 mod-95", ww, " ") }
        END {
            print "reading,workload,threshold,paper_threshold,within_30pct,points,median_err_pct,ratio_within_30pct"
            for (a = 1; a <= 3; a++) for (b = 1; b <= 6; b++) {
                v = rr[a]; w = ww[b]; c = n[v, w]
                for (i = 1; i <= c; i++) x[i] = err[v, w, i]
                for (i = 2; i <= c; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
                med = c % 2 ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2
                printf "%s,%s,%s,%s,%d,%d,%.0f,%d\n", nm[a], w, th[v, w], pt[w], ok[v, w], c, 100 * med, rok[v, w]
            }
        }' "$paper" "$thr" "$means" > "$rd"
    echo
    echo "The paper variant's readings, per workload: mean-wait threshold (ours/paper's), Tables 2-3 mean waits within 30 % of the paper's Packet, median error"
    printf '  %-8s |' reading
    for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do printf ' %20s |' "$w"; done
    echo
    awk -F, 'NR > 1 { t = ($3 == "" ? "never" : $3); d = ($3 == "" ? 99 : $3 - $4); if (d < 0) d = -d
                      row[$1] = row[$1] sprintf(" %6s/%-3s %d/%d %4d%% |", t, $4, $5, $6, $7)
                      if (d <= 2) near[$1]++; within[$1] += $5; pts[$1] += $6; rw[$1] += $8 }
        END { for (r in row) printf "  %-8s |%s thresholds within 2: %d/6, points within 30 %%: %d/%d (Packet/EASY ratio: %d/%d)\n",
                                     r, row[r], near[r], within[r], pts[r], rw[r], pts[r] }' "$rd" | sort
fi

# 5c. The score against the paper (OUT_DIR/score.txt), the numbers the
#     INIT_PLANNED comparison in bench/HISTORY.md is read from: EASY's mean
#     waits within 30 % of the paper's Backfill at the 36 points of Tables
#     2-3; EASY/FCFS against the paper's Backfill/FCFS on orig at 5 and
#     10 %; the paper variant's mean-wait thresholds within 2 points of the
#     paper's (of 6) and its mean waits within 30 % of the paper's Packet.
score=$out/score.txt
awk -F'[ ,]' '
    FILENAME ~ /paper.txt$/ { if ($1 == "wait") { f[$2, $3] = $4; b[$2, $3] = $5; k[$2, $3] = $6 }; next }
    FILENAME ~ /thresholds.csv$/ {
        if ($1 == "paper" && $3 == "mean_wait") { nt++; if ($4 != "" && ($4 - $5) ^ 2 <= 4) tok++ }
        next }
    $1 == "wait" && (($2 SUBSEP $3) in b) {
        n++; e = ($5 - b[$2, $3]) / b[$2, $3]; if (e * e <= 0.09) eok++
        if ($2 ~ /^orig/) { no++; if (e * e <= 0.09) eoko++ }
        e = ($7 - k[$2, $3]) / k[$2, $3]; if (e * e <= 0.09) pok++
        if ($2 ~ /^orig/ && ($3 == 5 || $3 == 10) && $4 != "NaN")
            ratio = ratio sprintf("  %-7s %2s %%: EASY/FCFS %.2f, paper Backfill/FCFS %.2f\n", $2, $3, $5 / $4, b[$2, $3] / f[$2, $3])
    }
    END {
        printf "EASY mean wait within 30 %% of the paper'\''s Backfill: %d of %d points (orig %d of %d)\n", eok, n, eoko, no
        printf "%s", ratio
        printf "paper variant: mean-wait thresholds within 2 points of the paper'\''s: %d of %d; mean waits within 30 %% of the paper'\''s Packet: %d of %d points\n", tok, nt, pok, n
    }' "$paper" "$thr" "$means" > "$score"
echo
echo "Score against the paper (init planned: $init_planned; $score):"
sed 's/^/  /' "$score"

# 6. What bundling saves against what it gains: per variant, workload and
#    share, EASY's initialization total minus the variant's, and EASY's mean
#    wait minus the variant's (every job counted), means over the seeds.
saving=$out/saving.csv
awk -F, 'NR > 1 { k = $1 "," $3; key[k] = 1; n[k, $4]++; it[k, $4] += $10; mw[k, $4] += $11 }
    END {
        split("default paper no-bundling no-scaling", vv, " ")
        for (k in key) for (a = 1; a <= 4; a++) {
            v = vv[a]
            printf "%s,%s,%.1f,%.0f\n", v, k, (it[k, "easy"] / n[k, "easy"] - it[k, v] / n[k, v]) / 3600,
                   mw[k, "easy"] / n[k, "easy"] - mw[k, v] / n[k, v]
        }
    }' "$csv" | sort -t, -k1,1 -k2,2 -k3,3n > "$saving.tmp"
{ echo "variant,workload,share,init_saved_h,wait_gain_s"; cat "$saving.tmp"; } > "$saving"
rm -f "$saving.tmp"

# 7. EASY's utilization over the run and over the arrival window.
util=$out/utilization.csv
awk -F, 'NR > 1 && $4 == "easy" { k = $1; key[k] = 1; n[k]++; u[k] += $7; a[k] += $14
        if (!(k in lo) || $7 < lo[k]) lo[k] = $7; if (!(k in hi) || $7 > hi[k]) hi[k] = $7 }
    END {
        for (k in key) printf "%s,%.3f,%.3f,%.3f,%.3f\n", k, u[k] / n[k], lo[k], hi[k], a[k] / n[k]
    }' "$csv" | sort > "$util.tmp"
{ echo "workload,easy_util_run_mean,easy_util_run_min,easy_util_run_max,easy_util_arrivals_mean"
  cat "$util.tmp"; } > "$util"
rm -f "$util.tmp"
echo
echo "EASY's utilization: over the run (first submit to last end) and over the arrival window"
column -t -s, "$util" | sed 's/^/  /' | { IFS= read -r h; echo "$h"; sort; }

# 8. Figures.
if command -v gnuplot > /dev/null; then
    for metric in wait median util queue; do
        for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
            awk -v m="$metric" -v w="$w" '$1 == m && $2 == w {print $3, $4, $5, $6, $7, $8, $9}' "$means" |
                sort -n > "$out/$metric-$w.dat"
        done
    done
    for w in orig-85 orig-90 orig-95 mod-85 mod-90 mod-95; do
        awk -F, -v w="$w" 'NR > 1 && $2 == w { print $1, $3, $4, $5 }' "$saving" > "$out/saving-$w.dat"
    done
    gnuplot -e "dir='$out'" "$here/bundling-study.gp"
    echo
    echo "figures: $out/fig-*.png"
fi
