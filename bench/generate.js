// Generates the benchmark project: N tools, cycling through a few realistic shapes, written
// three times over: as typemcp TypeScript (built later with the transformer), as the SDK's
// McpServer with Zod schemas, and as the floor (low-level Server, precomputed JSON Schemas,
// no validation). The floor is written after the typemcp build, from the schemas typemcp
// publishes, so that both serve exactly the same tools/list.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

/**
 * One tool shape. `ts`/`tsBody` is the typemcp source, `jsParams`/`jsBody` the same function
 * in plain JS (for the Zod and floor handlers), `zod` its schemas, `args` a valid call.
 * `wrapped`: typemcp sends the result as {"result": value} (arrays, unions, scalars).
 */
const TEMPLATES = [
  {
    name: "get_weather",
    types: `
interface Location {
  /** Degrees north. */
  lat: number;
  /** Degrees east. */
  lon: number;
}
interface Station {
  id: string;
  name: string;
  location: Location;
}
interface DayReading {
  day: string;
  high: number;
  low: number;
}
interface Weather {
  /** Degrees Celsius. */
  temperature: number;
  /** Relative humidity, 0 to 1. */
  humidity: number;
  conditions: string;
  station: Station;
  history: DayReading[];
}`,
    doc: [
      "Current weather for a city, with the last days' readings.",
      "@param city Name of the city.",
      "@param days How many past days to include.",
    ],
    params: "city: string, days?: Integer",
    returns: "Weather",
    jsParams: "city, days",
    body: `const n = days ?? 2;
  return {
    temperature: 16.2,
    humidity: 0.83,
    conditions: "Overcast",
    station: { id: "st-1", name: city, location: { lat: 51.5, lon: -0.12 } },
    history: Array.from({ length: n }, (_, d) => ({ day: "d" + d, high: 18 + d, low: 9 + d })),
  };`,
    zod: `const Location = z.object({ lat: z.number().describe("Degrees north."), lon: z.number().describe("Degrees east.") });
const Station = z.object({ id: z.string(), name: z.string(), location: Location });
const DayReading = z.object({ day: z.string(), high: z.number(), low: z.number() });
const Weather = z.object({
  temperature: z.number().describe("Degrees Celsius."),
  humidity: z.number().describe("Relative humidity, 0 to 1."),
  conditions: z.string(),
  station: Station,
  history: z.array(DayReading),
});
const input = { city: z.string().describe("Name of the city."), days: z.number().int().optional().describe("How many past days to include.") };
const output = Weather.shape;`,
    args: { city: "London", days: 2 },
  },
  {
    name: "search_docs",
    types: `
interface SearchFilters {
  language?: "en" | "de" | "fr";
  tags?: string[];
  published_after?: string;
}
interface SearchHit {
  id: string;
  title: string;
  score: number;
  snippet?: string;
  tags: string[];
}`,
    doc: [
      "Full-text search over the documentation.",
      "@param query Words to look for.",
      "@param limit At most this many hits.",
    ],
    params: `query: string, filters: SearchFilters, limit: Integer = 5, sort: "relevance" | "date" = "relevance"`,
    returns: "SearchHit[]",
    jsParams: `query, filters, limit = 5, sort = "relevance"`,
    body: `return Array.from({ length: Math.min(limit, 3) }, (_, k) => ({ id: "doc-" + k, title: query + " " + sort + " " + k, score: 1 / (k + 1), tags: filters.tags ?? [] }));`,
    zod: `const SearchFilters = z.object({ language: z.enum(["en", "de", "fr"]).optional(), tags: z.array(z.string()).optional(), published_after: z.string().optional() });
const SearchHit = z.object({ id: z.string(), title: z.string(), score: z.number(), snippet: z.string().optional(), tags: z.array(z.string()) });
const input = {
  query: z.string().describe("Words to look for."),
  filters: SearchFilters,
  limit: z.number().int().default(5).describe("At most this many hits."),
  sort: z.enum(["relevance", "date"]).default("relevance"),
};
const output = { result: z.array(SearchHit) };`,
    args: { query: "install", filters: { language: "en", tags: ["setup"] }, limit: 3 },
    wrapped: true,
  },
  {
    name: "list_directory",
    types: `
interface DirEntry {
  name: string;
  kind: "file" | "dir";
  size?: Integer;
  children?: DirEntry[];
}`,
    doc: ["A directory tree, to a given depth.", "@param path Absolute path of the directory."],
    params: "path: string, depth: Integer = 2",
    returns: "DirEntry",
    jsParams: "path, depth = 2",
    body: `const walk = (name: string, d: number): DirEntry =>
    d === 0 ? { name, kind: "file", size: 1024 } : { name, kind: "dir", children: [walk(name + "/a", d - 1), walk(name + "/b", d - 1)] };
  return walk(path, depth);`,
    jsBody: `const walk = (name, d) =>
    d === 0 ? { name, kind: "file", size: 1024 } : { name, kind: "dir", children: [walk(name + "/a", d - 1), walk(name + "/b", d - 1)] };
  return walk(path, depth);`,
    zod: `const DirEntry = z.object({
  name: z.string(),
  kind: z.enum(["file", "dir"]),
  size: z.number().int().optional(),
  get children() { return z.array(DirEntry).optional(); },
});
const input = { path: z.string().describe("Absolute path of the directory."), depth: z.number().int().default(2) };
const output = DirEntry.shape;`,
    args: { path: "/srv", depth: 2 },
  },
  {
    name: "get_order",
    types: `
interface LineItem {
  sku: string;
  quantity: Integer;
  unit_price: number;
}
interface Order {
  status: "open" | "shipped" | "delivered";
  id: string;
  items: LineItem[];
  total: number;
  shipped_at?: string;
}
interface OrderNotFound {
  status: "not_found";
  id: string;
  reason: string;
}`,
    doc: ["One order by id, or why there is none."],
    params: "order_id: string",
    returns: "Order | OrderNotFound",
    jsParams: "order_id",
    body: `if (order_id.startsWith("x")) return { status: "not_found", id: order_id, reason: "no such order" };
  return { status: "open", id: order_id, items: [{ sku: "A-1", quantity: 2, unit_price: 9.5 }, { sku: "B-2", quantity: 1, unit_price: 20 }], total: 39 };`,
    zod: `const LineItem = z.object({ sku: z.string(), quantity: z.number().int(), unit_price: z.number() });
const Order = z.object({ status: z.enum(["open", "shipped", "delivered"]), id: z.string(), items: z.array(LineItem), total: z.number(), shipped_at: z.string().optional() });
const OrderNotFound = z.object({ status: z.literal("not_found"), id: z.string(), reason: z.string() });
const input = { order_id: z.string() };
const output = { result: z.union([Order, OrderNotFound]) };`,
    args: { order_id: "o-1001" },
    wrapped: true,
  },
  {
    name: "create_event",
    types: `
interface Attendee {
  email: string;
  name?: string;
  optional?: boolean;
}
interface Recurrence {
  freq: "daily" | "weekly" | "monthly";
  count?: Integer;
}
interface NewEvent {
  title: string;
  /** ISO 8601 start time. */
  start: string;
  end?: string;
  attendees: Attendee[];
  recurrence?: Recurrence;
  tags: string[];
}
interface CreatedEvent {
  id: string;
  title: string;
  start: string;
  attendee_count: Integer;
  recurring: boolean;
}`,
    doc: ["Creates a calendar event.", "@param notify Email the attendees."],
    params: "event: NewEvent, notify: boolean = false",
    returns: "CreatedEvent",
    jsParams: "event, notify = false",
    body: `return { id: notify ? "evt-n" : "evt-1", title: event.title, start: event.start, attendee_count: event.attendees.length, recurring: event.recurrence !== undefined };`,
    zod: `const Attendee = z.object({ email: z.string(), name: z.string().optional(), optional: z.boolean().optional() });
const Recurrence = z.object({ freq: z.enum(["daily", "weekly", "monthly"]), count: z.number().int().optional() });
const NewEvent = z.object({
  title: z.string(),
  start: z.string().describe("ISO 8601 start time."),
  end: z.string().optional(),
  attendees: z.array(Attendee),
  recurrence: Recurrence.optional(),
  tags: z.array(z.string()),
});
const CreatedEvent = z.object({ id: z.string(), title: z.string(), start: z.string(), attendee_count: z.number().int(), recurring: z.boolean() });
const input = { event: NewEvent, notify: z.boolean().default(false).describe("Email the attendees.") };
const output = CreatedEvent.shape;`,
    args: {
      event: {
        title: "Standup",
        start: "2026-01-05T09:00:00Z",
        attendees: [{ email: "a@example.com" }, { email: "b@example.com", name: "B" }],
        recurrence: { freq: "weekly", count: 10 },
        tags: ["team"],
      },
    },
  },
  {
    name: "convert_units",
    types: `
type LengthUnit = "m" | "km" | "mi" | "ft";`,
    doc: ["Converts a length between units."],
    params: "value: number, from: LengthUnit, to: LengthUnit",
    returns: "number",
    jsParams: "value, from, to",
    body: `const metres = { m: 1, km: 1000, mi: 1609.344, ft: 0.3048 };
  return (value * metres[from]) / metres[to];`,
    zod: `const LengthUnit = z.enum(["m", "km", "mi", "ft"]);
const input = { value: z.number(), from: LengthUnit, to: LengthUnit };
const output = { result: z.number() };`,
    args: { value: 12.5, from: "km", to: "mi" },
    wrapped: true,
  },
  {
    name: "get_user",
    types: `
interface Address {
  street: string;
  city: string;
  postcode?: string;
  country: string;
}
interface User {
  id: Integer;
  name: string;
  email: string;
  roles: ("admin" | "editor" | "viewer")[];
  address?: Address;
  metadata: Record<string, string>;
}`,
    doc: ["A user by id, or null when there is none."],
    params: "user_id: Integer",
    returns: "User | null",
    jsParams: "user_id",
    body: `if (user_id < 0) return null;
  return {
    id: user_id,
    name: "Ada",
    email: "ada@example.com",
    roles: ["admin", "viewer"],
    address: { street: "1 Main St", city: "London", country: "UK" },
    metadata: { team: "core", plan: "pro" },
  };`,
    zod: `const Address = z.object({ street: z.string(), city: z.string(), postcode: z.string().optional(), country: z.string() });
const User = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.enum(["admin", "editor", "viewer"])),
  address: Address.optional(),
  metadata: z.record(z.string(), z.string()),
});
const input = { user_id: z.number().int() };
const output = { result: User.nullable() };`,
    args: { user_id: 42 },
    wrapped: true,
  },
  {
    name: "summarize_series",
    types: `
interface Summary {
  count: Integer;
  mean: number;
  min: number;
  max: number;
  /** [bucket start, count] pairs. */
  buckets: [number, Integer][];
}`,
    doc: ["Summary statistics of a numeric series."],
    params: "values: number[], bucket_width: number = 10",
    returns: "Summary",
    jsParams: "values, bucket_width = 10",
    body: `const sum = values.reduce((a, b) => a + b, 0);
  const buckets = values.slice(0, 3).map((v, k): [number, Integer] => [Math.floor(v / bucket_width) * bucket_width, k + 1]);
  return { count: values.length, mean: sum / values.length, min: Math.min(...values), max: Math.max(...values), buckets };`,
    jsBody: `const sum = values.reduce((a, b) => a + b, 0);
  const buckets = values.slice(0, 3).map((v, k) => [Math.floor(v / bucket_width) * bucket_width, k + 1]);
  return { count: values.length, mean: sum / values.length, min: Math.min(...values), max: Math.max(...values), buckets };`,
    zod: `const Summary = z.object({
  count: z.number().int(),
  mean: z.number(),
  min: z.number(),
  max: z.number(),
  buckets: z.array(z.tuple([z.number(), z.number().int()])).describe("[bucket start, count] pairs."),
});
const input = { values: z.array(z.number()), bucket_width: z.number().default(10) };
const output = Summary.shape;`,
    args: { values: [3, 14, 15, 92, 65] },
  },
];

