#!/usr/bin/env bash
# Replay performance: each policy against the floor, a bare SimGrid replay
# of the same jobs (bench/bare_replay: the log's own schedule, one actor per
# job sleeping as long as its slowest host takes, no scheduling policy).
#
#   bench/replay-perf.sh [BUILD_DIR] [REPETITIONS]
#   BENCH_CASES="sp2 forhlr2 wide saturated slots million" bench/replay-perf.sh ...
#   BENCH_INSTRUCTIONS=1 bench/replay-perf.sh [BUILD_DIR]
#
# Cases (BENCH_CASES, all by default):
#   sp2        KTH-SP2 and SDSC-SP2 from $BATCHLAB_TRACES (default traces/,
#              where tools/fetch-trace puts them; a missing log is skipped
#              with a note): fcfs, easy, conservative.
#   forhlr2    the ForHLR II stand-in, 100 000 jobs at load 0.9 on
#              platforms/forhlr2.xml (1 152 nodes x 20 cores, whole nodes).
#   wide       about 300 000 Lublin-Feitelson jobs for 80 000 processors,
#              rescaled to load 0.9 on 5 000 nodes x 16 cores, --alloc core.
#   saturated  100 000 mostly serial jobs (SerialProb 0.85) with requested
#              times rounded up to walltime classes, at load 1.5 on 1 024
#              nodes x 8 cores, whole nodes: the queue never drains. EASY and
#              conservative (the floor has no queue to compare with), then
#              once conservative:compress=plain, the reference compression
#              (release, re-place, reserve every waiting job; the same
#              schedule), to show what the indexed compression saves. Then
#              BENCH_ALTERNATE rounds (default 5; 0: none) of one EASY and
#              one conservative run in turn, whose medians a loaded machine
#              disturbs less than REPS runs of one policy after the other.
#              With BENCH_BASE=OTHER_BUILD_DIR each round also runs EASY
#              and conservative of that build (e.g. the code before a
#              change), so that both builds share the machine's load.
#   slots      SDSC-SP2: EASY, alp and amp (ratios to EASY).
#   million    the ForHLR II stand-in at 125 000, 250 000, 500 000 and
#              1 000 000 jobs (load 0.9), EASY once each: wall time and
#              memory per job, to show that the cost grows linearly.
#
# Prints, per log and variant, the median over the repetitions of the
# simulation's wall time, jobs per second and peak resident memory, the
# memory per job, and the ratio of wall times to the floor (saturated: to
# EASY; slots: to EASY) and, where the base is a batchlab run, the ratio of
# CPU times (user + system, whole process; "x cpu"). Wall times on a shared or virtual machine can vary by 50 % from run
# to run; with BENCH_INSTRUCTIONS=1 the script instead counts the
# instructions of each whole process (parent and simulation child) of the
# SP2 logs under valgrind's callgrind, which gives the same numbers every
# time (about 50x slower). Targets (bench/README.md "Replay performance"):
# EASY and conservative within 2x of the floor on forhlr2 and wide, 1.2x on
# the SP2 logs, conservative within 3x of EASY on saturated, alp and amp
# within 3x of EASY on SDSC-SP2 (slots), at most 1 KB per job everywhere. Generated logs go to a temporary folder, removed at exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
reps=${2:-3}
traces=${BATCHLAB_TRACES:-$src/traces}
cases=${BENCH_CASES:-sp2 forhlr2 wide saturated slots million}
exe=$build/batchlab
bare=$build/bench/bare_replay
for f in "$exe" "$bare"; do
    [ -x "$f" ] || { echo "replay-perf: $f is missing; build first (tools/test or cmake --build build)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
median_of() { tr ' ' '\n' <<< "$1" | grep . | median; } # of a space-separated list

# Instructions of a command and of every process it forks, under callgrind.
instructions() {
    local dir
    dir=$(mktemp -d)
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" "$@" > /dev/null 2>&1
    awk '/^summary:/ {s += $2} END {printf "%.0f\n", s}' "$dir"/cg.*
    rm -rf "$dir"
}

if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
    command -v valgrind > /dev/null || { echo "replay-perf: valgrind is needed for BENCH_INSTRUCTIONS=1" >&2; exit 1; }
    printf '%-30s %-14s %16s %10s\n' log variant instructions "x floor"
    for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
                "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
        log=${spec%%:*}
        platform=$src/${spec#*:}
        path=$traces/$log
        [ -r "$path" ] || { echo "$log: not in $traces, skipped"; continue; }
        base=$(instructions "$bare" "$platform" "$path")
        printf '%-30s %-14s %16s %10s\n' "$log" "floor" "$base" 1.00
        for policy in fcfs easy conservative; do
            n=$(instructions "$exe" run --platform "$platform" --workload "$path" --policy "$policy" -q)
            awk -v l="$log" -v p="$policy" -v n="$n" -v b="$base" \
                'BEGIN {printf "%-30s %-14s %16s %10.2f\n", l, p, n, n / b}'
        done
    done
    exit 0
fi

# Two generated machines (SimGrid clusters, nominal speeds).
cluster() { # FILE ID NODES CORES
    cat > "$1" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="$2" routing="Full">
    <prop id="ref_speed" value="1Gf"/>
    <cluster id="$2-nodes" prefix="n-" suffix="" radical="1-$3" speed="1Gf" core="$4"
             bw="10GBps" lat="1us"/>
  </zone>
</platform>
EOF
}

printf '%-24s %-14s %10s %8s %12s %10s %8s %10s %8s\n' log variant "wall s" "cpu s" "jobs/s" \
    "peak MB" "KB/job" "x floor" "x cpu"

# CPU seconds (user + system) of a command, whole process tree, into $tmp/cpu.
timed() {
    if command -v /usr/bin/time > /dev/null; then
        /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$@"
    else
        "$@" && echo "0 0" > "$tmp/cpu"
    fi
}

# One batchlab variant, REPS times: prints the median line; sets $last_wall
# and $last_cpu. With $cpu_base set (the base variant's $last_cpu), also
# the ratio of CPU times, which a shared machine disturbs less than wall
# times.
variant() { # LABEL NAME PLATFORM LOG BASE_WALL JOBS [run options...]
    local label=$1 name=$2 platform=$3 path=$4 base=$5 jobs=$6
    shift 6
    local walls=() rss=() cpus=() out sim
    for ((i = 0; i < reps; i++)); do
        out=$(timed "$exe" run --platform "$platform" --workload "$path" -q "$@")
        sim=$(grep '^  simulation' <<< "$out")
        walls+=("$(awk '{print $2}' <<< "$sim")")
        rss+=("$(sed 's/.*peak memory \([0-9.]*\) MB.*/\1/' <<< "$sim")")
        cpus+=("$(awk '{print $1 + $2}' "$tmp/cpu")")
    done
    last_wall=$(printf '%s\n' "${walls[@]}" | median)
    last_cpu=$(printf '%s\n' "${cpus[@]}" | median)
    local mb
    mb=$(printf '%s\n' "${rss[@]}" | median)
    awk -v l="$label" -v p="$name" -v w="$last_wall" -v c="$last_cpu" -v m="$mb" -v n="$jobs" \
        -v b="$base" -v cb="${cpu_base:-0}" 'BEGIN {
        printf "%-24s %-14s %10.3f %8.2f %12.0f %10.1f %8.2f %10s %8s\n", l, p, w, c, n / w, m,
               m * 1024 / n, (b > 0 ? sprintf("%.2f", w / b) : "-"),
               (cb > 0 ? sprintf("%.2f", c / cb) : "-") }'
}

# ROUNDS rounds of one EASY and one conservative run in turn (of this
# build, then of $BENCH_BASE's if set): the medians of each policy's
# simulation wall time and CPU time, and their ratios, per build.
alternate() { # LABEL PLATFORM LOG ROUNDS
    local label=$1 platform=$2 path=$3 rounds=$4 out sim policy b
    local builds=("$exe") names=(this)
    [ "$rounds" -gt 0 ] || return 0
    if [ -n "${BENCH_BASE:-}" ]; then
        [ -x "$BENCH_BASE/batchlab" ] || { echo "replay-perf: $BENCH_BASE/batchlab is missing" >&2; exit 1; }
        builds+=("$BENCH_BASE/batchlab") names+=("base ($BENCH_BASE)")
    fi
    local -a e_walls e_cpus c_walls c_cpus
    for ((i = 0; i < rounds; i++)); do
        for b in "${!builds[@]}"; do
            for policy in easy conservative; do
                out=$(timed "${builds[$b]}" run --platform "$platform" --workload "$path" -q --policy "$policy")
                sim=$(grep '^  simulation' <<< "$out" | awk '{print $2}')
                if [ "$policy" = easy ]; then
                    e_walls[b]+="$sim " e_cpus[b]+="$(awk '{print $1 + $2}' "$tmp/cpu") "
                else
                    c_walls[b]+="$sim " c_cpus[b]+="$(awk '{print $1 + $2}' "$tmp/cpu") "
                fi
            done
        done
    done
    local ew ec cw cc
    for b in "${!builds[@]}"; do
        ew=$(median_of "${e_walls[b]}")
        ec=$(median_of "${e_cpus[b]}")
        cw=$(median_of "${c_walls[b]}")
        cc=$(median_of "${c_cpus[b]}")
        awk -v l="$label" -v r="$rounds" -v ew="$ew" -v ec="$ec" -v cw="$cw" -v cc="$cc" \
            -v n="${names[b]}" 'BEGIN {
            printf "%-24s %d alternating rounds, %s, medians: easy %.3f s wall %.2f s cpu, conservative %.3f s wall %.2f s cpu: %.2f wall, %.2f cpu (target <= 3)\n",
                   l, r, n, ew, ec, cw, cc, cw / ew, cc / ec }'
    done
}

