#!/usr/bin/env bash
# Measures issue 15's targets in one sitting (docs/BENCHMARKS.md, "How to reproduce"):
# alternating rounds of Runnel, Flink 1.20.5 and Flink 2.3.0 on W1 and W3 (W1 also against the same job written
# by hand, W1ExchangeLimit: two producers, two counters, the job's Long and Tuple2 objects), the one-thread hand loop against
# Runnel's W1 at parallelism 2 (warm), then rounds of W2 with and without the RocksDB value cache. Every run
# is a fresh JVM with -Xmx4g and object reuse; the peer's default N. Prints each run as it ends, then one
# TARGET line per target with the medians, the ratio and whether every run of a workload had one checksum.
#
#   examples/targets.sh [ROUNDS (default 5)] [W2_ROUNDS (default 2)]
#
# PEER_BENCH=<run.sh>  the Flink peer (default examples/flink-peer/run.sh; ../shared/peer-bench/run.sh has the
#                      same interface). The first use of a Flink version builds it.
# W1_LIMIT=<file>      the one-thread hand loop, a single-file Java program run with `java FILE N` (default
#                      ../shared/peer-bench/limit/W1Limit.java beside the checkout); without it the
#                      parallelism-2 target is skipped, saying so.
# A sitting of 5 + 2 rounds takes about 13 minutes on two cores. Run it on a quiet machine: the order of the
# runs rotates every round so that a slow stretch of the machine does not fall on one side only.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PEER="${PEER_BENCH:-$HERE/flink-peer/run.sh}"
LOOP="${W1_LIMIT:-$ROOT/../shared/peer-bench/limit/W1Limit.java}"

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2; }
rounds="${1:-5}"; w2_rounds="${2:-2}"
[[ $# -le 2 ]] || { echo "at most two arguments (ROUNDS, W2_ROUNDS), got $#" >&2; usage; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a whole number of at least 1, got '$rounds'" >&2; usage; }
[[ "$w2_rounds" =~ ^[0-9]+$ ]] || { echo "W2_ROUNDS must be a whole number, got '$w2_rounds'" >&2; usage; }
[[ -x "$PEER" ]] || { echo "no Flink peer at $PEER (set PEER_BENCH to its run.sh)" >&2; exit 2; }

source "$HERE/build-classpath.sh"
for version in 1.20.5 2.3.0; do
  echo "preparing the Flink peer $PEER --flink $version ..." >&2
  "$PEER" --flink "$version" wordcount-heap 1000 >/dev/null 2>&1 ||
    { echo "the Flink peer ($PEER --flink $version) does not run; run it by hand to see why" >&2; exit 1; }
done
if [[ ! -f "$LOOP" ]]; then
  echo "no hand loop at $LOOP (set W1_LIMIT): the parallelism-2 target is skipped" >&2
  LOOP=""
fi

runs="$(mktemp)"
trap 'rm -f "$runs"' EXIT

# One run: "LABEL RECORDS_PER_S CHECKSUM" into the table, the RESULT line to the terminal.
measure() {
  local label="$1"; shift
  local line
  line=$("$@" 2>/dev/null | grep "^RESULT${PICK:-}" | tail -1) || { echo "$label failed: $*" >&2; exit 1; }
  echo "$label $line"
  sed -E "s/.*records_per_s=([0-9]+) checksum=([0-9a-f]+).*/$label \1 \2/" <<<"$line" >>"$runs"
}
runnel() { java -Xmx4g -cp "$CLASSPATH" dev.runnel.examples.bench.Bench "$@" --object-reuse; }
flink() { "$PEER" --flink "$1" "$2" --object-reuse "${@:3}"; }
# W1's work written by hand with the exchange any keyed job has; its first (cold) run is the one to compare.
hand() { java -Xmx4g -cp "$CLASSPATH" dev.runnel.examples.bench.W1ExchangeLimit 20000000 2 threads boxed; }

# Rotates the runs of one round: round r starts with the r-th of them.
rotated() {
  local r="$1"; shift
  local n=$#; local args=("$@")
  for ((k = 0; k < n; k++)); do echo "${args[(k + r) % n]}"; done
}

for ((r = 0; r < rounds; r++)); do
  echo "round $((r + 1)) of $rounds $(date +%H:%M:%S)" >&2
  for workload in wordcount-heap window; do
    while read -r side; do
      case "$side" in
        runnel) measure "$workload.runnel" runnel "$workload" ;;
        flink1) measure "$workload.flink-1.20.5" flink 1.20.5 "$workload" ;;
        flink2) measure "$workload.flink-2.3.0" flink 2.3.0 "$workload" ;;
        hand) PICK='.*-cold ' measure "$workload.hand-exchange" hand ;;
      esac
    done < <(if [[ "$workload" == wordcount-heap ]]; then rotated "$r" runnel flink1 flink2 hand
             else rotated "$r" runnel flink1 flink2; fi)
  done
  if [[ -n "$LOOP" ]]; then
    while read -r side; do
      case "$side" in
        loop) measure "p2.loop" java -Xmx4g "$LOOP" 20000000 ;;
        warm) measure "p2.runnel-warm" runnel wordcount-heap --parallelism 2 --warmup 20000000 ;;
      esac
    done < <(rotated "$r" loop warm)
  fi
