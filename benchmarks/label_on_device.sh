#!/usr/bin/env bash
# Label the corpus's queue on a machine with many cores for a few minutes, and leave the
# finished shards in one tar file under $OUT, to be unpacked into corpus/shards here.
#
#   OUT=/tmp/out benchmarks/label_on_device.sh [MINUTES] [PROCESSES]
#
# MINUTES (default 8): no chunk starts after them; a chunk of 100 positions takes about
# 2-3 minutes on one core, so give the command MINUTES + 4 minutes. PROCESSES: default
# all cores. The newest chunks go first (--reverse), so that a labeller running here at
# the same time (oldest first) rarely labels the same chunk; the shards that come back
# and already exist here are skipped. Copy them back with (docs/training.md, "Corpus"):
#
#   tar -xzf FILES_AT/shards.tgz -C corpus/shards --skip-old-files
#   .venv/bin/backgammon label --corpus corpus --status
set -euo pipefail
minutes=${1:-8}
processes=${2:-$(nproc)}
out=${OUT:?set OUT to the folder where the shards go}
python=${PYTHON:-python3}
if [ -x .venv/bin/python ]; then python=${PYTHON:-.venv/bin/python}; fi
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
mkdir -p corpus/shards "$out"
ls corpus/shards > "$out/before.txt"
"$python" -m backgammon label --corpus corpus --cpus "$processes" --minutes "$minutes" \
    --reverse --no-nice 2>&1 | tee "$out/label.log"
ls corpus/shards | sort | comm -13 <(sort "$out/before.txt") - > "$out/new.txt"
tar -czf "$out/shards.tgz" -C corpus/shards -T "$out/new.txt"
echo "$(wc -l < "$out/new.txt") new shards in $out/shards.tgz"
"$python" -m backgammon label --corpus corpus --status | tee "$out/status.txt"
