#!/usr/bin/env bash
# make dist: the release artefacts in dist/, from a clean checkout, without Docker:
#   pushbutton-VERSION-linux-ARCH.tar.gz  the binary (Swift runtime linked in), README, example config,
#                                        the Debian runtime packages it needs
#   pushbutton_VERSION_DEBARCH.deb        dpkg-deb; Depends from dpkg-shlibdeps; checked with lintian
#   pushbutton-VERSION-oci.tar            an OCI image archive: a mmdebstrap rootfs with the .deb, packed by umoci
# The version is the CLI's own (pushbutton --version, from CommandLineTool.version).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SCRATCH=${DIST_SCRATCH:-.build/dist-build}
CACHE=.build/dist-cache
OUT=dist
SUITE=bookworm
MIRRORS=("deb http://deb.debian.org/debian $SUITE main" "deb http://deb.debian.org/debian $SUITE-updates main"
  "deb http://deb.debian.org/debian-security $SUITE-security main")
step() { printf '== dist: %s\n' "$*"; }

# Tools: Debian packages only (CI installs what is missing here).
need=()
for pair in dpkg-shlibdeps:dpkg-dev lintian:lintian fakeroot:fakeroot mmdebstrap:mmdebstrap umoci:umoci; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  step "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

step "release build with the Swift runtime linked in (-static-stdlib)"
swift build -c release -Xswiftc -static-stdlib --product pushbutton --scratch-path "$SCRATCH"
BIN=$SCRATCH/release/pushbutton
if ldd "$BIN" | grep -q libswift; then
  echo "dist: $BIN still needs the Swift runtime:" >&2
  ldd "$BIN" | grep libswift >&2
  exit 1
