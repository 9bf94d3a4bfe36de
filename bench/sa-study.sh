#!/usr/bin/env bash
# sa-study.sh — schedule refinement by simulated annealing (Skrinarova &
# Povinsky 2019) on CPU and GPU, and the `sa` policy in the simulator.
#
#   bench/sa-study.sh [BUILD_DIR] [OUT_DIR]
#
# 1. Schedule creation, in the layout of their Tables 1, 2, 4 and 5
#    (machines x CPU s x GPU s, ours beside theirs): load models #1 and #2
#    for 32, 64, ..., 2048 machines, E1, 1000 and 5000 iterations (the
#    paper ran both and does not say which its tables show) and the E1
#    stopping rule; one chain, as the paper. Columns: the CPU reference
#    (one pass per decoding, the fastest CPU decoder); with a device, the
#    CUDA backend machine by machine (--parallel machines, the paper's
#    Algorithm 1: one thread per machine) at every size, and one chain on
#    one thread (--parallel chains) up to SA_GPU_IDENTITY_MAX machines;
#    every device run is checked against the CPU's schedule (MISMATCH
#    lines). Also Cmax, our lower bound, Cmax / bound, the paper's Cmax
#    (Table 3), the estimated share of peak bandwidth (machine by machine)
#    and the crossover size (from which the device is faster). GPU
#    throughput of many chains (sa-gpu.csv): SA_GPU_CHAINS chains of
#    SA_GPU_ITERATIONS iterations at 1024 machines and more, evaluations
#    per second against the CPU reference's, and the share of peak
#    bandwidth.
# 1b. The comparison as the paper made it (SA_RUNS "algo1"): Algorithm 1
#    (one schedule decoded machine by machine, --parallel machines) on one
#    CPU core against one full pass (--full-decode) and against the CPU
#    reference (by events), the same SA_ALGO1_ITERATIONS iterations (default
#    100) and the same schedule (MISMATCH lines otherwise), per load model
#    and machine count: the median over SA_ALGO1_REPS runs (default 3) of
#    the solve's CPU seconds per decoding (evaluations), and Algorithm 1's
#    rounds per decoding. With a device, Algorithm 1 on it (wall seconds of
#    the solve per decoding) and the crossover (the smallest machine count
#    from which the device is faster than Algorithm 1 on one core at every
#    larger count); without one those cells are empty. Then the CPU
#    reference's throughput for the many-chains comparison (model #2, 1024
#    machines and more, 1000 iterations, evaluations per CPU second), the
#    chains kernel's cell empty without a device. sa-algo1.csv,
#    sa-algo1-throughput.csv.
# 2. E2 with transfer costs 0, 5, 10 and 25 % (their Tables 8 and 9),
#    SA_E2_ITERATIONS iterations, CPU: E2, its growth over 0 %, ours and
#    theirs, Cmax, download time and volume moved.
# 3. `sa` against EASY and conservative backfilling on a generated workload
#    (Lublin-Feitelson, 128 nodes of platforms/sdsc-sp2.xml, load 0.9):
#    mean wait, mean bounded slowdown, makespan, and the simulation's wall
#    time, and the time spent in the policy (the engine times every policy
#    call; manifest.policy_wall_time_s) with the policy's report (backend,
#    refinements).
#
# Targets (issue 14), printed as PASS/MISS, never asserted in tests: the
# CPU reference, model #2, 1024 machines, 5000 iterations within 15 s of
# CPU time; on a device, one chain machine by machine at least 4x faster
# than the CPU reference on one core of the same host (model #2, 1024
# machines); E2 at 25 % at least 2x E2 at 0 % (model #1, 64 and 128
# machines). Wall times on shared machines vary: the CPU seconds of the
# process are printed too.
#
# Environment: SA_SIZES (default "32 64 128 256 512 1024 2048"), SA_MODELS
# ("1 2"), SA_RUNS (which of "time e2 policy" to run, default all),
# SA_STOPS (default "1000 5000 e1"), SA_GPU_CHAINS (default "4096 8192
# 16384"), SA_GPU_ITERATIONS (default 30), SA_GPU_IDENTITY_MAX (default
# 128), SA_E2_SIZES (default SA_SIZES), SA_E2_ITERATIONS (default 5000),
# SA_SEED (default 1), SA_ALGO1_ITERATIONS, SA_ALGO1_REPS, SA_JOBS (workload of part 3, default 3000),
# SA_E1_CAP (iterations after which an E1-rule run is cut, default 10000:
# at 1024 machines and more the rule may not stop for tens of thousands of
# iterations; a cut run shows iterations = the cap).
# Output: OUT_DIR (default /tmp/batchlab-sa-study) holds one JSON per run,
# sa-time.csv, sa-e2.csv, sa-policy.csv and, with gnuplot, sa-time.png.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${1:-$src/build}
out=${2:-/tmp/batchlab-sa-study}
exe=$build/batchlab
study=$build/bench/batchlab-study
sizes=${SA_SIZES:-32 64 128 256 512 1024 2048}
models=${SA_MODELS:-1 2}
runs=${SA_RUNS:-time algo1 e2 policy}
gchains=${SA_GPU_CHAINS:-4096 8192 16384}
giters=${SA_GPU_ITERATIONS:-30}
idmax=${SA_GPU_IDENTITY_MAX:-128}
stops=${SA_STOPS:-1000 5000 e1}
e2sizes=${SA_E2_SIZES:-$sizes}
e2iters=${SA_E2_ITERATIONS:-5000}
seed=${SA_SEED:-1}
jobs=${SA_JOBS:-3000}
e1cap=${SA_E1_CAP:-10000}
a1iters=${SA_ALGO1_ITERATIONS:-100}
a1reps=${SA_ALGO1_REPS:-3}
for x in "$exe" "$study"; do
    [ -x "$x" ] || { echo "sa-study: $x is missing; build first" >&2; exit 1; }
