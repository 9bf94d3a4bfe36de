#!/usr/bin/env bash
# energy-study.sh — idle shutdown (Slurm's SuspendTime) against waiting:
# the energy saved and the mean wait and mean bounded slowdown for
# SuspendTime 0, 60, 300, 600, 1800, 3600 s and never, under fcfs, easy and
# conservative, on KTH-SP2 and SDSC-SP2 (whole logs, from $BATCHLAB_TRACES,
# default traces/; a missing log is skipped with a note) and on a
# Lublin-Feitelson workload (`batchlab generate lublin --nodes 128 --jobs
# 10000 --seed 1 --estimates walltimes`, run on platforms/sdsc-sp2.xml),
# each at its own load and rescaled to 0.5, 0.7 and 0.9 (`batchlab scale`).
#
#   bench/energy-study.sh [--quick] [BUILD_DIR] [OUT_DIR]
#
# --quick: the logs' own loads only (63 runs, 14 s on 2 cores); the
# default grid adds the three rescaled loads (252 runs, 61 s on 2 cores,
# a few minutes when the machine is shared). OUT_DIR defaults to out/energy-study.
#
# THE ASSUMED POWER MODEL (one for every log, load and policy; no published
# per-node power figure of the SP2s was found, README.md "Power and
# energy"): every host gets the values of Batsim's example energy platform
# (oar-team/batsim, platforms/cluster_energy_128.xml; the Batsim project:
# Dutot, Mercier, Poquet & Richard 2016), NOT
# the SP2's own: 95 W idle, 190.738 W busy (its first computation pstate),
# 9.75 W off; switching off takes 6.1 s at 100.997 W and switching on
# 151.52 s at 125.174 W (its sleep pstate's virtual transition pstates),
# given as the platform's switch_off_s/_w and switch_on_s/_w, so that the
# switch times come from the same source as the watts (Slurm's timeouts,
# the --suspend-timeout / --resume-timeout defaults, are limits after which
# a node is marked down, not measured times). No suspend or resume rate
# limit (Slurm's 0), no excluded nodes. The copy of each platform is made
# in a temporary folder; the shipped platforms stay without power values.
#
# Energy saved is 1 - energy / energy of the never-off run of the same log,
# load and policy, each over its own run's window (first submit to last
# end, summary.json's energy window).
#
# Outputs in OUT_DIR: energy-study.csv (one row per log, load, policy and
# SuspendTime), energy-study.png (+ .pdf where gnuplot has pdfcairo): one
# panel per log at its own load, energy saved against mean wait, one curve
# per policy, its points labelled with SuspendTime; a table on stdout
# (saved % and mean wait per SuspendTime, every log, load and policy).
# Environment: ES_JOBS (runs at once, default the number of cores).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; fi
build=${1:-$src/build}
out=${2:-$src/out/energy-study}
traces=${BATCHLAB_TRACES:-$src/traces}
exe=$build/batchlab
njobs=${ES_JOBS:-$(nproc 2>/dev/null || echo 2)}
suspends="0 60 300 600 1800 3600 off"
policies="fcfs easy conservative"
if [ "$quick" = 1 ]; then loads="log"; else loads="log 0.5 0.7 0.9"; fi
[ -x "$exe" ] || { echo "energy-study: $exe is missing; build first (tools/test)" >&2; exit 1; }
command -v gnuplot > /dev/null || { echo "energy-study: gnuplot is needed" >&2; exit 1; }
mkdir -p "$out"
case $out in /*) ;; *) out=$PWD/$out ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The platform with the assumed power model: the cluster's self-closing tag
# opened to hold the properties (every host of the cluster gets them).
power_copy() {
    sed 's|lat="40us"/>|lat="40us">\
      <prop id="wattage_per_state" value="95:190.738"/>\
      <prop id="wattage_off" value="9.75"/>\
      <prop id="switch_off_s" value="6.1"/>\
      <prop id="switch_off_w" value="100.997"/>\
      <prop id="switch_on_s" value="151.52"/>\
      <prop id="switch_on_w" value="125.174"/>\
    </cluster>|' "$1" > "$2"
    grep -q switch_on_w "$2" || { echo "energy-study: cannot add power values to $1" >&2; exit 1; }
}

# Workloads: NAME LOG PLATFORM
: > "$tmp/logs"
for spec in "KTH-SP2:KTH-SP2-1996-2.1-cln.swf:kth-sp2" "SDSC-SP2:SDSC-SP2-1998-4.2-cln.swf.gz:sdsc-sp2"; do
    IFS=: read -r name file plat <<< "$spec"
    if [ ! -f "$traces/$file" ]; then
        echo "energy-study: $traces/$file is missing (tools/fetch-trace fetches it); skipped" >&2
        continue
    fi
    power_copy "$src/platforms/$plat.xml" "$tmp/$name.xml"
    echo "$name $traces/$file $tmp/$name.xml" >> "$tmp/logs"
done
"$exe" generate lublin --nodes 128 --jobs 10000 --seed 1 --estimates walltimes \
    -o "$tmp/lublin.swf" > /dev/null
power_copy "$src/platforms/sdsc-sp2.xml" "$tmp/Lublin.xml"
echo "Lublin $tmp/lublin.swf $tmp/Lublin.xml" >> "$tmp/logs"

# Each log at each load: the log itself, or rescaled; the log's own load as
# `batchlab info` computes it, for the tables.
: > "$tmp/tasks"
: > "$tmp/ownload"
while read -r name file plat; do
    own=$("$exe" info --workload "$file" --platform "$plat" | sed -n 's/^  computed load *\([0-9.]*\).*/\1/p')
    echo "$name $own" >> "$tmp/ownload"
    for l in $loads; do
        w=$file
        if [ "$l" != log ]; then
            w=$tmp/$name-$l.swf
            "$exe" scale --workload "$file" --platform "$plat" --load "$l" -o "$w" > /dev/null
        fi
        for p in $policies; do
            for s in $suspends; do
                echo "$name $l $p $s $w $plat" >> "$tmp/tasks"
            done
        done
    done
