#!/usr/bin/env bash
# production-study.sh — replaying production logs as a production scheduler
# would run them: EASY with requested times, EASY and conservative with the
# user2 run-time prediction (Tsafrir, Etsion & Feitelson 2007), and Slurm's
# multifactor priority with its backfill scheduler, at Slurm's defaults and
# with fair-share dominant. Does EASY++ lower bounded slowdown on the SP2
# logs, as the paper found?
#
#   bench/production-study.sh [BUILD_DIR] [OUT_DIR]
#
# Logs: KTH-SP2 and SDSC-SP2 from $BATCHLAB_TRACES (default traces/, where
# tools/fetch-trace puts them;
# a missing log is skipped with a note) on platforms/kth-sp2.xml and
# sdsc-sp2.xml, and the ForHLR II stand-in (`batchlab standin forhlr2`,
# PS_FH2_JOBS jobs, default 20000, seed 1, load 0.9) on forhlr2.xml. The
# stand-in has no users (field 12 is -1): user2 then predicts the request
# and fair-share sees one account, so its rows show only what the
# prediction and the priorities cannot change there. PS_FH2_LOG=FILE
# replays the real ForHLR II log (KIT-FH2-2016-1) instead.
#
# Configurations (one set for every log, chosen once):
#   easy           EASY, requested times
#   easy-sjf       EASY, shortest requested time first (the ordering alone)
#   easy-user2     EASY, user2 predictions (the prediction alone)
#   easy++         EASY, user2 and shortest prediction first: EASY++
#   cons-user2     conservative backfilling with user2 predictions
#   slurm          slurm at slurm.conf's defaults (every weight 0: submit
#                  order; bf_interval 30 s, bf_resolution 60 s, ...)
#   slurm-fs       slurm with fair-share dominant: priority_weight_fairshare
#                  10000 beside priority_weight_age 1000 (half-life and
#                  max age at their 7-day defaults)
#   slurm-fs-keep  slurm-fs with keep_reservation=yes: the first planned
#                  job's start kept as a promise, which Slurm does not make
#                  (Slurm re-plans at every pass; the ablation of that rule)
#   slurm-noisl    slurm with --islands ignore: ForHLR II's two islands
#                  as one block of nodes (the ablation of the islands; the
#                  SP2 machines have none, so there it equals slurm)
#
# Every other configuration runs under the default --islands strict: on
# forhlr2.xml a job that fits in one island (816 or 336 nodes) runs within
# one, and every policy here plans with the islands.
#
# Prints a table per log (mean wait, mean bounded slowdown with tau = 10 s,
# utilization, prediction accuracy, and the log-agreement block of
# summary.json when the build writes one, else n/a) and, for a platform
# with islands, slurm's waits by job size with and without them; writes
# OUT_DIR/production.csv and production-islands.csv and draws
# OUT_DIR/production.png with gnuplot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-production-study}
exe=$build/batchlab
traces=${BATCHLAB_TRACES:-$src/traces}
fh2_jobs=${PS_FH2_JOBS:-20000}
[ -x "$exe" ] || { echo "production-study: $exe is missing; build first" >&2; exit 1; }
mkdir -p "$out"

configs="easy easy-sjf easy-user2 easy++ cons-user2 slurm slurm-fs slurm-fs-keep slurm-noisl"
policy_args() {
    case $1 in
        easy) echo "--policy easy" ;;
        easy-sjf) echo "--policy easy --policy-opt backfill_order=sjf" ;;
        easy-user2) echo "--policy easy --policy-opt predictor=user2" ;;
        easy++) echo "--policy easy --policy-opt predictor=user2 --policy-opt backfill_order=sjf" ;;
        cons-user2) echo "--policy conservative --policy-opt predictor=user2" ;;
        slurm) echo "--policy slurm" ;;
        slurm-fs) echo "--policy slurm --policy-opt priority_weight_fairshare=10000" \
                       "--policy-opt priority_weight_age=1000" ;;
        slurm-fs-keep) echo "$(policy_args slurm-fs) --policy-opt keep_reservation=yes" ;;
        slurm-noisl) echo "--policy slurm --islands ignore" ;;
    esac
}

# name:platform:workload
logs=()
for spec in "KTH-SP2:kth-sp2.xml:KTH-SP2-1996-2.1-cln.swf" \
            "SDSC-SP2:sdsc-sp2.xml:SDSC-SP2-1998-4.2-cln.swf.gz"; do
    IFS=: read -r name plat file <<< "$spec"
    if [ -f "$traces/$file" ]; then
        logs+=("$name:$src/platforms/$plat:$traces/$file")
    else
        echo "production-study: $traces/$file not found, $name skipped" >&2
    fi
