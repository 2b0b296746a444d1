/**
 * The transformer's plugin entry (dist/transformer/index.js, what ts-patch loads) in a fresh
 * process: it runs typemcp's compiler on the TypeScript instance ts-patch hands it only when
 * that instance stands for the same package, and leaves a `typescript` package already loaded
 * (as `tspc` has it) to whoever loaded it. A fresh process, because the entry registers the
 * instance in Node's own module cache, which jest's module registry stands in for in process.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { ROOT } from "./support/build";

/**
 * A fresh process in which a second instance of this TypeScript, compiled apart from require's
 * cache as a persistently patched tsc has it (`version`: standing for another version), builds a
 * tool through the plugin's entry; `preloaded`: the package loaded first, as under tspc.
 */
const script = (version: string, preloaded = false) => `
  const fs = require("node:fs"), Module = require("node:module"), path = require("node:path");
  const file = require.resolve("typescript");
  // As under tspc, which loads the package for its own use and builds with another instance.
  const loaded = ${preloaded} ? require("typescript") : undefined;
  const own = new Module(path.join(path.dirname(file), "own-instance.js"));
  own.filename = own.id; own.paths = Module._nodeModulePaths(path.dirname(file));
  own._compile(fs.readFileSync(file, "utf8"), own.filename);
  // Counts the transformer's calls of the instance, to tell which TypeScript it runs on.
  let calls = 0;
  const isCallExpression = { value: (node) => (calls++, own.exports.isCallExpression(node)) };
  const instance = Object.create(own.exports, ${version ? `{ version: { value: ${JSON.stringify(version)} }, isCallExpression }` : "{ isCallExpression }"});
  const dir = ${JSON.stringify(path.join(ROOT, ".build", "snippets", "entry"))};
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "tool.ts"), 'import { MCPServer } from "typemcp";\\nconst mcp = new MCPServer("t");\\n/** Echoes. */\\nfunction echo(text: string): string { return text; }\\nmcp.tool(echo);\\n');
  const options = { module: own.exports.ModuleKind.Node16, moduleResolution: own.exports.ModuleResolutionKind.Node16, target: own.exports.ScriptTarget.ES2022, strict: true, types: [], skipLibCheck: true };
  const program = own.exports.createProgram([path.join(dir, "tool.ts")], options);
  const plugin = require(${JSON.stringify(path.join(ROOT, "dist", "transformer", "index.js"))}).default;
  let js = "";
  program.emit(undefined, (_, text) => (js = text), undefined, false, { before: [plugin(program, {}, { ts: instance, addDiagnostic: (d) => { throw new Error(d.messageText); } })] });
  console.log(JSON.stringify({ adopted: require("typescript") === instance, ...(${preloaded} ? { kept: require("typescript") === loaded } : {}), ranOnInstance: calls > 0, contract: /JSON\\.parse\\('\\{"v":2,"name":"echo".*"description":"Echoes\\."/.test(js) }));
`;
const run = (version: string, preloaded?: boolean) =>
  JSON.parse(execFileSync(process.execPath, ["-e", script(version, preloaded)], { cwd: ROOT, encoding: "utf8" }));

test("the plugin entry runs the transformer on the TypeScript ts-patch hands it, when it stands for the same package", () => {
  // A second instance of this TypeScript, compiled apart from require's cache as a persistently
  // patched tsc has it; then one of another version, which typemcp must not adopt.
  expect(run("")).toEqual({ adopted: true, ranOnInstance: true, contract: true });
  expect(run("0.0.0")).toEqual({ adopted: false, ranOnInstance: false, contract: true });
});

test("under tspc, which has loaded the package for itself, the transformer runs on the instance that builds, and the loaded package stays", () => {
  // The functions typemcp calls are the build's own, warmed by the build, not a second copy's
  // (docs/performance.md#the-build-ts-patch-then-the-transformer); ts-patch keeps its module.
  expect(run("", true)).toEqual({ adopted: false, kept: true, ranOnInstance: true, contract: true });
  expect(run("0.0.0", true)).toEqual({ adopted: false, kept: true, ranOnInstance: false, contract: true });
});
