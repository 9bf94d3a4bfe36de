# groups-study.gp — figures of bench/groups-study.sh, drawn like Figs. 4-8 of
# Toporkov, Yemelyanov & Tselishchev 2023.
# Called with: gnuplot -e "term='pngcairo'; dir='OUT_DIR'; law='LAW'" groups-study.gp
# (law: the --cost-law of the run, named in the titles of Figs. 6 and 7
# unless uniform; optional).
if (!exists("law")) law = 'uniform'
lawt = (law eq 'uniform') ? '' : ', prices '.law
set datafile separator ','
set grid
set format y '%g'
set terminal term size 800,500
set key bottom left

set output dir.'/groups-fig4.png'
set title 'Fig. 4: P_a^w against n (N = 21, G = 8, no budget)'
set xlabel 'n, resources requested'
set ylabel 'P_a^w'
plot dir.'/groups-small.csv' using 1:2 with linespoints lw 2 pt 7 title 'BruteForce', \
     '' using 1:4 with linespoints lw 1 pt 6 dt 2 title 'KnapsackGroup', \
     '' using 1:6 with points pt 1 title 'Greedy', \
     '' using 1:8 with points pt 2 title 'Greedy+', \
     '' using 1:10 with linespoints lw 2 pt 5 title 'KnapsackSingle'

set output dir.'/groups-fig5.png'
set title 'Fig. 5: mean calculation time against n (N = 21, G = 8, no budget)'
set ylabel 'seconds'
set logscale y
# outside: BruteForce's arch crosses every corner inside
set key outside right top
plot dir.'/groups-small.csv' using 1:3 with linespoints lw 2 pt 7 title 'BruteForce', \
     '' using 1:5 with linespoints lw 2 pt 6 title 'KnapsackGroup', \
     '' using 1:7 with linespoints pt 1 title 'Greedy', \
     '' using 1:9 with linespoints pt 2 title 'Greedy+', \
     '' using 1:11 with linespoints pt 5 title 'KnapsackSingle'
unset logscale y
set key inside

set output dir.'/groups-fig6.png'
set title 'Fig. 6: P_a^w against the budget (N = 21, G = 8, n = 8'.lawt.')'
set xlabel 'budget C'
set ylabel 'P_a^w'
set key bottom right
plot dir.'/groups-budget.csv' using 1:2 with linespoints lw 2 pt 7 title 'BruteForce', \
     '' using 1:4 with linespoints lw 1 pt 6 dt 2 title 'KnapsackGroup', \
     '' using 1:6 with linespoints pt 1 title 'Greedy', \
     '' using 1:8 with linespoints pt 2 title 'Greedy+', \
     '' using 1:10 with linespoints lw 2 pt 5 title 'KnapsackSingle'

# groups-large.csv: budget, then (P, seconds) for knapsack_group, greedy,
# greedy_plus, knapsack_single, then tree sizes and the literal time
set xtics 40
set output dir.'/groups-fig7.png'
set title 'Fig. 7: P_a^w against the budget (N = 200, G = 40, n = 20'.lawt.')'
plot dir.'/groups-large.csv' using 1:2 with linespoints lw 2 pt 7 title 'KnapsackGroup', \
     '' using 1:4 with linespoints pt 1 title 'Greedy', \
     '' using 1:6 with linespoints pt 2 title 'Greedy+', \
     '' using 1:8 with linespoints lw 2 pt 5 title 'KnapsackSingle'

set output dir.'/groups-fig8.png'
set multiplot layout 1,2 title 'Fig. 8: calculation time and tree size against the budget (N = 200, G = 40, n = 20)'
set title 'mean time per call'
set ylabel 'seconds'
set logscale y
set format y '10^{%L}'
set yrange [1e-5:1e3] # the top decades hold the key, above the curves
set key top right
plot dir.'/groups-large.csv' using 1:3 with linespoints lw 2 pt 7 title 'KnapsackGroup', \
     '' using 1:12 with linespoints lw 1 pt 6 dt 2 title 'KnapsackGroup (literal)', \
     '' using 1:5 with linespoints pt 1 title 'Greedy', \
     '' using 1:7 with linespoints pt 2 title 'Greedy+', \
     '' using 1:9 with linespoints pt 5 title 'KnapsackSingle'
set title 'KnapsackGroup tree size'
set ylabel 'candidates created'
set format y '%g'
set yrange [*:*]
plot dir.'/groups-large.csv' using 1:10 with linespoints lw 2 pt 7 title 'ours', \
     '' using 1:11 with linespoints lw 1 pt 6 dt 2 title 'literal', \
     '-' using 1:2 with points pt 4 ps 2 lc rgb 'black' title 'paper (about)'
40,5000
120,100
e
unset multiplot