const pad = (i) => String(i).padStart(4, "0");
/** The shape of tool i in a project of the first `shapes` shapes (all of them by default; 1: every tool get_weather's). */
const templateOf = (i, shapes = TEMPLATES.length) => TEMPLATES[i % shapes];
const toolName = (i, shapes) => `${templateOf(i, shapes).name}_${i}`;

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function typemcpTool(i, shapes) {
  const t = templateOf(i, shapes);
  const doc = ["/**", ...t.doc.map((line) => ` * ${line}`), " */"].join("\n");
  return `// Generated by bench/generate.js: tool ${i}, shape ${t.name}.
import { MCPServer, type Integer } from "typemcp";
${t.types}

${doc}
function ${toolName(i, shapes)}(${t.params}): ${t.returns} {
  ${t.body}
}

export function register(mcp: MCPServer): void {
  mcp.tool(${toolName(i, shapes)});
}
`;
}

/** The typemcp project: src/tools/tNNNN.ts, src/index.ts (createServer), src/main.ts (stdio). */
function writeTypemcp(dir, n, shapes) {
  const imports = [];
  for (let i = 0; i < n; i++) {
    write(path.join(dir, "src", "tools", `t${pad(i)}.ts`), typemcpTool(i, shapes));
    imports.push(`import * as t${pad(i)} from "./tools/t${pad(i)}";`);
  }
  write(
    path.join(dir, "src", "index.ts"),
    `import { MCPServer, type ServerOptions } from "typemcp";
${imports.join("\n")}

const tools = [${Array.from({ length: n }, (_, i) => `t${pad(i)}`).join(", ")}];

export function createServer(options?: ServerOptions): MCPServer {
  const mcp = new MCPServer("bench", options);
  for (const tool of tools) tool.register(mcp);
  return mcp;
}
`,
  );
  write(path.join(dir, "src", "main.ts"), `import { createServer } from "./index";\n\nvoid createServer().run();\n`);
  writeTsconfig(dir);
}

