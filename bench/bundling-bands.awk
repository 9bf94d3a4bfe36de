# bench/bundling-bands.awk — the statistics of bundling-bands.sh over its
# draws. Run as
#   awk -F, -v out=OUT_DIR -v shares="0 1 ... 50" -f bundling-bands.awk \
#       bundling-paper.txt OUT_DIR/results.csv
# (results.csv: workload,draw,share,policy,mean_wait_s,median_wait_s,
# queue_mean,utilization,jobs_mean_wait_s). Writes OUT_DIR/bands.csv,
# thresholds.csv, shape.txt, tables.txt and the figures' data (band-W.dat,
# paper-W.dat, thresholds.dat). Percentile p of sorted x_1..x_n:
# x_h + (h - floor h)(x_{h+1} - x_h), h = 1 + (n - 1) p (as
# gsl_stats_quantile_from_sorted_data); a paper value's percentile is
# 100 (b + e / 2) / n with b of our values below it and e equal to it.
# A threshold that is never reached is NEVER, above every share.

function sortn(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
function pct(a, n, p,    h, lo) {
    h = 1 + (n - 1) * p
    lo = int(h)
    if (lo >= n) return a[n]
    if (a[lo + 1] >= NEVER || a[lo] >= NEVER) return (h == lo) ? a[lo] : NEVER
    return a[lo] + (h - lo) * (a[lo + 1] - a[lo])
}
function rank_pct(a, n, x,    i, b, e) {
    b = 0; e = 0
    for (i = 1; i <= n; i++) { if (a[i] < x) b++; else if (a[i] == x) e++ }
    return 100 * (b + e / 2) / n
}
function num(x, d) { return x >= NEVER ? "never" : sprintf("%." d "f", x) }
# the figures' position of a share: 0..10 as is, 20..50 one step each, never 15
function pos(s) { return s >= NEVER ? 15 : (s <= 10 ? s : 10 + (s - 10) / 10) }
# collect SERIES of workload W at share S, metric M into g[1..n]; returns n
function gather(w, s, ser, m,    r, n, a, b, k) {
    n = 0
    if (ser ~ /\//) {
        split(ser, k, "/")
        for (r = 1; r <= nd[w]; r++) {
            a = (w SUBSEP s SUBSEP k[1] SUBSEP m SUBSEP r)
            b = (w SUBSEP s SUBSEP k[2] SUBSEP m SUBSEP r)
            if ((a in v) && (b in v) && v[b] > 0) g[++n] = v[a] / v[b]
        }
    } else
        for (r = 1; r <= nd[w]; r++) {
            a = (w SUBSEP s SUBSEP ser SUBSEP m SUBSEP r)
            if (a in v) g[++n] = v[a]
        }
    sortn(g, n)
    return n
}
# the paper's value of SERIES, metric M, workload W, share S ("" if none)
function paper_of(w, s, ser, m,    pm, key) {
    pm = (m == "mean_wait") ? "wait" : (m == "median_wait") ? "median" : (m == "mean_queue") ? "queue" : "util"
    key = pm SUBSEP w SUBSEP s
    if (!(key in pf)) return ""
    if (ser == "fcfs") return pf[key]
    if (ser == "easy" || ser == "conservative") return pb[key]
    if (ser == "paper") return pk[key]
    if (ser == "paper/easy" || ser == "paper/conservative") return pk[key] / pb[key]
    return ""
}
function spearman(x, y, n,    i, j, rx, ry, d) { # ranks by counting (no ties in x)
    d = 0
    for (i = 1; i <= n; i++) {
        rx = 1; ry = 1
        for (j = 1; j <= n; j++) { if (x[j] < x[i]) rx++; if (y[j] < y[i]) ry++ }
        d += (rx - ry) ^ 2
    }
    return n > 2 ? 1 - 6 * d / (n * (n * n - 1)) : 0
}

BEGIN {
    NEVER = 1e9
    nw = split("orig-85 orig-90 orig-95 mod-85 mod-90 mod-95", W, " ")
    ns = split(shares, S, " ")
    nm = split("mean_wait median_wait mean_queue utilization", M, " ")
    nser = split("fcfs easy conservative paper paper-nb paper/easy paper/conservative paper-nb/easy", SER, " ")
}
FILENAME ~ /bundling-paper.txt$/ {
    split($0, f, " ")
    if (f[1] == "threshold") { pt[f[2], "mean_wait"] = f[3]; pt[f[2], "median_wait"] = f[4]; pt[f[2], "mean_queue"] = f[5] }
    else if (f[1] !~ /^#/ && f[1] != "") { pf[f[1], f[2], f[3]] = f[4]; pb[f[1], f[2], f[3]] = f[5]; pk[f[1], f[2], f[3]] = f[6] }
    next
}
FNR == 1 { next }
{
    w = $1; r = $2; s = $3; p = $4
    v[w, s, p, "mean_wait", r] = $5; v[w, s, p, "median_wait", r] = $6
    v[w, s, p, "mean_queue", r] = $7; v[w, s, p, "utilization", r] = 100 * $8
    if (r > nd[w]) nd[w] = r
}
END {
    # Bands.
    bands = out "/bands.csv"
    print "workload,share,series,metric,draws,p10,median,p90,paper,paper_percentile" > bands
    for (a = 1; a <= nw; a++) {
        w = W[a]
        dat = out "/band-" w ".dat"
        print "# pos share, then p10 median p90 of mean wait: fcfs 3-5, easy 6-8, conservative 9-11, paper 12-14, paper-nb 15-17; of the ratios: paper/easy 18-20, paper/conservative 21-23, paper-nb/easy 24-26" > dat
        pdat = out "/paper-" w ".dat"
        print "# pos share fcfs backfill packet packet/backfill (Tables 2-3)" > pdat
        for (b = 1; b <= ns; b++) {
            s = S[b]
            line = pos(s) " " s
            for (c = 1; c <= nser; c++) for (d = 1; d <= nm; d++) {
                ser = SER[c]; m = M[d]
                if (ser ~ /\// && m != "mean_wait" && m != "median_wait") continue
                n = gather(w, s, ser, m)
                if (!n) { if (m == "mean_wait") line = line " NaN NaN NaN"; continue }
                pv = paper_of(w, s, ser, m)
                dg = (ser ~ /\//) ? 3 : (m == "utilization") ? 1 : 0
                lo = pct(g, n, 0.1); md = pct(g, n, 0.5); hi = pct(g, n, 0.9)
                printf "%s,%s,%s,%s,%d,%s,%s,%s,%s,%s\n", w, s, ser, m, n, num(lo, dg), num(md, dg), num(hi, dg),
                       (pv == "" ? "" : num(pv, dg)), (pv == "" ? "" : sprintf("%.0f", rank_pct(g, n, pv))) > bands
                if (m == "mean_wait") line = line " " lo " " md " " hi
                key = w SUBSEP s SUBSEP ser SUBSEP m
                B10[key] = lo; B50[key] = md; B90[key] = hi; BN[key] = n
                if (pv != "") { PV[key] = pv; PP[key] = rank_pct(g, n, pv) }
            }
            print line > dat
            if (("wait" SUBSEP w SUBSEP s) in pf)
                print pos(s), s, pf["wait", w, s], pb["wait", w, s], pk["wait", w, s], pk["wait", w, s] / pb["wait", w, s] > pdat
        }
        close(dat); close(pdat)
    }
    close(bands)

    # Thresholds, per draw: the share from which the variant beats the
    # baseline at every larger share of the grid.
    thr = out "/thresholds.csv"
    print "variant,workload,baseline,metric,draws,p10,median,p90,paper,paper_percentile" > thr
    tdat = out "/thresholds.dat"
    print "# index workload, then p10 median p90 paper of the paper variant's mean-wait threshold against easy and against conservative (positions as the shares' axis)" > tdat
    split("paper paper-nb", VAR, " "); split("easy conservative", BAS, " ")
    split("mean_wait median_wait mean_queue", TM, " ")
    for (i = 1; i <= 2; i++) for (a = 1; a <= nw; a++) for (j = 1; j <= 2; j++) for (k = 1; k <= 3; k++) {
        vv = VAR[i]; w = W[a]; bb = BAS[j]; m = TM[k]
        n = 0
        for (r = 1; r <= nd[w]; r++) {
            from = NEVER
            for (b = ns; b >= 1; b--) {
                x = (w SUBSEP S[b] SUBSEP vv SUBSEP m SUBSEP r); y = (w SUBSEP S[b] SUBSEP bb SUBSEP m SUBSEP r)
                if ((x in v) && (y in v) && v[x] < v[y]) from = S[b]; else break
            }
            t[++n] = from
        }
        if (!n) continue
        sortn(t, n)
        pv = (vv == "paper") ? pt[w, m] : ""
        lo = pct(t, n, 0.1); md = pct(t, n, 0.5); hi = pct(t, n, 0.9)
        printf "%s,%s,%s,%s,%d,%s,%s,%s,%s,%s\n", vv, w, bb, m, n, num(lo, 1), num(md, 1), num(hi, 1), pv,
               (pv == "" ? "" : sprintf("%.0f", rank_pct(t, n, pv))) > thr
        T10[vv, w, bb, m] = lo; T50[vv, w, bb, m] = md; T90[vv, w, bb, m] = hi
        if (pv != "") TP[vv, w, bb, m] = rank_pct(t, n, pv)
    }
    close(thr)
    for (a = 1; a <= nw; a++) {
        w = W[a]
        printf "%d %s", a, w > tdat
        for (j = 1; j <= 2; j++)
            printf " %s %s %s %s", pos(T10["paper", w, BAS[j], "mean_wait"]), pos(T50["paper", w, BAS[j], "mean_wait"]),
                   pos(T90["paper", w, BAS[j], "mean_wait"]), pos(pt[w, "mean_wait"]) > tdat
        printf "\n" > tdat
    }
    close(tdat)

    # Tables 2-3 beside the paper's.
    tab = out "/tables.txt"
    printf "Tables 2-3, mean wait (s): median [p10-p90] over the draws; the paper's value (its percentile among ours)\n" > tab
    for (a = 1; a <= nw; a++) {
        w = W[a]
        printf "\n%s (%d draws)\n  %5s  %-34s %-34s %-34s %-30s\n", w, nd[w], "share", "EASY / paper's Backfill", "conservative / Backfill", "Packet (paper) / paper's Packet", "Packet/EASY / paper's ratio" > tab
        for (b = 1; b <= ns; b++) {
            s = S[b]
            if (!(("wait" SUBSEP w SUBSEP s) in pf)) continue
            printf "  %4s%%", s > tab
            split("easy conservative paper paper/easy", TS, " ")
            for (c = 1; c <= 4; c++) {
                key = w SUBSEP s SUBSEP TS[c] SUBSEP "mean_wait"
                dg = (c == 4) ? 2 : 0
                printf "  %s [%s-%s] %s (%.0f)", num(B50[key], dg), num(B10[key], dg), num(B90[key], dg), num(PV[key], dg), PP[key] > tab
            }
            printf "\n" > tab
        }
    }
    printf "\nThresholds (share %%, median [p10-p90] over the draws; the paper's, its percentile): paper variant by mean wait\n" > tab
    for (a = 1; a <= nw; a++) {
        w = W[a]
        printf "  %-8s", w > tab
        for (j = 1; j <= 2; j++) {
            q = "paper" SUBSEP w SUBSEP BAS[j] SUBSEP "mean_wait"
            printf "  vs %-12s %s [%s-%s]", BAS[j], num(T50[q], 1), num(T10[q], 1), num(T90[q], 1) > tab
        }
        q = "paper-nb" SUBSEP w SUBSEP "easy" SUBSEP "mean_wait"
        printf "  no bundling vs easy %s [%s-%s]", num(T50[q], 1), num(T10[q], 1), num(T90[q], 1) > tab
        printf "  paper %s (percentile %.0f vs easy, %.0f vs conservative)\n", pt[w, "mean_wait"],
               TP["paper", w, "easy", "mean_wait"], TP["paper", w, "conservative", "mean_wait"] > tab
    }
    close(tab)

    # Shapes.
    sh = out "/shape.txt"
    printf "\nShape checks\n" > sh
    for (j = 1; j <= 2; j++) {
        bb = BAS[j]
        printf "(a) Packet/%s mean wait falls as the share grows (Spearman rho of the median ratio against the share over the grid <= -0.8):\n", bb > sh
        all = 1
        for (a = 1; a <= nw; a++) {
            w = W[a]; n = 0
            for (b = 1; b <= ns; b++) {
                key = w SUBSEP S[b] SUBSEP "paper/" bb SUBSEP "mean_wait"
                if (key in B50) { xs[++n] = S[b]; ys[n] = B50[key] }
            }
            rho = spearman(xs, ys, n)
            ok = (rho <= -0.8); if (!ok) all = 0
            printf "    %-8s rho %6.2f, median ratio %.2f at %s %% -> %.2f at %s %%: %s\n", w, rho, ys[1], xs[1], ys[n], xs[n],
                   ok ? "holds" : "does not hold" > sh
        }
        printf "    all six: %s\n", all ? "holds" : "does not hold" > sh
    }
    n = 0
    for (a = 1; a <= nw; a++) {
        w = W[a]; n = 0
        for (b = 1; b <= ns; b++) if (("wait" SUBSEP w SUBSEP S[b]) in pf) { xs[++n] = S[b]; ys[n] = pk["wait", w, S[b]] / pb["wait", w, S[b]] }
        printf "    the paper's own Packet/Backfill over Tables 2-3, %-8s rho %6.2f (%.2f at %s %% -> %.2f at %s %%)\n", w, spearman(xs, ys, n), ys[1], xs[1], ys[n], xs[n] > sh
    }
    printf "(b) thresholds ordered by load (median mean-wait threshold of the paper variant: XX-85 >= XX-90 >= XX-95; the paper: 10 >= 8 >= 6, 7 >= 5 >= 3):\n" > sh
    for (j = 1; j <= 2; j++) for (kk = 0; kk <= 1; kk++) {
        kind = kk ? "mod" : "orig"; bb = BAS[j]
        t85 = T50["paper", kind "-85", bb, "mean_wait"]; t90 = T50["paper", kind "-90", bb, "mean_wait"]; t95 = T50["paper", kind "-95", bb, "mean_wait"]
        printf "    %-4s vs %-12s %s / %s / %s: %s\n", kind, bb, num(t85, 1), num(t90, 1), num(t95, 1),
               (t85 >= t90 && t90 >= t95) ? "holds" : "does not hold" > sh
    }
    printf "(c) the paper's Tables 2-3 mean waits inside our 10-90 %% band (of 18 orig and 18 mod points):\n" > sh
    split("easy conservative paper paper/easy paper/conservative", CS, " ")
    split("Backfill in EASY's|Backfill in conservative's|Packet in the paper variant's|Packet/Backfill in Packet/EASY's|Packet/Backfill in Packet/conservative's", CL, "|")
    for (c = 1; c <= 5; c++) {
        in_o = 0; in_m = 0; lo_o = 0; lo_m = 0
        for (a = 1; a <= nw; a++) for (b = 1; b <= ns; b++) {
            key = W[a] SUBSEP S[b] SUBSEP CS[c] SUBSEP "mean_wait"
            if (!(key in PV)) continue
            inside = (PV[key] >= B10[key] && PV[key] <= B90[key]); above = (PV[key] > B90[key])
            if (W[a] ~ /^orig/) { in_o += inside; lo_o += above } else { in_m += inside; lo_m += above }
        }
        printf "    %-36s orig %2d, mod %2d (above the band: orig %d, mod %d)\n", CL[c], in_o, in_m, lo_o, lo_m > sh
    }
    close(sh)
}
