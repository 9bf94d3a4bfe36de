#!/usr/bin/env bash
# log-agreement.sh — how close do replays come to the waits their machine
# logged? Starting from today's easy and slurm, each mechanism that makes a
# replay look like its machine is added alone, then all together, and
# summary.json's log_agreement (logged against simulated waits, job by job)
# is written for each run.
#
#   bench/log-agreement.sh [--mechanisms LIST] [BUILD_DIR] [OUT_DIR]
#
# LIST is a comma-separated subset of feedback,queues,limits,reservations,
# calendar,memory (default: all of them); `none` (the baseline) and `all` (every
# mechanism of LIST that applies to the log) are always run. A mechanism
# this build lacks (reservations: run --reservations; memory: a platform
# memory property) is skipped with a note, and so is one the log gives
# nothing for: its rows say NA.
#
# Logs: KTH-SP2-1996-2.1-cln.swf and SDSC-SP2-1998-4.2-cln.swf.gz from
# $BATCHLAB_TRACES (default traces/, where tools/fetch-trace puts them); a
# missing log is skipped with a note. Baselines: easy, and slurm at
# slurm.conf's defaults, on platforms/kth-sp2.xml (100 nodes of 1 core) and
# platforms/sdsc-sp2.xml (128 nodes of 1 core), --walltime kill.
#
# The configuration, one per log, fixed before any run and derived only
# from the log's header and fields (never chosen for the waits it gives;
# no choice here was revisited after a run):
#
#   feedback      --feedback sessions, on both logs: a job submitted by the
#                 same user within 20 minutes of that user's previous end
#                 follows it, its think time after its simulated end
#                 (Zakay & Feitelson 2013, 2014; engine/eng_feedback.h).
#                 Neither log fills SWF fields 17 and 18.
#   queues        KTH-SP2: not applicable. Its header has no Queue line and
#                 field 15 is -1 for every job.
#                 SDSC-SP2: the platform `batchlab platform --from-log`
#                 writes from the header (MaxNodes 128 = MaxProcs 128: 128
#                 hosts of 1 core, every host serving every queue: the
#                 header names 7 queues and gives no node sets), with
#                 queue_limits added per queue from the log's own maxima:
#                 max_runtime_s the longest requested time (field 9) and
#                 max_nodes the most processors (field 8, else 5) of the
#                 queue's jobs. The header gives no limits; these are the
#                 tightest the log is consistent with, so they drop nothing
#                 and only give the jobs without a request their queue's
#                 time. Under slurm, the queues' names as priority tiers
#                 (priority_weight_partition=1000, partition_job_factor):
#                 express 5, high 4, normal 3, low 2, standby 1, and 3
#                 (normal's) for interactive and No_Class, whose names give
#                 no rank. easy has no priority: the limits only.
#   limits        slurm only (per-user limits are slurm options; easy: NA).
#                 On each log, from its fields 2, 3, 4, 5/8 and 12, the
#                 largest any user reached at once in the log:
#                 max_jobs_per_user = jobs running, max_submit_jobs_per_user
#                 = jobs submitted and not ended, max_tres_per_user=node=N =
#                 nodes held (processors: 1 core a node on both). The
#                 tightest limits the log is consistent with (computed by
#                 this script and printed; jobs without a logged wait or run
#                 time are left out of the count).
#   reservations  the candidate outages `batchlab info --outages LOG` lists
#                 (its default --min-gap), as a reservations file for `run
#                 --reservations`, where the build has both.
#   calendar      KTH-SP2: platforms/kth-sp2-calendar.txt, the machine's
#                 rules by time of day as the Parallel Workloads Archive's
#                 description of the log gives them (synchronization points
#                 at 07:00 and 16:00 on weekdays until 6 June 1997; 4 h by
#                 day, 15 h on weekday nights, 60 h at weekends until 15
#                 July), each reading said in the file. Not from the SWF
#                 header: from the log's documentation. Added after the
#                 first table showed the long jobs' waits short and their
#                 starts bunched in the evening (the search for a cause was
#                 prompted by the gap; the rules and the clock's reading
#                 come from the documentation and the start times, not the
#                 waits). With reservations in `all`, both files are given
#                 as one (the outages' and the synchronization points'
#                 maintenances that overlap merge).
#                 SDSC-SP2: not applicable, no such rule is documented.
#   memory        not applicable on both logs: field 10 (requested memory)
#                 is -1 for every job and the headers give no memory.
#
# Writes OUT_DIR/agreement.csv (log,mechanisms,wait_mean_log,wait_mean_sim,
# wait_mae_s,spearman,baseline; NA where a mechanism does not apply), the
# notes on what was skipped and why in OUT_DIR/agreement-notes.txt, where
# the gap lies in OUT_DIR/agreement-classes.csv (per class of logged run
# time, logged and simulated mean wait, for none and all) and when the
# real machine started its jobs in OUT_DIR/agreement-start-hours.csv (per
# class, the share started in each hour of the local day), and prints the
# table with the ratio simulated / logged and a summary of both.
#
# Two checks of what is left (easy with all mechanisms): in
# OUT_DIR/agreement-self.csv (log,baseline,jitter_s,jobs,spearman_self) the
# Spearman ρ between that replay's waits and the same replay's on the log
# with each run time moved by a uniform draw in [-30, 30] s (awk's srand(1);
# KTH logs whole minutes): how far per-job waits agree when only the log's
# resolution differs, an upper bound no model of the machine beats by much;
# and in OUT_DIR/agreement-periods.csv (log,baseline,period,jobs,spearman)
# ρ against the log by period of submission, the periods cut at the Until=
# times of the log's calendar file (where it has one).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
mechs="feedback,queues,limits,reservations,calendar,memory"
args=()
while [ $# -gt 0 ]; do
    case $1 in
    --mechanisms)
        [ $# -ge 2 ] || { echo "log-agreement: --mechanisms needs a list" >&2; exit 2; }
        mechs=$2
        shift 2
        ;;
    --mechanisms=*) mechs=${1#--mechanisms=}; shift ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) args+=("$1"); shift ;;
    esac
done
build=${args[0]:-$src/build}
out=${args[1]:-/tmp/batchlab-log-agreement}
exe=$build/batchlab
traces=${BATCHLAB_TRACES:-$src/traces}
[ -x "$exe" ] || { echo "log-agreement: $exe is missing; build first" >&2; exit 1; }
IFS=, read -r -a want <<< "$mechs"
for m in "${want[@]}"; do
    case $m in
    feedback | queues | limits | reservations | calendar | memory) ;;
    *) echo "log-agreement: --mechanisms: unknown mechanism '$m' (feedback, queues, limits, reservations, calendar, memory)" >&2; exit 2 ;;
    esac
