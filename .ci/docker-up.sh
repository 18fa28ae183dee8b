#!/usr/bin/env bash
# Makes a Docker engine available for the container tests, where one can run: installs Debian's docker.io
# and debootstrap if missing, starts dockerd without a bridge (containers use the host's loopback network),
# and builds the base image runnel-base:bookworm-jre17 (a debootstrap'd Debian with a JRE) once; later runs
# find it cached. No image registry is needed. Prints the PID of a dockerd it started on the last line
# ("dockerd-pid N"), so the caller stops exactly that process; prints "docker unavailable: <why>" and exits 0
# when no engine can run here (the container tests then skip with that reason).
set -uo pipefail

BASE_IMAGE=runnel-base:bookworm-jre17

unavailable() {
    echo "docker unavailable: $*"
    exit 0
}

if ! docker info >/dev/null 2>&1; then
    if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
        command -v apt-get >/dev/null 2>&1 || unavailable "no dockerd and no apt-get to install it"
        DEBIAN_FRONTEND=noninteractive apt-get install -y docker.io debootstrap >/tmp/runnel-apt-docker.log 2>&1 \
            || unavailable "apt-get install docker.io failed (see /tmp/runnel-apt-docker.log)"
    fi
    dockerd --bridge=none --iptables=false --ip-forward=false --ip-masq=false >/tmp/runnel-dockerd.log 2>&1 &
    DOCKERD_PID=$!
    for _ in $(seq 1 60); do
        docker info >/dev/null 2>&1 && break
        kill -0 "$DOCKERD_PID" 2>/dev/null || unavailable "dockerd exited (see /tmp/runnel-dockerd.log)"
        sleep 0.5
    done
    docker info >/dev/null 2>&1 || { kill "$DOCKERD_PID"; unavailable "dockerd did not answer within 30 s"; }
fi

if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
    command -v debootstrap >/dev/null 2>&1 || unavailable "debootstrap is missing"
    ROOTFS=$(mktemp -d /tmp/runnel-rootfs.XXXXXX)
    if debootstrap --variant=minbase --include=openjdk-17-jre-headless,procps bookworm "$ROOTFS" \
            >/tmp/runnel-debootstrap.log 2>&1; then
        tar -C "$ROOTFS" -c . | docker import - "$BASE_IMAGE" >/dev/null \
            || echo "docker import of the base image failed"
    else
        echo "debootstrap failed (see /tmp/runnel-debootstrap.log)"
    fi
    rm -rf "$ROOTFS"
fi
docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 || unavailable "no base image $BASE_IMAGE"
echo "docker available with $BASE_IMAGE"
[ -n "${DOCKERD_PID:-}" ] && echo "dockerd-pid $DOCKERD_PID"
exit 0
