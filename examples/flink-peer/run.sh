#!/usr/bin/env bash
# Runs a benchmark workload on Apache Flink: the repository's own Flink peer of Runnel's
# examples/bench.sh (workloads defined in docs/BENCHMARKS.md, "The workloads").
#
#   examples/flink-peer/run.sh [--flink 1.20.5|2.3.0] WORKLOAD [N] [--object-reuse] [--no-verify]
#                              [--expected-only] [--taskmanagers 1|2] [--conf key=value]...
#
# WORKLOAD: wordcount-heap (W1, default N 20000000) | wordcount-rocksdb (W2, 5000000)
#           | window (W3, 10000000) | checkpoint (W4, 20000000: W1 with checkpoints every 1000 ms)
#        examples/flink-peer/run.sh [--flink VERSION] rescale [--keys K] [--records N] [--store heap|rocksdb]
#                              [--mode savepoint|none]
#           the rescale pause (issue 12; Runnel's examples/bench.sh rescale): stop-with-savepoint at 2, resubmit at 4.
# --flink:  Flink 1.20.5 (default) or 2.3.0 (-Pflink2); each version has its own build folder.
# --object-reuse: env.getConfig().enableObjectReuse() (off by default in Flink).
# --no-verify: skip the comparison with the sequential plain-Java reference result.
# --expected-only: print the reference result for WORKLOAD and N without starting Flink.
# --taskmanagers 2: two TaskManagers with one slot each (default: one with two slots), so the
#           exchange between them goes through Netty on loopback.
# --conf key=value: an extra Flink option for the job (may be repeated).
#
# Builds target/flink-VERSION/flink-peer.jar with its own Maven project (not part of the Runnel
# build) when it is missing, when src/ or pom.xml is newer, or when FLINK_PEER_REBUILD=1; the
# first build of a version downloads that Flink from Maven Central. Then runs the workload on a
# local MiniCluster (one TaskManager with 2 slots unless --taskmanagers 2; parallelism 2) with
# java -Xmx4g (override with FLINK_PEER_JAVA_OPTS) and the JDK 17 module openings of Flink's
# distribution.
# The last line on stdout is (W4 appends " checkpoints=<completed checkpoints>"):
#   RESULT workload=<name> records=<N> seconds=<s> records_per_s=<r> checksum=<16 hex digits>
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# --flink may stand anywhere; everything else goes to the program.
flink=1.20.5
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --flink) [[ $# -ge 2 ]] || usage; flink="$2"; shift 2 ;;
    --flink=*) flink="${1#--flink=}"; shift ;;
    -h|--help) usage ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ ${#args[@]} -ge 1 ]] || usage
case "$flink" in
  1.20.*) profile=() ;;
  2.*) profile=(-Pflink2) ;;
  *) echo "unsupported --flink $flink (use 1.20.5 or 2.3.0)" >&2; exit 2 ;;
esac

jar="$HERE/target/flink-$flink/flink-peer.jar"
if [[ "${FLINK_PEER_REBUILD:-0}" == 1 || ! -f "$jar" \
      || -n "$(find "$HERE/src" "$HERE/pom.xml" -newer "$jar" -print -quit)" ]]; then
  echo "building $jar (Flink $flink) ..." >&2
  started=$SECONDS
  if ! mvn -B -q -Dstyle.color=never -f "$HERE/pom.xml" "${profile[@]}" -Dflink.version="$flink" package >&2; then
    echo "the build of the Flink peer failed; see the Maven output above" >&2
    exit 1
  fi
  echo "built in $((SECONDS - started)) s" >&2
fi

# The module openings and exports that Flink's distribution passes to its JVMs on JDK 17
# (env.java.opts.all in its conf/config.yaml).
opens=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

# shellcheck disable=SC2086
exec java ${FLINK_PEER_JAVA_OPTS:--Xmx4g} "${opens[@]}" -jar "$jar" "${args[@]}"
