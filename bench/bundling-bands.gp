# Figures of bench/bundling-bands.sh (gnuplot -e "dir='OUT_DIR'"): per
# workload, the 10-90 % band over the draws (shaded) and its median (line)
# against the initialization share, the paper's values as labelled markers;
# the shares' axis runs 0..10 % by 1, then 20..50 % one step each.
set terminal pngcairo size 1500,950 noenhanced font ",10"
set grid
names = "orig-85 orig-90 orig-95 mod-85 mod-90 mod-95"
set xrange [-0.3:14.3]
set xtics ("0" 0, "1" 1, "2" 2, "3" 3, "4" 4, "5" 5, "6" 6, "7" 7, "8" 8, "9" 9, "10" 10, "20" 11, "30" 12, "40" 13, "50" 14)
set xlabel "average initialization share, %"
set style fill transparent solid 0.22 noborder
set key below horizontal maxcols 4 samplen 2

set output sprintf("%s/fig-bands-wait.png", dir)
set multiplot layout 2,3 title "Mean wait over the draws: 10-90 % band and median; markers: the paper's Tables 2-3 (Packet counts pseudo-jobs out, as the paper did)"
set logscale y
set ylabel "mean wait (s)"
do for [w = 1:6] {
    f = sprintf("%s/band-%s.dat", dir, word(names, w))
    p = sprintf("%s/paper-%s.dat", dir, word(names, w))
    set title word(names, w)
    plot f using 1:6:8 with filledcurves lc rgb "#1f77b4" notitle, \
         f using 1:7 with lines lw 2 lc rgb "#1f77b4" title "EASY", \
         f using 1:9:11 with filledcurves lc rgb "#2ca02c" notitle, \
         f using 1:10 with lines lw 2 dt 2 lc rgb "#2ca02c" title "conservative", \
         f using 1:12:14 with filledcurves lc rgb "#d62728" notitle, \
         f using 1:13 with lines lw 2 lc rgb "#d62728" title "Packet (paper variant)", \
         f using 1:16 with lines lw 1 dt 3 lc rgb "#9467bd" title "no bundling (median)", \
         p using 1:4 with points pt 7 ps 1.2 lc rgb "#1f77b4" title "paper: Backfill", \
         p using 1:5 with points pt 9 ps 1.4 lc rgb "#d62728" title "paper: Packet"
}
unset multiplot
unset logscale y

set output sprintf("%s/fig-bands-ratio.png", dir)
set multiplot layout 2,3 title "Packet / baseline mean wait over the draws: 10-90 % band and median; markers: the paper's Packet / Backfill; below 1 Packet waits less"
set ylabel "mean wait ratio"
set yrange [0.02:10]
set logscale y
do for [w = 1:6] {
    f = sprintf("%s/band-%s.dat", dir, word(names, w))
    p = sprintf("%s/paper-%s.dat", dir, word(names, w))
    set title word(names, w)
    plot f using 1:18:20 with filledcurves lc rgb "#1f77b4" notitle, \
         f using 1:19 with lines lw 2 lc rgb "#1f77b4" title "Packet / EASY", \
         f using 1:21:23 with filledcurves lc rgb "#2ca02c" notitle, \
         f using 1:22 with lines lw 2 dt 2 lc rgb "#2ca02c" title "Packet / conservative", \
         f using 1:25 with lines lw 1 dt 3 lc rgb "#9467bd" title "no bundling / EASY (median)", \
         1 with lines lc rgb "black" notitle, \
         p using 1:6 with points pt 9 ps 1.4 lc rgb "#d62728" title "paper: Packet / Backfill"
}
unset multiplot
unset logscale y
set autoscale y

set terminal pngcairo size 1000,600 noenhanced font ",10"
set output sprintf("%s/fig-thresholds.png", dir)
set title "Share from which the paper variant beats the baseline's mean wait at every larger share: median and 10-90 % over the draws"
set xrange [0.4:6.6]
set xtics ("orig-85" 1, "orig-90" 2, "orig-95" 3, "mod-85" 4, "mod-90" 5, "mod-95" 6)
set xlabel "workload"
set yrange [-0.5:15.5]
set ytics ("0" 0, "2" 2, "4" 4, "6" 6, "8" 8, "10" 10, "20" 11, "30" 12, "40" 13, "50" 14, "never" 15)
set ylabel "threshold share, %"
set key inside top right vertical
f = sprintf("%s/thresholds.dat", dir)
plot f using ($1 - 0.12):4:3:5 with yerrorbars pt 7 ps 1.3 lw 2 lc rgb "#1f77b4" title "against EASY", \
     f using ($1 + 0.12):8:7:9 with yerrorbars pt 5 ps 1.3 lw 2 lc rgb "#2ca02c" title "against conservative", \
     f using 1:6 with points pt 9 ps 2 lc rgb "#d62728" title "paper: Packet against Backfill"
