#!/bin/sh
# The application class-data archive (AppCDS, Java 17) of a Linux application image, made for where the image lies:
# lib/app/NAME.jsa, dumped from one run of dev.fabricscope.cli.ArchiveTraining through the image's own launcher (its
# java options and exactly its class path), and lib/app/NAME.jsa.classpath, the class path it holds. Java 17 maps an
# archive only for the class path it was dumped with, so launcher.sh uses it only where that file names its own class
# path; a moved image runs without it (as before: slower, nothing printed). The build runs this for the image it
# makes; the .deb and .rpm run it again after installing (/opt/NAME), and remove the archive with the package.
#   sh cds-archive.sh IMAGE_DIR NAME
set -u
image=$(cd "$1" && pwd -P) || exit 1
name=$2
jsa=$image/lib/app/$name.jsa
rm -f "$jsa" "$jsa.classpath"
# the class path is the training run's line that says so (the JVM's own warnings go to standard output too)
cp=$(FABRICSCOPE_ARCHIVE_DUMP=1 "$image/bin/$name" 2>/dev/null | sed -n 's/^fabricscope-archive-classpath=//p')
if [ -s "$jsa" ] && [ -n "$cp" ]; then
  printf '%s\n' "$cp" > "$jsa.classpath"
  echo "$name: class-data archive $(du -k "$jsa" | cut -f1) KiB for $cp"
else
  rm -f "$jsa"
  echo "$name: no class-data archive (the training run failed); the launcher starts without one"
fi
exit 0
