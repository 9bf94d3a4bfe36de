# slots-bars.gp — bar charts like Figures 4 and 6 of Toporkov, Yemelyanov,
# Toporkova & Bobchenkov 2011: per-job time (a) and cost (b) of the batches
# scheduled with ALP and AMP alternatives, the paper's bars next to ours.
#
# gnuplot -e "in='fig4.dat'; out='fig4.png'; term='pngcairo'; ttl='...'" bench/slots-bars.gp
# in: rows "ALGO paper_time ours_time paper_cost ours_cost" (# comments)
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
set multiplot layout 1,2 title ttl
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top left
set yrange [0:*]
set title '(a) time per job'
plot in using 2:xtic(1) title 'paper' lc rgb '#9e9e9e', '' using 3 title 'batchlab' lc rgb '#1f77b4'
set title '(b) cost per job'
plot in using 4:xtic(1) title 'paper' lc rgb '#9e9e9e', '' using 5 title 'batchlab' lc rgb '#d62728'
unset multiplot
