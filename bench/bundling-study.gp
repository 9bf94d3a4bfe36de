# Figures of bench/bundling-study.sh (gnuplot; run by the script with
# -e "dir='OUT_DIR'"). Metric against the initialization share for each of
# the six workloads (FCFS, EASY and the four Packet readings); the
# initialization time Packet saves against the mean wait it gains over
# EASY; and the queue length over time for orig-90 at 5 % and 10 % (seed 1),
# in the manner of the paper's Figures 11-12.
set terminal pngcairo size 1500,900 noenhanced font ",10"
set key top left
set xlabel "average initialization share, %"
set grid
names = "orig-85 orig-90 orig-95 mod-85 mod-90 mod-95"
metrics = "wait median util queue"
labels = "mean wait (s)|median wait (s)|utilization (%)|mean queue length"
variants = "FCFS EASY Packet-default Packet-paper no-bundling no-scaling"
do for [m = 1:4] {
    metric = word(metrics, m)
    set output sprintf("%s/fig-%s.png", dir, metric)
    set multiplot layout 2,3 title sprintf("%s against the initialization share (means over seeds; Packet-paper counts its pseudo-jobs out, as the paper did%s)", metric, m == 2 ? "; zero medians are not drawn on the log scale" : "")
    # the key below each panel: inside, some series ran through it
    if (m != 3) { set logscale y } else { unset logscale y }
    set key below horizontal maxcols 3
    do for [w = 1:6] {
        f = sprintf("%s/%s-%s.dat", dir, metric, word(names, w))
        set title word(names, w)
        plot for [c = 2:7] f using 1:c with linespoints title word(variants, c - 1)
    }
    unset multiplot
}
unset logscale y

set key inside top left vertical maxcols 1
# Saved initialization against the wait gained, per share.
set output sprintf("%s/fig-saving.png", dir)
set multiplot layout 2,3 title "initialization saved against EASY (hours, x) and mean wait gained over EASY (s, y; every job counted), one point per share"
set xlabel "initialization saved (h)"
set ylabel "mean wait gained (s)"
do for [w = 1:6] {
    f = sprintf("%s/saving-%s.dat", dir, word(names, w))
    set title word(names, w)
    plot for [v in "default paper no-bundling no-scaling"] f using (strcol(1) eq v ? $3 : 1/0):4 with linespoints title v, \
         0 with lines lc rgb "black" notitle
}
unset multiplot

set datafile separator ","
set xlabel "time (h)"
set ylabel "jobs waiting"
set output sprintf("%s/fig-queue-orig-90.png", dir)
set multiplot layout 1,2 title "orig-90, seed 1: queue length over time"
do for [s in "5 10"] {
    set title sprintf("initialization share %s %%", s)
    plot for [p in "fcfs easy default paper"] sprintf("%s/runs/orig-90-s1-%s-%s/timeseries.csv", dir, s, p) \
         using ($1 / 3600):2 every ::1 with steps title p
}
unset multiplot
