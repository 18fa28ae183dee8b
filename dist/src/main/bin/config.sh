#!/usr/bin/env bash
# Sourced by every script of bin/: where the installation, its configuration, logs and pid files are, and the
# helpers that read runnel.yaml and start and stop the daemons. Not meant to be run on its own.
#
# Environment:
#   RUNNEL_CONF_DIR   the configuration folder (default: <install>/conf)
#   RUNNEL_LOG_DIR    where the daemons' logs go (default: <install>/log)
#   RUNNEL_PID_DIR    where the pid files go (default: /tmp)
#   RUNNEL_JAVA_OPTS  extra JVM options for every process
#   JAVA_HOME         the JDK to use (default: java on the PATH)
#   RUNNEL_CLASSPATH  the class path instead of <install>/lib/* (for tests and development)
#   RUNNEL_JOBMANAGER_CLASS, RUNNEL_TASKMANAGER_CLASS  other main classes (for tests of these scripts)

RUNNEL_BIN_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNNEL_HOME="$(cd "$RUNNEL_BIN_DIR/.." && pwd)"
RUNNEL_CONF_DIR="${RUNNEL_CONF_DIR:-$RUNNEL_HOME/conf}"
RUNNEL_LOG_DIR="${RUNNEL_LOG_DIR:-$RUNNEL_HOME/log}"
RUNNEL_PID_DIR="${RUNNEL_PID_DIR:-/tmp}"
RUNNEL_CONF_FILE="$RUNNEL_CONF_DIR/runnel.yaml"
RUNNEL_IDENT="${USER:-$(id -un)}"
RUNNEL_HOST="$(hostname)"
export RUNNEL_CONF_DIR

JOBMANAGER_CLASS="${RUNNEL_JOBMANAGER_CLASS:-dev.runnel.runtime.entrypoint.StandaloneSessionClusterEntrypoint}"
TASKMANAGER_CLASS="${RUNNEL_TASKMANAGER_CLASS:-dev.runnel.runtime.taskexecutor.TaskManagerRunner}"
CLI_CLASS="dev.runnel.client.cli.CliFrontend"

# How long stop waits for a daemon to exit after SIGTERM before it sends SIGKILL.
STOP_TIMEOUT_SECONDS="${RUNNEL_STOP_TIMEOUT:-10}"

java_command() {
  if [[ -n "${JAVA_HOME:-}" ]]; then echo "$JAVA_HOME/bin/java"; else echo "java"; fi
}

class_path() {
  echo "${RUNNEL_CLASSPATH:-$RUNNEL_HOME/lib/*}"
}

die() {
  echo "$*" >&2
  exit 1
}

# read_conf KEY [DEFAULT]: the last value of KEY in runnel.yaml (flat 'key: value' lines, '#' comments, quotes).
read_conf() {
  local key="$1" default="${2:-}" value=""
  if [[ -f "$RUNNEL_CONF_FILE" ]]; then
    value="$(sed -n -E "s/^[[:space:]]*${key//./\\.}[[:space:]]*:[[:space:]]*(.*)$/\\1/p" "$RUNNEL_CONF_FILE" | tail -n 1)"
    value="$(printf '%s' "$value" | sed -E 's/(^|[[:space:]])#.*$//; s/[[:space:]]+$//')"
    value="${value#\"}"; value="${value%\"}"; value="${value#\'}"; value="${value%\'}"
  fi
  if [[ -z "$value" ]]; then value="$default"; fi
  printf '%s' "$value"
}

# to_mebibytes SIZE: a memory size as Flink writes it (1600m, 1g, 1728 mb, 2048kb, 1073741824) in MiB.
to_mebibytes() {
  local size="${1// /}" number unit
  size="$(printf '%s' "$size" | tr '[:upper:]' '[:lower:]')"
  if [[ ! "$size" =~ ^([0-9]+)([a-z]*)$ ]]; then
    die "'$1' is not a memory size (e.g. 1600m or 2g); check $RUNNEL_CONF_FILE"
  fi
  number="${BASH_REMATCH[1]}"; unit="${BASH_REMATCH[2]}"
  case "$unit" in
    ""|b|bytes) echo $(( number / 1024 / 1024 )) ;;
    k|kb|kibibytes) echo $(( number / 1024 )) ;;
    m|mb|mebibytes) echo "$number" ;;
    g|gb|gibibytes) echo $(( number * 1024 )) ;;
    t|tb|tebibytes) echo $(( number * 1024 * 1024 )) ;;
    *) die "'$1' has an unknown unit '$unit' (use k, m, g or t); check $RUNNEL_CONF_FILE" ;;
  esac
}