done
for ((r = 0; r < w2_rounds; r++)); do
  echo "W2 round $((r + 1)) of $w2_rounds $(date +%H:%M:%S)" >&2
  while read -r side; do
    case "$side" in
      runnel) measure "w2.runnel" runnel wordcount-rocksdb ;;
      nocache) measure "w2.runnel-no-value-cache" runnel wordcount-rocksdb \
                 --conf state.backend.rocksdb.value-cache.size=0 ;;
      flink1) measure "w2.flink-1.20.5" flink 1.20.5 wordcount-rocksdb ;;
      flink2) measure "w2.flink-2.3.0" flink 2.3.0 wordcount-rocksdb ;;
    esac
  done < <(rotated "$r" runnel flink1 flink2 nocache)
done

# The summary: medians per label, then the targets. A checksum must be the same in every run of a workload.
awk '
  function median(label,   n, i, j, t, v) {
    n = count[label]; if (n == 0) return 0
    for (i = 1; i <= n; i++) v[i] = rate[label, i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  function same(prefix,   k, first, ok) {
    ok = "yes"; first = ""
    for (k in sum) if (index(k, prefix) == 1) { if (first == "") first = sum[k]; else if (sum[k] != first) ok = "NO" }
    return ok
  }
  function target(name, mine, peer, goal,   ratio, verdict) {
    if (mine == 0 || peer == 0) return
    ratio = mine / peer
    verdict = goal == "" ? "recorded" : (ratio >= goal ? "met" : "NOT met")
    printf "TARGET %s runnel=%.3fM %s=%.3fM ratio=%.2f goal=%s %s\n", name, mine / 1e6, peerName, peer / 1e6, ratio,
        goal == "" ? "-" : ">=" goal, verdict
  }
  function faster(w,   a, b) {
    a = median(w ".flink-1.20.5"); b = median(w ".flink-2.3.0")
    peerName = a >= b ? "flink-1.20.5" : "flink-2.3.0"
    return a >= b ? a : b
  }
  { n = ++count[$1]; rate[$1, n] = $2; sum[$1 "#" $3] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++labels] = $1 } }
  END {
    for (i = 1; i <= labels; i++) printf "MEDIAN %s runs=%d records_per_s=%.0f\n", order[i], count[order[i]], median(order[i])
    f = faster("wordcount-heap"); target("W1>=3x-flink", median("wordcount-heap.runnel"), f, 3)
    # what 3x the faster Flink asks for, beside the same work written by hand (cold, as the others)
    hand = median("wordcount-heap.hand-exchange")
    if (f > 0 && hand > 0) printf "BAR W1 3x-flink=%.3fM hand-exchange=%.3fM bar/hand=%.2f\n", 3 * f / 1e6, hand / 1e6, 3 * f / hand
    peerName = "hand-exchange"; target("W1-vs-hand-exchange", median("wordcount-heap.runnel"), hand, "")
    print "CHECKSUMS wordcount-heap identical=" same("wordcount-heap.")
    f = faster("window"); target("W3>=2x-flink", median("window.runnel"), f, 2)
    print "CHECKSUMS window identical=" same("window.")
    peerName = "loop"; target("W1-p2-warm>=1.6x-loop", median("p2.runnel-warm"), median("p2.loop"), 1.6)
    if (count["p2.loop"] > 0) print "CHECKSUMS p2 identical=" same("p2.")
    f = faster("w2"); target("W2-vs-flink", median("w2.runnel"), f, "")
    target("W2-no-value-cache-vs-flink", median("w2.runnel-no-value-cache"), f, "")
    if (count["w2.runnel"] > 0) print "CHECKSUMS w2 identical=" same("w2.")
  }' "$runs"
