// Compiles every registration of a project on TypeScript 7, as `typemcp build` does, and prints
// them as JSON: [{ fn, contract, messages }]. Run by test/support/type-batch.ts with Node (jest's
// module loader cannot load TypeScript 7's ES modules).
//   node test/support/ts7-compile.js <tsconfig.json> <TypeScript 7 package folder>
"use strict";
const path = require("node:path");
const ROOT = path.resolve(__dirname, "..", "..");
const { Ts7Session } = require(path.join(ROOT, "dist", "transformer", "ts7", "session.js"));
const { flattenMessage } = require(path.join(ROOT, "dist", "transformer", "diagnostics.js"));

async function main() {
  const [config, directory] = process.argv.slice(2);
  const session = new Ts7Session(path.resolve(config), path.resolve(directory));
  try {
    const compiled = session.compileProject().map(({ call, contract, diagnostics }) => ({
      fn: call.arguments[0].getText(),
      contract,
      messages: diagnostics.map((d) => flattenMessage(d.messageText)),
    }));
    process.stdout.write(JSON.stringify(compiled));
  } finally {
    await session.close();
  }
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exitCode = 1;
});
