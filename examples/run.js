// npm run example: builds examples/weather/server.ts with tspc (the typemcp plugin runs inside
// it), starts the built server over stdio, and shows through the official SDK client what a
// client sees: each tool with its schemas summarized (one tool's in full), then a few calls
// on both channels.
const { spawnSync } = require("node:child_process");
const path = require("node:path");
const { Client } = require("@modelcontextprotocol/client");
const { StdioClientTransport } = require("@modelcontextprotocol/client/stdio");

const root = path.resolve(__dirname, "..");
const project = path.join(__dirname, "weather");
const relative = (file) => path.relative(root, file);
const SOURCE = path.join(project, "server.ts");
const BUILT = path.join(project, "dist", "server.js");
/** The tool whose schemas are shown in full, as tools/list sends them. */
const SHOWN_IN_FULL = "get_weather";
const CALLS = [
  ["get_temperature", { city: "London" }],
  ["get_weather", { city: "London" }],
  ["get_forecast", { city: "London", days: 2 }],
  ["get_temperatures", { cities: ["London", "Reykjavik"] }],
  ["weather_report", { city: "London" }],
  ["get_forecast", { city: "London", days: "two" }],
];

function heading(title) {
  console.log(`\n── ${title}`);
}

function indent(text, by = "   ") {
  return text.replace(/^/gm, by);
}

/** A JSON Schema written as the TypeScript-like type it describes: `{ city: string; days?: integer }`. */
function typeOf(schema, defs = {}) {
  if (schema.$ref) return schema.$ref.replace("#/$defs/", "");
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(s, defs)).join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (schema.type === "array")
    return schema.prefixItems
      ? `[${schema.prefixItems.map((s) => typeOf(s, defs)).join(", ")}]`
      : `${typeOf(schema.items ?? {}, defs)}[]`;
  if (schema.type === "object" && schema.properties) {
    const required = new Set(schema.required ?? []);
    const properties = Object.entries(schema.properties).map(
      ([name, s]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(s, defs)}`,
    );
    return `{ ${properties.join("; ")} }`;
  }
  if (schema.type === "object" && schema.additionalProperties)
    return `{ [key: string]: ${typeOf(schema.additionalProperties, defs)} }`;
  return schema.type ?? "any";
}

/** One tool in a few lines: its signature as the schemas say it, its description, the named types it uses. */
function summarize(tool) {
  const input = tool.inputSchema;
  const required = new Set(input.required ?? []);
  const args = Object.entries(input.properties ?? {}).map(
    ([name, s]) => `${name}${required.has(name) ? "" : "?"}: ${typeOf(s)}`,
  );
  const output = tool.outputSchema;
  let result = "text only (no output schema)";
  if (output) {
    // Titles typemcp makes up (`<tool>Output`, `<tool>DictOutput`) name no type of the source.
    const wrapped = output.title === `${tool.name}Output`;
    const named = output.title && output.title !== `${tool.name}DictOutput` ? `${output.title} ` : "";
    result = wrapped ? `${typeOf(output.properties.result)}, sent as { "result": … }` : `${named}${typeOf(output)}`;
  }
  const lines = [`${tool.name}(${args.join(", ")}) → ${result}`];
  if (tool.description) lines.push(`   ${tool.description}`);
  const defs = { ...input.$defs, ...output?.$defs };
  for (const [name, def] of Object.entries(defs)) lines.push(`   ${name} = ${typeOf(def)}`);
  return lines.join("\n");
}

/** JSON indented as JSON.stringify(value, null, 2) does, but with what holds no object or array on one line. */
function compactJson(value, depth = 0) {
  const flat = (v) => Object.values(v).every((item) => item === null || typeof item !== "object");
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (flat(value) && Array.isArray(value)) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
  if (flat(value)) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${JSON.stringify(item)}`);
    return entries.length ? `{ ${entries.join(", ")} }` : "{}";
  }
  const pad = "  ".repeat(depth + 1);
  const entries = Array.isArray(value)
    ? value.map((item) => pad + compactJson(item, depth + 1))
    : Object.entries(value).map(([key, item]) => `${pad}${JSON.stringify(key)}: ${compactJson(item, depth + 1)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${entries.join(",\n")}\n${"  ".repeat(depth)}${close}`;
}

function showResult(result) {
  if (result.isError) console.log("   isError: true");
  if (result.structuredContent !== undefined)
    console.log(`   structuredContent (for the application): ${JSON.stringify(result.structuredContent)}`);
  const texts = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type} block]`));
  console.log(`   content (for the model): ${texts.length} block${texts.length === 1 ? "" : "s"}`);
  for (const [i, text] of texts.entries()) console.log(indent(text, texts.length === 1 ? "     │ " : `   ${i + 1} │ `));
}

async function main() {
  console.log(`typemcp example: ${relative(SOURCE)}, the Python SDK page's weather tools as TypeScript functions.`);
  console.log(
    `\n$ npx tspc -p ${relative(project)}       # builds ${relative(BUILT)}, schemas written in by the plugin`,
  );
  const build = spawnSync(path.join(root, "node_modules", ".bin", "tspc"), ["-p", project], {
    encoding: "utf8",
    cwd: root,
  });
  process.stdout.write(build.stdout + build.stderr);
  if (build.status !== 0) throw new Error(`tspc exited with status ${build.status}`);
  console.log(`$ node ${relative(BUILT)}   # stdio, driven here by the official SDK client`);

  const transport = new StdioClientTransport({ command: process.execPath, args: [BUILT] });
  // Negotiating as a new client does: server/discover first, then MCP 2026-07-28.
  const client = new Client({ name: "example", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  console.log(`connected: MCP ${client.getNegotiatedProtocolVersion?.() ?? client.getProtocolEra()}`);
  try {
    const { tools } = await client.listTools();
    heading(`tools/list: ${tools.length} tools, their schemas summarized`);
    for (const tool of tools) console.log(summarize(tool));
    const full = tools.find((tool) => tool.name === SHOWN_IN_FULL);
    heading(`${SHOWN_IN_FULL} in full, as tools/list sends it`);
    console.log(indent(compactJson(full)));

    for (const [name, args] of CALLS) {
      heading(`tools/call ${name} ${JSON.stringify(args)}`);
      showResult(await client.callTool({ name, arguments: args }));
    }
  } finally {
    await client.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
