"""Analysing a folder of matches, as ``backgammon analyze FOLDER`` does: matches per
minute at each lookahead.

    .venv/bin/python benchmarks/analyze_folder.py [--matches 100] [--length 5]
        [--ply 0 2] [--processes 2] [--folder DIR]

The matches are played by the engine against itself (``self_play_match`` of
``analysis_agreement.py``: intermediate level, seeds 1..N) and written to ``--folder``
as ``.mat`` files (kept: a second run reuses them). Each lookahead then reads the folder
(:func:`~backgammon.analysis.batch.read_matches`) and analyses every match with
``--processes`` workers, after one match analysed untimed (the JIT warm-up). Prints a
JSON line per lookahead: matches, games, decisions, seconds, matches per minute.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from analysis_agreement import self_play_match
from backgammon.analysis import AnalysisSettings, analyze_match
from backgammon.analysis.batch import batch_summary, read_matches
from backgammon.formats import write_match


def make_folder(folder: Path, matches: int, length: int) -> None:
    """Write ``matches`` self-played ``length``-point matches to ``folder`` (those
    already there are kept)."""
    folder.mkdir(parents=True, exist_ok=True)
    for seed in range(1, matches + 1):
        path = folder / f"match{seed:03d}_{length}pt.mat"
        if not path.exists():
            write_match(self_play_match(length, seed), path)


def time_folder(folder: Path, ply: int, processes: int) -> dict[str, object]:
    """Analyse every match of ``folder`` at ``ply``; the figures as a dict."""
    settings = AnalysisSettings(ply=ply)
    records = [(label, record) for label, record in read_matches(folder)]
    first = records[0][1]
    assert not isinstance(first, Exception), first
    analyze_match(first, settings=settings, processes=processes, store=False)  # warm-up
    began = time.perf_counter()
    analyses = []
    for label, record in records:
        assert not isinstance(record, Exception), (label, record)
        analyses.append(
            (label, analyze_match(record, settings=settings, processes=processes, store=False))
        )
    seconds = time.perf_counter() - began
    lines, _players = batch_summary(analyses)
    return {
        "ply": ply,
        "matches": len(analyses),
        "games": sum(len(analysis.games) for _, analysis in analyses),
        "decisions": sum(line.decisions for line in lines),
        "processes": processes,
        "seconds": round(seconds, 2),
        "matches_per_minute": round(60 * len(analyses) / seconds, 2),
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--ply", type=int, nargs="+", default=[0, 2])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.gettempdir()) / f"bg-folder-{args.length}pt"
    began = time.perf_counter()
    make_folder(folder, args.matches, args.length)
    print(json.dumps({"folder": str(folder), "made_in_s": round(time.perf_counter() - began, 1)}))
    for ply in args.ply:
        print(json.dumps(time_folder(folder, ply, args.processes)), flush=True)


if __name__ == "__main__":
    main()