/** A generated typemcp project's tsconfig.json: src/ built into out/ with the plugin. */
function writeTsconfig(dir) {
  // Built programmatically by bench/build.js; the plugin entry lets a human also run `npx tspc -p <dir>`.
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "node16",
      moduleResolution: "node16",
      lib: ["ES2022"],
      types: ["node"],
      strict: true,
      skipLibCheck: true,
      rootDir: "src",
      outDir: "out",
      plugins: [{ transform: path.join(ROOT, "dist", "transformer", "index.js") }],
    },
    include: ["src/**/*.ts"],
  };
  write(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2) + "\n");
}

/** The content channel as typemcp builds it from a plain JSON value (runtime/content.ts). */
const RESULT_JS = `"use strict";
function toContent(value) {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(toContent);
  if (typeof value === "string") return [{ type: "text", text: value }];
  if (typeof value !== "object") return [{ type: "text", text: JSON.stringify(value) }];
  return [{ type: "text", text: JSON.stringify(value, null, 2) }];
}
/** The same CallToolResult typemcp answers with. */
exports.result = (value, wrapped) => ({ content: toContent(value), structuredContent: wrapped ? { result: value } : value });
`;

function jsFunction(i, shapes) {
  const t = templateOf(i, shapes);
  return `function ${toolName(i, shapes)}(${t.jsParams}) {\n  ${t.jsBody ?? t.body}\n}`;
}

