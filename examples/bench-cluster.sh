#!/usr/bin/env bash
# Runs a benchmark workload on a local Runnel cluster started from the distribution (issue 13): builds the
# tarball's folder, copies it to a temporary folder, starts one JobManager and TASKMANAGERS TaskManagers with
# one slot each (so W1's two subtasks run on two TaskManagers and their exchange crosses the Netty data
# plane, as ../shared/peer-bench/run.sh --taskmanagers 2 does for Flink), submits the benchmark jar with
# bin/runnel run, prints the workload's RESULT line and two more, then stops the cluster:
#
#   examples/bench-cluster.sh [--taskmanagers N] WORKLOAD [N] [--object-reuse] [--no-verify]
#
#   RESULT workload=cluster-start taskmanagers=N ready_ms=T      start-cluster.sh to every TaskManager registered
#   RESULT workload=cluster-first-record run_to_first_record_ms=T bin/runnel run of a one-record job to its record
#                                                                 printed on a TaskManager
# JVM options of the cluster's processes: RUNNEL_JAVA_OPTS (default: the heap from conf/runnel.yaml).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
TASKMANAGERS=2
if [[ "${1:-}" == "--taskmanagers" ]]; then
  TASKMANAGERS="$2"
  shift 2
fi
if [[ $# -lt 1 ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi

echo "building the distribution (mvn package -DskipTests) ..." >&2
(cd "$ROOT" && mvn -B -q -pl dist -am package -DskipTests >&2)
WORK="$(mktemp -d /tmp/runnel-bench-cluster.XXXXXX)"
HOME_DIR="$WORK/runnel"
DIST="$(find "$ROOT/dist/target" -maxdepth 1 -type d -name 'runnel-*' | head -1)"
[[ -n "$DIST" ]] || { echo "no dist/target/runnel-<version>/ after the build" >&2; exit 1; }
cp -r "$DIST" "$HOME_DIR"
export RUNNEL_CONF_DIR="$HOME_DIR/conf" RUNNEL_PID_DIR="$WORK/pids"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
sed -i -e "s/^jobmanager.rpc.port:.*/jobmanager.rpc.port: $(free_port)/" -e "s/^rest.port:.*/rest.port: $(free_port)/" \
  -e "s/^taskmanager.numberOfTaskSlots:.*/taskmanager.numberOfTaskSlots: 1/" \
  -e "s/^taskmanager.memory.process.size:.*/taskmanager.memory.process.size: 5461m/" "$RUNNEL_CONF_DIR/runnel.yaml"
echo "io.tmp.dirs: $WORK" >> "$RUNNEL_CONF_DIR/runnel.yaml"
: > "$RUNNEL_CONF_DIR/workers"
for _ in $(seq 1 "$TASKMANAGERS"); do echo localhost >> "$RUNNEL_CONF_DIR/workers"; done

# The benchmark programs as a user jar: the examples' bench package, Bench as its Main-Class.
JAR="$WORK/bench.jar"
(cd "$ROOT/examples/target/classes" && jar --create --file "$JAR" --main-class dev.runnel.examples.bench.Bench \
  dev/runnel/examples/bench)

cleanup() {
  "$HOME_DIR/bin/stop-cluster.sh" >&2 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

START=$(date +%s%N)
"$HOME_DIR/bin/start-cluster.sh" >&2
READY_MS=$(( ($(date +%s%N) - START) / 1000000 ))
echo "RESULT workload=cluster-start taskmanagers=$TASKMANAGERS ready_ms=$READY_MS"

# Time from bin/runnel run to the first record: a job of one record, whose record a TaskManager prints.
START=$(date +%s%N)
"$HOME_DIR/bin/runnel" run -d "$HOME_DIR/examples/WordCount.jar" --parallelism 1 >/dev/null
until grep -qs "(" "$HOME_DIR"/log/*taskmanager*.out; do sleep 0.01; done
FIRST_MS=$(( ($(date +%s%N) - START) / 1000000 ))
echo "RESULT workload=cluster-first-record run_to_first_record_ms=$FIRST_MS"

"$HOME_DIR/bin/runnel" run "$JAR" "$@" | grep -E "^(INFO|CHECK|RESULT|ERROR)"