done
mkdir -p "$out"

# A JSON number by key from a flat file (our own output: one key per line).
jget() { sed -n "s/^ *\"$2\": \([^,]*\),\{0,1\}$/\1/p" "$1" | head -1 | tr -d '"'; }
# The paper's value of a key inside "paper": {...} ("" where it has none;
# our JSON has one key per line).
pget() {
    awk -v k="\"$2\":" '/"paper": \{/ { p = 1; next }
        p && $1 == k { v = $2; sub(/,$/, "", v); if (v != "null") print v; exit }' "$1"
}
# For the tables: "-" where the paper has no number.
dash() { [ -n "$1" ] && echo "$1" || echo -; }

# One run: the study's JSON in $json, its printout in $json.txt, the CPU
# seconds of the process (user + system) in $json.cpus.
run_sa() { # json args...
    local json=$1 rc=0
    shift
    local TIMEFORMAT='%U %S'
    { time "$study" sa "$@" --seed "$seed" --json "$json" > "$json.txt" 2> "$json.err"; } \
        2> "$json.cpu" || rc=$?
    awk '{print $1 + $2}' "$json.cpu" > "$json.cpus"
    [ $rc = 0 ] || cat "$json.err" >&2
    return $rc
}

gpu=0
if "$study" sa --model 1 --machines 2 --iterations 1 --backend cuda > /dev/null 2>&1; then
    gpu=1
fi
echo "sa-study: build $build; CUDA backend $([ $gpu = 1 ] && echo available || echo 'not available: CPU figures only')"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"

