#!/usr/bin/env bash
# Replay performance: each policy against a bare SimGrid replay of the same
# jobs (bench/bare_replay: the log's own schedule through the same executor
# pool, no scheduling policy), on the Parallel Workloads Archive logs.
#
#   bench/replay-perf.sh [BUILD_DIR] [REPETITIONS]
#   BENCH_INSTRUCTIONS=1 bench/replay-perf.sh [BUILD_DIR]
#
# Prints, per log and variant, the median over the repetitions of the
# simulation's wall time, jobs per second and peak resident memory, the
# memory per job, and the ratio of wall times to the bare replay. Wall times
# on a shared or virtual machine can vary by 50 % from run to run; with
# BENCH_INSTRUCTIONS=1 the script instead counts the instructions of each
# whole process (parent and simulation child) under valgrind's callgrind,
# which gives the same numbers every time (about 50x slower). Targets
# (README "Performance"): EASY within 2x of the bare replay, conservative
# within 4x, at most 2 KB per job. The logs come from ../shared/traces (or
# $BATCHLAB_TRACES); a missing log is skipped with a note.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
reps=${2:-3}
traces=${BATCHLAB_TRACES:-$src/../shared/traces}
exe=$build/batchlab
bare=$build/bench/bare_replay
for f in "$exe" "$bare"; do
    [ -x "$f" ] || { echo "replay-perf: $f is missing; build first (tools/test or cmake --build build)" >&2; exit 1; }
done

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

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
    printf '%-30s %-14s %16s %10s\n' log variant instructions "x bare"
    for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
                "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
        log=${spec%%:*}
        platform=$src/${spec#*:}
        path=$traces/$log
        [ -r "$path" ] || { echo "$log: not in $traces, skipped"; continue; }
        base=$(instructions "$bare" "$platform" "$path")
        printf '%-30s %-14s %16s %10s\n' "$log" "bare replay" "$base" 1.00
        for policy in fcfs easy conservative; do
            n=$(instructions "$exe" run --platform "$platform" --workload "$path" --policy "$policy" -q)
            awk -v l="$log" -v p="$policy" -v n="$n" -v b="$base" \
                'BEGIN {printf "%-30s %-14s %16s %10.2f\n", l, p, n, n / b}'
        done
    done
    exit 0
fi

printf '%-30s %-14s %10s %12s %10s %8s %10s\n' log variant "wall s" "jobs/s" "peak MB" "KB/job" "x bare"
for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
            "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
    log=${spec%%:*}
    platform=$src/${spec#*:}
    path=$traces/$log
    if [ ! -r "$path" ]; then
        echo "$log: not in $traces, skipped"
        continue
    fi
    walls=() rss=() jobs=0
    for ((i = 0; i < reps; i++)); do
        line=$("$bare" "$platform" "$path")
        jobs=$(awk '{print $2}' <<< "$line")
        walls+=("$(awk '{print $8}' <<< "$line")")
        rss+=("$(awk '{print $12}' <<< "$line")")
    done
    bare_wall=$(printf '%s\n' "${walls[@]}" | median)
    bare_rss=$(printf '%s\n' "${rss[@]}" | median)
    awk -v l="$log" -v w="$bare_wall" -v r="$bare_rss" -v n="$jobs" 'BEGIN {
        printf "%-30s %-14s %10.3f %12.0f %10.1f %8.2f %10s\n", l, "bare replay", w, n / w, r / 1024, r / n, "1.00" }'
    for policy in fcfs easy conservative; do
        walls=() rss=()
        for ((i = 0; i < reps; i++)); do
            out=$("$exe" run --platform "$platform" --workload "$path" --policy "$policy" -q)
            sim=$(grep '^  simulation' <<< "$out")
            walls+=("$(awk '{print $2}' <<< "$sim")")
            rss+=("$(sed 's/.*peak memory \([0-9.]*\) MB.*/\1/' <<< "$sim")")
        done
        wall=$(printf '%s\n' "${walls[@]}" | median)
        mb=$(printf '%s\n' "${rss[@]}" | median)
        awk -v l="$log" -v p="$policy" -v w="$wall" -v m="$mb" -v n="$jobs" -v b="$bare_wall" 'BEGIN {
            printf "%-30s %-14s %10.3f %12.0f %10.1f %8.2f %10.2f\n", l, p, w, n / w, m, m * 1024 / n, w / b }'
    done
done
