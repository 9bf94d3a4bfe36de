# slots-sim.gp — the simulator comparison of bench/slots-study.sh: mean
# wait, mean bounded slowdown, utilization and total cost per policy.
#
# gnuplot -e "in='sim.dat'; out='sim.png'; term='pngcairo'; ttl='...'" bench/slots-sim.gp
# in: rows "policy wait_s bounded_slowdown utilization total_cost" (# comments)
if (!exists("term")) term = 'pngcairo'
if (term eq 'pdfcairo') {
    set terminal pdfcairo size 10in,3.2in font ',9'
} else {
    if (term eq 'pngcairo') {
        set terminal pngcairo size 1300,400 font ',9'
    } else {
        set terminal png size 1300,400
    }
}
set output out
set multiplot layout 1,4 title ttl
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set grid ytics
set key off
set yrange [0:*]
set xtics rotate by -30
set title 'mean wait (s)'
plot in using 2:xtic(1) lc rgb '#1f77b4'
set title 'mean bounded slowdown'
plot in using 3:xtic(1) lc rgb '#ff7f0e'
set title 'utilization'
plot in using 4:xtic(1) lc rgb '#2ca02c'
set title 'total cost'
plot in using 5:xtic(1) lc rgb '#d62728'
unset multiplot
