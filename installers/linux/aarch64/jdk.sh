#!/bin/sh
# Fetches one Debian OpenJDK 17 build for both architectures (issue 27): the arm64 JDK for its jmods, and the amd64
# JDK of the very same version for its jlink (jlink links only jmods of its own version). Both come from Debian's
# archive (`apt-get download`, after `dpkg --add-architecture arm64`), unpacked with `dpkg -x`, kept in a cache.
#   sh installers/linux/aarch64/jdk.sh CACHE_DIR      prints two lines: the amd64 JDK home, the arm64 JDK home
set -eu
cache="$1"
pkg=openjdk-17-jdk-headless
root_do() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"
  else echo "installer-aarch64: needs root (or password-less sudo) to run: $*" >&2; exit 1; fi
}
command -v apt-get >/dev/null 2>&1 || { echo "installer-aarch64: needs Debian's apt-get to fetch the arm64 JDK" >&2; exit 1; }
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  root_do dpkg --add-architecture arm64
  root_do apt-get update -qq
fi
# the newest version published for both architectures
version=$(apt-cache madison "$pkg:arm64" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | while read -r v; do
  apt-cache madison "$pkg:amd64" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qx "$v" && { echo "$v"; break; }; done)
if [ -z "$version" ]; then
  root_do apt-get update -qq
  version=$(apt-cache madison "$pkg:arm64" | awk -F'|' '{gsub(/ /,"",$2); print $2; exit}')
fi
[ -n "$version" ] || { echo "installer-aarch64: no $pkg for arm64 in the apt sources" >&2; exit 1; }
dir="$cache/$(printf '%s' "$version" | tr '~+:' '___')"
if [ ! -x "$dir/amd64/usr/lib/jvm/java-17-openjdk-amd64/bin/jlink" ] || [ ! -f "$dir/arm64/usr/lib/jvm/java-17-openjdk-arm64/jmods/java.base.jmod" ]; then
  rm -rf "$dir"; mkdir -p "$dir/debs"
  (cd "$dir/debs" && apt-get download -q "$pkg:amd64=$version" "openjdk-17-jre-headless:amd64=$version" \
      "$pkg:arm64=$version" "openjdk-17-jre-headless:arm64=$version" >/dev/null 2>&1) \
    || { echo "installer-aarch64: apt-get download of $pkg $version failed" >&2; exit 1; }
  for d in "$dir"/debs/*_amd64.deb; do dpkg -x "$d" "$dir/amd64"; done
  for d in "$dir"/debs/*_arm64.deb; do dpkg -x "$d" "$dir/arm64"; done
  rm -rf "$dir/debs"
fi
echo "$dir/amd64/usr/lib/jvm/java-17-openjdk-amd64"
echo "$dir/arm64/usr/lib/jvm/java-17-openjdk-arm64"
