#!/usr/bin/env bash
# Lays out the source trees `replay_commands.py` runs the recorded calls of five more projects over, as their
# trajectories name the files (astropy/…, pydicom/…, src/marshmallow/…, src/sqlfluff/…, astroid/… and tests/…),
# from Debian bookworm's packages: the binary packages' Python sources (no build), and astroid's source package.
# usage: scripts/eval-data/python-trees.sh DIR   (then DIR/astropy, DIR/pydicom, DIR/marshmallow, DIR/sqlfluff, DIR/astroid)
set -euo pipefail
out="${1:?usage: python-trees.sh DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download python3-astropy=5.2.1-2+deb12u1 python3-pydicom=2.3.1-1 python3-marshmallow=3.18.0-1 sqlfluff=1.4.5-2 >/dev/null
curl -fsSO http://deb.debian.org/debian/pool/main/a/astroid/astroid_2.14.2.orig.tar.xz
echo "b01cca8ae57273dba8b4dcd8854d66d581ef5056a0646b33d2657104f369a516  astroid_2.14.2.orig.tar.xz" | sha256sum -c --quiet
for deb in *.deb; do dpkg-deb -x "$deb" "extracted"; done
packages=extracted/usr/lib/python3/dist-packages
rm -rf "$out/astropy" "$out/pydicom" "$out/marshmallow" "$out/sqlfluff" "$out/astroid"
mkdir -p "$out/astropy" "$out/pydicom" "$out/marshmallow/src" "$out/sqlfluff/src" "$out/astroid"
cp -r "$packages/astropy" "$out/astropy/"
cp -r "$packages/pydicom" "$out/pydicom/"
cp -r "$packages/marshmallow" "$out/marshmallow/src/"
cp -r "$packages/sqlfluff" "$out/sqlfluff/src/"
tar -xJf astroid_2.14.2.orig.tar.xz -C "$out/astroid" --strip-components=1
echo "python-trees: $out/{astropy,pydicom,marshmallow,sqlfluff,astroid}"
