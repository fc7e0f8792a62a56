"""``python -m cassino [--seed S]``: play one seeded hand of standard Cassino between two
random players and print every move and the score (see :func:`cassino.cli.demo`)."""

from __future__ import annotations

from .cli import demo

if __name__ == "__main__":
    demo.main(prog_name="python -m cassino")
