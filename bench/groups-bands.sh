#!/usr/bin/env bash
# groups-bands.sh — the group-dependency study (Toporkov, Yemelyanov &
# Tselishchev 2023) over many draws: each price law of GR_BAND_LAWS on the
# seeds 1..GR_BAND_SEEDS, the paper's statements of Figs. 4-8 measured per
# draw, and per statement the 10-90 % band over the draws and the paper's
# value as a percentile of them. Run by groups-study.sh (part 5).
#
#   bench/groups-bands.sh [BUILD_DIR] [OUT_DIR]
#
# Each draw is one full run of `batchlab-study groups --cost-law LAW --seed
# S` with GR_BAND_SCENARIOS environments per point of Figs. 4-6 (default 50)
# and GR_BAND_LARGE per budget of Figs. 7-8 (default 50). The laws' choices
# are in the study (`batchlab-study groups --help`); the script only reads
# its JSON. Per draw (all shares in %):
#   fig4_ks_loss_max        max over n of 1 - KnapsackSingle / BruteForce (paper 5)
#   fig4_greedy_loss_max    max over n of 1 - Greedy / BruteForce (paper 0)
#   fig6_ks_loss_mean       mean over C of 1 - KnapsackSingle / BruteForce (paper 5)
#   fig6_greedy_loss_max    max over C of 1 - Greedy / BruteForce (paper 5, "within")
#   fig6_greedy_exact_from  first C from which Greedy's mean equals
#                           BruteForce's at every larger C; 130 where not at
#                           C = 120 (paper 100: "C > 90")
#   fig7_kg_gain_max        max over C of KnapsackGroup / Greedy - 1 (paper 20: "exceeds")
#   fig7_ks_loss_max        max over C of 1 - KnapsackSingle / KnapsackGroup (paper 10)
#   fig7_greedy_over_ks_from first C from which Greedy's mean is at least
#                           KnapsackSingle's at every larger C; 240 where no
#                           budget up to 220 (paper 220: "only ... C > 200")
#   fig8_tree_c40, fig8_tree_c120  KnapsackGroup's tree in the paper's
#                           literal form, mean over environments (paper 5000, 100)
#   fig8_tree_refined_c40   the same with our two exact refinements
#                           (pol_win_group.h; the tree the policy runs)
#   cost_cheapest_median    the 20 cheapest of 200 (paper 40: "almost impossible ... C < 40")
#   cost_maxp_p95           MaxP's 20 (paper 200: "C > 200 ... almost any")
# Output in OUT_DIR: bands-LAW-seedS.json (the runs), groups-bands.csv
# (law,figure,metric,draws,p10,median,p90,paper,paper_percentile, by
# bench/bands.awk), groups-bands-curves.csv (law,budget,algorithm,draws,
# p10,median,p90 of
# Fig. 7's mean P_a^w and Fig. 8's literal tree) and, with gnuplot,
# groups-bands.png.
#
# Environment: GR_BAND_LAWS (default "uniform perf"), GR_BAND_SEEDS
# (default 20), GR_BAND_SCENARIOS, GR_BAND_LARGE; GR_BAND_REUSE=1 reuses the
# runs whose JSON is already in OUT_DIR (made with the same knobs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-groups-bands}
study=$build/bench/batchlab-study
laws=${GR_BAND_LAWS:-uniform perf}
nseeds=${GR_BAND_SEEDS:-20}
scen=${GR_BAND_SCENARIOS:-50}
large=${GR_BAND_LARGE:-50}
[ -x "$study" ] || { echo "groups-bands: $study is missing; build first" >&2; exit 1; }
mkdir -p "$out"