done < "$tmp/logs"

run_one() {
    local name=$1 l=$2 p=$3 s=$4 w=$5 plat=$6
    local dir=$out/runs/$name-$l-$p-$s idle=()
    [ "$s" = off ] || idle=(--suspend-time "$s")
    [ -f "$dir/summary.json" ] && return 0
    mkdir -p "$dir"
    # A run that fails leaves its message in failed.txt and empty cells.
    "$exe" run --platform "$plat" --workload "$w" --policy "$p" "${idle[@]}" \
        -q --outputs summary --out "$dir" > /dev/null 2> "$dir/failed.txt" || return 0
    rm -f "$dir/failed.txt"
}
export -f run_one
export exe out
echo "energy-study: $(wc -l < "$tmp/tasks") runs, $njobs at once" >&2
[ "${ES_KEEP_RUNS:-0}" = 1 ] || rm -rf "$out/runs"
xargs -P "$njobs" -L 1 bash -c 'run_one "$@"' _ < "$tmp/tasks"

# The first occurrence of a key in summary.json (metrics and energy come
# before the breakdowns, which repeat the wait keys).
key() { [ -f "$2" ] || return 0; awk -v k="\"$1\":" '$1 == k {v = $2; sub(/,$/, "", v); print v; exit}' "$2"; }

csv=$out/energy-study.csv
echo "log,load,policy,suspend_time_s,energy_j,idle_j,off_j,switching_j,switch_ons,wait_mean_s,bounded_slowdown_mean,energy_saved_pct" > "$csv"
while read -r name l p s w plat; do
    f=$out/runs/$name-$l-$p-$s/summary.json
    base=$out/runs/$name-$l-$p-off/summary.json
    e=$(key total_j "$f")
    e0=$(key total_j "$base")
    saved=
    [ -n "$e" ] && [ -n "$e0" ] && saved=$(awk -v e="$e" -v e0="$e0" 'BEGIN {printf "%.3f", 100 * (1 - e / e0)}')
    st=$s
    [ "$s" = off ] && st=never
    echo "$name,$l,$p,$st,$e,$(key idle_j "$f"),$(key off_j "$f"),$(key switching_j "$f"),$(key switch_ons "$f"),$(key wait_mean_s "$f"),$(key bounded_slowdown_mean "$f"),$saved" >> "$csv"
done < "$tmp/tasks"

# The table: per log, load and policy, saved % and mean wait (s) per SuspendTime.
echo "Energy saved (% of the never-off run) / mean wait (s) / mean bounded slowdown, per SuspendTime (s)"
echo "(load 'log': the log's own computed load, in brackets)"
awk -F, -v own="$(tr '\n' ' ' < "$tmp/ownload")" '
    BEGIN { n = split(own, a, " "); for (i = 1; i < n; i += 2) ownl[a[i]] = a[i + 1] }
    NR == 1 { next }
    {
        k = $1 " " $2 " " $3
        if (!(k in seen)) { seen[k] = 1; order[++m] = k }
        cell[k, $4] = $12 == "" ? "failed" : sprintf("%.1f/%.0f/%.1f", $12, $10, $11)
        if (!hdr) { st[++ns] = $4 }
        if ($4 == "never") hdr = 1
    }
    END {
        printf "%-9s %-11s %-12s", "log", "load", "policy"
        for (i = 1; i <= ns; i++) printf " %18s", st[i]
        printf "\n"
        for (j = 1; j <= m; j++) {
            split(order[j], f, " ")
            ld = f[2] == "log" ? sprintf("log(%.2f)", ownl[f[1]]) : f[2]
            printf "%-9s %-11s %-12s", f[1], ld, f[3]
            for (i = 1; i <= ns; i++) printf " %18s", cell[order[j], st[i]]
            printf "\n"
        }
    }' "$csv"

