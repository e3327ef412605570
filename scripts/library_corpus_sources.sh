#!/usr/bin/env bash
# Puts the public libraries of the corpus (scripts/library_corpus.sh) into
# the ignored folder upstream/libraries/<name>/, each at the commit and with
# the paths scripts/library_corpus_manifest.tsv names (name, repository,
# commit, paths), less what their tests never load (native sources,
# documentation, images, notebooks, build files), and writes
# upstream/libraries/MANIFEST.tsv.  The repositories come from git
# directories, one per repository, under $CORPUS_MIRRORS (default
# /work/.mirror/<owner>+<name>/repo, where the fetch tool puts a
# snapshot of github:<owner>/<name>); a missing one is reported and skipped.
#   scripts/library_corpus_sources.sh [NAME...]     (all by default)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
MANIFEST=scripts/library_corpus_manifest.tsv
DEST=upstream/libraries
MIRRORS=${CORPUS_MIRRORS:-/work/.mirror}
mkdir -p "$DEST"
status=0
while IFS=$'\t' read -r name repo commit paths; do
  [ -z "$name" ] && continue
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  gitdir="$MIRRORS/${repo/\//+}/repo"
  if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "$name: no commit $commit of $repo under $gitdir (fetch github:$repo first)" >&2
    status=1
    continue
  fi
  rm -rf "${DEST:?}/$name"
  mkdir -p "$DEST/$name"
  # shellcheck disable=SC2086  # paths: a word list
  git --git-dir="$gitdir" archive "$commit" $paths | tar -x -C "$DEST/$name"
  find "$DEST/$name" -type f \( -iname '*.cpp' -o -iname '*.cc' -o -iname '*.c' -o -iname '*.h' \
    -o -iname '*.hpp' -o -iname '*.cu' -o -iname '*.cuh' -o -iname '*.mm' -o -iname '*.metal' -o -iname '*.md' \
    -o -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.gif' -o -iname '*.svg' -o -iname '*.pdf' \
    -o -iname '*.ipynb' -o -iname '*.cmake' -o -iname 'CMakeLists.txt' -o -iname 'Makefile' -o -iname '*.plist' \
    -o -iname '*.sh' -o -iname '.gitignore' \) -delete
  find "$DEST/$name" -type d -empty -delete
  echo "$name: $repo@${commit:0:12}, $(du -sh "$DEST/$name" | cut -f1)"
done < "$MANIFEST"
cp "$MANIFEST" "$DEST/MANIFEST.tsv"
exit $status