done
if [ -n "${PS_FH2_LOG:-}" ]; then
    logs+=("ForHLR2:$src/platforms/forhlr2.xml:$PS_FH2_LOG")
else
    "$exe" standin forhlr2 --jobs "$fh2_jobs" --seed 1 --load 0.9 -o "$out/fh2-standin.swf" \
        > /dev/null
    logs+=("ForHLR2-standin:$src/platforms/forhlr2.xml:$out/fh2-standin.swf")
fi

tasks=$out/tasks.txt
: > "$tasks"
for l in "${logs[@]}"; do
    for c in $configs; do echo "$l:$c" >> "$tasks"; done
done

run_one() {
    local name plat wl c
    IFS=: read -r name plat wl c <<< "$1"
    # shellcheck disable=SC2046
    # slurm and slurm-noisl keep jobs.csv for the islands table below
    local outputs=summary
    case $c in slurm | slurm-noisl) outputs=summary,jobs ;; esac
    "$exe" run --platform "$plat" --workload "$wl" $(policy_args "$c") -q \
        --out "$out/runs/$name-$c" --outputs "$outputs" > /dev/null
}
export -f run_one policy_args
export exe out
if command -v parallel > /dev/null; then
    parallel -j "${PS_JOBS:-2}" run_one :::: "$tasks"
else
    while read -r t; do run_one "$t"; done < "$tasks"
fi

# One CSV line per run from summary.json. Keys are read by name; the
# log_agreement object's keys are read inside it only.
csv=$out/production.csv
echo "log,config,wait_mean_s,bsld_mean,utilization,pred_ratio_mean,pred_under,agree_jobs,agree_mae_s,agree_spearman" > "$csv"
while IFS=: read -r name plat wl c; do
    f=$out/runs/$name-$c/summary.json
    awk -v l="$name" -v c="$c" '
        function num(s) { sub(/^[^:]*:[ ]*/, "", s); sub(/,?[ ]*$/, "", s); return s }
        /"log_agreement"[ ]*:[ ]*\{/ { inla = 1; next }
        inla && /\}/ { inla = 0 }
        inla && /"jobs"/ { aj = num($0) }
        inla && /"wait_mae_s"/ { am = num($0) }
        inla && /"wait_spearman"/ { as = num($0) }
        /"wait_mean_s"/ && !inla && w == "" { w = num($0) }
        /"bounded_slowdown_mean"/ { b = num($0) }
        /"utilization"/ && u == "" { u = num($0) }
        /"policy_report"/ {
            if (match($0, /pred_ratio_mean=[0-9.e+-]+/)) pr = substr($0, RSTART + 16, RLENGTH - 16)
            if (match($0, /pred_under=[0-9.e+-]+/)) pu = substr($0, RSTART + 11, RLENGTH - 11)
        }
        END {
            if (pr == "") pr = "n/a"; if (pu == "") pu = "n/a"
            if (aj == "") aj = "n/a"; if (am == "") am = "n/a"; if (as == "") as = "n/a"
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", l, c, w, b, u, pr, pu, aj, am, as
        }' "$f" >> "$csv"
done < "$tasks"

for l in "${logs[@]}"; do
    name=${l%%:*}
    echo
    echo "== $name"
    printf "%-15s %11s %9s %7s %11s %8s %9s %12s %9s\n" config "wait (h)" bsld util \
        "pred/actual" "under" "agree jobs" "agree MAE h" "spearman"
    awk -F, -v l="$name" '
        function h(x) { return x == "n/a" ? x : sprintf("%.2f", x / 3600) }
        function r(x) { return x == "n/a" || x == "null" ? x : sprintf("%.3f", x) }
        $1 == l { printf "%-15s %11.2f %9.2f %7.4f %11s %8s %9s %12s %9s\n", $2, $3 / 3600, $4,
                  $5, $6, $7, $8, h($9), r($10) }' "$csv"
done

# EASY++ against EASY on the logs with users (the paper's question).
echo
echo "== EASY++ (user2 + SJBF) against EASY: mean bounded slowdown"
awk -F, '
    $2 == "easy" { e[$1] = $4 } $2 == "easy++" { p[$1] = $4 }
    $2 == "easy-user2" { u[$1] = $4 } $2 == "easy-sjf" { s[$1] = $4 }
    END {
        for (l in e) if (l ~ /SP2/ && (l in p))
            printf "%-16s easy %.2f  easy-sjf %.2f  easy-user2 %.2f  easy++ %.2f  ratio easy++/easy %.3f -> %s\n",
                   l, e[l], s[l], u[l], p[l], p[l] / e[l], p[l] < e[l] ? "lower, as the paper found" : "NOT lower"
    }' "$csv" | sort
