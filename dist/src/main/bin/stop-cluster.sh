#!/usr/bin/env bash
# Stops the local cluster this installation started: every TaskManager, then the JobManager, each by the pid
# in its pid file (after checking that pid still runs our java process; stale pid files are removed).
#
#   bin/stop-cluster.sh
set -euo pipefail
# shellcheck source=config.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/config.sh"

if [[ -z "$(pid_files taskmanager)$(pid_files jobmanager)" ]]; then
  echo "No cluster is running on host $RUNNEL_HOST (no pid files of $RUNNEL_IDENT in $RUNNEL_PID_DIR)."
  exit 0
fi
stop_daemon taskmanager all
stop_daemon jobmanager all
