#!/usr/bin/env bash
# Starts or stops the JobManager of this installation.
#
#   bin/jobmanager.sh start|start-foreground|stop|stop-all
#
# start runs it in the background, logging to log/runnel-<user>-jobmanager-<n>-<host>.log (stdout and stderr
# in .out), with a pid file in $RUNNEL_PID_DIR (default /tmp); start-foreground runs it in this terminal;
# stop ends the one started last, stop-all every one. The JVM heap is 3/4 of jobmanager.memory.process.size.
set -euo pipefail
# shellcheck source=config.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/config.sh"
daemon_main jobmanager "$@"
