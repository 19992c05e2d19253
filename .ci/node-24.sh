# Sourced by .ci/run, by bin/link-node-24.sh (npm's postinstall) and by a developer's shell
# (`. .ci/node-24.sh && use_node_24`): puts Node 24 LTS first on PATH.
# Where the node on PATH is older (a Debian machine whose system node is 20), Node 24 comes from the
# npm registry as the package `node-<platform>-<arch>@24`, installed once outside the checkout, so
# nothing of it reaches package.json, the lockfile or the image. Everything started afterwards runs
# on it: npm itself and every `#!/usr/bin/env node` tool, since they find node through PATH.

use_node_24() {
  local major home pkg
  major="$(node -p 'process.versions.node.split(".")[0]')"
  if [ "$major" -lt 24 ]; then
    pkg="node-$(node -p 'process.platform + "-" + process.arch')"
    # As root (CI) under /usr/local: readable by the unprivileged users tests run node as, and under
    # /usr, which every sandbox binds already. Otherwise in the user's cache.
    if [ "$(id -u)" = 0 ]; then home="${PATCHGATE_NODE_HOME:-/usr/local/lib/patchgate/node-24}"; else home="${PATCHGATE_NODE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/patchgate/node-24}"; fi
    if [ ! -x "$home/node_modules/$pkg/bin/node" ]; then
      echo "node $(node --version) on PATH is older than 24: installing $pkg@24 from the npm registry into $home"
      mkdir -p "$home"
      npm install --prefix "$home" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$pkg@24" >/dev/null
    fi
    export PATH="$home/node_modules/$pkg/bin:$PATH"
  fi
  echo "node $(node --version) from $(command -v node)"
}