done
mkdir -p "$out/runs"
notes=$out/agreement-notes.txt
: > "$notes"
note() { echo "$*" | tee -a "$notes" >&2; }

has_reservations=no
"$exe" run --help 2>&1 | grep -q -- "--reservations" && has_reservations=yes
has_outages=no
"$exe" info --help 2>&1 | grep -q -- "--outages" && has_outages=yes

cat_log() { case $1 in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }

# The largest number of running jobs, submitted jobs and held nodes any one
# user reached at once in the log: "JOBS SUBMIT NODES". Ends come before
# starts at the same second.
user_maxima() {
    cat_log "$1" | awk '!/^;/ && NF >= 18 {
        s = $2; w = $3; r = $4; p = ($8 > 0 ? $8 : $5); u = $12
        if (s < 0 || w < 0 || r < 0 || u < 0 || p <= 0) next
        st = s + w; en = st + r
        printf "R %d %.0f 1 1 %d\n", u, st, p
        printf "R %d %.0f 0 -1 %d\n", u, en, -p
        printf "S %d %.0f 1 1 0\n", u, s
        printf "S %d %.0f 0 -1 0\n", u, en
    }' | sort -k1,1 -k2,2n -k3,3n -k4,4n | awk '
        { key = $1 " " $2
          if (key != prev) { cj = 0; cn = 0; prev = key }
          cj += $5; cn += $6
          if ($1 == "R" && cj > mj) mj = cj
          if ($1 == "R" && cn > mn) mn = cn
          if ($1 == "S" && cj > ms) ms = cj }
        END { printf "%d %d %d\n", mj, ms, mn }'
}

