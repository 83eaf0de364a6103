#!/bin/sh
# The arm64 .deb and aarch64 .rpm of the images in INSTALLER_DIR/image-aarch64 (issue 27). jpackage writes packages
# only for the architecture it runs on, so they are made here with the tools jpackage itself calls: dpkg-deb with the
# .deb's maintainer scripts (installers/linux/{resources,cli-resources}/postinst, prerm), and rpmbuild --target
# aarch64 over the same spec template jpackage fills in (its placeholders filled in below). Both install under
# /opt/NAME exactly as the x86-64 packages do.
#   sh installers/linux/aarch64/packages.sh INSTALLER_DIR VERSION     (from the repository root)
set -eu
dir=$(cd "$1" && pwd); version="$2"; release=1
images="$dir/image-aarch64"; work="$dir/aarch64-packages"
vendor=Fabricscope
rm -rf "$work"; mkdir -p "$work"

# Debian package names of the shared libraries the image's aarch64 code needs and does not carry (readelf reads any
# architecture; the names are those of the same libraries on this machine, as jpackage resolves them on x86-64)
deb_depends() {
  find "$1" -type f -name '*.so*' -o -type f -path '*/bin/*' | while read -r f; do
    readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
  done | sort -u | while read -r lib; do
    find "$1" -name "$lib" | grep -q . && continue
    dpkg -S "*/$lib" 2>/dev/null | sed -n '1s/:.*//p'
  done | sort -u | paste -sd, - | sed 's/,/, /g'
}

deb() {   # deb NAME RESOURCES_DIR EXTRA_DEPENDS DESCRIPTION
  name=$1; root="$work/deb-$name"
  mkdir -p "$root/opt" "$root/DEBIAN"
  cp -a "$images/$name" "$root/opt/$name"
  depends=$(deb_depends "$root/opt/$name")
  depends=$(printf '%s\n' "$depends" "$3" | tr ',' '\n' | sed 's/^ *//; /^$/d' | awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g')
  cat > "$root/DEBIAN/control" <<CONTROL
Package: $name
Version: $version-$release
Section: utils
Maintainer: maintainers@fabricscope.dev
Priority: optional
Architecture: arm64
Provides: $name
Depends: $depends
Installed-Size: $(du -sk "$root/opt" | cut -f1)
Description: $4
CONTROL
  install -m 755 "$2/postinst" "$2/prerm" "$root/DEBIAN/"
  # gzip: xz costs minutes on this machine for no gain a field engineer notices
  fakeroot dpkg-deb -Zgzip --build "$root" "$dir/${name}_$version-${release}_arm64.deb" >/dev/null
  echo "installer-aarch64: ${name}_$version-${release}_arm64.deb $(du -m "$dir/${name}_$version-${release}_arm64.deb" | cut -f1) MB (Depends: $depends)"
}

rpm() {   # rpm NAME RESOURCES_DIR REQUIRES SUMMARY GROUP
  name=$1; top="$work/rpm-$name"
  mkdir -p "$top/SOURCES/opt" "$top/SPECS"
  cp -a "$images/$name" "$top/SOURCES/opt/$name"
  sed -e "s|APPLICATION_SUMMARY|$4|g" -e "s|APPLICATION_DESCRIPTION|$4|g" -e "s|APPLICATION_PACKAGE|$name|g" \
      -e "s|APPLICATION_VERSION|$version|g" -e "s|APPLICATION_RELEASE|$release|g" -e "s|APPLICATION_LICENSE_TYPE|Unknown|g" \
      -e "s|APPLICATION_VENDOR|$vendor|g" -e "s|APPLICATION_URL||g" -e "s|APPLICATION_PREFIX|/opt|g" \
      -e "s|APPLICATION_GROUP|$5|g" -e "s|PACKAGE_DEFAULT_DEPENDENCIES|$3|g" -e "s|PACKAGE_CUSTOM_DEPENDENCIES||g" \
      -e "s|APPLICATION_LICENSE_FILE||g" -e "s|APPLICATION_DIRECTORY|/opt/$name|g" \
      "$2/$name.spec" > "$top/SPECS/$name.spec"
  rpmbuild -bb --quiet --target aarch64 --define "_topdir $top" --define "_sourcedir $top/SOURCES" \
      --define "_rpmdir $top/RPMS" "$top/SPECS/$name.spec" >/dev/null
  cp "$top"/RPMS/aarch64/"$name"-*.aarch64.rpm "$dir/"
  echo "installer-aarch64: $(cd "$top/RPMS/aarch64" && ls "$name"-*.rpm) $(du -m "$top"/RPMS/aarch64/"$name"-*.rpm | cut -f1) MB"
}

command -v fakeroot >/dev/null 2>&1 || { echo "installer-aarch64: fakeroot is needed for the .deb (apt-get install fakeroot)" >&2; exit 1; }
# JavaFX's own needs on Linux (GTK 3, libXtst, libXxf86vm, libGL: openjfx.io "Getting started", Linux), loaded from the
# module's resources at run time, so no readelf sees them
deb fabricscope-cli installers/linux/cli-resources "" "Command line of Fabricscope, the NVIDIA GPU fabric inspector, for headless nodes (no desktop app)."
deb fabricscope installers/linux/resources "libgtk-3-0, libxtst6, libxxf86vm1, libgl1" "Inspector for NVIDIA GPU fabrics: probe, advise, check, report."
if command -v rpmbuild >/dev/null 2>&1; then
  rpm fabricscope-cli installers/linux/cli-resources "" "Command line of Fabricscope, the NVIDIA GPU fabric inspector, for headless nodes (no desktop app)." Applications/System
  rpm fabricscope installers/linux/resources "gtk3 libXtst libXxf86vm" "Inspector for NVIDIA GPU fabrics: probe, advise, check, report." Applications/System
else
  echo "installer-aarch64: rpmbuild not found: the aarch64 .rpm files skipped (install the 'rpm' package)"
fi
rm -rf "$work"