# The figure: one panel per log at its own load. Colour and line: the
# policy; symbol: the SuspendTime (the same symbol in every panel, named in
# the key below them); the mean wait as its change from the never-off run
# of the same policy (fcfs waits a hundred times longer than the
# backfilling policies, so absolute waits on one axis would flatten two
# of the three curves; they are in the CSV and the table).
names=$(cut -d' ' -f1 "$tmp/logs" | tr '\n' ' ')
for n in $names; do
    for p in $policies; do
        awk -F, -v n="$n" -v p="$p" '$1 == n && $2 == "log" && $3 == p && $4 == "never" {w0 = $10}
            $1 == n && $2 == "log" && $3 == p && $12 != "" { row[++k] = $0 }
            END {
                pt["0"] = 7; pt["60"] = 5; pt["300"] = 9; pt["600"] = 11; pt["1800"] = 13
                pt["3600"] = 15; pt["never"] = 4
                for (i = 1; i <= k; i++) {
                    split(row[i], f, ",")
                    print f[12], 100 * (f[10] / w0 - 1), pt[f[4]]
                }
            }' "$csv" > "$tmp/fig-$n-$p.dat"
    done
done
draw() {
    local term=$1 file=$2 np i=0 x0 x1
    np=$(echo $names | wc -w)
    {
        echo "set terminal $term"
        echo "set output '$file'"
        echo "set multiplot title 'Idle shutdown: energy saved against mean wait (assumed power model: Batsim example platform, not the SP2s own)'"
        echo "set xlabel 'energy saved (% of the never-off run)'"
        echo "set ylabel 'mean wait, change from never-off (%)'"
        echo "set grid"
        echo "set offsets graph 0.04, graph 0.04, graph 0.10, graph 0.10"
        echo "set tmargin at screen 0.86; set bmargin at screen 0.22"
        echo "unset key"
        for n in $names; do
            x0=$(awk -v i="$i" -v n="$np" 'BEGIN {print 0.06 + i * 0.94 / n}')
            x1=$(awk -v i="$i" -v n="$np" 'BEGIN {print 0.06 + (i + 1) * 0.94 / n - 0.06}')
            i=$((i + 1))
            echo "set lmargin at screen $x0; set rmargin at screen $x1"
            echo "set title '$n (its own load, $(awk -v n="$n" '$1 == n {printf "%.2f", $2}' "$tmp/ownload"))'"
            echo "plot '$tmp/fig-$n-fcfs.dat' u 1:2 w l lw 2 lc rgb '#d95f02' notitle, \\"
            echo "     '$tmp/fig-$n-easy.dat' u 1:2 w l lw 2 lc rgb '#1b9e77' notitle, \\"
            echo "     '$tmp/fig-$n-conservative.dat' u 1:2 w l lw 2 dt 2 lc rgb '#7570b3' notitle, \\"
            echo "     '$tmp/fig-$n-fcfs.dat' u 1:2:3 w p pt variable ps 1.3 lc rgb '#d95f02' notitle, \\"
            echo "     '$tmp/fig-$n-easy.dat' u 1:2:3 w p pt variable ps 1.3 lc rgb '#1b9e77' notitle, \\"
            echo "     '$tmp/fig-$n-conservative.dat' u 1:2:3 w p pt variable ps 1.3 lc rgb '#7570b3' notitle"
        done
        # the key: a blank plot across the bottom holding only the entries
        echo "set lmargin at screen 0.06; set rmargin at screen 0.98"
        echo "set tmargin at screen 0.08; set bmargin at screen 0.01"
        echo "unset title; unset xlabel; unset ylabel; unset tics; unset border; unset grid"
        echo "set key center center horizontal maxrows 1 samplen 2.5 spacing 1 width 1"
        echo "set xrange [0:1]; set yrange [0:1]"
        echo "plot NaN w l lw 2 lc rgb '#d95f02' t 'fcfs', NaN w l lw 2 lc rgb '#1b9e77' t 'easy', \\"
        echo "     NaN w l lw 2 dt 2 lc rgb '#7570b3' t 'conservative', \\"
        echo "     NaN w p pt 7 ps 1.3 lc black t 'SuspendTime 0 s', NaN w p pt 5 ps 1.3 lc black t '1 min', \\"
        echo "     NaN w p pt 9 ps 1.3 lc black t '5 min', NaN w p pt 11 ps 1.3 lc black t '10 min', \\"
        echo "     NaN w p pt 13 ps 1.3 lc black t '30 min', NaN w p pt 15 ps 1.3 lc black t '60 min', \\"
        echo "     NaN w p pt 4 ps 1.3 lc black t 'never'"
        echo "unset multiplot"
    } > "$tmp/fig.gp"
    gnuplot "$tmp/fig.gp"
}
draw "pngcairo size 1500,560 font ',11'" "$out/energy-study.png"
if echo 'set terminal' | gnuplot 2>&1 | grep -q pdfcairo; then
    draw "pdfcairo size 15in,5.6in font ',11'" "$out/energy-study.pdf"
fi
for f in "$out"/runs/*/failed.txt; do
    [ -f "$f" ] || continue
    echo "energy-study: FAILED $(basename "$(dirname "$f")"): $(cat "$f")" >&2
done
echo "energy-study: $csv, $out/energy-study.png" >&2
