#!/bin/sh
# Builds one Linux package from the application image: checks the packaging tools, then runs jpackage.
#   sh installers/linux/package.sh deb|rpm JPACKAGE [jpackage options...]
# deb: needs dpkg-deb and fakeroot; a missing one is installed with apt-get (as root, or through password-less sudo),
#      otherwise the build stops and names the package to install.
# rpm: needs rpmbuild; without it the .rpm is skipped with a note and the build goes on.
set -eu
type="$1"; jpackage="$2"; shift 2

need() {    # need COMMAND DEBIAN-PACKAGE
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ]; then sudo=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"
  else sudo="none"; fi
  if [ "$sudo" = none ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "installer: '$1' is needed for the .$type: install the package '$2' (e.g. sudo apt-get install $2)" >&2
    exit 1
  fi
  echo "installer: '$1' is missing: installing the package '$2'"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null 2>&1 \
    || { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; }
}

case "$type" in
  deb) need dpkg-deb dpkg; need fakeroot fakeroot ;;
  rpm)
    if ! command -v rpmbuild >/dev/null 2>&1; then
      echo "installer: rpmbuild not found: .rpm skipped (install the 'rpm' package, or build on Fedora/RHEL, to make one)"
      exit 0
    fi ;;
  *) echo "installer: unknown package type '$type'" >&2; exit 2 ;;
esac
"$jpackage" --type "$type" "$@"
