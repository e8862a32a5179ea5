#!/usr/bin/env bash
# Builds the endgame tables that the classic collections' practical endings
# need (docs/solver-results.md lists which puzzle needs which), one material
# at a time, and prints each table's build time, so that it is reported on
# its own and never charged to a puzzle's budget:
#
#   bench/solver_tables.sh [--large] [--leaf] [--draws] [--draws7] CANJU DIR [THREADS]
#
#   CANJU    the canju binary (e.g. build/cli/canju)
#   DIR      the table directory to fill (resumes: complete tables are skipped)
#   THREADS  threads per build (default 2)
#   --large  also the larger 6- and 7-piece tables (a few minutes to 20 min each;
#            base and --large together about 71 min on 2 cores, 0.6 GB)
#   --leaf   also the tables the searches of the unproven puzzles landed in
#            most (`--tb-missing 7` censuses, docs/performance.md, stops 16
#            and 18): the endings after an exchange, 5-7 pieces (175 tables
#            with their sub-tables: about 32 + 66 min on 2 cores, 0.98 GB)
#   --draws  also the tables of the 适情雅趣 先和局 draw claims of five and six
#            pieces (a table at the root confirms or refutes the claim)
#   --draws7 also those of seven pieces that advisors and bishops keep small
#            (23-690 M positions a side; stop 29, docs/solver-results.md),
#            and KCPKBPP, KPPPKCP (2.3 and 5.8 G positions a side, about
#            30 and 60 min on 2 threads, 6.3 and 13.1 GB plans; stop 31),
#            KRKBBPPP and KRAKRBBP (2.2 and 2.1 G, about 45 min each; stop 41),
#            KAABPKPPP (4.5 G, about 90 min, 8-12 GiB; stop 42)
#
# Then: build/bench/solver_bench --tb DIR ...  or  canju verify --tb DIR ...
set -euo pipefail

large=0
leaf=0
draws=0
draws7=0
while [ $# -gt 0 ]; do
  case "$1" in
    --large) large=1; shift ;;
    --leaf) leaf=1; shift ;;
    --draws) draws=1; shift ;;
    --draws7) draws7=1; shift ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  sed -n '2,25p' "$0" >&2
  exit 2
fi
canju=$1
dir=$2
threads=${3:-2}

# The material of each puzzle of 适情雅趣 先胜局 and 梦入神机 with at most
# seven pieces that the search alone leaves undecided, and its sub-tables
# (built automatically by `canju tb build`).
tables=(
  KRKAABB   # 第430-437局 (车胜士象全)
  KRKNAA    # 第450, 452局
  KRKNBB    # 第449局
  KRKCBB    # 第448局
  KCPKP     # 第464局
  KRKCC     # 第461局
  KRPKR     # 第396, 398局
  KRCKR     # 第460局
  KPPKAAB   # 第445局
  # Stop 19: puzzles the search decides but whose shortest mate it leaves
  # unproved within the budget; their own table gives the exact distance.
  KCAKAA    # 第456局
  KNPKCB    # 第458局
)
if [ "$large" = 1 ]; then
  tables+=(
    KCPKAABB  # 第427局
    KRKAAPP   # 第388局
    KCPKAAP   # 第441局
    KNPKAAP   # 第439局
    # Stop 19: decided by the search without the shortest mate (above).
    KRPKRP    # 第394局 (about 16 min)
    KCPKCAA   # 第443局
    KCPPKBB   # 第444局
    KRBKPPP   # 第440局
  )
fi

if [ "$leaf" = 1 ]; then
  # Where the searches of the 100 unproven 先胜局 puzzles spent their nodes
  # without a table (each name with its sub-tables).
  tables+=(
    KRAAKAA KAABPKA KRPKAA KRCKAA KPKCBB KRPKBB KCBPKA KCAABKAB KRAAKAP
    KNPKAAB KNAABKR KRAABKR KCBPKBB KCAKRBB KRABBKR KRAKRBB KRCAKBB
    KCBKPP KRBKPP KCBKRBB KRBKRBB KRCBKBB KCAPKP KRAKRAB KRBKRP KCBPKC
    KCPKPP KRAKRP KRCBKR KRKPPP KRBPKR
  )
  # Stop 18's census: where the searches of the 81 先胜局 puzzles stop 17
  # left unproven, and of the 34 of 梦入神机, spent their nodes without a
  # table (stop 17's search, which weighs material; KRPKCP alone is 1.1 G
  # positions a side, about 21 min).
  tables+=(
    KCPKBP KCAPKB KRCKRB KAPKBP KRCKP KRCAKR KCAPKC KRCBKP KRPKCB KRAKCP
    KRCKAP KRCKAAP KRAAKPP KRPKCBB KRBBKRP KRAKCAP KRPKCP
  )
  # Stop 30: where three of 梦入神机's book lines end (build times on 2
  # threads, with sub-tables): 据兵败马 (KRPKRB, 118 s; shows the line
  # unsound at move 36), 回光返照 (KRPPKBB, 124 s) and 兵甲运胜 (KCAPKRB,
  # 999 s, 1.5 GB; confirms it).
  tables+=(KRPKRB KRPPKBB KCAPKRB)
