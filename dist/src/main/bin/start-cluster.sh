#!/usr/bin/env bash
# Starts a local cluster: one JobManager and one TaskManager per line of conf/workers, then waits (at most
# $RUNNEL_START_TIMEOUT seconds, default 60) until the JobManager's REST API reports them all registered.
#
#   bin/start-cluster.sh
#
# On the first start, when conf/runnel.yaml sets no security.cluster.secret, it writes a random one there
# (32 bytes as hex) and makes the file readable by its owner only: every process of the cluster
# authenticates with it.
set -euo pipefail
# shellcheck source=config.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/config.sh"

START_TIMEOUT_SECONDS="${RUNNEL_START_TIMEOUT:-60}"

[[ -f "$RUNNEL_CONF_FILE" ]] || die "No configuration at $RUNNEL_CONF_FILE; set RUNNEL_CONF_DIR to the folder of runnel.yaml."

ensure_secret() {
  if [[ -n "$(read_conf security.cluster.secret)" ]]; then
    return
  fi
  local secret
  secret="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
  [[ ${#secret} -eq 64 ]] || die "Could not read 32 random bytes from /dev/urandom for security.cluster.secret."
  printf '\n# Written by bin/start-cluster.sh on the first start: the secret every process of the cluster shares.\nsecurity.cluster.secret: %s\n' \
    "$secret" >> "$RUNNEL_CONF_FILE"
  chmod 600 "$RUNNEL_CONF_FILE"
  echo "Generated security.cluster.secret in $RUNNEL_CONF_FILE (readable by $RUNNEL_IDENT only)."
}

# workers: the lines of conf/workers without comments and blanks; none means one local TaskManager.
workers() {
  local file="$RUNNEL_CONF_DIR/workers"
  if [[ -f "$file" ]]; then
    sed -E 's/#.*$//; s/^[[:space:]]+//; s/[[:space:]]+$//' "$file" | grep -v '^$' || true
  else
    echo localhost
  fi
}

is_local() {
  [[ "$1" == "localhost" || "$1" == "127.0.0.1" || "$1" == "::1" || "$1" == "$RUNNEL_HOST" \
     || "$1" == "$(hostname -f 2>/dev/null || echo "$RUNNEL_HOST")" ]]
}

existing="$(running_pids jobmanager | head -n 1)"
if [[ -n "$existing" ]]; then
  die "A JobManager of this installation already runs (pid $existing); stop the cluster first with bin/stop-cluster.sh."
fi

ensure_secret
start_daemon jobmanager
expected=0
while IFS= read -r worker; do
  [[ -n "$worker" ]] || continue
  if ! is_local "$worker"; then
    echo "Skipping worker '$worker' from conf/workers: only local TaskManagers are started (run bin/taskmanager.sh start on that host)." >&2
    continue
  fi
  start_daemon taskmanager
  expected=$(( expected + 1 ))
done < <(workers)

url="$(rest_url)"
deadline=$(( SECONDS + START_TIMEOUT_SECONDS ))
last="no answer"
while (( SECONDS < deadline )); do
  if overview="$(http_get "$url/overview" 2>/dev/null)"; then
    registered="$(printf '%s' "$overview" | grep -o '"taskmanagers"[[:space:]]*:[[:space:]]*[0-9]*' | grep -o '[0-9]*$' || true)"
    slots="$(printf '%s' "$overview" | grep -o '"slots-total"[[:space:]]*:[[:space:]]*[0-9]*' | grep -o '[0-9]*$' || true)"
    last="${registered:-?} of $expected TaskManagers registered"
    if [[ -n "$registered" ]] && (( registered >= expected )); then
      echo "Cluster ready: 1 JobManager and $registered TaskManager(s) with ${slots:-?} slots; REST API and dashboard at $url"
      exit 0
    fi
  fi
  if [[ -z "$(running_pids jobmanager)" ]]; then
    die "The JobManager exited while starting; see runnel-$RUNNEL_IDENT-jobmanager-*.out and .log in $RUNNEL_LOG_DIR."
  fi
  sleep 0.5
done
echo "The cluster did not become ready within $START_TIMEOUT_SECONDS s at $url ($last). Its processes keep running;" \
  "see the logs in $RUNNEL_LOG_DIR, and stop them with bin/stop-cluster.sh." >&2
exit 1
