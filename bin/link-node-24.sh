#!/bin/sh
# package.json's postinstall: npm runs it after every install. Where the node on PATH is older than 24
# (a machine whose system node is 20), it links Node 24 as node_modules/.bin/node. npm puts that
# directory first on PATH for every script and for npx, so `npm start`, `npm test`, `npx patchgate`
# and every tool they start (tsc, jest, eslint, tsx: `#!/usr/bin/env node`) run on Node 24, while the
# machine's node, package.json and the lockfile stay as they are. Node 24 comes from the npm registry
# once, outside the checkout (.ci/node-24.sh says where); the image and CI already run 24 and skip this.
set -eu
if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 24 ]; then exit 0; fi
system="$(node --version)"
. ./.ci/node-24.sh
use_node_24
mkdir -p node_modules/.bin
ln -sfn "$(command -v node)" node_modules/.bin/node
echo "linked node_modules/.bin/node: npm scripts and npx here run it; the node on PATH stays $system"
