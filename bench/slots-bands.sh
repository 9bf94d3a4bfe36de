#!/bin/sh
# slots-bands.sh — ALP and AMP (Toporkov, Yemelyanov, Toporkova &
# Bobchenkov 2011) over many draws: the study with its default readings on
# the seeds 1..SL_BAND_SEEDS (default 20), SL_BAND_CYCLES cycles each
# (default 25000, the study's size: about 5000 kept cycles, the paper kept
# 8571), and per figure of the paper's Section 5 (time, cost and
# alternatives per job, ALP and AMP, both criteria) the 10-90 % band over
# the draws and the paper's value as a percentile of them (bench/bands.awk).
# Run by slots-study.sh.
#
#   bench/slots-bands.sh [BUILD_DIR] [OUT_DIR]
#
# Also AMP's time and cost over ALP's per criterion (the paper's comparison).
# SL_BAND_REUSE=1 reuses the runs whose JSON is already in OUT_DIR (made
# with the same knobs). Output in OUT_DIR: bands-seedS.json, slots-bands.csv (criterion,algorithm,
# metric,draws,p10,median,p90,paper,paper_percentile).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${2:-/tmp/batchlab-slots-bands}
study=$build/bench/batchlab-study
nseeds=${SL_BAND_SEEDS:-20}
cycles=${SL_BAND_CYCLES:-25000}
[ -x "$study" ] || { echo "slots-bands: $study is missing; build first" >&2; exit 1; }
mkdir -p "$out"

# "criterion,algorithm<TAB>metric<TAB>ours<TAB>paper" lines of one run's JSON
# (our JSON: one key per line; "paper": {...} inside each algorithm).
facts() {
    awk '/^  "(time_min|cost_min)": \{/ { c = $1; gsub(/[":]/, "", c) }
        /^    "(alp|amp)": \{/ { a = $1; gsub(/[":]/, "", a); inp = 0 }
        /^      "paper": \{/ { inp = 1; next }
        inp && /^      \}/ { inp = 0 }
        /^    "cycles_kept":/ { v = $2; sub(/,$/, "", v); print c ",both\tcycles_kept\t" v "\t" }
        a != "" && /"(time|cost|alternatives_per_job)":/ {
            k = $1; gsub(/[":]/, "", k); v = $2; sub(/,$/, "", v)
            if (inp) paper[c, a, k] = v; else ours[c, a, k] = v
            if (!((c, a, k) in seen)) { seen[c, a, k] = 1; keys[++nk] = c SUBSEP a SUBSEP k } }
        END { for (i = 1; i <= nk; i++) { split(keys[i], x, SUBSEP)
                print x[1] "," x[2] "\t" x[3] "\t" ours[keys[i]] "\t" paper[keys[i]] }
              # the comparison of the paper: AMP against ALP, per criterion
              split("time_min cost_min", cs, " "); split("time cost", ms, " ")
              for (i = 1; i <= 2; i++) for (k = 1; k <= 2; k++) {
                  c = cs[i]; m = ms[k]
                  printf "%s,amp/alp\t%s\t%.6g\t%.4g\n", c, m, ours[c, "amp", m] / ours[c, "alp", m],
                      paper[c, "amp", m] / paper[c, "alp", m] } }' "$1"
}

echo "slots-bands: seeds 1..$nseeds, $cycles cycles each"
: > "$out/bands-facts.tsv"
for s in $(seq 1 "$nseeds"); do
    j=$out/bands-seed$s.json
    [ "${SL_BAND_REUSE:-0}" = 1 ] && [ -s "$j" ] ||
        "$study" slots --cycles "$cycles" --seed "$s" --json "$j" > /dev/null
    facts "$j" >> "$out/bands-facts.tsv"
done
csv=$out/slots-bands.csv
{
    echo "criterion,algorithm,metric,draws,p10,median,p90,paper,paper_percentile"
    awk -F '\t' -f "$here/bands.awk" "$out/bands-facts.tsv"
} > "$csv"
echo "Section 5 over $nseeds draws of $cycles cycles (10-90 % band; the paper's value as a percentile of ours)"
printf '%-9s %-5s %-21s %9s %9s %9s %8s %5s\n' criterion alg metric p10 median p90 paper pct
tail -n +2 "$csv" | awk -F, '{printf "%-9s %-5s %-21s %9s %9s %9s %8s %5s\n", $1, $2, $3, $5, $6, $7, $8, ($9 == "") ? "-" : $9 "%"}'
echo "wrote $csv"
