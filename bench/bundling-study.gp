# Figures of bench/bundling-study.sh (gnuplot; run by the script with
# -e "dir='OUT_DIR'"). Metric against the initialization share for each of
# the six workloads, and the queue length over time for orig-90 at 5 % and
# 10 % (seed 1), in the manner of the paper's Figures 11-12.
set terminal pngcairo size 1500,900 noenhanced font ",10"
set key top left
set xlabel "average initialization share, %"
set grid
names = "orig-85 orig-90 orig-95 mod-85 mod-90 mod-95"
metrics = "wait median util queue"
labels = "mean wait (s)|median wait (s)|utilization (%)|mean queue length"
do for [m = 1:4] {
    metric = word(metrics, m)
    set output sprintf("%s/fig-%s.png", dir, metric)
    set multiplot layout 2,3 title sprintf("%s against the initialization share: FCFS, EASY, Packet (means over seeds)", metric)
    if (m != 3) { set logscale y } else { unset logscale y }
    do for [w = 1:6] {
        f = sprintf("%s/%s-%s.dat", dir, metric, word(names, w))
        set title word(names, w)
        plot f using 1:2 with linespoints title "FCFS", \
             f using 1:3 with linespoints title "EASY", \
             f using 1:4 with linespoints title "Packet"
    }
    unset multiplot
}
unset logscale y
set datafile separator ","
set xlabel "time (h)"
set ylabel "jobs waiting"
set output sprintf("%s/fig-queue-orig-90.png", dir)
set multiplot layout 1,2 title "orig-90, seed 1: queue length over time"
do for [s in "5 10"] {
    set title sprintf("initialization share %s %%", s)
    plot for [p in "fcfs easy packet"] sprintf("%s/runs/orig-90-s1-%s-%s/timeseries.csv", dir, s, p) \
         using ($1 / 3600):2 every ::1 with steps title p
}
unset multiplot
