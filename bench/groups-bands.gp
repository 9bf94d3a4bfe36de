# groups-bands.gp — Figs. 7 and 8 of Toporkov, Yemelyanov & Tselishchev 2023
# over many draws (bench/groups-bands.sh): per price law, the median and the
# 10-90 % band over the draws of the mean P_a^w of KnapsackGroup, Greedy and
# KnapsackSingle against the budget, and of KnapsackGroup's tree (the
# paper's literal form), with the paper's two tree sizes.
# Called with: gnuplot -e "term='pngcairo'; dir='OUT_DIR'; laws='uniform perf'" groups-bands.gp
set datafile separator ','
set terminal term size 1200,800
set output dir.'/groups-bands.png'
nl = words(laws)
$paper << EOD
40,5000
120,100
EOD
set multiplot layout 2, nl title 'Figs. 7 and 8 (N = 200, G = 40, n = 20): median and 10-90 % band over the draws'
set grid
set xrange [30:230]
sel(l, a) = sprintf("< awk -F, '$1 == \"%s\" && $3 == \"%s\"' %s/groups-bands-curves.csv", l, a, dir)
do for [i = 1:nl] {
    l = word(laws, i)
    set title 'Fig. 7, prices '.l
    set xlabel 'budget C'
    set ylabel 'mean P_a^w'
    set yrange [0:1]
    set key bottom right
    plot sel(l, 'knapsack_group') using 2:5:7 with filledcurves fs transparent solid 0.25 lc rgb '#1f77b4' notitle, \
         '' using 2:6 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'KnapsackGroup', \
         sel(l, 'greedy') using 2:5:7 with filledcurves fs transparent solid 0.25 lc rgb '#d62728' notitle, \
         '' using 2:6 with linespoints lw 2 pt 5 lc rgb '#d62728' title 'Greedy', \
         sel(l, 'knapsack_single') using 2:5:7 with filledcurves fs transparent solid 0.25 lc rgb '#2ca02c' notitle, \
         '' using 2:6 with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'KnapsackSingle'
}
do for [i = 1:nl] {
    l = word(laws, i)
    set title 'Fig. 8, prices '.l.': KnapsackGroup tree (literal form)'
    set ylabel 'mean tree size'
    set logscale y
    set yrange [1:20000]
    set key top right
    plot sel(l, 'tree_literal') using 2:5:7 with filledcurves fs transparent solid 0.25 lc rgb '#1f77b4' notitle, \
         '' using 2:6 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'ours, median', \
         $paper using 1:2 with points pt 13 ps 2 lc rgb 'black' title 'paper (about 5000 and 100)'
    unset logscale y
}
unset multiplot
