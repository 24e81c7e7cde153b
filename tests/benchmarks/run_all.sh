#!/usr/bin/env bash
# make bench: the issue-8 benchmarks, each printing its figures as ratios measured in the same run.
#   1 round submission through the API (wrk, 32 connections) vs /ping   tests/benchmarks/bench_api.py
#   2 stats freshness, 3 full rebuild vs raw SQL + peak memory            tests/benchmarks/bench_stats.py
#   4 page weight and Lighthouse (mobile)                                 tests/benchmarks/bench_pages.py
#   5 a round write's CPU against its floor (one process, test client)   tests/benchmarks/bench_floor.py
#  5b the same in instructions under valgrind's callgrind (noise-free)   tests/benchmarks/bench_floor_instructions.py
#  5c where the round write's CPU goes, step by step, beside raw          tests/benchmarks/bench_floor_steps.py
#   6 round writes under open-loop load at fixed rates, /ping beside    tests/benchmarks/bench_openloop.py
#   7 live boards: 500 open phones, Save on one -> new board on another  tests/benchmarks/bench_live.py
#   8 abuse: 8 parallel requests to each heavy GET, /ping at 20/s beside  tests/benchmarks/bench_abuse.py
#   9 taps and typed numbers for one round of every game and table size  tests/benchmarks/bench_taps.py
# 1, 4, 5, 6, 7, 8 and 9 run against the prod-up stack (started here, stopped at the end).  2 and 3 use a scratch database
# (BENCH_STATS_DB, default sk_bench_stats) holding BENCH_STATS_ROUNDS rounds (default 1 000 000, generated once
# and kept); BENCH_SKIP_STATS=1 leaves them out.  A summary table comes last.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=.venv/bin
OUT=var/bench
mkdir -p "$OUT"
rm -f "$OUT/api.json" "$OUT/pages.json" "$OUT/stats.txt" "$OUT/floor.json" "$OUT/floor_instructions.json" "$OUT/floor_steps.json" "$OUT/openloop.json" "$OUT/live.json" "$OUT/abuse.json" "$OUT/taps.json"
status=0

bash deploy/prod_up.sh || exit 1
trap 'bash deploy/prod_down.sh' EXIT

echo; echo "== 1. round submission through the API =="
$BIN/python tests/benchmarks/bench_api.py ${BENCH_API_ARGS:-} || status=1

echo; echo "== 5. a round write's CPU against its floor =="
$BIN/python tests/benchmarks/bench_floor.py --prod ${BENCH_FLOOR_ARGS:-} || status=1
echo; echo "== 5b. the same in instructions (callgrind) =="
$BIN/python tests/benchmarks/bench_floor_instructions.py --prod ${BENCH_FLOOR_INSTRUCTIONS_ARGS:-} || status=1
echo; echo "== 5c. the round write's CPU step by step =="
$BIN/python tests/benchmarks/bench_floor_steps.py --prod ${BENCH_FLOOR_STEPS_ARGS:-} || status=1

echo; echo "== 6. round writes under open-loop load =="
$BIN/python tests/benchmarks/bench_openloop.py ${BENCH_OPENLOOP_ARGS:-} || status=1

echo; echo "== 7. live boards with 500 open phones =="
$BIN/python tests/benchmarks/bench_live.py ${BENCH_LIVE_ARGS:-} || status=1

echo; echo "== 8. abuse: the heavy GETs of one member, 8 at a time =="
$BIN/python tests/benchmarks/bench_abuse.py ${BENCH_ABUSE_ARGS:-} || status=1

echo; echo "== 9. taps and typed numbers for one round, beside the paper pad =="
$BIN/python tests/benchmarks/bench_taps.py ${BENCH_TAPS_ARGS:-} || status=1

echo; echo "== 4. page weight and Lighthouse =="
$BIN/python tests/benchmarks/bench_pages.py ${BENCH_PAGES_ARGS:-} || status=1

if [ "${BENCH_SKIP_STATS:-0}" != "1" ]; then
  echo; echo "== 2./3. statistics freshness, full rebuild vs raw SQL, peak memory =="
  STATS_DB=${BENCH_STATS_DB:-sk_bench_stats}
  STATS_ROUNDS=${BENCH_STATS_ROUNDS:-1000000}
  psql_() { psql -h 127.0.0.1 -U postgres "$@"; }
  (
    # DEBUG=0 (the prod secret key) so that Django does not keep every query in memory during the rebuild
    # shellcheck disable=SC1091
    source var/prod/env
    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$STATS_DB
    export REDIS_URL=${BENCH_STATS_REDIS_URL:-redis://127.0.0.1:6379/12}
    export CELERY_EAGER=0
    psql_ -tAc "SELECT 1 FROM pg_database WHERE datname='$STATS_DB'" | grep -q 1 || psql_ -qc "CREATE DATABASE $STATS_DB"
    $BIN/python manage.py migrate --noinput -v0 || exit 1
    have=$(psql_ -d "$STATS_DB" -tAc "SELECT count(*) FROM scoring_round WHERE deleted_at IS NULL")
    generate=()
    if [ "${have:-0}" -lt "$STATS_ROUNDS" ]; then
      if [ "${have:-0}" -gt 0 ]; then  # a smaller history from an earlier run: start again
        psql_ -qc "DROP DATABASE $STATS_DB" && psql_ -qc "CREATE DATABASE $STATS_DB"
        $BIN/python manage.py migrate --noinput -v0 || exit 1
      fi
      generate=(--generate --rounds "$STATS_ROUNDS")
    fi
    $BIN/python tests/benchmarks/bench_stats.py "${generate[@]}" ${BENCH_STATS_ARGS:-} | tee "$OUT/stats.txt"
    exit "${PIPESTATUS[0]}"
  ) || status=1
fi

echo; echo "== summary =="
$BIN/python tests/benchmarks/summary.py
exit $status
