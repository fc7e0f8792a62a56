"""Write ``benchmarks/data/corpus.txt``: positions from random seeded standard games.

Each line is one position in the one-line text notation (docs/format.md), sampled before a
move with probability 1/4 from games between two uniformly random players. The output is
the same with the core and the reference; regenerate with::

    python benchmarks/make_corpus.py [--count 2000] [--out benchmarks/data/corpus.txt]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cassino.bench import bench_corpus

DEFAULT_OUT = Path(__file__).resolve().parent / "data" / "corpus.txt"


def corpus(count: int) -> list[str]:
    """``count`` positions from games with seeds 1, 2, ... (:func:`cassino.bench.bench_corpus`,
    which ``cassino bench`` uses too), as text lines."""
    return [p.to_text() for p in bench_corpus(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="number of positions")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output file")
    args = parser.parse_args()
    lines = corpus(args.count)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    header = (
        f"# {len(lines)} cassino_standard positions from random seeded games, one per line\n"
        "# (text notation, docs/format.md); written by benchmarks/make_corpus.py\n"
    )
    args.out.write_text(header + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} positions to {args.out}")


if __name__ == "__main__":
    main()
