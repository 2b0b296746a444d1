// Child process for the per-call breakdown (bench/instructions.js counts it under callgrind;
// bench/run.js times its variants with `bench/inproc.js breakdown`, which calls stub()):
// the typemcp server of a generated project, with one of typemcp's steps of a tools/call
// replaced by what the floor does in its place, so that the difference between two variants'
// counts is what that step costs. Nothing of the server is changed but the step stubbed: the
// same registry, instance, SDK request path and transport.
//
//   node bench/breakdown.js <project> <variant> <revision> <calls>
//
// Variants (each includes the stubs of the ones before it):
//   full       typemcp as it is
//   no-args    the arguments' check skipped (RegisteredFunction.checkArguments finds nothing)
//   no-result  the result put in its answer as the floor does: no check, no wire copy
//              (structuredContent is the tool's own value, content built as typemcp builds it)
//   bare       RegisteredTool.call replaced by the floor's handler body: the function called
//              with its arguments, the result made as the floor makes it. What remains over
//              the floor is the instance's handler (runtime/instance.ts) and the SDK's work on
//              the params schema it is given.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { modulePath, rawConnect, checkResponse } = require("./servers");

const VARIANTS = ["full", "no-args", "no-result", "bare"];

/** The floor's result (bench/generate.js's RESULT_JS), for the `bare` variant. */
function floorContent(value) {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(floorContent);
  if (typeof value === "string") return [{ type: "text", text: value }];
  if (typeof value !== "object") return [{ type: "text", text: JSON.stringify(value) }];
  return [{ type: "text", text: JSON.stringify(value, null, 2) }];
}

function stub(variant) {
  const level = VARIANTS.indexOf(variant);
  if (level < 0) throw new Error(`bench: no such breakdown variant ${variant} (${VARIANTS})`);
  const { RegisteredFunction } = require(path.join(__dirname, "..", "dist", "runtime", "call", "function.js"));
  const { RegisteredTool } = require(path.join(__dirname, "..", "dist", "runtime", "tool.js"));
  const { toContent } = require(path.join(__dirname, "..", "dist", "runtime", "content.js"));
  // A step renamed or moved in the runtime would leave its stub on a method nothing calls: the
  // variant would time typemcp whole under another name.
  for (const [owner, name] of [
    [RegisteredFunction, "checkArguments"],
    [RegisteredTool, "answer"],
    [RegisteredTool, "call"],
  ])
    if (typeof owner.prototype[name] !== "function")
      throw new Error(
        `bench: ${owner.name}.prototype.${name} is gone from dist/runtime: bench/breakdown.js's stubs need it`,
      );
  if (level >= 1) RegisteredFunction.prototype.checkArguments = () => undefined;
  if (level >= 2)
    RegisteredTool.prototype.answer = function (value) {
      const wire = this.wrapped ? { result: value } : value;
      return { content: toContent(value), structuredContent: wire };
    };
  if (level >= 3)
    RegisteredTool.prototype.call = function (args) {
      const value = this.fn(...this.parameters.params.map((name) => args[name]));
      return { content: floorContent(value), structuredContent: this.wrapped ? { result: value } : value };
    };
}

async function main() {
  const [projectDir, variant, revision, count] = process.argv.slice(2);
  stub(variant);
  const calls = JSON.parse(fs.readFileSync(path.join(projectDir, "calls.json"), "utf8"));
  const rpc = await rawConnect(require(modulePath(projectDir, "typemcp")).createServer(), revision);
  for (let i = 0; i < Number(count); i++) {
    const response = await rpc("tools/call", calls[i % calls.length]);
    if (i < calls.length) checkResponse(response, `typemcp (${variant}) ${calls[i].name}`);
  }
  process.stdout.write(JSON.stringify({ variant, calls: Number(count) }) + "\n");
  process.exit(0);
}

module.exports = { VARIANTS, stub };

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
