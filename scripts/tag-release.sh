#!/usr/bin/env bash
# Tags a release: `v` + the version in Cargo.toml, annotated, on HEAD. Refuses when the tree has
# uncommitted changes, when the tag exists, or when the README's pre-commit snippet names another
# version (the snippet must work from the tag it advertises).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
if [ -z "$version" ]; then
    echo "tag-release: no version in Cargo.toml" >&2
    exit 2
fi
tag="v$version"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "tag-release: commit or stash the changes first" >&2
    exit 2
fi
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
    echo "tag-release: $tag exists already" >&2
    exit 2
fi
if ! grep -q "rev: $tag " README.md; then
    echo "tag-release: README.md's pre-commit snippet does not name $tag" >&2
    exit 2
fi
git tag -a "$tag" -m "cudalint $version"
echo "tagged $tag on $(git rev-parse --short HEAD); push it with: git push origin $tag"
