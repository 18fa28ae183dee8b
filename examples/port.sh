#!/usr/bin/env bash
# Ports a Flink DataStream project to Runnel: rewrites org.apache.flink. to dev.runnel. in its .java
# files (in place, or in a new copy with --to), prints what to change in its pom.xml files, and lists
# every dev.runnel name the sources use that Runnel does not have, as file:line.
#
#   examples/port.sh SOURCE_DIR [--to COPY_DIR]
#
# Exit status: 0 when every name resolves, 1 when some do not, 2 for a usage error.
# Example: examples/port.sh ~/my-flink-job --to ~/my-runnel-job
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"

if [[ $# -ne 1 && ! ( $# -eq 3 && "$2" == "--to" ) ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi

source "$HERE/build-classpath.sh"
exec java ${RUNNEL_JAVA_OPTS:-} -cp "$CLASSPATH" dev.runnel.examples.port.PortTool "$@"