echo "(paper: Tsafrir, Etsion & Feitelson 2007 report EASY++ below EASY in bounded slowdown on these logs;"
echo " its numbers are not available here: only the direction is compared)"

# What the islands cost, on the platforms whose hosts name islands
# (forhlr2.xml: 816 + 336 nodes): slurm under --islands strict against
# ignore, per job size in nodes, over the jobs of the islands' pool (queue
# 1): a job of 337-816 nodes fits island a only, a larger one spans both.
isl_csv=$out/production-islands.csv
echo "log,config,size,jobs,wait_mean_s,bsld_mean" > "$isl_csv"
for l in "${logs[@]}"; do
    IFS=: read -r name plat wl <<< "$l"
    grep -q '<prop id="island"' "$plat" || continue
    for c in slurm slurm-noisl; do
        awk -F, -v l="$name" -v c="$c" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $col["queue"] == 1 {
                n = $col["requested_number_of_resources"]
                k = n <= 1 ? "1" : n <= 16 ? "2-16" : n <= 336 ? "17-336" : n <= 816 ? "337-816" : ">816"
                cnt[k]++; w[k] += $col["waiting_time"]; b[k] += $col["bounded_slowdown"]
            }
            END {
                split("1 2-16 17-336 337-816 >816", K, " ")
                for (i = 1; i <= 5; i++) if (cnt[K[i]])
                    printf "%s,%s,%s,%d,%.1f,%.4f\n", l, c, K[i], cnt[K[i]], w[K[i]] / cnt[K[i]],
                           b[K[i]] / cnt[K[i]]
            }' "$out/runs/$name-$c/jobs.csv" >> "$isl_csv"
    done
    echo
    echo "== $name: what the islands cost (slurm, --islands strict against ignore, queue 1)"
    printf "%-8s %7s %15s %15s %11s %11s\n" nodes jobs "wait strict h" "wait ignore h" \
        "bsld strict" "bsld ignore"
    awk -F, -v l="$name" '
        $1 == l && $2 == "slurm" { n[$3] = $4; ws[$3] = $5; bs[$3] = $6; o[++m] = $3 }
        $1 == l && $2 == "slurm-noisl" { wi[$3] = $5; bi[$3] = $6 }
        END { for (i = 1; i <= m; i++) { k = o[i]
              printf "%-8s %7d %15.2f %15.2f %11.2f %11.2f\n", k, n[k], ws[k] / 3600,
                     wi[k] / 3600, bs[k], bi[k] } }' "$isl_csv"
done

if command -v gnuplot > /dev/null; then
    # Wide table: one row per config; per log its wait and bounded slowdown
    # relative to EASY's on that log, its utilization and its agreement with
    # the log (Spearman's rho of the waits; NaN where the log has none).
    dat=$out/production.dat
    names=()
    for l in "${logs[@]}"; do names+=("${l%%:*}"); done
    awk -F, -v names="${names[*]}" -v configs="$configs" '
        NR > 1 { w[$1, $2] = $3; b[$1, $2] = $4; u[$1, $2] = $5
                 r[$1, $2] = ($10 == "n/a" || $10 == "null") ? "NaN" : $10 }
        END {
            n = split(names, L, " "); m = split(configs, C, " ")
            printf "# config"
            for (i = 1; i <= n; i++) printf " %s_w %s_b %s_u %s_rho", L[i], L[i], L[i], L[i]
            printf "\n"
            for (k = 1; k <= m; k++) {
                printf "%s", C[k]
                for (i = 1; i <= n; i++)
                    printf " %.4f %.4f %.4f %s", w[L[i], C[k]] / w[L[i], "easy"],
                           b[L[i], C[k]] / b[L[i], "easy"], u[L[i], C[k]], r[L[i], C[k]]
                printf "\n"
            }
        }' "$csv" > "$dat"
    # the logs with logged waits (the agreement panel draws only those)
    agree=$(awk -F, -v names="${names[*]}" '
        NR > 1 && $10 != "n/a" && $10 != "null" { has[$1] = 1 }
        END { n = split(names, L, " "); for (i = 1; i <= n; i++) if (has[L[i]]) printf "%d ", i }' "$csv")
    gnuplot -e "dat='$dat'; png='$out/production.png'; names='${names[*]}'; agree='$agree'" \
        "$here/production-study.gp"
    echo
    echo "figure: $out/production.png"
fi
echo "runs: $csv"
