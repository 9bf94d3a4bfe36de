#!/usr/bin/env bash
# What energy accounting costs: an EASY replay of each archive log in
# $BATCHLAB_TRACES (default traces/, where tools/fetch-trace puts them; a
# missing log is skipped with a note) on its platform as shipped (no power
# values) and on a copy with power values, run in turn REPETITIONS times
# (default 5), so that both share the machine's load.
#
#   bench/energy-perf.sh [BUILD_DIR] [REPETITIONS]
#   BENCH_INSTRUCTIONS=1 bench/energy-perf.sh [BUILD_DIR]
#
# The copy gives every host Batsim's watts for its first computation
# pstate (oar-team/batsim, platforms/cluster_energy_128.xml: 95 W idle,
# 190.738 W loaded, 9.75 W off): what accounting costs does not depend on
# the values, and no measured figure exists for the SP2 nodes (README.md,
# "Energy"). Prints per log the medians of the simulation's wall time
# (summary.json's manifest.wall_time_s) and of the whole command's, with
# and without power values, and their ratios (the last two columns: the
# medians of CPU time, with power values and with idle shutdown, against
# the plain replay's); also checks that the two
# runs schedule alike (jobs.csv equal but for consumed_energy). Wall
# times on a shared machine vary by 10-40 % from run to run; with
# BENCH_INSTRUCTIONS=1 the script instead counts the instructions of each
# whole process (parent and simulation child) under valgrind's callgrind,
# the same every time, once with --outputs summary (the simulation and its
# accounting) and once with every output (the added columns formatted
# too). Target (bench/README.md "Energy accounting"): a ratio of at most
# 1.10. A third run per log adds idle shutdown on the powered copy
# (--suspend-time 600, the default 30 s and 60 s switch times, a resume
# rate of 20 a minute: SuspendTime 600 and ResumeRate 20 as a site might
# set them) and prints its wall times (with BENCH_INSTRUCTIONS=1: its
# instructions, every output) against the plain EASY replay.
# Target (bench/README.md "Idle shutdown"): at most 2x.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
reps=${2:-5}
traces=${BATCHLAB_TRACES:-$src/traces}
exe=$build/batchlab
[ -x "$exe" ] || { echo "energy-perf: $exe is missing; build first (tools/test)" >&2; exit 1; }
[ -x /usr/bin/time ] || [ "${BENCH_INSTRUCTIONS:-0}" = 1 ] ||
    { echo "energy-perf: /usr/bin/time is needed (Debian's time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
now() { date +%s.%N; }

# The platform with power values: the cluster's self-closing tag opened to
# hold the two properties (every host of the cluster gets them).
power_copy() {
    sed 's|lat="40us"/>|lat="40us">\n      <prop id="wattage_per_state" value="95:190.738"/>\n      <prop id="wattage_off" value="9.75"/>\n    </cluster>|' "$1" > "$2"
    grep -q wattage_per_state "$2" || { echo "energy-perf: cannot add power values to $1" >&2; exit 1; }
}

# One run: prints "simulation_wall_s command_wall_s command_cpu_s" (CPU:
# user + system of the command and its simulation child, less sensitive
# than wall times to a loaded machine; 10 ms resolution). Further
# arguments go to batchlab run.
one() {
    local platform=$1 log=$2 out=$3 t0 t1
    shift 3
    t0=$(now)
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
        "$exe" run --platform "$platform" --workload "$log" --policy easy -q --out "$out" "$@" > /dev/null
    t1=$(now)
    local sim
    sim=$(sed -n 's/^    "wall_time_s": \(.*\)$/\1/p' "$out/summary.json")
    echo "$sim $(echo "$t1 - $t0" | bc -l) $(awk '{print $1 + $2}' "$tmp/cpu")"
}

# Instructions of a command and of every process it forks, under callgrind.
instructions() {
    local dir
    dir=$(mktemp -d)
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" "$@" > /dev/null 2>&1
    awk '/^summary:/ {s += $2} END {printf "%.0f\n", s}' "$dir"/cg.*
    rm -rf "$dir"
}

if [ "${BENCH_INSTRUCTIONS:-0}" = 1 ]; then
    command -v valgrind > /dev/null || { echo "energy-perf: valgrind is needed" >&2; exit 1; }
    printf '%-30s %-8s %16s %16s %7s\n' log outputs "instructions" "with power" ratio
    for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
                "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
        log=${spec%%:*}
        plat=$src/${spec#*:}
        [ -f "$traces/$log" ] || { echo "energy-perf: $traces/$log is missing; skipped" >&2; continue; }
        power_copy "$plat" "$tmp/power.xml"
        for outs in summary all; do
            a=$(instructions "$exe" run --platform "$plat" --workload "$traces/$log" --policy easy \
                -q --outputs "$outs" --out "$tmp/o")
            b=$(instructions "$exe" run --platform "$tmp/power.xml" --workload "$traces/$log" \
                --policy easy -q --outputs "$outs" --out "$tmp/o")
            printf '%-30s %-8s %16s %16s %7.3f\n' "$log" "$outs" "$a" "$b" "$(echo "$b / $a" | bc -l)"
        done
        # idle shutdown on the powered copy, every output, against the plain replay ($a: all)
        c=$(instructions "$exe" run --platform "$tmp/power.xml" --workload "$traces/$log" \
            --policy easy -q --out "$tmp/o" --suspend-time 600 --resume-rate 20)
        printf '%-30s %-8s %16s %16s %7.3f\n' "$log" "idle" "$a" "$c" "$(echo "$c / $a" | bc -l)"
    done
    exit 0
fi

printf '%-30s %12s %12s %7s %12s %12s %7s %12s %7s %7s %7s\n' log "sim s" "sim s (W)" ratio \
    "run s" "run s (W)" ratio "sim s (off)" ratio "cpu (W)" "(off)"
idle=(--suspend-time 600 --resume-rate 20)
for spec in "KTH-SP2-1996-2.1-cln.swf:platforms/kth-sp2.xml" \
            "SDSC-SP2-1998-4.2-cln.swf.gz:platforms/sdsc-sp2.xml"; do
    log=${spec%%:*}
    plat=$src/${spec#*:}
    if [ ! -f "$traces/$log" ]; then
        echo "energy-perf: $traces/$log is missing (tools/fetch-trace fetches it); skipped" >&2
        continue
    fi
    power_copy "$plat" "$tmp/power.xml"
    : > "$tmp/plain.t"
    : > "$tmp/power.t"
    : > "$tmp/idle.t"
    for _ in $(seq "$reps"); do
        one "$plat" "$traces/$log" "$tmp/plain" >> "$tmp/plain.t"
        one "$tmp/power.xml" "$traces/$log" "$tmp/power" >> "$tmp/power.t"
        one "$tmp/power.xml" "$traces/$log" "$tmp/idle" "${idle[@]}" >> "$tmp/idle.t"
    done
    # the same schedule: jobs.csv equal once consumed_energy is blanked
    cut -d, -f1-15,17- "$tmp/plain/jobs.csv" > "$tmp/a.csv"
    cut -d, -f1-15,17- "$tmp/power/jobs.csv" > "$tmp/b.csv"
    cmp -s "$tmp/a.csv" "$tmp/b.csv" || { echo "energy-perf: $log schedules differ with power values" >&2; exit 1; }
    s0=$(cut -d' ' -f1 "$tmp/plain.t" | median)
    s1=$(cut -d' ' -f1 "$tmp/power.t" | median)
    r0=$(cut -d' ' -f2 "$tmp/plain.t" | median)
    r1=$(cut -d' ' -f2 "$tmp/power.t" | median)
    s2=$(cut -d' ' -f1 "$tmp/idle.t" | median)
    c0=$(cut -d' ' -f3 "$tmp/plain.t" | median)
    c1=$(cut -d' ' -f3 "$tmp/power.t" | median)
    c2=$(cut -d' ' -f3 "$tmp/idle.t" | median)
    printf '%-30s %12.3f %12.3f %7.3f %12.3f %12.3f %7.3f %12.3f %7.3f %7.3f %7.3f\n' "$log" "$s0" \
        "$s1" "$(echo "$s1 / $s0" | bc -l)" "$r0" "$r1" "$(echo "$r1 / $r0" | bc -l)" "$s2" \
        "$(echo "$s2 / $s0" | bc -l)" "$(echo "$c1 / $c0" | bc -l)" "$(echo "$c2 / $c0" | bc -l)"
done
