/**
 * The transformer's plugin entry (dist/transformer/index.js, what ts-patch loads) in a fresh
 * process: it shares the TypeScript instance ts-patch hands it only when that instance stands
 * for the same package. A fresh process, because the entry registers the instance in Node's
 * own module cache, which jest's module registry stands in for in process.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { ROOT } from "./support/build";

test("the plugin entry runs the transformer on the TypeScript ts-patch hands it, when it stands for the same package", () => {
  // In a fresh process: a second instance of this TypeScript, compiled apart from require's
  // cache as a persistently patched tsc has it, builds a tool through the plugin's entry. Then
  // the same with an instance of another version, which typemcp must not adopt.
  const script = (version: string) => `
    const fs = require("node:fs"), Module = require("node:module"), path = require("node:path");
    const file = require.resolve("typescript");
    const own = new Module(path.join(path.dirname(file), "own-instance.js"));
    own.filename = own.id; own.paths = Module._nodeModulePaths(path.dirname(file));
    own._compile(fs.readFileSync(file, "utf8"), own.filename);
    const instance = ${version ? `Object.create(own.exports, { version: { value: ${JSON.stringify(version)} } })` : "own.exports"};
    const dir = ${JSON.stringify(path.join(ROOT, ".build", "snippets", "entry"))};
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "tool.ts"), 'import { MCPServer } from "typemcp";\\nconst mcp = new MCPServer("t");\\n/** Echoes. */\\nfunction echo(text: string): string { return text; }\\nmcp.tool(echo);\\n');
    const options = { module: own.exports.ModuleKind.Node16, moduleResolution: own.exports.ModuleResolutionKind.Node16, target: own.exports.ScriptTarget.ES2022, strict: true, types: [], skipLibCheck: true };
    const program = own.exports.createProgram([path.join(dir, "tool.ts")], options);
    const plugin = require(${JSON.stringify(path.join(ROOT, "dist", "transformer", "index.js"))}).default;
    let js = "";
    program.emit(undefined, (_, text) => (js = text), undefined, false, { before: [plugin(program, {}, { ts: instance, addDiagnostic: (d) => { throw new Error(d.messageText); } })] });
    console.log(JSON.stringify({ adopted: require("typescript") === instance, contract: /JSON\\.parse\\('\\{"v":2,"name":"echo".*"description":"Echoes\\."/.test(js) }));
  `;
  const run = (version: string) =>
    JSON.parse(execFileSync(process.execPath, ["-e", script(version)], { cwd: ROOT, encoding: "utf8" }));
  expect(run("")).toEqual({ adopted: true, contract: true });
  expect(run("0.0.0")).toEqual({ adopted: false, contract: true });
});
