#!/bin/sh
# slots-study.sh — ALP and AMP (Toporkov, Yemelyanov, Toporkova & Bobchenkov
# 2011): the standalone study of the paper's Section 5 next to the paper's
# numbers, the effect of each detail the paper leaves unstated, figures like
# its Figures 4-6, and the in-simulator policies alp and amp against EASY on
# the 64-node heterogeneous platform.
#
# usage: bench/slots-study.sh [BUILD_DIR] [OUTDIR] [CYCLES]
#        (defaults: build, /tmp/batchlab-slots, 25000)
#
# 1. `batchlab-study slots` (the program of bench/studies) with the default
#    readings (seed 1): the table.
# 2. The same cycles under other readings, one detail changed each time:
#    --length-ref required (t holds at the requested performance P, a node
#    of performance p runs t P/p), --price-factor 1.25 (C = 1.25 x 1.7^P,
#    the top of the price range at P), --t-limit terms (T* of (2) floored
#    term by term as printed), --perf integer (performances 1..3, P 1..2).
# 3. Figures (PNG with pngcairo, or png; PDF when pdfcairo exists):
#    fig4 (time minimization: time and cost per job), fig5 (time per job of
#    the first 300 kept cycles), fig6 (cost minimization).
# 4. The simulator: a Lublin-Feitelson workload (Lublin & Feitelson 2003)
#    of 3000 jobs generated for 64 nodes with requested times rounded up to
#    common walltimes, rescaled to a computed load of 0.85 on
#    platforms/hetero-64.xml, replayed under easy, conservative, alp and amp
#    with their default options (price limit = the pool's mean price, 2.175
#    per host-second: ALP may use only the 32 hosts of speed 1 and 1.5),
#    with price_limit=2.5 (ALP may use 48 hosts), and with price_limit=3.8
#    (no host is refused: ALP and AMP become the same batch scheduler).
#    Mean wait, mean bounded slowdown (tau = 10 s), utilization and total
#    cost (sum of price x time held).
# 5. The default readings over many draws (slots-bands.sh): seeds 1..20 of
#    25 000 cycles, per figure of Section 5 the 10-90 % band and the paper's
#    value as a percentile (slots-bands.csv); knobs SL_BAND_SEEDS,
#    SL_BAND_CYCLES.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$here/build}
OUT=${2:-/tmp/batchlab-slots}
CYCLES=${3:-25000}
BATCHLAB=${BATCHLAB:-$BUILD/batchlab}
STUDY=${BATCHLAB_STUDY:-$(dirname "$BATCHLAB")/bench/batchlab-study}
PLATFORM=$here/platforms/hetero-64.xml

for x in "$BATCHLAB" "$STUDY"; do
    if [ ! -x "$x" ]; then
        echo "slots-study.sh: no $(basename "$x") at $x (build it, or give the build folder)" >&2
        exit 1
    fi
done
mkdir -p "$OUT"