const callArgs = (i, shapes) =>
  templateOf(i, shapes)
    .jsParams.split(",")
    .map((p) => `args.${p.split("=")[0].trim()}`)
    .join(", ");

/** McpServer + Zod: what users of the SDK write today. */
function writeZod(dir, n, shapes) {
  write(path.join(dir, "result.js"), RESULT_JS);
  for (let i = 0; i < n; i++) {
    const t = templateOf(i, shapes);
    write(
      path.join(dir, "tools", `t${pad(i)}.js`),
      `// Generated by bench/generate.js: tool ${i}, shape ${t.name}.
"use strict";
const { z } = require("zod");
const { result } = require("../result.js");

${t.zod}

${jsFunction(i, shapes)}

exports.register = (server) =>
  server.registerTool("${toolName(i, shapes)}", { description: ${JSON.stringify(t.doc[0])}, inputSchema: z.object(input), outputSchema: z.object(output) }, async (args) =>
    result(${toolName(i, shapes)}(${callArgs(i, shapes)}), ${Boolean(t.wrapped)}),
  );
`,
    );
  }
  write(
    path.join(dir, "index.js"),
    `"use strict";
const { McpServer } = require("@modelcontextprotocol/server");
const tools = [${Array.from({ length: n }, (_, i) => `require("./tools/t${pad(i)}.js")`).join(",\n  ")}];
exports.createServer = () => {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  for (const tool of tools) tool.register(server);
  return server;
};
`,
  );
  write(
    path.join(dir, "main.js"),
    `"use strict";
const { serveStdio } = require("@modelcontextprotocol/server/stdio");
serveStdio(() => require("./index.js").createServer());
`,
  );
}

