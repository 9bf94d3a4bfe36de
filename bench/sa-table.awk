# sa-table.awk — one of the paper's time tables (Tables 1, 2, 4, 5 layout)
# from bench/sa-study.sh's sa-time.csv: -v m=MODEL -v stop=1000|5000|e1.
# Columns: machines, our CPU and GPU seconds (machine by machine; one chain
# on one thread), CPU/GPU, the paper's CPU and GPU seconds, iterations,
# Cmax, its lower bound, Cmax / bound, the paper's Cmax, the estimated
# share of peak bandwidth machine by machine; then the crossover: the
# smallest size from which the GPU, machine by machine, is faster for every
# larger size measured.
$1 == m && $3 == stop {
    k = $2 + 0
    seen[k] = 1
    if ($4 == "cpu") {
        cpu[k] = $8; it[k] = $7; c[k] = $11; lb[k] = $12
        pc[k] = $15; pg[k] = $16; pcm[k] = $17
    } else if ($5 == "machines") {
        gm[k] = $8; bw[k] = $20
    } else {
        gc[k] = $8
    }
}
function or_dash(v) { return (v == "" || v == "null") ? "-" : v }
END {
    n = 0
    for (k in seen)
        keys[++n] = k + 0
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (keys[j] < keys[i]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    for (i = 1; i <= n; i++) {
        k = keys[i]
        x = (k in gm && gm[k] > 0) ? sprintf("%.2f", cpu[k] / gm[k]) : "-"
        printf "%8s %10.3f %11s %11s %8s %10s %10s %8s %8s %9s %8s %9s %9s\n", k, cpu[k],
            (k in gm) ? sprintf("%.3f", gm[k]) : "-", (k in gc) ? sprintf("%.3f", gc[k]) : "-", x,
            or_dash(pc[k]), or_dash(pg[k]), it[k], c[k], lb[k],
            (lb[k] > 0) ? sprintf("%.2f", c[k] / lb[k]) : "-", or_dash(pcm[k]),
            (k in bw && bw[k] != "null" && bw[k] != "") ? sprintf("%.2f%%", 100 * bw[k]) : "-"
    }
    g = 0
    for (i = 1; i <= n; i++)
        if (keys[i] in gm)
            g++
    if (!g) {
        print "crossover: not measured (no CUDA device)"
        exit
    }
    x = "none up to " keys[n]
    for (i = n; i >= 1; i--) {
        k = keys[i]
        if ((k in gm) && gm[k] < cpu[k])
            x = k
        else
            break
    }
    printf "crossover (GPU machine by machine faster from): %s machines\n", x
}
