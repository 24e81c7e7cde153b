"""Benchmark 5b: floor/path of a round write in instructions (valgrind's callgrind), a figure the machine's noise
cannot move.

    DATABASE_URL=postgres://…/scratch REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python tests/benchmarks/bench_floor_instructions.py [--rounds 70]

(``run_all.sh`` runs it with ``--prod``, as ``bench_floor.py``.)

``bench_floor.py`` times CPU in alternated blocks; on this shared machine its pairs still spread by ±10 %.
Callgrind counts the instructions a process executes, the same count for the same work whatever else runs.
Each side (path, floor, and raw: the same statements by psycopg alone, ``floor_raw.py``) runs under callgrind
twice, set up identically (``bench_floor.prepare``: the same matches, the same warm-up), then ``--rounds`` and
``2 × --rounds`` rounds of that side: the difference of the two totals is what ``--rounds`` rounds cost, with the
setup taken out.  ``--rounds`` is a multiple of seven, so each side's rounds cover the same positions in its
matches (rounds 1 to 7).  Six runs, two at a time; a few minutes.
Prints instructions a round per side, floor/path and raw/path; writes ``var/bench/floor_instructions.json``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import ROOT, save

HERE = Path(__file__).resolve().parent
SIDES = ("floor", "path", "raw")  # raw: the same statements by psycopg alone (floor_raw.py), no request


def child(side: str, rounds: int, total: int, *, prod: bool) -> None:
    """Under callgrind: set up as bench_floor does for ``total`` rounds, then post ``rounds`` of ``side``."""
    import bench_floor

    bench_floor.setup_django(prod=prod)
    client, path, floor, sizes = bench_floor.prepare(rounds=total, warmup=14, raw=side == "raw")
    chosen = {"path": path, "floor": floor}.get(side) or sizes["raw_side"]
    for _ in range(rounds):
        bench_floor.post(client, chosen)


def instructions(side: str, rounds: int, total: int, *, prod: bool) -> int:
    with tempfile.TemporaryDirectory() as where:
        out = Path(where) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                str(Path(__file__).resolve()),
                "--child",
                side,
                "--rounds",
                str(rounds),
                "--total",
                str(total),
                *(["--prod"] if prod else []),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            check=False,
        )
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            sys.exit(f"bench_floor_instructions: {side} × {rounds} failed:\n{done.stderr[-3000:]}")
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=70, help="rounds measured a side (a multiple of 7; default 70)")
    parser.add_argument("--child", choices=SIDES, help=argparse.SUPPRESS)
    parser.add_argument("--total", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--prod", action="store_true", help="use the prod-up environment (var/prod/env)")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds, args.total, prod=args.prod)
        return
    if args.rounds % 7:
        sys.exit("bench_floor_instructions: --rounds must be a multiple of 7")
    for where in (str(ROOT), str(HERE)):
        if where not in sys.path:
            sys.path.insert(0, where)
    total = 2 * args.rounds
    runs = [(side, n) for side in SIDES for n in (args.rounds, total)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = dict(
            zip(runs, pool.map(lambda run: instructions(run[0], run[1], total, prod=args.prod), runs), strict=True)
        )
    per_round = {side: (counts[(side, total)] - counts[(side, args.rounds)]) / args.rounds for side in SIDES}
    ratio = per_round["floor"] / per_round["path"]
    raw_ratio = per_round["raw"] / per_round["path"]
    for side in ("path", "floor", "raw"):
        print(f"{side:5}: {per_round[side] / 1e6:.2f} M instructions a round (callgrind, {args.rounds} rounds)")
    print(f"floor/path instructions: {ratio:.3f} (goal ≥ 0.9 is set on CPU time; this is its noise-free companion)")
    print(f"raw/path instructions: {raw_ratio:.3f} (the same for raw/path's goal ≥ 0.4; libpq's C counted too)")
    save(
        "floor_instructions",
        {"ratio": ratio, "raw_ratio": raw_ratio, "rounds": args.rounds, "instructions_a_round": per_round},
    )


if __name__ == "__main__":
    main()
