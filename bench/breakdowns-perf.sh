#!/usr/bin/env bash
# What the breakdowns cost a replay: the archive logs under EASY with this
# build and with BASE, a build of the code before the breakdowns (e.g. of
# main before they were merged), in turn so that both share the machine's
# load; the same command, whole process (parent and simulation child),
# writing summary.json.
#
#   bench/breakdowns-perf.sh BUILD BASE_BUILD [REPETITIONS]
#   BENCH_INSTRUCTIONS=1 bench/breakdowns-perf.sh BUILD BASE_BUILD
#
# Logs: KTH-SP2 and SDSC-SP2 from $BATCHLAB_TRACES (default traces/); a
# missing log is skipped with a note. Prints per log the medians over the
# repetitions (default 5) of the CPU time (user + system) of both builds
# and their ratio; with BENCH_INSTRUCTIONS=1 the instructions of every
# process under valgrind's callgrind instead (the same numbers every time,
# about 50x slower). Target (bench/README.md): at most 1.05.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
[ $# -ge 2 ] || { echo "usage: bench/breakdowns-perf.sh BUILD BASE_BUILD [REPETITIONS]" >&2; exit 2; }
new=$1/batchlab
base=$2/batchlab
reps=${3:-5}
traces=${BATCHLAB_TRACES:-$src/traces}
for f in "$new" "$base"; do
    [ -x "$f" ] || { echo "breakdowns-perf: $f is missing; build first" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system) of one command and its children.
cpu() {
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" > /dev/null 2>&1
    awk '{printf "%.3f\n", $1 + $2}' "$tmp/t"
}

# Instructions of a command and of every process it forks.
instructions() {
    rm -f "$tmp"/cg.*
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p" "$@" > /dev/null 2>&1
    cat "$tmp"/cg.* | awk '/^summary:/ {s += $2} END {printf "%.0f\n", s}'
}

median() { sort -g | awk '{v[NR] = $1} END {printf "%.15g\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

printf "%-10s %8s %14s %14s %7s\n" log jobs base new ratio
for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
            "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
    log=${spec%%:*}
    platform=$src/${spec#*:}
    path=$traces/$log
    name=${log%%-1*}
    if [ ! -r "$path" ]; then
        echo "$name: $path is absent (tools/fetch-trace), skipped"
        continue
    fi
    args=(run --platform "$platform" --workload "$path" --policy easy -q --outputs summary)
    : > "$tmp/new"
    : > "$tmp/base"
    if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
        instructions "$base" "${args[@]}" --out "$tmp/b" >> "$tmp/base"
        instructions "$new" "${args[@]}" --out "$tmp/n" >> "$tmp/new"
    else
        for _ in $(seq "$reps"); do
            cpu "$base" "${args[@]}" --out "$tmp/b" >> "$tmp/base"
            cpu "$new" "${args[@]}" --out "$tmp/n" >> "$tmp/new"
        done
    fi
    jobs=$(grep -m1 '"simulated"' "$tmp/n/summary.json" | tr -dc 0-9)
    b=$(median < "$tmp/base")
    n=$(median < "$tmp/new")
    printf "%-10s %8s %14s %14s %7.3f\n" "$name" "$jobs" "$b" "$n" "$(echo "$n / $b" | bc -l)"
done
