// Patchgate needs Node 24 or newer (package.json `engines`). On an older node it would fail far from
// here, and silently: better-sqlite3 built for 24 crashes node 20 with a segmentation fault and no
// message. So each entry imports this first, and an older node ends with one line saying what to run.
const NEEDED = 24;
const major = Number(process.versions.node.split(".")[0]);
if (major < NEEDED) {
  console.error(
    `patchgate needs Node ${NEEDED} or newer, and ${process.execPath} is v${process.versions.node}: ` +
      "in the checkout, `npm start` and `npx patchgate` run the Node 24 that `npm install` linked as node_modules/.bin/node.",
  );
  process.exit(1);
}