# heap_options KIND: -Xms/-Xmx from KIND.memory.process.size. The heap gets three quarters of the process;
# the rest covers metaspace, thread stacks and Netty's direct buffers.
heap_options() {
  local kind="$1" default process heap
  if [[ "$kind" == "jobmanager" ]]; then default="1600m"; else default="1728m"; fi
  process="$(to_mebibytes "$(read_conf "$kind.memory.process.size" "$default")")"
  heap=$(( process * 3 / 4 ))
  if (( heap < 64 )); then
    die "$kind.memory.process.size ${process}m leaves a heap of ${heap}m; give the process at least 128m"
  fi
  echo "-Xms${heap}m -Xmx${heap}m"
}

main_class_of() {
  case "$1" in
    jobmanager) echo "$JOBMANAGER_CLASS" ;;
    taskmanager) echo "$TASKMANAGER_CLASS" ;;
    *) die "unknown process kind '$1'" ;;
  esac
}

pid_file() {
  echo "$RUNNEL_PID_DIR/runnel-$RUNNEL_IDENT-$1-$2.pid"
}

log_base() {
  echo "$RUNNEL_LOG_DIR/runnel-$RUNNEL_IDENT-$1-$2-$RUNNEL_HOST"
}

# is_ours PID CLASS: whether PID is alive and a java process running CLASS (so a recycled pid is never killed).
is_ours() {
  local pid="$1" class="$2" command=""
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    command="$(tr '\0' ' ' < "/proc/$pid/cmdline")"
  else
    command="$(ps -p "$pid" -o command= 2>/dev/null || true)"
  fi
  [[ "$command" == *java* && " $command " == *" $class "* ]]
}

# pid_files KIND: the pid files of KIND, lowest index first.
pid_files() {
  local kind="$1"
  compgen -G "$RUNNEL_PID_DIR/runnel-$RUNNEL_IDENT-$kind-*.pid" | sed -E 's/.*-([0-9]+)\.pid$/\1 &/' | sort -n \
    | cut -d' ' -f2- || true
}

# running_pids KIND: the pids of KIND's daemons that still run; removes stale pid files on the way.
running_pids() {
  local kind="$1" class file pid
  class="$(main_class_of "$kind")"
  while IFS= read -r file; do
    [[ -n "$file" ]] || continue
    pid="$(cat "$file" 2>/dev/null || true)"
    if is_ours "$pid" "$class"; then
      echo "$pid"
    else
      rm -f "$file"
    fi
  done < <(pid_files "$kind")
}

# start_daemon KIND: starts a daemon in the background at the lowest free index, with a pid file.
start_daemon() {
  local kind="$1" class index=0 file pid base
  class="$(main_class_of "$kind")"
  mkdir -p "$RUNNEL_LOG_DIR" "$RUNNEL_PID_DIR"
  running_pids "$kind" > /dev/null # clears stale pid files, so their indexes are free again
  while [[ -e "$(pid_file "$kind" "$index")" ]]; do index=$(( index + 1 )); done
  file="$(pid_file "$kind" "$index")"
  base="$(log_base "$kind" "$index")"
  # shellcheck disable=SC2046,SC2086
  nohup "$(java_command)" $(heap_options "$kind") ${RUNNEL_JAVA_OPTS:-} \
    -Dlog.file="$base.log" -Dlogback.configurationFile="$RUNNEL_CONF_DIR/logback.xml" \
    -cp "$(class_path)" "$class" --configDir "$RUNNEL_CONF_DIR" > "$base.out" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$file"
  # until the forked shell has become our java, the pid would look stale to the next start or stop
  local waited=0
  while ! is_ours "$pid" "$class"; do
    if ! kill -0 "$pid" 2>/dev/null || (( waited >= 100 )); then
      rm -f "$file"
      echo "The $kind daemon did not start; the end of $base.out:" >&2
      tail -n 20 "$base.out" >&2 || true
      return 1
    fi
    sleep 0.1
    waited=$(( waited + 1 ))
  done
  echo "Starting $kind daemon (index $index) on host $RUNNEL_HOST, pid $pid; log $base.log"
}