if [[ " $runs " == *" time "* ]]; then
    csv=$out/sa-time.csv
    echo "model,machines,stop,backend,parallel,chains,iterations,seconds,cpu_seconds,evals_per_s,cmax,cmax_lower_bound,e1,rounds_per_decoding,paper_cpu_s,paper_gpu_s,paper_cmax,paper_iter_cpu,paper_iter_gpu,bandwidth_share" > "$csv"
    for m in $models; do
        for M in $sizes; do
            for stop in $stops; do
                if [ "$stop" = e1 ]; then args=(--stop-e1 --iterations "$e1cap"); else args=(--iterations "$stop"); fi
                # the CPU reference (one chain, one pass: the fastest CPU
                # decoding); on a device, one chain machine by machine (the
                # paper's Algorithm 1) and, on small sizes, one chain on one
                # thread
                variants=("cpu chains")
                [ $gpu = 1 ] && variants+=("cuda machines")
                [ $gpu = 1 ] && [ "$M" -le "$idmax" ] && variants+=("cuda chains")
                for v in "${variants[@]}"; do
                    set -- $v
                    b=$1 par=$2
                    j=$out/time-m$m-$M-$stop-$b-$par.json
                    run_sa "$j" --model "$m" --machines "$M" "${args[@]}" --backend "$b" --parallel "$par"
                    echo "$m,$M,$stop,$b,$par,1,$(jget "$j" iterations),$(jget "$j" seconds),$(cat "$j.cpus"),$(jget "$j" evaluations_per_s),$(jget "$j" cmax),$(jget "$j" cmax_lower_bound),$(jget "$j" e1),$(jget "$j" rounds_per_decoding),$(pget "$j" cpu_seconds),$(pget "$j" gpu_seconds),$(pget "$j" cmax),$(pget "$j" iterations_cpu),$(pget "$j" iterations_gpu),$(jget "$j" bandwidth_share)" >> "$csv"
                    if [ "$b" = cuda ]; then
                        ref=$out/time-m$m-$M-$stop-cpu-chains.json
                        for k in e1 cmax flowtime iterations; do
                            [ "$(jget "$ref" $k)" = "$(jget "$j" $k)" ] ||
                                echo "  MISMATCH: model #$m, $M machines, $stop, cuda $par: $k cpu $(jget "$ref" $k), cuda $(jget "$j" $k)"
                        done
                    fi
                done
            done
        done
    done
    # The paper's tables: Tables 1 and 2 (fixed iterations; they do not say
    # 1000 or 5000, both are shown), Table 4 (model #1, E1 rule: missing
    # from the paper's text, so no paper numbers) and Table 5 (model #2, E1
    # rule). GPU columns: one chain machine by machine, and one chain on one
    # thread (up to SA_GPU_IDENTITY_MAX machines).
    for m in $models; do
        for stop in $stops; do
            if [ "$stop" = e1 ]; then
                tab=$([ "$m" = 1 ] && echo 4 || echo 5)
                what="E1 stopping rule"
            else
                tab=$m
                what="$stop iterations"
            fi
            echo
            echo "Table $tab layout: model #$m, $what, one chain (ours | paper)"
            printf '%8s %10s %11s %11s %8s %10s %10s %8s %8s %9s %8s %9s %9s\n' machines "CPU s" "GPU s mach" "GPU s chain" "CPU/GPU" "paper CPU" "paper GPU" iter Cmax bound "C/bound" "paper C" "bandwidth"
            awk -F, -v m="$m" -v stop="$stop" -f "$here/sa-table.awk" "$csv"
            if [ "$stop" = e1 ]; then
                ptext=$([ "$m" = 1 ] && echo 'above 512' || echo 512)
            else
                ptext=$([ "$m" = 1 ] && echo 512 || echo 128)
            fi
            echo "  (paper's crossover: $ptext machines)"
        done
    done
    # The targets: the CPU reference within 15 s of CPU time; the device
    # machine by machine at least 4x the CPU reference (model #2, 1024
    # machines, one chain).
    t=$(awk -F, '$1==2 && $2==1024 && $3==5000 && $4=="cpu" {print $8 " " $9}' "$csv")
    if [ -n "$t" ]; then
        set -- $t
        echo
        echo "target: CPU reference, model #2, 1024 machines, 5000 iterations: $(printf %.1f "$1") s wall, $2 s CPU <= 15 s CPU: $(awk -v s="$2" 'BEGIN{print (s <= 15) ? "PASS" : "MISS"}')"
    fi
    for stop in $stops; do
        g=$(awk -F, -v stop="$stop" '$1==2 && $2==1024 && $3==stop && $4=="cuda" && $5=="machines" {print $8}' "$csv")
        c=$(awk -F, -v stop="$stop" '$1==2 && $2==1024 && $3==stop && $4=="cpu" {print $8}' "$csv")
        if [ -n "$g" ] && [ -n "$c" ]; then
            echo "target: GPU machine by machine against the CPU reference, model #2, 1024 machines, $stop: $(awk -v c="$c" -v g="$g" 'BEGIN{printf "%.2fx (>= 4x: %s)", c / g, (c / g >= 4) ? "PASS" : "MISS"}')"
        fi
    done
    if [ $gpu = 1 ]; then
        # Throughput of the chains kernel: many chains of a few iterations;
        # evaluations per second against the CPU reference's run of the
        # same size.
        gcsv=$out/sa-gpu.csv
        echo "model,machines,chains,iterations,seconds,evals_per_s,cpu_evals_per_s,speedup,bandwidth_share" > "$gcsv"
        echo
        printf '%-5s %8s %7s %10s %10s %12s %12s %8s %9s\n' model machines chains iterations seconds "evals/s" "cpu evals/s" "x cpu" "bandwidth"
        first=${stops%% *}
        for m in $models; do
            for M in $sizes; do
                [ "$M" -ge 1024 ] || continue
                ref=$out/time-m$m-$M-$first-cpu-chains.json
                for c in $gchains; do
                    j=$out/gpu-m$m-$M-$c.json
                    if ! run_sa "$j" --model "$m" --machines "$M" --iterations "$giters" --backend cuda --chains "$c" 2> /dev/null; then
                        echo "  model #$m, $M machines, $c chains: $(tail -1 "$j.err")"
                        continue
                    fi
                    e=$(jget "$j" evaluations_per_s) r=$(jget "$ref" evaluations_per_s)
                    x=$(awk -v e="$e" -v r="$r" 'BEGIN{printf "%.1f", (r > 0) ? e / r : 0}')
                    printf '%-5s %8s %7s %10s %10.2f %12.0f %12.0f %8s %8.1f%%\n' "#$m" "$M" "$c" "$giters" \
                        "$(jget "$j" seconds)" "$e" "$r" "$x" "$(awk -v b="$(jget "$j" bandwidth_share)" 'BEGIN{print 100 * b}')"
                    echo "$m,$M,$c,$giters,$(jget "$j" seconds),$e,$r,$x,$(jget "$j" bandwidth_share)" >> "$gcsv"
                done
            done
        done
    else
        echo "GPU figures: not measured here (no CUDA device); run this script on a machine with one."
    fi
    if command -v gnuplot > /dev/null; then
        first=${stops%% *}
        if [ "$first" = e1 ]; then flabel="E1 rule"; else flabel="$first iterations"; fi
        gnuplot 2> /dev/null <<EOF || true