fi
VERSION=$("$BIN" --version | awk '{ print $2 }')
ARCH=$(uname -m)
DEBARCH=$(dpkg --print-architecture)
rm -rf "$OUT"
mkdir -p "$OUT" "$CACHE"
WORK=$(mktemp -d "$ROOT/.build/dist-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

step "Debian runtime packages (dpkg-shlibdeps)"
mkdir -p "$WORK/shlibs/debian" "$WORK/shlibs/usr/bin"
cp "$BIN" "$WORK/shlibs/usr/bin/pushbutton"
strip --strip-unneeded "$WORK/shlibs/usr/bin/pushbutton"
printf 'Source: pushbutton\n\nPackage: pushbutton\nArchitecture: any\n' >"$WORK/shlibs/debian/control"
DEPENDS=$(cd "$WORK/shlibs" && dpkg-shlibdeps -O -e usr/bin/pushbutton 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
echo "$DEPENDS"

step "tarball"
T=pushbutton-$VERSION-linux-$ARCH
mkdir -p "$WORK/$T"
cp "$WORK/shlibs/usr/bin/pushbutton" README.md CHANGELOG.md "$WORK/$T/"
[ -f LICENSE ] && cp LICENSE "$WORK/$T/"
cp packaging/pushbutton.json Examples/manifest.json packaging/pushbutton.service "$WORK/$T/"
{
  echo "# Debian ($SUITE) packages pushbutton $VERSION needs at run time (from dpkg-shlibdeps):"
  echo "# apt-get install $(echo "$DEPENDS" | sed 's/ ([^)]*)//g; s/,//g')"
  echo "$DEPENDS" | tr ',' '\n' | sed 's/^ *//'
} >"$WORK/$T/DEBIAN-PACKAGES.txt"
tar -C "$WORK" --owner=0 --group=0 --sort=name -czf "$OUT/$T.tar.gz" "$T"

step "Debian package"
P=$WORK/deb
install -d "$P/DEBIAN" "$P/usr/bin" "$P/etc/pushbutton" "$P/lib/systemd/system" "$P/usr/share/doc/pushbutton/examples"
install -m 0755 "$WORK/shlibs/usr/bin/pushbutton" "$P/usr/bin/pushbutton"
install -m 0644 packaging/pushbutton.json "$P/etc/pushbutton/pushbutton.json"
install -m 0644 Examples/manifest.json "$P/etc/pushbutton/manifest.json"
install -m 0644 packaging/pushbutton.service "$P/lib/systemd/system/pushbutton.service"
install -m 0644 Examples/manifest.json "$P/usr/share/doc/pushbutton/examples/manifest.json"
install -m 0644 packaging/debian/copyright.in "$P/usr/share/doc/pushbutton/copyright"
gzip -9n <CHANGELOG.md >"$P/usr/share/doc/pushbutton/changelog.gz"
install -m 0755 packaging/debian/postinst packaging/debian/postrm "$P/DEBIAN/"
printf '/etc/pushbutton/pushbutton.json\n/etc/pushbutton/manifest.json\n' >"$P/DEBIAN/conffiles"
SIZE=$(du -sk --exclude=DEBIAN "$P" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$DEBARCH/" -e "s/@SIZE@/$SIZE/" -e "s/@DEPENDS@/$DEPENDS/" \
  packaging/debian/control.in >"$P/DEBIAN/control"
(cd "$P" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
DEB=pushbutton_${VERSION}_$DEBARCH.deb
fakeroot dpkg-deb -Zxz --build "$P" "$OUT/$DEB" >/dev/null
step "lintian $DEB"
# Errors fail the build; warnings are shown.
lintian --fail-on error --suppress-tags no-manual-page,initial-upload-closes-no-bugs,no-changelog "$OUT/$DEB" || {
  echo "dist: lintian reports errors in $DEB" >&2
  exit 1
}

step "OCI image (mmdebstrap rootfs with the .deb, packed by umoci)"
ROOTFS=$WORK/rootfs.tar
# Only the essential set, the .deb's dependencies and the .deb: no apt, no docs, no man pages, no locales.
DEB_DEPENDS=$(dpkg-deb -f "$OUT/$DEB" Depends | sed 's/ ([^)]*)//g; s/ //g')
cp "$OUT/$DEB" "$WORK/pushbutton.deb"
mmdebstrap --quiet --variant=essential --include="$DEB_DEPENDS,ca-certificates" \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook="copy-in $WORK/pushbutton.deb /tmp" \
  --customize-hook='chroot "$1" dpkg -i /tmp/pushbutton.deb' \
  --customize-hook='rm -f "$1"/tmp/pushbutton.deb "$1"/var/cache/ldconfig/aux-cache "$1"/var/log/*.log' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
  "$SUITE" "$ROOTFS" "${MIRRORS[@]}"
# A numeric user, so that Kubernetes' runAsNonRoot can check it.
USER_IDS=$(tar -xOf "$ROOTFS" ./etc/passwd | awk -F: '$1 == "pushbutton" { print $3 ":" $4 }')
[ -n "$USER_IDS" ] || { echo "dist: the image has no user pushbutton" >&2; exit 1; }
LAYOUT=$WORK/oci
umoci init --layout "$LAYOUT"
umoci new --image "$LAYOUT:$VERSION"
umoci raw add-layer --image "$LAYOUT:$VERSION" "$ROOTFS"
umoci config --image "$LAYOUT:$VERSION" --author "Pushbutton" \
  --config.user "$USER_IDS" --config.workingdir /var/lib/pushbutton \
  --config.entrypoint pushbutton --config.cmd serve \
  --config.exposedports 8443/tcp --config.volume /var/lib/pushbutton \
  --config.env PUSHBUTTON_LISTEN=0.0.0.0:8443 --config.env PUSHBUTTON_STORE=sqlite:/var/lib/pushbutton/gateway.db \
  --config.label org.opencontainers.image.title=pushbutton \
  --config.label org.opencontainers.image.version="$VERSION" \
  --manifest.annotation org.opencontainers.image.ref.name="pushbutton:$VERSION"
umoci gc --layout "$LAYOUT"
# An OCI archive is the layout in a tar; the index names the image pushbutton:VERSION for podman/docker load.
python3 - "$LAYOUT/index.json" "$VERSION" <<'PY'
import json, sys
path, version = sys.argv[1], sys.argv[2]
index = json.load(open(path))
for manifest in index["manifests"]:
    annotations = manifest.setdefault("annotations", {})
    annotations["org.opencontainers.image.ref.name"] = f"docker.io/library/pushbutton:{version}"
    annotations["io.containerd.image.name"] = f"docker.io/library/pushbutton:{version}"
json.dump(index, open(path, "w"))
PY
tar -C "$LAYOUT" --owner=0 --group=0 --sort=name -cf "$OUT/pushbutton-$VERSION-oci.tar" .

step "artefacts"
ls -l "$OUT"
