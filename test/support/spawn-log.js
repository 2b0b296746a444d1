// Preloaded into a command (NODE_OPTIONS=--require): appends every process it starts through
// child_process.spawn to the file TYPEMCP_SPAWN_LOG names, one JSON line each ([command, args]).
// Patched before any module imports spawn; syncBuiltinESMExports gives the patch to ES modules
// (TypeScript 7's API imports spawn from node:child_process).
"use strict";
const childProcess = require("node:child_process");
const fs = require("node:fs");
const { syncBuiltinESMExports } = require("node:module");

const log = process.env.TYPEMCP_SPAWN_LOG;
if (log) {
  const spawn = childProcess.spawn;
  childProcess.spawn = function (command, args, ...rest) {
    fs.appendFileSync(log, `${JSON.stringify([command, Array.isArray(args) ? args : []])}\n`);
    return spawn.call(this, command, args, ...rest);
  };
  syncBuiltinESMExports();
}
