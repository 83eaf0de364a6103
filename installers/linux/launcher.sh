#!/bin/sh
# bin/fabricscope of the Linux application image, and bin/fabricscope-cli of the command-line-only image (the build
# copies this file over jpackage's native launcher; it reads lib/app/<its own name>.cfg).
# jpackage's Linux launcher asks `rpm -qf` and `dpkg -S` which package owns it on every start, which costs
# 0.3-0.5 s before Java even starts; this script starts the bundled runtime directly, with the class path, main
# class and java options that jpackage wrote to lib/app/fabricscope.cfg (from installers/app.args), so those stay
# in one place. Works through symlinks (/usr/bin/fabricscope).
self=$(readlink -f "$0" 2>/dev/null) || self=$0
root=${self%/bin/*}
app=$root/lib/app
name=${self##*/}

# $APPDIR, $BINDIR and $ROOTDIR at the start of a value, as jpackage's launcher expands them
expand() {
  case $1 in
    '$APPDIR'*) printf '%s' "$app${1#'$APPDIR'}" ;;
    '$BINDIR'*) printf '%s' "$root/bin${1#'$BINDIR'}" ;;
    '$ROOTDIR'*) printf '%s' "$root${1#'$ROOTDIR'}" ;;
    *) printf '%s' "$1" ;;
  esac
}

n=$#
cp=
main=
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    app.classpath=*) cp=${cp:+$cp:}$(expand "${line#app.classpath=}") ;;
    app.mainclass=*) main=${line#app.mainclass=} ;;
    java-options=*) set -- "$@" "$(expand "${line#java-options=}")" ;;
  esac
done < "$app/$name.cfg" || { echo "$name: cannot read $app/$name.cfg" >&2; exit 1; }
# the application class-data archive (lib/cds-archive.sh) when it was made for this very class path (Java 17 maps
# it for no other); -Xlog:cds*=off: a stale archive is skipped without a warning on every start
jsa=$app/$name.jsa
if [ -n "${FABRICSCOPE_ARCHIVE_DUMP:-}" ]; then
  set -- "$@" "-XX:ArchiveClassesAtExit=$jsa"
  main=dev.fabricscope.cli.ArchiveTraining
elif [ -r "$jsa.classpath" ] && read -r dumped < "$jsa.classpath" && [ "$dumped" = "$cp" ]; then
  set -- "$@" "-XX:SharedArchiveFile=$jsa" "-Xlog:cds*=off"
fi
# JNA's native part as the image carries it (jna-dispatch.sh), so JNA does not write it out to a file on every start
if [ -r "$app/jna/libjnidispatch.so" ]; then
  set -- "$@" "-Djna.boot.library.path=$app/jna"
fi
set -- "$@" "-Djpackage.app-path=$self" -cp "$cp" "$main"
# the user's arguments (the first $n) go behind the java options and the main class
while [ "$n" -gt 0 ]; do
  set -- "$@" "$1"
  shift
  n=$((n - 1))
done
exec "$root/lib/runtime/bin/java" "$@"
