#!/usr/bin/env bash
# make dist-test: the artefacts of make dist, installed and run the way users would, on this machine only:
#  1. the .deb in a fresh Debian rootfs (mmdebstrap; no Swift in it), with chroot: --version, demo,
#     serve --check on the packaged configuration; systemd-analyze verify on the unit
#  2. the tarball's binary in the same rootfs (its runtime packages from DEBIAN-PACKAGES.txt)
#  3. the OCI archive loaded into podman (runc, cgroupfs), the gateway run from it on SQLite with
#     configuration from variables only, against pushbutton mock-apns on the host: /healthz, a device,
#     one notification and its outcome
#  4. deploy/kubernetes validated offline (kubernetes-validate) and its shape checked
# The rootfs tarball is cached in .build/dist-cache (delete it to start from a new one).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=$ROOT/.build/dist-cache
SUITE=bookworm
VERSION=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/PushbuttonCLI/Commands/CommandLineTool.swift)
DEB=$(ls dist/pushbutton_"$VERSION"_*.deb)
TARBALL=$(ls dist/pushbutton-"$VERSION"-linux-*.tar.gz)
OCI=dist/pushbutton-$VERSION-oci.tar
started=$(date +%s)
step() { printf '== dist-test (%ss): %s\n' "$(($(date +%s) - started))" "$*"; }
fail() { echo "dist-test: FAILED: $*" >&2; exit 1; }

need=()
for pair in mmdebstrap:mmdebstrap podman:podman runc:runc systemd-analyze:systemd curl:curl; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
python3 -c 'import kubernetes_validate' 2>/dev/null \
  || python3 -m pip install --quiet --disable-pip-version-check kubernetes-validate

WORK=$(mktemp -d /tmp/pushbutton-dist-test.XXXXXX)
R=$WORK/rootfs
cleanup() {
  set +e
  [ -n "${CONTAINER:-}" ] && podman_ rm -f "$CONTAINER" >/dev/null 2>&1
  [ -n "${MOCK_PID:-}" ] && kill "$MOCK_PID" 2>/dev/null
  mountpoint -q "$R/proc" && umount "$R/proc"
  rm -rf "$WORK"
}
trap cleanup EXIT

step "a fresh Debian $SUITE rootfs (mmdebstrap, cached in .build/dist-cache)"
BASE=$CACHE/$SUITE-apt.tar
if [ ! -f "$BASE" ]; then
  mkdir -p "$CACHE"
  mmdebstrap --quiet --variant=apt --include=ca-certificates --skip=cleanup/apt/lists "$SUITE" "${BASE%.tar}.partial.tar" \
    "deb http://deb.debian.org/debian $SUITE main" "deb http://deb.debian.org/debian $SUITE-updates main" \
    "deb http://deb.debian.org/debian-security $SUITE-security main"
  mv "${BASE%.tar}.partial.tar" "$BASE"
fi
mkdir -p "$R"
tar -C "$R" -xf "$BASE"
mount -t proc proc "$R/proc"
cp /etc/resolv.conf "$R/etc/resolv.conf"
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
in_root sh -c 'command -v swift' && fail "the rootfs has Swift"

step "apt-get install ./$(basename "$DEB") in the rootfs"
cp "$DEB" "$R/tmp/"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$DEB")" >/dev/null
in_root pushbutton --version
[ "$(in_root pushbutton --version)" = "pushbutton $VERSION" ] || fail "--version"
in_root id pushbutton
[ "$(in_root stat -c '%U:%G %a' /etc/pushbutton/pushbutton.json)" = "root:pushbutton 640" ] \
  || fail "/etc/pushbutton/pushbutton.json's owner or mode"

step "pushbutton demo in the rootfs"
in_root sh -c 'cd /tmp && pushbutton demo --keep /tmp/demo' >"$WORK/demo.out" 2>&1 || { cat "$WORK/demo.out"; fail "demo"; }
tail -3 "$WORK/demo.out"

step "pushbutton serve --check on the packaged configuration (it explains what to fill in)"
set +e
in_root pushbutton serve --config /etc/pushbutton/pushbutton.json --check >"$WORK/check.out" 2>&1
status=$?
set -e
cat "$WORK/check.out"
[ "$status" = 1 ] && grep -q 'pushbutton serve --hash-key' "$WORK/check.out" \
  && grep -q 'pushbutton.json:[0-9]*:[0-9]*: error' "$WORK/check.out" || fail "serve --check on the example"

step "systemd-analyze verify pushbutton.service (in the rootfs, where the user and binary are)"
# The rootfs has no systemd: the host's stock units (sysinit.target, …) are copied in for the check only.
cp -rn /lib/systemd/system/. "$R/lib/systemd/system/"
systemd-analyze verify --man=no --root="$R" /lib/systemd/system/pushbutton.service 2>&1 | tee "$WORK/verify.out"
grep -qi 'pushbutton.service' "$WORK/verify.out" && fail "systemd-analyze verify reports the unit"

step "the tarball's binary in the same rootfs (runtime packages from DEBIAN-PACKAGES.txt)"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq pushbutton >/dev/null
mkdir -p "$R/opt/pb"
tar -C "$R/opt/pb" --strip-components=1 -xzf "$TARBALL"
packages=$(sed -n 's/^# apt-get install //p' "$R/opt/pb/DEBIAN-PACKAGES.txt")
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages >/dev/null
in_root /opt/pb/pushbutton --version
in_root sh -c 'cd /tmp && /opt/pb/pushbutton demo --keep /tmp/demo-tarball' >"$WORK/demo2.out" 2>&1 \
  || { cat "$WORK/demo2.out"; fail "the tarball's demo"; }