# The per-job means of a study JSON as one line:
# tm: ALP time cost alt, AMP time cost alt, kept; cm: the same.
jsum() {
    # Our JSON has one key per line: ALP's and AMP's own values come before
    # their "paper" object.
    awk '
        function num(s) { sub(/,$/, "", s); return s }
        /"time_min": \{/ { sec = "tm" }
        /"cost_min": \{/ { sec = "cm" }
        /"(alp|amp)": \{/ { a = ($0 ~ /"alp"/) ? "alp" : "amp"; own = 1; next }
        /"paper": \{/ { own = 0 }
        own && $1 ~ /^"(time|cost|alternatives_per_job)":$/ {
            k = $1; gsub(/[":]/, "", k); x[sec, a, k] = num($2)
        }
        /"cycles_kept":/ { kept[sec] = num($2) }
        function v(s, a) {
            return ((s, a, "time") in x ? x[s, a, "time"] : "nan") " " \
                   ((s, a, "cost") in x ? x[s, a, "cost"] : "nan") " " \
                   ((s, a, "alternatives_per_job") in x ? x[s, a, "alternatives_per_job"] : "nan")
        }
        END {
            print v("tm", "alp"), v("tm", "amp"), kept["tm"], v("cm", "alp"), v("cm", "amp"), kept["cm"]
        }' "$1"
}

echo "== 1. batchlab-study slots --cycles $CYCLES --seed 1 (default readings)"
"$STUDY" slots --cycles "$CYCLES" --seed 1 --json "$OUT/study.json" \
    --csv "$OUT/study.csv" | tee "$OUT/study.txt"

echo "== 2. readings of the unstated details (one changed at a time; per-job means)"
{
    printf '%-14s %7s | %-22s %-22s | %-22s %-22s\n' reading kept \
        "time-min ALP t/c/alt" "time-min AMP t/c/alt" "cost-min ALP t/c/alt" "cost-min AMP t/c/alt"
    printf '%-14s %7s | %-22s %-22s | %-22s %-22s\n' paper "-" \
        "59.85/313.56/7.39" "39.01/369.69/34.28" "61.04/313.09/7.28" "51.62/343.3/34.23"
    for r in "default:" "required:--length-ref required" "price-1.25:--price-factor 1.25" \
        "terms:--t-limit terms" "integer:--perf integer"; do
        name=${r%%:*}
        args=${r#*:}
        if [ "$name" = default ]; then
            f=$OUT/study.json
        else
            f=$OUT/reading-$name.json
            # shellcheck disable=SC2086
            "$STUDY" slots --cycles "$CYCLES" --seed 1 $args --json "$f" > /dev/null
        fi
        jsum "$f" | awk -v n="$name" '{
            printf "%-14s %7d | %6.2f/%7.2f/%5.2f   %6.2f/%7.2f/%5.2f   | %6.2f/%7.2f/%5.2f   %6.2f/%7.2f/%5.2f\n",
                n, $7, $1, $2, $3, $4, $5, $6, $8, $9, $10, $11, $12, $13 }'
    done
} | tee "$OUT/readings.txt"

echo "== 3. figures"
set -- $(jsum "$OUT/study.json")
printf '# algo paper_time ours_time paper_cost ours_cost\nALP 59.85 %s 313.56 %s\nAMP 39.01 %s 369.69 %s\n' \
    "$1" "$2" "$4" "$5" > "$OUT/fig4.dat"
printf '# algo paper_time ours_time paper_cost ours_cost\nALP 61.04 %s 313.09 %s\nAMP 51.62 %s 343.3 %s\n' \
    "$8" "$9" "${11}" "${12}" > "$OUT/fig6.dat"
awk -F, 'NR > 1 && $5 == 1 && n < 300 { n++; print n, $6 / $2, $8 / $2 }' "$OUT/study.csv" \
    > "$OUT/fig5.dat"
terms="png"
if gnuplot -e 'set terminal' 2>&1 | grep -q pngcairo; then terms="pngcairo"; fi
if gnuplot -e 'set terminal' 2>&1 | grep -q pdfcairo; then terms="$terms pdfcairo"; fi
draw_study() {
    ext=$2
    gnuplot -e "in='$OUT/fig4.dat'; out='$OUT/fig4.$ext'; term='$1'; ttl='Min total time under B* (3)'" \
        "$here/bench/slots-bars.gp"
    gnuplot -e "in='$OUT/fig6.dat'; out='$OUT/fig6.$ext'; term='$1'; ttl='Min total cost under T* (2)'" \
        "$here/bench/slots-bars.gp"
    gnuplot -e "in='$OUT/fig5.dat'; out='$OUT/fig5.$ext'; term='$1'" "$here/bench/slots-cycles.gp"
}
if command -v gnuplot > /dev/null; then
    for t in $terms; do
        case $t in pdfcairo) draw_study "$t" pdf ;; *) draw_study "$t" png ;; esac
    done
    echo "figures: $OUT/fig4.png $OUT/fig5.png $OUT/fig6.png"
else
    echo "gnuplot not found: no figures"
fi

echo "== 4. the simulator: easy, alp, amp on $PLATFORM"
W=$OUT/lublin-64.swf
"$BATCHLAB" generate lublin --nodes 64 --jobs 3000 --seed 1 --estimates walltimes \
    -o "$OUT/lublin-64-raw.swf"
"$BATCHLAB" scale --workload "$OUT/lublin-64-raw.swf" --platform "$PLATFORM" --load 0.85 -o "$W"
for set in "default:easy,conservative,alp,amp" \
    "limit-2.5:easy,conservative,alp:price_limit=2.5,amp:price_limit=2.5" \
    "free:easy,conservative,alp:price_limit=3.8,amp:price_limit=3.8"; do
    name=${set%%:*}
    pols=${set#*:}
    echo "-- $name: --policies $pols"
    "$BATCHLAB" compare -q --platform "$PLATFORM" --workload "$W" --policies "$pols" \
        --out "$OUT/sim-$name" | tee "$OUT/sim-$name.txt"
    {
        echo "# policy wait_s bounded_slowdown utilization total_cost"
        for d in "$OUT/sim-$name"/*/; do
            p=$(basename "$d")
            awk -v p="$p" '
                function num(line,    s) { s = line; sub(/^[^:]*: */, "", s); sub(/,.*/, "", s); return s }
                /"wait_mean_s"/ { w = num($0) }
                /"bounded_slowdown_mean"/ { b = num($0) }
                /"utilization"/ { u = num($0) }
                /"cost":/ { c = num($0) }
                END { printf "%s %.1f %.2f %.4f %.6g\n", p, w, b, u, c }' "$d/summary.json"
        done
    } > "$OUT/sim-$name.dat"
    if command -v gnuplot > /dev/null; then
        for t in $terms; do
            ext=png
            [ "$t" = pdfcairo ] && ext=pdf
            gnuplot -e "in='$OUT/sim-$name.dat'; out='$OUT/sim-$name.$ext'; term='$t'; ttl='hetero-64, Lublin-Feitelson 3000 jobs at load 0.85 (price limit: $name)'" \
                "$here/bench/slots-sim.gp"
        done
    fi
done

# 5. The default readings over many draws (slots-bands.sh, SL_BAND_*).
echo
sh "$here/bench/slots-bands.sh" "$(dirname "$(dirname "$STUDY")")" "$OUT"
echo "outputs in $OUT"
