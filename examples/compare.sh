#!/usr/bin/env bash
# Runs a workload on Runnel and on real Apache Flink (the repository's own Flink peer,
# examples/flink-peer/run.sh) back to back, alternating, and prints each side's median records/s,
# the ratio Runnel/Flink, and whether the checksums agree. The workloads: docs/BENCHMARKS.md.
#
#   examples/compare.sh WORKLOAD [ROUNDS] [--flink VERSION] [-- EXTRA_ARGS...]
#
# WORKLOAD: wordcount-heap | wordcount-rocksdb | window | checkpoint. ROUNDS defaults to 3. VERSION defaults to
# 1.20.5 for wordcount-heap and checkpoint, 2.3.0 otherwise (the faster Flink on each workload on these machines).
# Both sides run with --object-reuse (how a Flink user tunes these jobs); EXTRA_ARGS go to both.
# RUNNEL_BENCH_ARGS adds arguments for the Runnel side only (e.g. "--conf key=value").
# PEER_BENCH=<path to a run.sh> runs another Flink peer with the same interface instead
# (run.sh [--flink VERSION] WORKLOAD [N] [--object-reuse] ...); the first use of a Flink version
# builds the peer, which downloads that Flink from Maven Central.
# Each RESULT line is echoed; the last lines are MEDIAN and RATIO.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PEER="${PEER_BENCH:-$HERE/flink-peer/run.sh}"

[[ $# -ge 1 ]] || { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2; }
workload="$1"; shift
rounds=3
if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then rounds="$1"; shift; fi
case "$workload" in wordcount-heap|checkpoint) flink=1.20.5 ;; *) flink=2.3.0 ;; esac
if [[ "${1:-}" == "--flink" ]]; then flink="$2"; shift 2; fi
[[ "${1:-}" == "--" ]] && shift
extra=("$@")

source "$HERE/build-classpath.sh"
# A small warm-up run; it builds the peer for this Flink version first if needed.
echo "preparing the Flink peer $PEER (--flink $flink) ..." >&2
peer_log="$(mktemp)"
trap 'rm -f "$peer_log"' EXIT
"$PEER" --flink "$flink" "$workload" 1000 >/dev/null 2>"$peer_log" ||
  { cat "$peer_log" >&2; echo "the Flink peer ($PEER) does not run" >&2; exit 1; }

run_runnel() {
  java ${RUNNEL_BENCH_JAVA_OPTS:--Xmx4g} -cp "$CLASSPATH" dev.runnel.examples.bench.Bench "$workload" --object-reuse "${extra[@]}" ${RUNNEL_BENCH_ARGS:-} 2>/dev/null | grep '^RESULT'
}
run_flink() {
  "$PEER" --flink "$flink" "$workload" --object-reuse "${extra[@]}" 2>/dev/null | grep '^RESULT'
}
rate() { sed -E 's/.*records_per_s=([0-9]+).*/\1/'; }
sum() { sed -E 's/.*checksum=([0-9a-f]+).*/\1/'; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{print (NR%2)? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }

runnel_rates=(); flink_rates=(); checksums=()
for ((r = 1; r <= rounds; r++)); do
  if (( r % 2 == 1 )); then order=(runnel flink); else order=(flink runnel); fi
  for side in "${order[@]}"; do
    line=$(run_$side) || { echo "$side run failed" >&2; exit 1; }
    echo "round=$r side=$side $line"
    if [[ $side == runnel ]]; then runnel_rates+=("$(rate <<<"$line")"); else flink_rates+=("$(rate <<<"$line")"); fi
    checksums+=("$(sum <<<"$line")")
  done
done
rm=$(median <<<"${runnel_rates[*]}"); fm=$(median <<<"${flink_rates[*]}")
same=$(printf '%s\n' "${checksums[@]}" | sort -u | wc -l)
echo "MEDIAN workload=$workload runnel_records_per_s=$rm flink_${flink}_records_per_s=$fm rounds=$rounds"
awk -v w="$workload" -v r="$rm" -v f="$fm" -v s="$same" 'BEGIN{printf "RATIO workload=%s runnel/flink=%.2f checksums_identical=%s\n", w, r/f, (s==1)?"yes":"NO"}'