tail -1 "$WORK/demo2.out"
umount "$R/proc"

step "podman load $(basename "$OCI")"
printf '[containers]\ndefault_ulimits = []\n' >"$WORK/containers.conf"
podman_() { CONTAINERS_CONF=$WORK/containers.conf podman --runtime runc --cgroup-manager=cgroupfs "$@"; }
podman_ load -i "$OCI" | tail -1
IMAGE=docker.io/library/pushbutton:$VERSION
podman_ image inspect "$IMAGE" --format 'user={{.Config.User}} entrypoint={{.Config.Entrypoint}} cmd={{.Config.Cmd}} volumes={{.Config.Volumes}} ports={{.Config.ExposedPorts}}'
podman_ image ls "$IMAGE"

step "mock APNs on the host, the gateway in the container (configuration from variables only)"
HOSTBIN=$R/opt/pb/pushbutton
"$HOSTBIN" mock-apns --h2c --port 0 --quiet >"$WORK/mock.out" 2>"$WORK/mock.err" &
MOCK_PID=$!
for _ in $(seq 100); do [ -s "$WORK/mock.out" ] && break; sleep 0.1; done
field() { python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])" "$WORK/mock.out" "$1"; }
mkdir -p "$WORK/secrets"
cp "$(field auth_key)" "$WORK/secrets/AuthKey.p8"
cp Examples/manifest.json "$WORK/secrets/manifest.json"
chmod 0644 "$WORK/secrets/"*
SECRET=$("$HOSTBIN" serve --generate-key secret | sed -n 's/^key: *//p')
PUBLISHABLE=$("$HOSTBIN" serve --generate-key publishable | sed -n 's/^key: *//p')
"$HOSTBIN" serve --hash-key "$SECRET" >"$WORK/secrets/secret-keys"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CONTAINER=pushbutton-dist-test-$$
podman_ volume rm -f pushbutton-dist-test-state >/dev/null 2>&1 || true
podman_ run -d --name "$CONTAINER" --network=host \
  -v pushbutton-dist-test-state:/var/lib/pushbutton -v "$WORK/secrets:/run/secrets/pushbutton:ro" \
  -e PUSHBUTTON_LISTEN=127.0.0.1:$PORT -e PUSHBUTTON_WORKERS=1 -e PUSHBUTTON_POLL_MILLISECONDS=50 \
  -e PUSHBUTTON_APP_ID=chatter -e PUSHBUTTON_APP_TOPIC=com.example.chatter \
  -e PUSHBUTTON_APP_MANIFEST_FILE=/run/secrets/pushbutton/manifest.json \
  -e PUSHBUTTON_APP_APNS_HOST=127.0.0.1 -e PUSHBUTTON_APP_APNS_PORT="$(field port)" -e PUSHBUTTON_APP_APNS_H2C=true \
  -e PUSHBUTTON_APP_KEY_FILE=/run/secrets/pushbutton/AuthKey.p8 -e PUSHBUTTON_APP_KEY_ID="$(field key_id)" \
  -e PUSHBUTTON_APP_TEAM_ID="$(field team_id)" \
  -e PUSHBUTTON_APP_SECRET_KEYS_FILE=/run/secrets/pushbutton/secret-keys \
  -e PUSHBUTTON_APP_PUBLISHABLE_KEYS="$("$HOSTBIN" serve --hash-key "$PUBLISHABLE")" \
  "$IMAGE" >/dev/null
URL=http://127.0.0.1:$PORT
for _ in $(seq 100); do curl -sf "$URL/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
echo "\$ curl $URL/healthz: $(curl -sf "$URL/healthz" || { podman_ logs "$CONTAINER"; fail "/healthz"; })"
TOKEN=$(printf 'd3a1%.0s' $(seq 16))
curl -sf -X PUT "$URL/v1/apps/chatter/devices/$TOKEN" -H "Authorization: Bearer $PUBLISHABLE" \
  -d '{"locale": "en-US", "user_id": "anna"}' >/dev/null || fail "registering a device"
ANSWER=$(curl -sf "$URL/v1/apps/chatter/notifications" -H "Authorization: Bearer $SECRET" \
  -d '{"to": {"user": "anna"}, "category": "message", "title": "Ben", "body": "Lunch?"}') || fail "sending"
ID=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['id'])" "$ANSWER")
for _ in $(seq 100); do
  OUTCOME=$(curl -sf "$URL/v1/notifications/$ID" -H "Authorization: Bearer $SECRET")
  echo "$OUTCOME" | grep -q '"delivered"' && break
  sleep 0.2
done
echo "\$ curl $URL/v1/notifications/$ID: $OUTCOME"
echo "$OUTCOME" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["deliveries"][0]["state"]=="delivered", d' \
  || { podman_ logs "$CONTAINER"; fail "the notification's outcome"; }
podman_ exec "$CONTAINER" sh -c 'id; ls -l /var/lib/pushbutton' 
podman_ stop -t 20 "$CONTAINER" >/dev/null
podman_ logs "$CONTAINER" 2>&1 | tail -3
[ "$(podman_ inspect "$CONTAINER" --format '{{.State.ExitCode}}')" = 0 ] || fail "the container's exit status after SIGTERM"
podman_ rm "$CONTAINER" >/dev/null
CONTAINER=
podman_ volume rm -f pushbutton-dist-test-state >/dev/null

step "deploy/kubernetes: kubernetes-validate (offline schemas) and the manifests' shape"
python3 scripts/check-kubernetes.py deploy/kubernetes

step "passed in $(($(date +%s) - started)) s"