# The lines of one series of the study's JSON, and the values of an array
# in it (our JSON: one element per line); as in groups-study.sh.
block() { awk -v b="\"$2\": {" 'on && /^  "/ {exit} index($0, b) == 3 {on = 1} on {print}' "$1"; }
arr() {
    awk -v k="\"$1\": [" 'on && /^ *\]/ { exit }
        on { v = $1; sub(/,$/, "", v); print v }
        !on && index($0, k) { on = 1; if ($0 ~ /\]/) exit }'
}
# A number inside "obj": {..., "key": v} of a block.
ostat() { awk -v o="\"$1\": {" -v k="\"$2\":" 'index($0, o) { on = 1; next }
    on && $1 == k { v = $2; sub(/,$/, "", v); print v; exit }'; }

# One draw's statements, as "metric value" lines, and its curves as
# "budget algorithm value" lines (to $2).
facts() { # json curves
    local j=$1 tmp
    tmp=$(mktemp -d)
    block "$j" small > "$tmp/s"
    block "$j" budget > "$tmp/b"
    block "$j" large > "$tmp/l"
    for a in bruteforce greedy knapsack_single; do arr "$a" < "$tmp/s" > "$tmp/s_$a"; done
    for a in bruteforce greedy knapsack_single; do arr "$a" < "$tmp/b" > "$tmp/b_$a"; done
    for a in knapsack_group greedy knapsack_single tree_size_literal tree_size; do arr "$a" < "$tmp/l" > "$tmp/l_$a"; done
    arr budget < "$tmp/b" > "$tmp/b_x"
    arr budget < "$tmp/l" > "$tmp/l_x"
    paste "$tmp/s_bruteforce" "$tmp/s_greedy" "$tmp/s_knapsack_single" | awk '
        { ks = 100 * (1 - $3 / $1); gr = 100 * (1 - $2 / $1)
          if (NR == 1 || ks > mk) mk = ks; if (NR == 1 || gr > mg) mg = gr }
        END { print "fig4_ks_loss_max", mk; print "fig4_greedy_loss_max", mg }'
    paste "$tmp/b_x" "$tmp/b_bruteforce" "$tmp/b_greedy" "$tmp/b_knapsack_single" | awk '
        { x[NR] = $1; ks += 100 * (1 - $4 / $2); gr = 100 * (1 - $3 / $2)
          if (NR == 1 || gr > mg) mg = gr; eq[NR] = ($3 >= $2 - 1e-12) }
        END { print "fig6_ks_loss_mean", ks / NR; print "fig6_greedy_loss_max", mg
              from = x[NR] + 10; for (i = NR; i >= 1 && eq[i]; i--) from = x[i]
              print "fig6_greedy_exact_from", from }'
    paste "$tmp/l_x" "$tmp/l_knapsack_group" "$tmp/l_greedy" "$tmp/l_knapsack_single" \
        "$tmp/l_tree_size_literal" "$tmp/l_tree_size" | awk -v curves="$2" '
        { x[NR] = $1; g = ($3 > 0) ? 100 * ($2 / $3 - 1) : 0; s = ($2 > 0) ? 100 * (1 - $4 / $2) : 0
          if (NR == 1 || g > mg) mg = g; if (NR == 1 || s > ms) ms = s; ok[NR] = ($3 >= $4)
          if ($1 == 40) { t40 = $5; r40 = $6 } if ($1 == 120) t120 = $5
          print $1, "knapsack_group", $2 > curves; print $1, "greedy", $3 > curves
          print $1, "knapsack_single", $4 > curves; print $1, "tree_literal", $5 > curves }
        END { print "fig7_kg_gain_max", mg; print "fig7_ks_loss_max", ms
              from = 240; for (i = NR; i >= 1 && ok[i]; i--) from = x[i]
              print "fig7_greedy_over_ks_from", from
              print "fig8_tree_c40", t40; print "fig8_tree_c120", t120
              print "fig8_tree_refined_c40", r40 }'
    echo "cost_cheapest_median $(ostat cost_cheapest median < "$tmp/l")"
    echo "cost_maxp_p95 $(ostat cost_maxp p95 < "$tmp/l")"
    rm -rf "$tmp"
}

echo "groups-bands: laws $laws, seeds 1..$nseeds, $scen environments per point (N = 21), $large per budget (N = 200)"
facts_all=$out/bands-facts.txt curves_all=$out/bands-curves.txt
: > "$facts_all"
: > "$curves_all"
for law in $laws; do
    for s in $(seq 1 "$nseeds"); do
        j=$out/bands-$law-seed$s.json
        [ "${GR_BAND_REUSE:-0}" = 1 ] && [ -s "$j" ] ||
            "$study" groups --cost-law "$law" --seed "$s" --scenarios "$scen" --large-scenarios "$large" \
            --json "$j" > /dev/null
        facts "$j" "$out/curves.tmp" | awk -v l="$law" -v s="$s" '{print l, s, $1, $2}' >> "$facts_all"
        awk -v l="$law" -v s="$s" '{print l, s, $1, $2, $3}' "$out/curves.tmp" >> "$curves_all"
    done
done
rm -f "$out/curves.tmp"

csv=$out/groups-bands.csv
{
    echo "law,figure,metric,draws,p10,median,p90,paper,paper_percentile"
    awk 'BEGIN { OFS = "\t"
            paper["fig4_ks_loss_max"] = 5; paper["fig4_greedy_loss_max"] = 0
            paper["fig6_ks_loss_mean"] = 5; paper["fig6_greedy_loss_max"] = 5
            paper["fig6_greedy_exact_from"] = 100; paper["fig7_kg_gain_max"] = 20
            paper["fig7_ks_loss_max"] = 10; paper["fig7_greedy_over_ks_from"] = 220
            paper["fig8_tree_c40"] = 5000; paper["fig8_tree_c120"] = 100
            paper["fig8_tree_refined_c40"] = 5000
            paper["cost_cheapest_median"] = 40; paper["cost_maxp_p95"] = 200 }
        { fig = $3; sub(/_.*/, "", fig); print $1 "," fig, $3, $4, paper[$3] }' "$facts_all" |
        awk -F '\t' -f "$here/bands.awk"
} > "$csv"
ccsv=$out/groups-bands-curves.csv
{
    echo "law,budget,algorithm,draws,p10,median,p90"
    awk 'BEGIN { OFS = "\t" } { print $1 "," $3, $4, $5, "" }' "$curves_all" |
        awk -F '\t' -f "$here/bands.awk" | cut -d, -f1-7
} > "$ccsv"

echo
echo "Statements of Figs. 4-8 over $nseeds draws per law (10-90 % band; the paper's value as a percentile of ours)"
printf '%-17s %-26s %10s %10s %10s %8s %6s\n' law metric p10 median p90 paper "pct"
tail -n +2 "$csv" | awk -F, '{printf "%-17s %-26s %10s %10s %10s %8s %5s%%\n", $1, $3, $5, $6, $7, $8, $9}'
echo "wrote $csv and $ccsv"
if command -v gnuplot > /dev/null; then
    term=png
    gnuplot -e 'set terminal pngcairo' > /dev/null 2>&1 && term=pngcairo
    gnuplot -e "term='$term'; dir='$out'; laws='$laws'" "$here/groups-bands.gp"
    echo "wrote $out/groups-bands.png"
fi
