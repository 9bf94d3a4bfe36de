#!/usr/bin/env bash
# availability-bands.sh — the window-availability study (Toporkov, Yemelyanov
# & Grigorenko 2021) over many draws: the study with its one set of choices
# on the seeds 1..AV_BAND_SEEDS (default 20), AV_BAND_SCENARIOS environments
# per job load (default 200; the paper ran 10 000) and AV_BAND_TS for Table 1
# (default 100; the paper 1000), and per statement the 10-90 % band over the
# draws and the paper's value as a percentile of them (bench/bands.awk).
# Run by availability-study.sh.
#
#   bench/availability-bands.sh [BUILD_DIR] [OUT_DIR]
#
# Statements (shares in %): Fig. 5 at job load 0, Knapsack's and
# GreedyJnt's mean P_a^w (paper 0.96 and 0.87) and Knapsack's gain (paper
# 0.96 / 0.87 - 1 = 10.3); the gain at 0.9 and the share of scenarios with
# a window there (the paper: almost no gain, a few windows; no number);
# Table 1 at job load 0.5, the accuracy of 1, 5, 10, 20, 50 and 100
# uniformly placed starting points (paper 0.8, 0.93, 0.96, 0.97, 0.99,
# 0.99). Output in OUT_DIR: bands-seedS.json, availability-bands.csv
# (figure,metric,draws,p10,median,p90,paper,paper_percentile).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-/tmp/batchlab-availability-bands}
study=$build/bench/batchlab-study
nseeds=${AV_BAND_SEEDS:-20}
scen=${AV_BAND_SCENARIOS:-200}
ts=${AV_BAND_TS:-100}
[ -x "$study" ] || { echo "availability-bands: $study is missing; build first" >&2; exit 1; }
mkdir -p "$out"

# The values of the JSON array "key": [...], one per line.
arr() {
    awk -v k="\"$1\": [" 'on && /^ *\]/ { exit }
        on { v = $1; sub(/,$/, "", v); print v }
        !on && index($0, k) { on = 1; if ($0 ~ /\]/) exit }' "$2"
}
# "figure<TAB>metric<TAB>ours<TAB>paper" lines of one run's JSON.
facts() {
    local j=$1
    paste <(arr job_load "$j") <(arr knapsack "$j") <(arr greedyjnt "$j") <(arr found "$j") | awk -v sc="$scen" '
        $1 + 0 == 0 { print "fig5\tknapsack_load0\t" $2 "\t0.96"; print "fig5\tgreedyjnt_load0\t" $3 "\t0.87"
                      printf "fig5\tgain_load0\t%.6g\t10.3\n", 100 * ($2 / $3 - 1) }
        $1 + 0 > 0.89 && $1 + 0 < 0.91 { printf "fig5\tgain_load0.9\t%.6g\t\n", ($3 > 0) ? 100 * ($2 / $3 - 1) : 0
                      printf "fig5\twindows_load0.9\t%.6g\t\n", 100 * $4 / sc }'
    awk '/"starting_points":/ { s = $2; sub(/,$/, "", s) }
        /"mode":/ { m = $2; gsub(/[",]/, "", m) }
        /"accuracy":/ { a = $2; sub(/,$/, "", a) }
        /"paper_accuracy":/ { p = $2; sub(/,$/, "", p)
            if (m == "uniform") print "table1\taccuracy_" s "\t" a "\t" p }' "$j"
}

echo "availability-bands: seeds 1..$nseeds, $scen environments per job load, $ts for Table 1"
: > "$out/bands-facts.tsv"
for s in $(seq 1 "$nseeds"); do
    j=$out/bands-seed$s.json
    "$study" availability --seed "$s" --scenarios "$scen" --timescan-scenarios "$ts" --json "$j" > /dev/null
    facts "$j" >> "$out/bands-facts.tsv"
done
csv=$out/availability-bands.csv
{
    echo "figure,metric,draws,p10,median,p90,paper,paper_percentile"
    awk -F '\t' -f "$here/bands.awk" "$out/bands-facts.tsv"
} > "$csv"
echo "Fig. 5 and Table 1 over $nseeds draws (10-90 % band; the paper's value as a percentile of ours)"
printf '%-7s %-17s %9s %9s %9s %7s %5s\n' figure metric p10 median p90 paper pct
tail -n +2 "$csv" | awk -F, '{printf "%-7s %-17s %9s %9s %9s %7s %5s\n", $1, $2, $4, $5, $6, ($7 == "") ? "-" : $7, ($8 == "") ? "-" : $8 "%"}'
echo "wrote $csv"
