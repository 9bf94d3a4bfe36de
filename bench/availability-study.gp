# availability-study.gp — figures of bench/availability-study.sh, drawn like
# Fig. 5 and Table 1 of Toporkov, Yemelyanov & Grigorenko 2021.
# Called with: gnuplot -e "term='pngcairo'; dir='OUT_DIR'" availability-study.gp
set datafile separator ','
set key autotitle columnhead
set grid

set terminal term size 800,500
set output dir.'/fig5.png'
set title 'P_a^w of the best window over [0, 800] against job load (64 nodes, 6 of them, T = 200)'
set xlabel 'job load'
set ylabel 'P_a^w'
set yrange [0:1]
set key bottom left Left reverse
# the paper gives numbers only at job load 0 (0.96 and 0.87)
$paper << EOD
x,k,g
0,0.96,0.87
EOD
abl = dir.'/fig5-ablation.csv'
has_abl = system('test -f '.abl.' && echo 1 || echo 0') + 0
if (has_abl) {
plot dir.'/fig5.csv' using 1:2 with linespoints lw 2 pt 7 lc 1 title 'Knapsack (ours)', \
     '' using 1:3 with linespoints lw 2 pt 5 lc 2 title 'GreedyJnt (ours)', \
     abl using 1:2 with linespoints lw 1 dt 2 pt 6 lc 1 title 'Knapsack, every node at the job load (ablation)', \
     abl using 1:3 with linespoints lw 1 dt 2 pt 4 lc 2 title 'GreedyJnt, every node at the job load (ablation)', \
     $paper using 1:2 with points pt 6 ps 2 lc rgb 'black' title 'Knapsack (paper)', \
     $paper using 1:3 with points pt 4 ps 2 lc rgb 'black' title 'GreedyJnt (paper)'
} else {
plot dir.'/fig5.csv' using 1:2 with linespoints lw 2 pt 7 lc 1 title 'Knapsack (ours)', \
     '' using 1:3 with linespoints lw 2 pt 5 lc 2 title 'GreedyJnt (ours)', \
     $paper using 1:2 with points pt 6 ps 2 lc rgb 'black' title 'Knapsack (paper)', \
     $paper using 1:3 with points pt 4 ps 2 lc rgb 'black' title 'GreedyJnt (paper)'
}

set output dir.'/table1.png'
set multiplot layout 1,2 title 'Time scan at job load 0.5: starting points against the full Knapsack scan'
set title 'accuracy'
set xlabel 'starting points'
set ylabel 'P_a^w / full scan'
set logscale x
set yrange [0:1.05]
set key bottom right
$paperacc << EOD
n,acc,speed
1,0.8,65
5,0.93,17
10,0.96,10.5
20,0.97,8.3
50,0.99,6.8
100,0.99,3.7
EOD
plot dir.'/table1.csv' using 1:(strcol(2) eq 'uniform' ? $3 : 1/0) with linespoints lw 2 pt 7 title 'uniform (ours)', \
     '' using 1:(strcol(2) eq 'random' ? $3 : 1/0) with linespoints lw 2 pt 5 title 'random (ours)', \
     '' using 1:(strcol(2) eq 'mixed' ? $3 : 1/0) with linespoints lw 2 pt 9 title 'mixed (ours)', \
     $paperacc using 1:2 with linespoints pt 6 lc rgb 'black' dt 2 title 'paper'
set title 'speed-up'
set ylabel 'full scan time / time'
set logscale y
set yrange [1:*]
set key top right
plot dir.'/table1.csv' using 1:(strcol(2) eq 'uniform' ? $4 : 1/0) with linespoints lw 2 pt 7 title 'uniform (ours)', \
     '' using 1:(strcol(2) eq 'random' ? $4 : 1/0) with linespoints lw 2 pt 5 title 'random (ours)', \
     '' using 1:(strcol(2) eq 'mixed' ? $4 : 1/0) with linespoints lw 2 pt 9 title 'mixed (ours)', \
     $paperacc using 1:3 with linespoints pt 6 lc rgb 'black' dt 2 title 'paper'
unset multiplot