# "QUEUE:max_runtime_s=S,max_nodes=N ..." from each queue's jobs.
queue_maxima() {
    cat_log "$1" | awk '!/^;/ && NF >= 18 && $15 >= 0 {
        q = $15; p = ($8 > 0 ? $8 : $5)
        if (!(q in seen)) { seen[q] = 1; order[n++] = q }
        if ($9 > t[q]) t[q] = $9
        if (p > m[q]) m[q] = p
    } END {
        for (i = 0; i < n; i++) {
            q = order[i]; e = q ":"
            if (t[q] > 0) e = e "max_runtime_s=" t[q]
            if (m[q] > 0) e = e (t[q] > 0 ? "," : "") "max_nodes=" m[q]
            if (e != q ":") printf "%s%s", (k++ ? " " : ""), e
        }
        printf "\n"
    }' | tr ' ' '\n' | sort -t: -k1,1n | paste -sd' '
}

in_list() { case ",$mechs," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# Spearman's ρ of the "x y" lines on stdin (average ranks for ties), and
# their number: "RHO N".
spearman() {
    sort -g -k1,1 | awk '{ v[NR] = $1; l[NR] = $0 }
        END { for (i = 1; i <= NR; i = j + 1) { for (j = i; j < NR && v[j + 1] == v[i]; j++) ;
                  for (k = i; k <= j; k++) print (i + j) / 2, l[k] } }' |
        sort -g -k3,3 | awk '{ v[NR] = $3; l[NR] = $1 }
        END { for (i = 1; i <= NR; i = j + 1) { for (j = i; j < NR && v[j + 1] == v[i]; j++) ;
                  for (k = i; k <= j; k++) print l[k], (i + j) / 2 } }' |
        awk '{ n++; sx += $1; sy += $2; sxx += $1 * $1; syy += $2 * $2; sxy += $1 * $2 }
        END { d = sqrt((sxx - sx * sx / n) * (syy - sy * sy / n))
              printf "%.4f %d\n", (d > 0 ? (sxy - sx * sy / n) / d : 0), n }'
}

# The waits of two runs' jobs.csv, job by job: "WAIT_A WAIT_B" lines.
pair_waits() { # JOBS_A JOBS_B
    awk -F, 'FNR == 1 { next } FNR == NR { w[$1] = $12; next } ($1 in w) { print w[$1], $12 }' "$1" "$2"
}

# Logged and simulated waits of the jobs submitted in [LO, HI): lines
# "LOGGED SIMULATED".
period_waits() { # LOG JOBS LO HI
    cat_log "$1" | awk -F, -v lo="$3" -v hi="$4" '
        FNR == NR { split($0, f, " "); if ($0 ~ /^;/ || f[3] == "" || f[3] < 0) next
                    if (f[2] >= lo && f[2] < hi) w[f[1]] = f[3]; next }
        FNR > 1 && ($1 in w) { print w[$1], $12 }' - "$2"
}
self_csv=$out/agreement-self.csv
echo "log,baseline,jitter_s,jobs,spearman_self" > "$self_csv"
periods_csv=$out/agreement-periods.csv
echo "log,baseline,period,jobs,spearman" > "$periods_csv"

csv=$out/agreement.csv
echo "log,mechanisms,wait_mean_log,wait_mean_sim,wait_mae_s,spearman,baseline" > "$csv"

# log_agreement of one run's summary.json, as "log sim mae rho".
agreement() {
    awk 'function num(s) { sub(/^[^:]*:[ ]*/, "", s); sub(/,?[ ]*$/, "", s); return s }
        /"log_agreement"[ ]*:[ ]*\{/ { inla = 1; next }
        inla && /\}/ { inla = 0 }
        inla && /"wait_mean_log"/ { l = num($0) }
        inla && /"wait_mean_sim"/ { s = num($0) }
        inla && /"wait_mae_s"/ { m = num($0) }
        inla && /"wait_spearman"/ { r = num($0) }
        END { if (l == "") l = "NA"; if (s == "") s = "NA"; if (m == "") m = "NA"; if (r == "") r = "NA"
              print l, s, m, r }' "$1"
}

# Where the gap lies: per class of logged run time (summary.json's
# breakdown bounds: < 10 min, 10 min-1 h, 1-10 h, >= 10 h), the jobs, their
# mean logged wait (field 3) and mean simulated wait (jobs.csv), as CSV rows
# "log,baseline,mechanisms,class,jobs,wait_mean_log,wait_mean_sim".
classes_csv=$out/agreement-classes.csv
echo "log,baseline,mechanisms,runtime_class,jobs,wait_mean_log,wait_mean_sim" > "$classes_csv"
rt_class='function cls(r) { return r < 600 ? "<10min" : r < 3600 ? "10min-1h" : r < 36000 ? "1h-10h" : ">10h" }'
by_class() { # LOG JOBS_CSV NAME BASE MECHANISMS
    cat_log "$1" | awk -F, -v n="$3" -v b="$4" -v m="$5" "$rt_class"'
        FNR == NR { split($0, f, " "); if ($0 ~ /^;/ || f[4] == "") next
                    w[f[1]] = f[3]; r[f[1]] = f[4]; next }
        FNR > 1 && ($1 in w) && w[$1] >= 0 { c = cls(r[$1]); k[c]++; L[c] += w[$1]; S[c] += $12 }
        END { split("<10min 10min-1h 1h-10h >10h", o, " ")
              for (i = 1; i <= 4; i++) if (k[o[i]])
                  printf "%s,%s,%s,%s,%d,%.0f,%.0f\n", n, b, m, o[i], k[o[i]], L[o[i]] / k[o[i]], S[o[i]] / k[o[i]] }' \
        - "$2" >> "$classes_csv"
}
# When jobs started on the real machine: per class of run time, the share
# of its jobs that started in each hour of the local day (the header's
# UnixStartTime and TimeZone; start = submit + wait, fields 2 and 3), as
# rows "log,runtime_class,hour,jobs,share". A rule by time of day (long
# jobs held until evening, as prime-time rules do) shows as a peak.
hours_csv=$out/agreement-start-hours.csv
echo "log,runtime_class,hour,jobs,share" > "$hours_csv"
start_hours() { # LOG NAME
    cat_log "$1" | awk -v n="$2" "$rt_class"'
        /^;[[:space:]]*UnixStartTime:/ { u = $3 } /^;[[:space:]]*TimeZone:/ { tz = $3 }
        !/^;/ && NF >= 5 && $2 >= 0 && $3 >= 0 && $4 >= 0 {
            h = int(((u + tz + $2 + $3) % 86400) / 3600); c = cls($4); k[c, h]++; t[c]++ }
        END { split("<10min 10min-1h 1h-10h >10h", o, " ")
              for (i = 1; i <= 4; i++) for (h = 0; h < 24; h++) if (t[o[i]])
                  printf "%s,%s,%d,%d,%.4f\n", n, o[i], h, k[o[i], h], k[o[i], h] / t[o[i]] }' >> "$hours_csv"
}

for spec in "KTH-SP2:KTH-SP2-1996-2.1-cln.swf:kth-sp2.xml" \
            "SDSC-SP2:SDSC-SP2-1998-4.2-cln.swf.gz:sdsc-sp2.xml"; do
    IFS=: read -r name file plat <<< "$spec"
    log=$traces/$file
    if [ ! -f "$log" ]; then
        note "$name: $log absent: skipped (tools/fetch-trace $file, or BATCHLAB_TRACES=DIR)"
        continue
    fi
    platform=$src/platforms/$plat
    start_hours "$log" "$name"
    read -r mj ms mn <<< "$(user_maxima "$log")"
    limits_opts="--policy-opt max_jobs_per_user=$mj --policy-opt max_submit_jobs_per_user=$ms --policy-opt max_tres_per_user=node=$mn"
    echo "== $name: per-user maxima in the log: $mj running, $ms submitted, $mn nodes" >&2
    # queues: only where the log has queues (field 15)
    qlim=$(queue_maxima "$log")
    qplat=""
    if [ -n "$qlim" ] && cat_log "$log" | awk '/^;[[:space:]]*Queue:/ { f = 1 } END { exit !f }'; then
        qplat=$out/$name-queues.xml
        "$exe" platform --from-log "$log" -o "$out/$name-from-log.xml" > /dev/null
        sed "s|<prop id=\"ref_speed\" value=\"1Gf\"/>|&\n    <prop id=\"queue_limits\" value=\"$qlim\"/>|" \
            "$out/$name-from-log.xml" > "$qplat"
        echo "== $name: queue_limits from the log's maxima: $qlim" >&2
    fi
    resv=""
    if [ "$has_reservations" = yes ] && [ "$has_outages" = yes ]; then
        resv=$out/$name-outages.txt
        "$exe" info --outages "$log" > "$resv"
    fi
    for base in easy slurm; do
        all_args=""
        all_resv=""
        all_plat=$platform
        runs="none"
        for m in feedback queues limits reservations calendar memory; do
            in_list "$m" || continue
            why=""
            case $m in
            feedback) margs="--feedback sessions" ;;
            queues)
                if [ -z "$qplat" ]; then why="the header has no Queue line and field 15 is -1"; fi
                margs=""
                [ "$base" = slurm ] && margs="--policy-opt priority_weight_partition=1000 --policy-opt partition_job_factor=0:3,1:5,2:4,3:3,4:2,5:1,6:3"
                ;;
            limits)
                [ "$base" = slurm ] || why="per-user limits are slurm options"
                margs=$limits_opts
                ;;
            reservations)
                if [ "$has_reservations" != yes ] || [ "$has_outages" != yes ]; then
                    why="this build has no run --reservations or info --outages"
                elif [ ! -s "$resv" ]; then
                    why="info --outages lists no candidate outage"
                fi
                margs="--reservations $resv"
                ;;
            calendar)
                cal=$src/platforms/$(echo "$name" | tr 'A-Z' 'a-z')-calendar.txt
                if [ ! -f "$cal" ]; then
                    why="no rule by time of day is documented for this log"
                elif [ "$has_reservations" != yes ]; then
                    why="this build has no run --reservations"
                fi
                margs="--reservations $cal"
                ;;
            memory) why="field 10 is -1 for every job and the header gives no memory" ;;
            esac
            if [ -n "$why" ]; then
                note "$name $base $m: not applicable: $why"
                echo "$name,$m,NA,NA,NA,NA,$base" >> "$csv"
                continue
            fi
            runs="$runs $m"
            case $m in
            reservations) all_resv="$all_resv $resv" ;;
            calendar) all_resv="$all_resv $cal" ;;
            *) all_args="$all_args $margs" ;;
            esac
            [ "$m" = queues ] && all_plat=$qplat
            eval "args_$m=\"\$margs\""
        done
        # all: the outages and the calendar as one reservations file
        if [ -n "$all_resv" ]; then
            # shellcheck disable=SC2086
            cat $all_resv > "$out/$name-all-reservations.txt"
            all_args="$all_args --reservations $out/$name-all-reservations.txt"
        fi
        runs="$runs all"
        [ "$base" = easy ] && { easy_all_args=$all_args; easy_all_plat=$all_plat; }
        for r in $runs; do
            case $r in
            none) rargs=""; rplat=$platform ;;
            all) rargs=$all_args; rplat=$all_plat ;;
            *) eval "rargs=\$args_$r"; rplat=$platform; [ "$r" = queues ] && rplat=$qplat ;;
            esac
            dir=$out/runs/$name-$base-$r
            # shellcheck disable=SC2086
            "$exe" run --platform "$rplat" --workload "$log" --policy "$base" $rargs \
                --out "$dir" > "$dir.log" 2>&1 || { echo "log-agreement: $name $base $r failed (see $dir.log)" >&2; exit 1; }
            read -r wl ws wm wr <<< "$(agreement "$dir/summary.json")"
            echo "$name,$r,$wl,$ws,$wm,$wr,$base" >> "$csv"
            case $r in none|all) by_class "$log" "$dir/jobs.csv" "$name" "$base" "$r" ;; esac
        done
    done
    # what is left: easy with all mechanisms against itself on the log's
    # run times jittered within its resolution, and against the log by
    # period of the calendar
    ref=$out/runs/$name-easy-all/jobs.csv
    jlog=$out/$name-jittered.swf
    cat_log "$log" | awk 'BEGIN { srand(1) } /^;/ { print; next }
        NF >= 18 && $4 > 0 { $4 = int($4 + (2 * rand() - 1) * 30 + 0.5); if ($4 < 1) $4 = 1 } { print }' > "$jlog"
    dir=$out/runs/$name-easy-all-jittered
    # shellcheck disable=SC2086
    "$exe" run --platform "$easy_all_plat" --workload "$jlog" --policy easy $easy_all_args \
        --out "$dir" > "$dir.log" 2>&1 || { echo "log-agreement: $name jittered failed (see $dir.log)" >&2; exit 1; }
    read -r rho n <<< "$(pair_waits "$ref" "$dir/jobs.csv" | spearman)"
    echo "$name,easy,30,$n,$rho" >> "$self_csv"
    cal=$src/platforms/$(echo "$name" | tr 'A-Z' 'a-z')-calendar.txt
    cuts=0
    [ -f "$cal" ] && cuts="0 $(grep -o 'Until=[0-9.]*' "$cal" | cut -d= -f2 | sort -g -u | paste -sd' ')"
    lo=""
    for c in $cuts inf; do
        if [ -n "$lo" ]; then
            read -r rho n <<< "$(period_waits "$log" "$ref" "$lo" "$c" | spearman)"
            echo "$name,easy,[$lo;$c),$n,$rho" >> "$periods_csv"
        fi
        lo=$c
    done