# The floor, REPS times: prints its median line; sets $floor_wall, $floor_jobs.
floor() { # LABEL PLATFORM LOG
    local label=$1 platform=$2 path=$3 walls=() rss=() line
    for ((i = 0; i < reps; i++)); do
        line=$("$bare" "$platform" "$path")
        floor_jobs=$(awk '{print $2}' <<< "$line")
        walls+=("$(awk '{print $8}' <<< "$line")")
        rss+=("$(awk '{print $12}' <<< "$line")")
    done
    floor_wall=$(printf '%s\n' "${walls[@]}" | median)
    local kb
    kb=$(printf '%s\n' "${rss[@]}" | median)
    awk -v l="$label" -v w="$floor_wall" -v r="$kb" -v n="$floor_jobs" 'BEGIN {
        printf "%-24s %-14s %10.3f %8s %12.0f %10.1f %8.2f %10s %8s\n", l, "floor", w, "-", n / w,
               r / 1024, r / n, "1.00", "-" }'
}

for case in $cases; do
    case $case in
    sp2)
        for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
                    "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
            log=${spec%%:*}
            platform=$src/${spec#*:}
            path=$traces/$log
            if [ ! -r "$path" ]; then
                echo "$log: not in $traces, skipped"
                continue
            fi
            label=${log%%-1*}
            floor "$label" "$platform" "$path"
            for policy in fcfs easy conservative; do
                variant "$label" "$policy" "$platform" "$path" "$floor_wall" "$floor_jobs" --policy "$policy"
            done
        done
        ;;
    forhlr2)
        "$exe" standin forhlr2 --jobs 100000 --seed 1 --load 0.9 -o "$tmp/fh2.swf" > /dev/null
        floor "forhlr2-100k" "$src/platforms/forhlr2.xml" "$tmp/fh2.swf"
        for policy in easy conservative; do
            variant "forhlr2-100k" "$policy" "$src/platforms/forhlr2.xml" "$tmp/fh2.swf" \
                "$floor_wall" "$floor_jobs" --policy "$policy"
        done
        rm -f "$tmp/fh2.swf"
        ;;
    wide)
        cluster "$tmp/wide.xml" wide 5000 16
        "$exe" generate lublin --nodes 80000 --jobs 300000 --seed 1 -o "$tmp/raw.swf" > /dev/null
        "$exe" scale --workload "$tmp/raw.swf" --nodes 5000 --cores-per-node 16 --load 0.9 \
            -o "$tmp/wide.swf" > /dev/null
        rm -f "$tmp/raw.swf"
        floor "5000x16-300k-core" "$tmp/wide.xml" "$tmp/wide.swf"
        for policy in easy conservative; do
            variant "5000x16-300k-core" "$policy" "$tmp/wide.xml" "$tmp/wide.swf" \
                "$floor_wall" "$floor_jobs" --policy "$policy" --alloc core
        done
        rm -f "$tmp/wide.swf"
        ;;
    saturated)
        cluster "$tmp/sat.xml" sat 1024 8
        p=
        for c in batch interactive; do
            p="$p --param $c.SerialProb=0.85 --param $c.Pow2Prob=0.1"
        done
        # shellcheck disable=SC2086
        "$exe" generate lublin --nodes 8192 --jobs 100000 --seed 1 --estimates walltimes $p \
            -o "$tmp/raw.swf" > /dev/null
        "$exe" scale --workload "$tmp/raw.swf" --nodes 1024 --cores-per-node 8 --load 1.5 \
            -o "$tmp/sat.swf" > /dev/null
        rm -f "$tmp/raw.swf"
        variant "1024x8-100k-load1.5" easy "$tmp/sat.xml" "$tmp/sat.swf" 0 100000 --policy easy
        easy_wall=$last_wall cpu_base=$last_cpu
        variant "1024x8-100k-load1.5" conservative "$tmp/sat.xml" "$tmp/sat.swf" "$easy_wall" 100000 \
            --policy conservative
        cons_wall=$last_wall cons_cpu=$last_cpu
        saved=$reps reps=1
        variant "1024x8-100k-load1.5" cons-plain "$tmp/sat.xml" "$tmp/sat.swf" "$easy_wall" 100000 \
            --policy conservative:compress=plain
        reps=$saved
        awk -v c="$cons_wall" -v e="$easy_wall" -v p="$last_wall" -v cc="$cons_cpu" \
            -v ec="$cpu_base" -v pc="$last_cpu" 'BEGIN {
            printf "%-24s conservative / easy: %.2f wall, %.2f cpu (target <= 3); plain compression / easy: %.2f wall, %.2f cpu\n",
                   "", c / e, cc / ec, p / e, pc / ec }'
        cpu_base=
        alternate "1024x8-100k-load1.5" "$tmp/sat.xml" "$tmp/sat.swf" "${BENCH_ALTERNATE:-5}"
        rm -f "$tmp/sat.swf"
        ;;
    slots)
        path=$traces/SDSC-SP2-1998-4.2-cln.swf.gz
        if [ ! -r "$path" ]; then
            echo "SDSC-SP2-1998-4.2-cln.swf.gz: not in $traces, skipped"
            continue
        fi
        variant "SDSC-SP2" easy "$src/platforms/sdsc-sp2.xml" "$path" 0 54044 --policy easy
        easy_wall=$last_wall cpu_base=$last_cpu
        for policy in alp amp; do
            variant "SDSC-SP2" "$policy" "$src/platforms/sdsc-sp2.xml" "$path" "$easy_wall" 54044 \
                --policy "$policy"
            awk -v p="$policy" -v w="$last_wall" -v e="$easy_wall" -v c="$last_cpu" -v ec="$cpu_base" 'BEGIN {
                printf "%-24s %s / easy: %.2f wall, %.2f cpu (target <= 3)\n", "", p, w / e, c / ec }'
        done
        cpu_base=
        ;;
    million)
        for n in 125000 250000 500000 1000000; do
            "$exe" standin forhlr2 --jobs "$n" --seed 1 --load 0.9 -o "$tmp/m.swf" > /dev/null
            saved=$reps reps=1
            variant "forhlr2-$((n / 1000))k" easy "$src/platforms/forhlr2.xml" "$tmp/m.swf" 0 "$n" \
                --policy easy
            reps=$saved
            rm -f "$tmp/m.swf"
        done
        ;;
    *)
        echo "replay-perf: unknown case '$case' (sp2 forhlr2 wide saturated slots million)" >&2
        exit 2
        ;;
    esac
done
