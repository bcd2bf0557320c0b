#!/bin/sh
# After `npm install`/`npm ci`: make sure Node >= 22.12 is at hand (scripts/node.sh installs Node 24
# into .tools when the machine's Node is older). npm skips optional packages whose `engines` do not
# match the Node running npm (Hardhat's native EDR binding needs Node >= 22), so when npm itself ran
# on an older Node, npm is run once more on the newer Node to add exactly those packages.
set -e
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
new_node=$(sh "$root/scripts/node.sh" -p 'process.execPath')
if [ "${NADI_POSTINSTALL_DONE:-}" = "1" ]; then exit 0; fi
if node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; then
  exit 0
fi
if [ -z "${npm_execpath:-}" ]; then exit 0; fi
echo "postinstall: npm ran on Node $(node --version); adding packages that need Node >= 22 with $("$new_node" --version)" >&2
cd "$root"
NADI_POSTINSTALL_DONE=1 "$new_node" "$npm_execpath" install --ignore-scripts --no-audit --no-fund --loglevel=error
