#!/usr/bin/env bash
# Valgrind memcheck of the compiled core over random hands and the State API.
#
#   bash scripts/valgrind.sh
#
# Runs scripts/memcheck_hands.py (CASSINO_VALGRIND_HANDS random hands, default 1,000, plus
# 30 hands through push/pop/clone/pickle/legal moves/perft/explain) under
#   valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite
# with PYTHONMALLOC=malloc, so that every allocation goes through valgrind. The interpreter
# itself has some valgrind noise, so scripts/valgrind_report.py counts the errors in
# cassino's own code and the definite leaks allocated through it; any such error fails the
# script. Skipped, with a message, when valgrind is not installed. About half a minute.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
HANDS="${CASSINO_VALGRIND_HANDS:-1000}"
PY="${PYTHON:-python}"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind.sh: SKIPPED: valgrind is not installed (apt-get install valgrind)"
    exit 0
fi
"$PY" -c "import cassino; assert cassino.IMPLEMENTATION == 'core', 'the compiled core is not built'"

LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT
echo "+ valgrind memcheck: $PY scripts/memcheck_hands.py $HANDS --api 30"
CASSINO_PURE_PYTHON=0 PYTHONMALLOC=malloc valgrind --tool=memcheck --leak-check=full \
    --show-leak-kinds=definite --errors-for-leak-kinds=definite --num-callers=40 \
    --log-file="$LOG" "$PY" scripts/memcheck_hands.py "$HANDS" --api 30
if ! "$PY" scripts/valgrind_report.py "$LOG"; then
    echo "valgrind.sh: memcheck errors in cassino's code (above)" >&2
    exit 1
fi
echo "valgrind.sh: memcheck clean: $HANDS random hands, no invalid access or definite leak in cassino"