done

# Rows by log, baseline, then none, each mechanism, all.
{
    head -1 "$csv"
    tail -n +2 "$csv" | awk -F, '{
        split("none feedback queues limits reservations calendar memory all", o, " ")
        for (i in o) if (o[i] == $2) r = i
        if (!($1 in lo)) lo[$1] = ++nl
        printf "%d %s %d %s\n", lo[$1], $7, r, $0 }' | sort -k1,1n -k2,2 -k3,3n | cut -d' ' -f4-
} > "$csv.tmp" && mv "$csv.tmp" "$csv"

echo
printf "%-9s %-6s %-13s %10s %10s %6s %10s %7s\n" log base mechanisms "log (h)" "sim (h)" ratio "MAE (h)" rho
tail -n +2 "$csv" | while IFS=, read -r l m wl ws wm wr b; do
    if [ "$wl" = NA ]; then
        printf "%-9s %-6s %-13s %10s %10s %6s %10s %7s\n" "$l" "$b" "$m" NA NA NA NA NA
    else
        awk -v l="$l" -v b="$b" -v m="$m" -v wl="$wl" -v ws="$ws" -v wm="$wm" -v wr="$wr" 'BEGIN {
            printf "%-9s %-6s %-13s %10.2f %10.2f %6.2f %10.2f %7.3f\n", l, b, m, wl / 3600, ws / 3600, ws / wl, wm / 3600, wr }'
    fi
