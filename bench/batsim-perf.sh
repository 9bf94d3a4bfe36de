#!/usr/bin/env bash
# The cost of Batsim's protocol: KTH-SP2 replayed under EASY built in, and
# through --policy batsim with EASY as an external scheduler in C
# (bench/batsim_easy.c) and in Python (tests/batsim/bl_batsim_sched.py),
# all three giving the same jobs.csv (checked here).
#
#   bench/batsim-perf.sh [BUILD_DIR] [REPETITIONS]
#
# The log comes from $BATCHLAB_TRACES (default traces/, where
# tools/fetch-trace puts it); BENCH_JOBS=N replays its first N jobs only.
# Prints, per variant, the median over the repetitions of the simulation's
# wall time and of the time in the policy (for the bridge: the whole
# exchange), the requests (one per instant with events) and requests per
# second, and where a request's time goes: the CPU time of batchlab's side
# beyond the built-in run's (the bridge's JSON and ZeroMQ), the
# scheduler's own CPU time (its JSON, ZeroMQ and scheduling), and the rest
# of the wall time (the two processes waiting on each other: wake-ups and
# context switches). Temporary files go to a folder removed at exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
reps=${2:-3}
traces=${BATCHLAB_TRACES:-$src/traces}
exe=$build/batchlab
csched=$build/bench/batsim_easy
for f in "$exe" "$csched" /usr/bin/time; do
    [ -x "$f" ] || { echo "batsim-perf: $f is missing; build first (cmake --build build)" >&2; exit 1; }
done
py=""
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import zmq' 2>/dev/null; then py=$p; break; fi
done
log=""
for f in "$traces/KTH-SP2-1996-2.1-cln.swf" "$traces/KTH-SP2-1996-2.1-cln.swf.gz"; do
    [ -f "$f" ] && log=$f && break
done
[ -n "$log" ] || { echo "batsim-perf: KTH-SP2-1996-2.1-cln.swf(.gz) not in $traces (tools/fetch-trace KTH-SP2-1996-2.1-cln)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wl=$log
if [ -n "${BENCH_JOBS:-}" ]; then
    wl=$tmp/kth.swf
    { if [ "${log%.gz}" != "$log" ]; then gzip -dc "$log"; else cat "$log"; fi; } |
        awk -v n="$BENCH_JOBS" '!/^;/ && k++ < n' >"$wl"
fi
platform=$src/platforms/kth-sp2.xml

# run NAME SCHEDULER_COMMAND (empty: the built-in easy) -> lines in $tmp/NAME.txt:
# wall policy requests total_cpu scheduler_cpu
run() {
    local name=$1 cmd=$2 r
    : >"$tmp/$name.txt"
    for ((r = 0; r < reps; r++)); do
        local out=$tmp/$name-out sock=ipc://$tmp/sched.sock
        rm -rf "$out" "$tmp/sched.cpu"
        local args=(run -q --lenient -p "$platform" -w "$wl" --out "$out")
        if [ -z "$cmd" ]; then
            args+=(-P easy)
        else
            args+=(-P batsim --scheduler-socket "$sock"
                   --scheduler-cmd "/usr/bin/time -f '%U %S' -o '$tmp/sched.cpu' $cmd --socket $sock")
        fi
        /usr/bin/time -f '%U %S' -o "$tmp/total.cpu" "$exe" "${args[@]}" >"$tmp/print.txt"
        local wall policy requests total sched=0
        wall=$(sed -n 's/.*simulation *\([0-9.]*\) s wall (\([0-9.]*\) s in the policy).*/\1/p' "$tmp/print.txt")
        policy=$(sed -n 's/.*simulation *\([0-9.]*\) s wall (\([0-9.]*\) s in the policy).*/\2/p' "$tmp/print.txt")
        requests=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' "$tmp/print.txt")
        total=$(awk '{print $1 + $2}' "$tmp/total.cpu")
        [ -f "$tmp/sched.cpu" ] && sched=$(awk 'END {print $1 + $2}' "$tmp/sched.cpu")
        echo "$wall $policy ${requests:-0} $total $sched" >>"$tmp/$name.txt"
        if [ "$name" = builtin ]; then
            cp "$out/jobs.csv" "$tmp/builtin.csv"
        elif ! cmp -s "$out/jobs.csv" "$tmp/builtin.csv"; then
            echo "batsim-perf: $name: jobs.csv differs from the built-in easy's" >&2
            exit 1
        fi
    done
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { awk -v c="$1" '{print $c}' "$tmp/$2.txt" | median; }

run builtin ""
run c "$csched"
[ -n "$py" ] && run python "$py $src/tests/batsim/bl_batsim_sched.py --policy easy"

jobs=$(grep -vc '^;' <"$wl" 2>/dev/null || true)
[ "${wl%.gz}" != "$wl" ] && jobs=$(gzip -dc "$wl" | grep -vc '^;')
echo "batsim-perf: KTH-SP2 ($jobs jobs) under EASY, median of $reps on $(nproc) cores; jobs.csv equal in all three"
printf '%-10s %9s %10s %9s %11s %12s %12s %12s\n' variant "wall s" "policy s" requests "requests/s" \
    "bridge us/r" "sched us/r" "waits us/r"
base_cpu=$(col 4 builtin)
for v in builtin c python; do
    [ -f "$tmp/$v.txt" ] || continue
    wall=$(col 1 "$v") policy=$(col 2 "$v") req=$(col 3 "$v") cpu=$(col 4 "$v") sched=$(col 5 "$v")
    awk -v v="$v" -v w="$wall" -v p="$policy" -v n="$req" -v c="$cpu" -v b="$base_cpu" -v s="$sched" 'BEGIN {
        if (n == 0) { printf "%-10s %9.3f %10.3f %9s %11s %12s %12s %12s\n", v, w, p, "-", "-", "-", "-", "-"; exit }
        bridge = (c - s - b) / n * 1e6; sc = s / n * 1e6; wt = p / n * 1e6 - bridge - sc
        printf "%-10s %9.3f %10.3f %9d %11.0f %12.1f %12.1f %12.1f\n", v, w, p, n, n / p, bridge, sc, wt }'
done
