# production-study.gp — bench/production-study.sh's figure: per log, each
# configuration's mean wait and mean bounded slowdown relative to EASY's on
# the same log (below 1: better than EASY), utilization, and agreement with
# the log's own schedule (Spearman's rho of the waits; none for the stand-in).
# Called with -e "dat='...'; png='...'; names='KTH-SP2 SDSC-SP2 ...';
# agree='1 2'" (agree: the positions in names of the logs with logged waits).
set terminal pngcairo size 1900,480 font ",10"
set output png
set multiplot layout 1,4
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key below horizontal
set grid ytics
set xtics rotate by -35 nomirror
n = words(names)
set title "mean wait / EASY's"
set ylabel "ratio to EASY"
set yrange [0:*]
plot for [i=1:n] dat using (column(2 + 4*(i-1))):xtic(1) title word(names, i), 1 with lines lc "black" dt 2 notitle
set title "mean bounded slowdown (tau 10 s) / EASY's"
plot for [i=1:n] dat using (column(3 + 4*(i-1))):xtic(1) title word(names, i), 1 with lines lc "black" dt 2 notitle
set title "utilization"
set ylabel "busy share"
set yrange [0:1.3]
set ytics 0, 0.2, 1
plot for [i=1:n] dat using (column(4 + 4*(i-1))):xtic(1) title word(names, i)
set title "agreement with the log: Spearman's rho of the waits"
set ylabel "rho (1: the log's order of waits)"
set yrange [0:1]
set ytics 0, 0.2, 1
if (words(agree) > 0) {
    plot for [a in agree] dat using (column(5 + 4*(int(a)-1))):xtic(1) title word(names, int(a))
}
unset multiplot
