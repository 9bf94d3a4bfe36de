# slots-cycles.gp — like Figure 5 of Toporkov, Yemelyanov, Toporkova &
# Bobchenkov 2011: the time per job of each of the first 300 kept cycles
# under time minimization, with ALP and with AMP alternatives.
#
# gnuplot -e "in='fig5.dat'; out='fig5.png'; term='pngcairo'" bench/slots-cycles.gp
# in: rows "experiment alp_time_per_job amp_time_per_job"
if (!exists("term")) term = 'pngcairo'
if (term eq 'pdfcairo') {
    set terminal pdfcairo size 8in,3.2in font ',10'
} else {
    if (term eq 'pngcairo') {
        set terminal pngcairo size 1000,400 font ',10'
    } else {
        set terminal png size 1000,400
    }
}
set output out
set title 'Time per job, first 300 kept cycles (min total time under B*)'
set xlabel 'experiment'
set ylabel 'time per job'
set grid
set key top right
plot in using 1:2 with lines lw 1.5 lc rgb '#ff7f0e' title 'ALP', \
     in using 1:3 with lines lw 1.5 lc rgb '#1f77b4' title 'AMP'
