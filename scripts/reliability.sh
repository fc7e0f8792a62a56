#!/usr/bin/env bash
# Reliability checks beyond the test suite, for CI (docs/reliability.md):
#   1. a short atheris fuzz run (when atheris is installed: pip install -e '.[fuzz]'),
#   2. scripts/sanitize.sh: the ASan+UBSan debug core on a test subset and 10,000 hands,
#   3. scripts/valgrind.sh: valgrind memcheck over 1,000 hands (skipped without valgrind).
# Run from the repository root in the dev environment: bash scripts/reliability.sh
# About three minutes. CASSINO_FUZZ_SECONDS sets the fuzz run's length (default 45).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${PYTHON:-python}"
FUZZ_SECONDS="${CASSINO_FUZZ_SECONDS:-45}"
START=$SECONDS

echo "=== reliability 1/3: fuzzing"
if "$PY" -c "import atheris" >/dev/null 2>&1; then
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
    mkdir "$WORK/corpus" "$WORK/artifacts"
    echo "+ $PY fuzz/fuzz_inputs.py -max_total_time=$FUZZ_SECONDS -timeout=10 -max_len=8192 NEW fuzz/corpus"
    if ! "$PY" fuzz/fuzz_inputs.py -max_total_time="$FUZZ_SECONDS" -timeout=10 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$WORK/artifacts/" \
        "$WORK/corpus" fuzz/corpus >"$WORK/fuzz.log" 2>&1; then
        tail -n 60 "$WORK/fuzz.log" >&2
        for f in "$WORK"/artifacts/*; do
            [ -e "$f" ] || continue
            echo "finding: $(basename "$f") (base64 below; add it to tests/data/fuzz_regressions/)" >&2
            base64 "$f" | head -c 20000 >&2
            echo >&2
        done
        echo "reliability.sh: the fuzzer found a crash, a hang or an undocumented exception" >&2
        exit 1
    fi
    runs="$(grep -oE 'Done [0-9]+ runs' "$WORK/fuzz.log" | grep -oE '[0-9]+' || echo '?')"
    echo "fuzz: atheris: $runs executions in ${FUZZ_SECONDS}s, no finding"
else
    echo "+ atheris is not installed: the pure-Python fuzz driver instead"
    "$PY" fuzz/fuzz_inputs.py --fallback 50000 --seed "$RANDOM" fuzz/corpus
fi

echo "=== reliability 2/3: AddressSanitizer + UndefinedBehaviorSanitizer"
bash scripts/sanitize.sh

echo "=== reliability 3/3: valgrind memcheck"
bash scripts/valgrind.sh

echo "reliability.sh: all checks passed in $((SECONDS - START))s"