/**
 * The floor: the low-level Server with the given tool definitions as literals (the same
 * module layout as the typemcp project, so that module loading costs both the same) and
 * handlers that validate nothing.
 */
function writeFloor(dir, definitions, shapes) {
  write(path.join(dir, "result.js"), RESULT_JS);
  definitions.forEach((definition, i) => {
    const t = templateOf(i, shapes);
    write(
      path.join(dir, "tools", `t${pad(i)}.js`),
      `// Generated by bench/generate.js: tool ${i}, shape ${t.name}.
"use strict";
const { result } = require("../result.js");

${jsFunction(i, shapes)}

exports.definition = ${JSON.stringify(definition)};
exports.call = (args) => result(${toolName(i, shapes)}(${callArgs(i, shapes)}), ${Boolean(t.wrapped)});
`,
    );
  });
  write(
    path.join(dir, "index.js"),
    `"use strict";
const { Server } = require("@modelcontextprotocol/server");
const modules = [${definitions.map((_, i) => `require("./tools/t${pad(i)}.js")`).join(",\n  ")}];
exports.createServer = () => {
  const tools = modules.map((m) => m.definition);
  const byName = new Map(modules.map((m) => [m.definition.name, m]));
  const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", async (request) => byName.get(request.params.name).call(request.params.arguments ?? {}));
  return server;
};
`,
  );
  write(
    path.join(dir, "main.js"),
    `"use strict";
const { serveStdio } = require("@modelcontextprotocol/server/stdio");
serveStdio(() => require("./index.js").createServer());
`,
  );
}

/** Writes <dir>/typemcp (TypeScript, to be built), <dir>/zod and <dir>/calls.json (one valid call per tool). */
function generate(dir, n, shapes = TEMPLATES.length) {
  fs.rmSync(dir, { recursive: true, force: true });
  writeTypemcp(path.join(dir, "typemcp"), n, shapes);
  writeZod(path.join(dir, "zod"), n, shapes);
  const calls = Array.from({ length: n }, (_, i) => ({
    name: toolName(i, shapes),
    arguments: templateOf(i, shapes).args,
  }));
  write(path.join(dir, "calls.json"), JSON.stringify(calls));
}

module.exports = { ROOT, TEMPLATES, generate, writeFloor, writeTsconfig, write, toolName };