fi

if [ "$draws" = 1 ]; then
  # The root materials of the 先和局 claims with five or six pieces that no
  # table above covers (stop 22's six: about 34 min on 2 cores, 1.9 GB of
  # memory at the peak; stop 23's eight: see docs/solver-results.md).
  tables+=(
    KNNKR     # 第540局
    KCNKR     # 第541局
    KCKCC     # 第543局
    KRCKRA    # 第392局
    KCPPKR    # 第517, 518, 523, 526局
    KCCPKR    # 第519, 522局
    # Stop 23: the rest of the same kind.
    KRKCAA    # 第530, 531局
    KNKPPP    # 第533局
    KCKPPP    # 第532局
    KBBKCC    # 第537局
    KNBPKR    # 第516局
    KNPPKR    # 第521局
    KCNKNP    # 第535局
    KRCKRP    # 第525局 (1.8 G positions a side, about 22 min on 2 threads, 76 min on 1; 3.4-3.8 GB)
  )
fi

if [ "$draws7" = 1 ]; then
  # Seven pieces, but the defender's advisors and bishops (5 and 7 squares)
  # keep the table near a five-piece one with a rook: smallest first.
  tables+=(
    KNPKABB   # 第506局 (23 M positions a side)
    KRKNABB   # 第503局 (38 M)
    KNPKAABB  # 第489局 (47 M)
    KCAABBKN  # 第486局 (77 M)
    KCBBPKBB  # 第487局 (98 M; eight pieces, stop 38)
    KRKBBPP   # 第499局 (126 M)
    KCAABBKAP # 第476局 (234 M; nine pieces, stop 38)
    KAABBKPPP # 第480局 (248 M)
    KRNKRAA   # 第496局 (328 M)
    KRNAAKR   # 第508局 (328 M)
    KRCAAKR   # 第507局 (328 M)
    KRCKRAA   # 第510局 (328 M)
    KCBBKNP   # 第502局 (421 M)
    KRKNBBP   # 第493局 (421 M)
    KRAPKRA   # 第511局 (501 M; 1083 s with its sub-tables on 2 threads, stop 30)
    KRCKRBB   # 第509局 (689 M; 821 s with its sub-tables on 2 threads, stop 30)
    KCPKBPP   # 第498局 (2.3 G, dense cells; 1201 s for the table, about 30 min with its sub-tables, stop 31)
    KPPPKCP   # 第494局 (5.84 G, dense cells, 13.1 GB plan; 3326 s for the table on 2 threads, stop 31)
    KRKBBPPP  # 第485局 (2.23 G, nine pieces, 7.7 GB plan; 45.7 min with its sub-tables on 2 threads, stop 41)
    KRAKRBBP  # 第481局 (2.10 G, eight pieces, 8.6 GB plan; 44.0 min with its sub-tables on 2 threads, stop 41)
    KAABPKPPP # 第478局 (4.55 G, nine pieces, plans 14.9 GiB dense or 8.5 GiB compact; 1 h 26 min with compact cells with its sub-tables on 2 threads, 8.0 GiB peak, stop 42)
  )
fi

mkdir -p "$dir"
printf '| table | build time (s, %s threads) |\n|---|---|\n' "$threads"
total_start=$(date +%s.%N)
for t in "${tables[@]}"; do
  start=$(date +%s.%N)
  "$canju" tb build --quiet --threads "$threads" --dir "$dir" "$t" 2>"$dir/.build-$t.log" || {
    echo "solver_tables: building $t failed, see $dir/.build-$t.log" >&2
    exit 1
  }
  end=$(date +%s.%N)
  printf '| %s (and its sub-tables not built before) | %.1f |\n' "$t" "$(echo "$end - $start" | bc)"
done
total_end=$(date +%s.%N)
printf '| all | %.1f |\n' "$(echo "$total_end - $total_start" | bc)"
du -sh "$dir" | awk '{print "disk: " $1}'
