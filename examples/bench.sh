#!/usr/bin/env bash
# Runs a benchmark workload (docs/BENCHMARKS.md, "The workloads") on Runnel, building what it needs
# first. examples/flink-peer/run.sh runs the same workloads on Apache Flink.
#
#   examples/bench.sh WORKLOAD [N] [--object-reuse] [--no-verify] [--conf key=value]...
#
# WORKLOAD: wordcount-heap (W1, default N 20000000) | wordcount-rocksdb (W2, 5000000) | window (W3, 10000000)
#           | checkpoint (W4: W1 with aligned exactly-once checkpoints every second, 20000000)
#        examples/bench.sh timers heap|rocksdb [N] [--keys K] [--delay-ms D] [--parallelism P] [--conf key=value]...
# The timer benchmark (default 10000000 timers over 1000000 keys, all pending until end of input).
#        examples/bench.sh pojo pojo|tuple [N] [--object-reuse]
# W1 with the records as POJOs or as Tuple2<String, Long> (default N 20000000), to compare the two.
#        examples/bench.sh checkpoint-size [--keys K] [--changed-percent P] [--checkpoints C] [--dir D]
#                                          [--stores heap,rocksdb-full,rocksdb-incremental]
# What a checkpoint costs (issue 11): K keys "w"+n (default 1000000) with a ValueState<Long> each, C
# checkpoints (default 10) into filesystem checkpoint storage under D (default a temporary directory),
# P% of keys (default 1) changed between them. Per checkpoint, store and mode (--stores: which ones, default
# all three) one RESULT line with sync_ms, async_ms, bytes; then a SUMMARY line of medians of checkpoints 2..C.
#        examples/bench.sh savepoint-size [--keys K] [--changed-percent P] [--checkpoints C] [--dir D]
#                                         [--stores heap-canonical,rocksdb-canonical,rocksdb-native]
# The same for savepoints (issue 12; checkpoint-size --savepoints): C savepoints (CANONICAL on heap and RocksDB,
# NATIVE on RocksDB) into savepoint folders of the same storage; bytes is all a savepoint wrote.
#        examples/bench.sh restore-rescale [--keys K] [--value-bytes B] [--from P] [--to Q]
#                                          [--formats canonical,native] [--dir D]
# Restore at another parallelism (issue 12): P (default 4) RocksDB backends, max parallelism 128, hold K keys
# "k"+n (default 9000000) with a ValueState<byte[]> of B random bytes (default 100; about 1 GB canonical);
# a CANONICAL and a NATIVE savepoint of each; StateAssignmentOperation.redistribute to Q (default 2) and each
# new backend created with its handles, one after the other, timed; then every key verified. Per format:
# RESULT workload=restore-rescale store=rocksdb format=F from=P to=Q bytes=B seconds=S keys=K subtask_seconds=...
# Needs about 5 GB of disk under D (default a temporary directory); its files are deleted at the end.
#        examples/bench.sh rescale [--keys K] [--records N] [--store heap|rocksdb] [--mode in-place|savepoint|none]
# The pause of rescaling a running keyed job from 2 to 4 (issue 12): K keys (default 1000000) counted in a
# ValueState<Long>, N records (default 5 K); once every key has state, JobClient.rescale (in-place) or
# stop-with-savepoint and a new job restored from it (savepoint); none never rescales (the baseline). Prints
# RESULT workload=rescale store=S mode=M keys=K pause_ms=P baseline_max_gap_ms=G ok=true|false
# The last line of the other workloads is: RESULT workload=<name> records=<N> seconds=<s> records_per_s=<r> checksum=<hex>
# JVM options: RUNNEL_BENCH_JAVA_OPTS (default -Xmx4g, the peer's heap).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
if [[ $# -lt 1 ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
source "$HERE/build-classpath.sh"
# shellcheck disable=SC2086
exec java ${RUNNEL_BENCH_JAVA_OPTS:--Xmx4g} -cp "$CLASSPATH" dev.runnel.examples.bench.Bench "$@"
