# bands.awk — the standard of bench's reproductions over many draws: per
# statement, the 10-90 % band of our values over the draws and the paper's
# value as a percentile of them. Used by groups-bands.sh, slots-bands.sh and
# availability-bands.sh.
#
#   awk -F '\t' -f bench/bands.awk FACTS
#
# FACTS: one line per draw and statement, KEY<TAB>METRIC<TAB>VALUE<TAB>PAPER
# (KEY: what the statement is grouped by, printed as it is, commas allowed;
# PAPER: the paper's value, empty where it gives none). Output, in the order
# statements first appear: KEY,METRIC,draws,p10,median,p90,paper,
# paper_percentile. Quantiles by linear interpolation between order
# statistics (the p-th of n sorted values at rank 1 + p (n - 1)); the
# paper's percentile is the share of draws below its value, ties counted
# half, 0 below every draw and 100 above every draw.
function q(v, n, p,   r, k) {
    r = 1 + p * (n - 1); k = int(r)
    return (k >= n) ? v[n] : v[k] + (r - k) * (v[k + 1] - v[k])
}
function sortv(v, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = v[i]
        for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
        v[j + 1] = t
    }
}
{
    k = $1 SUBSEP $2
    if (!(k in n)) { order[++no] = k; paper[k] = $4 }
    v[k, ++n[k]] = $3 + 0
}
END {
    for (i = 1; i <= no; i++) {
        k = order[i]; m = n[k]; split(k, kk, SUBSEP); p = paper[k]; below = 0
        for (j = 1; j <= m; j++) {
            w[j] = v[k, j]
            if (p != "") below += (w[j] < p + 0) ? 1 : (w[j] == p + 0) ? 0.5 : 0
        }
        sortv(w, m)
        pct = (p != "") ? sprintf("%.0f", 100 * below / m) : ""
        printf "%s,%s,%d,%.4g,%.4g,%.4g,%s,%s\n", kk[1], kk[2], m, q(w, m, 0.1), q(w, m, 0.5),
            q(w, m, 0.9), p, pct
    }
}