set terminal pngcairo size 1000,640
set output "$out/sa-time.png"
set datafile separator ","
set logscale xy
set xlabel "machines"
set ylabel "schedule creation [s], one chain, $flabel"
set key below maxcols 2
set xrange [16:4096]
set yrange [0.001:100000]
plot for [m=1:2] "< awk -F, '\$1==" . m . " && \$3==\"$first\" && \$4==\"cpu\"' $csv" using 2:8 with linespoints title sprintf("ours, CPU, model #%d", m), \
     for [m=1:2] "< awk -F, '\$1==" . m . " && \$3==\"$first\" && \$5==\"machines\"' $csv" using 2:8 with linespoints title sprintf("ours, GPU machine by machine, model #%d", m), \
     for [m=1:2] "< awk -F, '\$1==" . m . " && \$3==\"$first\" && \$4==\"cpu\"' $csv" using 2:15 with points title sprintf("paper, CPU, model #%d", m), \
     for [m=1:2] "< awk -F, '\$1==" . m . " && \$3==\"$first\" && \$4==\"cpu\"' $csv" using 2:16 with points title sprintf("paper, GPU, model #%d", m)
EOF
    fi
fi

if [[ " $runs " == *" algo1 "* ]]; then
    csv=$out/sa-algo1.csv
    echo "model,machines,iterations,evaluations,events_ms,one_pass_ms,algo1_cpu_ms,rounds_per_decoding,algo1_over_one_pass,algo1_gpu_ms,gpu_over_cpu_algo1" > "$csv"
    echo
    echo "Algorithm 1 (machine by machine) on one CPU core against one pass and the CPU reference: $a1iters iterations,"
    echo "CPU ms per decoding, median of $a1reps runs$([ $gpu = 1 ] || echo '; GPU columns need a device: empty here')"
    printf '%-5s %8s %11s %11s %12s %7s %10s %12s %9s\n' model machines "events ms" "1 pass ms" "Alg.1 CPU ms" rounds "Alg1/pass" "Alg.1 GPU ms" "GPU/CPU"
    for m in $models; do
        for M in $sizes; do
            declare -A ms=()
            for v in events one_pass algo1 gpu; do
                case $v in
                events) args=(--backend cpu) ;;
                one_pass) args=(--backend cpu --full-decode) ;;
                algo1) args=(--backend cpu --parallel machines) ;;
                gpu) [ $gpu = 1 ] || continue; args=(--backend cuda --parallel machines) ;;
                esac
                vals=()
                for r in $(seq 1 "$a1reps"); do
                    j=$out/algo1-m$m-$M-$v-$r.json
                    run_sa "$j" --model "$m" --machines "$M" --iterations "$a1iters" "${args[@]}"
                    key=cpu_seconds
                    [ $v = gpu ] && key=seconds
                    vals+=("$(awk -v s="$(jget "$j" $key)" -v e="$(jget "$j" evaluations)" 'BEGIN {printf "%.6f", 1e3 * s / e}')")
                    ref=$out/algo1-m$m-$M-events-1.json
                    for k in e1 cmax iterations; do
                        [ "$(jget "$ref" $k)" = "$(jget "$j" $k)" ] ||
                            echo "  MISMATCH: model #$m, $M machines, $v: $k events $(jget "$ref" $k), $v $(jget "$j" $k)"
                    done
                done
                ms[$v]=$(printf '%s\n' "${vals[@]}" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
            done
            j=$out/algo1-m$m-$M-algo1-1.json
            rounds=$(printf '%.2f' "$(jget "$j" rounds_per_decoding)")
            ratio=$(awk -v a="${ms[algo1]}" -v b="${ms[one_pass]}" 'BEGIN {printf "%.1f", a / b}')
            g=${ms[gpu]:-} gx=
            [ -n "$g" ] && gx=$(awk -v a="$g" -v b="${ms[algo1]}" 'BEGIN {printf "%.3g", a / b}')
            printf '%-5s %8s %11.4g %11.4g %12.4g %7s %10s %12s %9s\n' "#$m" "$M" "${ms[events]}" "${ms[one_pass]}" \
                "${ms[algo1]}" "$rounds" "$ratio" "${g:--}" "${gx:--}"
            echo "$m,$M,$a1iters,$(jget "$j" evaluations),${ms[events]},${ms[one_pass]},${ms[algo1]},$rounds,$ratio,$g,$gx" >> "$csv"
            unset ms
        done
        if [ $gpu = 1 ]; then
            x=$(awk -F, -v m="$m" '$1 == m && $10 != "" { n++; M[n] = $2; f[n] = ($10 < $7) }
                END { c = "none"; for (i = n; i >= 1 && f[i]; i--) c = M[i]; print c }' "$csv")
            echo "  crossover, model #$m (the device faster than Algorithm 1 on one core from): $x machines"
        else
            echo "  crossover, model #$m: needs a device (not measured here)"
        fi
    done
    echo
    echo "Many chains: the CPU reference's throughput, 1000 iterations, one core (the chains kernel needs a device)"
    printf '%-5s %8s %14s %18s\n' model machines "CPU evals/s" "GPU chains evals/s"
    tcsv=$out/sa-algo1-throughput.csv
    echo "model,machines,iterations,evaluations,cpu_evals_per_cpu_s" > "$tcsv"
    for m in $models; do
        for M in $sizes; do
            [ "$m" = 2 ] && [ "$M" -ge 1024 ] || continue
            j=$out/algo1-m$m-$M-throughput.json
            run_sa "$j" --model "$m" --machines "$M" --iterations 1000 --backend cpu
            e=$(awk -v s="$(jget "$j" cpu_seconds)" -v e="$(jget "$j" evaluations)" 'BEGIN {printf "%.0f", e / s}')
            printf '%-5s %8s %14s %18s\n' "#$m" "$M" "$e" "$([ $gpu = 1 ] && echo 'see sa-gpu.csv' || echo -)"
            echo "$m,$M,1000,$(jget "$j" evaluations),$e" >> "$tcsv"
        done
    done
fi

if [[ " $runs " == *" e2 "* ]]; then
    # E2 = 0.35 n Cmax + 0.35 F + 0.3 TC with TC = pct % x n x the volume
    # moved (gpu/gpu_sa_chain.c, gsa_energies); the annealing minimises E2,
    # so it trades Cmax for less volume as the price rises.
    csv=$out/sa-e2.csv
    echo "model,machines,transfer_cost_pct,e2,paper_e2,cmax,cmax_lower_bound,transfer_time,transfer_volume,seconds" > "$csv"
    printf '\n%-5s %8s %5s %16s %7s %16s %7s %8s %10s %10s\n' model machines TC% "E2 ours" "x 0%" "E2 paper" "x 0%" Cmax download volume
    for m in $models; do
        for M in $e2sizes; do
            for pct in 0 5 10 25; do
                j=$out/e2-m$m-$M-$pct.json
                run_sa "$j" --model "$m" --machines "$M" --iterations "$e2iters" --energy e2 \
                    --transfer-cost "$pct" --backend cpu
                z=$out/e2-m$m-$M-0.json
                e=$(jget "$j" e2) e0=$(jget "$z" e2) pe=$(pget "$j" e2) p0=$(pget "$z" e2)
                px=-
                if [ -n "$pe" ] && [ -n "$p0" ]; then px=$(awk -v a="$pe" -v b="$p0" 'BEGIN{printf "%.2f", a / b}'); fi
                printf '%-5s %8s %5s %16s %7s %16s %7s %8s %10s %10s\n' "#$m" "$M" "$pct" "$e" \
                    "$(awk -v a="$e" -v b="$e0" 'BEGIN{printf "%.2f", a / b}')" "$(dash "$pe")" "$px" \
                    "$(jget "$j" cmax)" "$(jget "$j" transfer_time)" "$(jget "$j" transfer_volume)"
                echo "$m,$M,$pct,$e,$pe,$(jget "$j" cmax),$(jget "$j" cmax_lower_bound),$(jget "$j" transfer_time),$(jget "$j" transfer_volume),$(jget "$j" seconds)" >> "$csv"
            done
        done
    done
    awk -F, '$1 == 1 && ($2 == 64 || $2 == 128) { if ($3 == 0) e0[$2] = $4; if ($3 == 25) e25[$2] = $4 }
        END { for (k in e0) if (k in e25) printf "target: E2 from 0 to 25 %%, model #1, %s machines: %.2fx (>= 2x: %s)\n", k, e25[k] / e0[k], (e25[k] / e0[k] >= 2) ? "PASS" : "MISS" }' "$csv" | sort -t, -k1
fi

if [[ " $runs " == *" policy "* ]]; then
    platform=$src/platforms/sdsc-sp2.xml
    wl=$out/lublin-$jobs.swf
    "$exe" generate lublin --nodes 128 --jobs "$jobs" --seed "$seed" --estimates f-model --f 3 -o "$out/lublin-raw.swf" > /dev/null
    "$exe" scale --workload "$out/lublin-raw.swf" --platform "$platform" --load 0.9 -o "$wl" > /dev/null
    pols="easy,conservative,sa,sa:window=64:iterations=256,sa:chains=8"
    [ $gpu = 1 ] && pols="$pols,sa:backend=cuda:chains=256"
    echo
    echo "policies on $jobs Lublin-Feitelson jobs (f-model estimates, f = 3), 128 nodes, load 0.9:"
    "$exe" compare --platform "$platform" --workload "$wl" --policies "$pols" --check -q \
        --out "$out/policies" | grep -E "mean wait|bounded|makespan|wall time|^ +[a-z]"
    csv=$out/sa-policy.csv
    echo "policy,mean_wait_s,mean_bounded_slowdown,makespan_s,wall_time_s,policy_wall_time_s,policy_report" > "$csv"
    for d in "$out/policies"/*/; do
        s=$d/summary.json
        p=$(basename "$d")
        w=$(sed -n 's/.*"wait_mean_s": \([^,]*\).*/\1/p' "$s" | head -1)
        b=$(sed -n 's/.*"bounded_slowdown_mean": \([^,]*\).*/\1/p' "$s" | head -1)
        k=$(sed -n 's/.*"makespan_s": \([^,]*\).*/\1/p' "$s" | head -1)
        t=$(sed -n 's/.*"wall_time_s": \([^,}]*\).*/\1/p' "$s" | head -1)
        pt=$(sed -n 's/.*"policy_wall_time_s": \([^,}]*\).*/\1/p' "$s" | head -1)
        r=$(sed -n 's/.*"policy_report": "\([^"]*\)".*/\1/p' "$s" | head -1)
        echo "$p,$w,$b,$k,$t,$pt,$r" >> "$csv"
    done
    awk -F, 'NR > 1 {printf "time in the policy, %s: %.3f s of %.3f s (%s)\n", $1, $6, $5, $7}' "$csv" | sort
fi
echo
echo "results in $out"
