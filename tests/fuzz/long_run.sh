#!/usr/bin/env bash
# The long fuzz run, outside CI: every target in build-fuzz/fuzz for
# SECONDS each (600 by default), one after the other on one core, starting
# from the seeds in tests/fuzz/corpus. Prints one Markdown table row per
# target (runs, runs/s, coverage, corpus, peak RSS, result) for
# docs/FUZZING.md; a target that fails leaves its crash input in OUT.
#
#   tests/fuzz/long_run.sh [SECONDS] [OUT]    (after tests/run_all.sh's fuzz build)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-600}
out=${2:-/tmp/tlsc-fuzz-long}
mkdir -p "$out"
echo "| target | runs | runs/s | coverage (edges) | corpus | peak RSS | result |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for f in "$root"/build-fuzz/fuzz/*_fuzz; do
  name=$(basename "$f")
  corpus="$out/corpus/$name"
  mkdir -p "$corpus"
  [ -d "$root/tests/fuzz/corpus/$name" ] && cp -n "$root/tests/fuzz/corpus/$name"/* "$corpus"/ 2>/dev/null
  log="$out/$name.log"
  (cd "$out" && "$f" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/$name-" "$corpus" >"$log" 2>&1)
  rc=$?
  runs=$(grep -a 'stat::number_of_executed_units' "$log" | awk '{print $2}')
  rate=$(grep -a 'stat::average_exec_per_sec' "$log" | awk '{print $2}')
  rss=$(grep -a 'stat::peak_rss_mb' "$log" | awk '{print $2}')
  cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  files=$(find "$corpus" -type f | wc -l)
  result=ok
  [ "$rc" -ne 0 ] && result="FAILED: $(grep -a -m1 -E 'ERROR|SUMMARY|deadly' "$log" | cut -c1-80)"
  echo "| $name | ${runs:-?} | ${rate:-?} | ${cov:-?} | $files | ${rss:-?} MB | $result |"
done
