#!/bin/sh
# Runs Node.js >= 22.12 with the given arguments. When the machine's Node is older, Node 24
# is installed from the npm registry (the `node` package) into the git-ignored .tools folder.
set -e
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
pinned=24.21.0
local_node="$root/.tools/node/node_modules/node/bin/node"

is_new_enough() {
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null
}

if command -v node >/dev/null 2>&1 && is_new_enough node; then
  node_bin=node
elif [ -x "$local_node" ] && is_new_enough "$local_node"; then
  node_bin="$local_node"
else
  echo "node.sh: Node $(node --version 2>/dev/null || echo none) is older than 22.12; installing Node $pinned into .tools/node" >&2
  npm install --prefix "$root/.tools/node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$pinned" >&2
  node_bin="$local_node"
fi
exec "$node_bin" "$@"
