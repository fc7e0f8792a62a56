#!/usr/bin/env bash
# Memory-safety check of the Cython core with AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   bash scripts/sanitize.sh
#
# Builds a debug core (boundscheck and wraparound on, -O0 -g, -fsanitize=address,undefined)
# in a scratch copy of the sources, leaving the working tree's build alone, then runs with
# that core: a subset of the test suite, the fuzz corpus and regressions plus a short fuzz
# run, and CASSINO_SANITIZE_HANDS (default 10,000) random hands with every State API path.
# Any sanitizer report fails the script. Needs gcc with libasan/libubsan and the dev
# environment (pip install -e '.[test]'). About two minutes.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
HANDS="${CASSINO_SANITIZE_HANDS:-10000}"
PY="${PYTHON:-python}"

LIBASAN="$(gcc -print-file-name=libasan.so)"
if [ ! -e "$LIBASAN" ]; then
    echo "sanitize.sh: gcc has no libasan.so (install libasan / gcc's sanitizer runtimes)" >&2
    exit 1
fi

if ! "$PY" -c "import Cython, setuptools" >/dev/null 2>&1; then
    echo "sanitize.sh: building the debug core needs Cython and setuptools in this environment:" >&2
    echo "    pip install 'cython>=3.0' 'setuptools>=64'" >&2
    exit 1
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/scripts"
cp -r src setup.py pyproject.toml README.md "$WORK"/
cp scripts/gen_wide.py "$WORK/scripts/"
rm -f "$WORK"/src/cassino/_core*.so "$WORK"/src/cassino/_core.c "$WORK"/src/cassino/core/_wide.pxi
find "$WORK" -name __pycache__ -prune -exec rm -rf {} +

echo "+ building the sanitized debug core in $WORK"
if ! (cd "$WORK" && CASSINO_DEBUG_BUILD=1 CASSINO_SANITIZE=1 "$PY" setup.py -q build_ext --inplace) \
    >"$WORK/build.log" 2>&1; then
    cat "$WORK/build.log" >&2
    echo "sanitize.sh: the sanitized build failed" >&2
    exit 1
fi
# the core, with its wide copy for Mulle's 104 cards (core/_wide.pxi) in the same module
for SO in "$WORK"/src/cassino/_core*.so; do
    for lib in libasan libubsan; do
        if ! readelf -d "$SO" | grep -q "NEEDED.*$lib"; then
            echo "sanitize.sh: $SO is not linked with $lib" >&2
            exit 1
        fi
    done
done

LOG="$WORK/sanitizer.log"
run() {
    # Leaks are not checked here (the interpreter keeps memory at exit): valgrind.sh does
    # that. PYTHONMALLOC=malloc (set for the C-heavy runs below) puts Python's own objects
    # under ASan too; the test suite runs with pymalloc, three times faster.
    echo "+ $*"
    env LD_PRELOAD="$LIBASAN" \
        PYTHONPATH="$WORK/src" \
        ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:exitcode=86:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1" \
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87" \
        CASSINO_PURE_PYTHON=0 \
        "$@" 2> >(tee -a "$LOG" >&2)
}

run "$PY" -c "
import cassino, cassino._core as c
assert cassino.IMPLEMENTATION == 'core', cassino.IMPLEMENTATION
assert c.__file__.startswith('$WORK'), c.__file__
assert type(cassino.State.deal(cassino.rules('mulle'), 0, 1)) is c._WideState
print('sanitized core:', c.__file__)
"

HYPOTHESIS_PROFILE=sanitize run "$PY" -m pytest -q -n auto -p no:cacheprovider -m "not slow" \
    tests/test_differential.py tests/test_core_counting.py tests/test_invariants.py \
    tests/test_perft.py tests/test_bad_inputs.py tests/test_core_compound.py
CASSINO_STATEFUL_EXAMPLES=4 run "$PY" -m pytest -q -n auto -p no:cacheprovider tests/test_state_machine.py
export PYTHONMALLOC=malloc
run "$PY" fuzz/fuzz_inputs.py --replay fuzz/corpus tests/data/fuzz_regressions
run "$PY" fuzz/fuzz_inputs.py --fallback 3000 --seed 7 fuzz/corpus
run "$PY" scripts/memcheck_hands.py "$HANDS" --api 40 --expect-dir "$WORK"
unset PYTHONMALLOC

if grep -E "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|SUMMARY: UndefinedBehaviorSanitizer" "$LOG" >/dev/null; then
    echo "sanitize.sh: sanitizer reports found (above)" >&2
    exit 1
fi
echo "sanitize.sh: ASan+UBSan clean: test subset, fuzz corpus, $HANDS random hands"