# start_foreground KIND: runs the daemon in this terminal (for containers and debugging); logs to the console.
start_foreground() {
  local kind="$1"
  # shellcheck disable=SC2046,SC2086
  exec "$(java_command)" $(heap_options "$kind") ${RUNNEL_JAVA_OPTS:-} \
    -Dlogback.configurationFile="$RUNNEL_CONF_DIR/logback-console.xml" -Drunnel.console.level=INFO \
    -cp "$(class_path)" "$(main_class_of "$kind")" --configDir "$RUNNEL_CONF_DIR"
}

# stop_pid KIND FILE: stops the daemon of FILE if it is ours (SIGTERM, then SIGKILL after the timeout).
stop_pid() {
  local kind="$1" file="$2" class pid waited=0
  class="$(main_class_of "$kind")"
  pid="$(cat "$file" 2>/dev/null || true)"
  if ! is_ours "$pid" "$class"; then
    echo "No $kind daemon runs with pid ${pid:-?} (stale pid file $file removed)."
    rm -f "$file"
    return 0
  fi
  echo "Stopping $kind daemon (pid $pid) on host $RUNNEL_HOST."
  kill "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && (( waited < STOP_TIMEOUT_SECONDS * 10 )); do
    sleep 0.1
    waited=$(( waited + 1 ))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "The $kind daemon (pid $pid) did not stop within $STOP_TIMEOUT_SECONDS s; killing it (SIGKILL)."
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

# stop_daemon KIND [all]: stops the daemon with the highest index, or every one of KIND.
stop_daemon() {
  local kind="$1" scope="${2:-one}" files
  files="$(pid_files "$kind")"
  if [[ -z "$files" ]]; then
    echo "No $kind daemon to stop on host $RUNNEL_HOST."
    return 0
  fi
  if [[ "$scope" != "all" ]]; then files="$(echo "$files" | tail -n 1)"; fi
  while IFS= read -r file; do
    stop_pid "$kind" "$file"
  done <<< "$files"
}

# daemon_main KIND ARGS...: the body of jobmanager.sh and taskmanager.sh.
daemon_main() {
  local kind="$1" command="${2:-}"
  case "$command" in
    start) start_daemon "$kind" ;;
    start-foreground) start_foreground "$kind" ;;
    stop) stop_daemon "$kind" ;;
    stop-all) stop_daemon "$kind" all ;;
    *) echo "Usage: $kind.sh start|start-foreground|stop|stop-all" >&2; exit 2 ;;
  esac
}

# rest_url: where the JobManager's REST API answers (rest.address, else jobmanager.rpc.address).
rest_url() {
  local host port
  host="$(read_conf rest.address "$(read_conf jobmanager.rpc.address 127.0.0.1)")"
  port="$(read_conf rest.port 8081)"
  echo "http://$host:$port"
}

# http_get URL: the body of a GET, with rest.auth.token if configured; fails if there is no answer within 2 s.
http_get() {
  local url="$1" token
  token="$(read_conf rest.auth.token)"
  if command -v curl > /dev/null; then
    if [[ -n "$token" ]]; then
      curl -sf --max-time 2 -H "Authorization: Bearer $token" "$url"
    else
      curl -sf --max-time 2 "$url"
    fi
    return
  fi
  # without curl: HTTP/1.0 over bash's /dev/tcp
  local rest="${url#http://}" hostport path host port
  hostport="${rest%%/*}"; path="/${rest#*/}"; host="${hostport%:*}"; port="${hostport##*:}"
  exec 3<>"/dev/tcp/$host/$port" || return 1
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\n%s\r\n' "$path" "$hostport" \
    "${token:+Authorization: Bearer $token$'\r\n'}" >&3
  timeout 2 cat <&3 | sed '1,/^\r$/d'
  exec 3<&-
}
