#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, only those that are missing.
# Each line of the list is "CHECK PACKAGE": CHECK is pkg-config:NAME (a C library's -dev package),
# cmd:NAME (a program on PATH), file:PATH (a file a Debian package installs) or py:MODULE (a module of the python3 on PATH, installed from PyPI).
# Nothing is installed when every check passes.
set -euo pipefail

needs=(
  "cmd:python3 python3"
  "cmd:pkg-config pkg-config"
  "pkg-config:sqlite3 libsqlite3-dev"
  "cmd:sqlite3 sqlite3"
  "pkg-config:libcrypto libssl-dev"
  "py:jwt PyJWT"
  "py:cryptography cryptography"
  "py:h2 h2"
  "cmd:nghttpd nghttp2-server"
  "cmd:h2load nghttp2-client"
  "pkg-config:libnghttp2 libnghttp2-dev"
  "file:/usr/lib/python3/dist-packages/aioapns python3-aioapns"
  "cmd:chromium-headless-shell chromium-headless-shell"
  "cmd:chromium chromium"
  "cmd:chromedriver chromium-driver"
  "file:/usr/lib/python3/dist-packages/selenium/__init__.py python3-selenium"
  "cmd:fc-list fontconfig"
  "file:/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf fonts-noto-core"
  "file:/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc fonts-noto-cjk"
  "pkg-config:libh2o-evloop libh2o-evloop-dev"
  "pkg-config:libpq libpq-dev"
  "file:/usr/lib/postgresql/15/bin/initdb postgresql"
  "cmd:psql postgresql-client"
  "file:/usr/sbin/pgbouncer pgbouncer"
  "cmd:curl curl"
  "pkg-config:libcurl libcurl4-openssl-dev"
  "cmd:wrk wrk"
  "py:yaml PyYAML"
  "py:kubernetes_validate kubernetes-validate"
  "cmd:dpkg-shlibdeps dpkg-dev"
  "cmd:fakeroot fakeroot"
  "cmd:lintian lintian"
  "cmd:mmdebstrap mmdebstrap"
  "cmd:umoci umoci"
  "cmd:podman podman"
  "cmd:runc runc"
  "cmd:gdb gdb"
)

missing=()
python_missing=()
for entry in "${needs[@]}"; do
  check=${entry%% *}
  package=${entry#* }
  case "$check" in
    pkg-config:*) pkg-config --exists "${check#pkg-config:}" 2>/dev/null || missing+=("$package") ;;
    file:*) [ -e "${check#file:}" ] || missing+=("$package") ;;
    cmd:*) command -v "${check#cmd:}" >/dev/null 2>&1 || missing+=("$package") ;;
    py:*) python3 -c "import ${check#py:}" >/dev/null 2>&1 || python_missing+=("$package") ;;
  esac
done

if [ ${#python_missing[@]} -gt 0 ]; then
  echo "deps: installing from PyPI: ${python_missing[*]}"
  python3 -m pip install --quiet --disable-pip-version-check "${python_missing[@]}"
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: everything needed is installed"
  exit 0
fi
echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
