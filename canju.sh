#!/usr/bin/env bash
# Canju's one entry point: installs what is missing (Debian 12), builds, and
# runs the main job or the tests.
#
#   ./canju.sh demo        the main job on the bundled sample data
#   ./canju.sh test        the whole test suite (ctest)
#   ./canju.sh build       configure + build (Release) only
#   ./canju.sh bench       the benchmarks (numbers for docs/performance.md)
#   ./canju.sh sanitize    build with ASan+UBSan into build-asan/ and run the tests
#   ./canju.sh tsan        build with ThreadSanitizer into build-tsan/ and run the
#                          solver's and the server's tests (threads: races, solves)
#   ./canju.sh fuzz [S]    build the libFuzzer targets (clang) and run each S seconds
#   ./canju.sh setup       only install the Debian packages
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
BUILD=${CANJU_BUILD_DIR:-$ROOT/build}
JOBS=$(nproc 2>/dev/null || echo 2)

PACKAGES=(build-essential cmake ninja-build pkg-config
  libboost-serialization-dev librocksdb-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libcpp-httplib-dev
  libicu-dev libxxhash-dev libabsl-dev
  chromium chromium-driver fonts-wqy-microhei)  # the browser test of `canju serve`, CJK glyphs in its screenshot

setup() {
  local missing=()
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "canju: installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

build() {
  setup
  local dir=${1:-$BUILD}; shift || true
  cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS"
}

# A build whose progress lines are hidden; on failure they are shown.
quiet_build() {
  local log
  log=$(mktemp)
  if ! build "$@" >"$log"; then
    cat "$log" >&2
    rm -f "$log"
    echo "canju: the build failed (output above)" >&2
    return 1
  fi
  rm -f "$log"
}

section() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

demo() {
  quiet_build
  local canju="$BUILD/cli/canju"
  section "Variants"
  "$canju" variants
  section "Xiangqi start position"
  "$canju" show --variant xiangqi
  section "Legal moves (ICCS, WXF, Chinese)"
  "$canju" moves --variant xiangqi
  section "Perft 1..4 from the start (published: 44, 1920, 79666, 3290240)"
  for d in 1 2 3 4; do printf 'depth %d: ' "$d"; "$canju" perft --variant xiangqi "$d" | tail -n 1; done
  section "加炮国际象棋2 (cannonchess) start position and perft 3"
  "$canju" show --variant cannonchess
  "$canju" perft --variant cannonchess 3 | tail -n 1
  section "Puzzle store: the sample collection imported (twice: nothing new), listed, one shown, duplicates found"
  local store="$BUILD/demo-store"
  rm -rf "$store"
  "$canju" import --quiet --store "$store" samples/classics.fen
  "$canju" import --quiet --store "$store" samples/classics.fen
  "$canju" puzzles list --store "$store"
  local id
  id=$("$canju" puzzles list --json --store "$store" --collection 百局象棋谱 | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p')
  "$canju" puzzles show --store "$store" "$id"
  "$canju" puzzles dups --store "$store"
  section "Endgame tablebases: a small Xiangqi set built (with sub-tables) and its statistics"
  "$canju" tb demo --dir "$BUILD/tb-demo"
  "$canju" tb probe --dir "$BUILD/tb-demo" "4ka3/4a4/9/9/9/9/9/9/9/3RK4 w"
  section "Endgame tablebases the sample's records reach with at most five pieces, and KRKCAA (six 先和 draw compositions; about a minute)"
  "$canju" tb build --dir "$BUILD/tb-demo" --for samples/classics.fen --max-pieces 5 KRKCAA
  section "Solver: 梦入神机 由中应外 — shortest mate by consecutive checks, best line, cooks"
  "$canju" solve "1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w"
  section "Solver: every puzzle of the sample collection verified (3 s each, 2 threads), verdicts saved in the store"
  "$canju" verify --store "$BUILD/demo-store" --redo --seconds 3 --jobs 2 --quiet --tb "$BUILD/tb-demo"
  section "Summary"
  local total confirmed refuted unproven tables
  total=$("$canju" puzzles list --json --store "$store" | wc -l)
  confirmed=$("$canju" puzzles list --json --store "$store" | grep -c '"verdict":"confirmed"' || true)
  refuted=$("$canju" puzzles list --json --store "$store" | grep -c '"verdict":"refuted"' || true)
  unproven=$("$canju" puzzles list --json --store "$store" | grep -c '"verdict":"unproven"' || true)
  tables=$(find "$BUILD/tb-demo" -name '*.ctb' | wc -l)
  printf 'Puzzle store   %s: %s puzzles (%s confirmed, %s refuted, %s unproven)\n' \
    "$store" "$total" "$confirmed" "$refuted" "$unproven"
  printf 'Tablebases     %s: %s tables\n' "$BUILD/tb-demo" "$tables"
  printf '\nBrowse the collection, its solutions and the tables in a web page:\n'
  printf '  %s serve --store %s --tb %s\n' "$canju" "$store" "$BUILD/tb-demo"
  printf 'then open http://127.0.0.1:8080/ (Ctrl-C stops the server).\n'
}

case "${1:-help}" in
  setup) shift; setup "$@" ;;
  build) shift; build "$BUILD" "$@" ;;
  demo) shift; demo "$@" ;;
  test)
    shift
    quiet_build
    ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS" "$@"
    ;;
  bench)
    shift
    quiet_build
    for b in "$BUILD"/bench/*_bench; do [ -x "$b" ] && "$b" "$@"; done
    ;;
  sanitize)
    shift
    quiet_build "$ROOT/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANJU_SANITIZE=ON
    ctest --test-dir "$ROOT/build-asan" --output-on-failure -j "$JOBS" "$@"
    ;;
  tsan)
    shift
    quiet_build "$ROOT/build-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANJU_TSAN=ON
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1} \
      ctest --test-dir "$ROOT/build-tsan" --output-on-failure -j "$JOBS" -L 'solver|server' "$@"
    ;;
  fuzz)
    shift
    setup clang libclang-rt-14-dev
    secs=${1:-20}
    failed=()
    CXX=clang++ quiet_build "$ROOT/build-fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANJU_FUZZ=ON
    for f in "$ROOT"/build-fuzz/tests/fuzz/fuzz_*; do
      [ -x "$f" ] || continue
      echo "== $(basename "$f") ($secs s)"
      corpus="$ROOT/build-fuzz/corpus/$(basename "$f")"; mkdir -p "$corpus"
      # A crash is written to build-fuzz/ (not the source tree); the other
      # targets still run, and the command fails at the end.
      if ! UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
        "$f" -max_total_time="$secs" -timeout=5 -artifact_prefix="$ROOT/build-fuzz/" \
        "$corpus" "$ROOT/tests/fuzz/seeds/$(basename "$f")" >"$corpus.log" 2>&1; then
        tail -n 40 "$corpus.log"
        failed+=("$(basename "$f")")
      else
        tail -n 2 "$corpus.log"
      fi
    done
    if [ ${#failed[@]} -gt 0 ]; then
      echo "canju: fuzz targets that failed: ${failed[*]} (inputs in build-fuzz/)" >&2
      exit 1
    fi
    ;;
  *)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    ;;
esac