done
echo
echo "simulated / logged mean wait by logged run time (none -> all):"
awk -F, 'NR > 1 { k = $1 " " $2 " " $4; if (!(k in seen)) { seen[k] = 1; ord[n++] = k }
                  v[k, $3] = sprintf("%.2f", $7 / ($6 > 0 ? $6 : 1)); j[k] = $5 }
         END { for (i = 0; i < n; i++) printf "  %-28s %6d jobs  %s -> %s\n", ord[i], j[ord[i]], v[ord[i], "none"], v[ord[i], "all"] }' "$classes_csv"
echo "peak start hour of the jobs running 10 h or more (local time):"
awk -F, 'NR > 1 && $2 == ">10h" && $5 > best[$1] { best[$1] = $5; hr[$1] = $3 }
         END { for (l in best) printf "  %s: %.1f %% of them started at %02d:00-%02d:59\n", l, 100 * best[l], hr[l], hr[l] }' "$hours_csv" | sort
echo
echo "easy, all mechanisms: against itself on run times jittered by up to 30 s, and by period:"
tail -n +2 "$self_csv" | awk -F, '{ printf "  %-9s self rho %s (%d jobs)\n", $1, $5, $4 }'
tail -n +2 "$periods_csv" | awk -F, '{ printf "  %-9s submitted in %s s: rho %s (%d jobs)\n", $1, $3, $5, $4 }'
echo
echo "wrote $csv, $classes_csv, $hours_csv, $self_csv, $periods_csv and $notes"
