// The benchmark's prompts and resources, generated as bench/generate.js generates the tools: a
// handful of each kind (their requests do not depend on how many there are), written three
// times over: typemcp TypeScript (`mcp.prompt`, `mcp.resource`), the SDK's McpServer
// (`registerPrompt` with a Zod argsSchema, `registerResource` with a URI and with a
// ResourceTemplate), and the floor (the low-level Server's handlers, nothing checked). They
// are a project of their own, laid out as the tools' (<dir>/typemcp, zod, floor, each with its
// createServer, and the requests in requests.json), so that the tools' project, which the
// tools rows and the build measures use, is the same as before.
//
// The same work in each: the same function called with the same values, the same answer. The
// floor builds the prompt's text from the arguments as given (text), converts the template's
// variable with Number(), matches templates with the SDK's UriTemplate in registration order
// (as typemcp and McpServer do), and writes the same JSON text; it checks nothing.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { write, writeTsconfig } = require("./generate");

/** How many of each kind: prompts, fixed resources, resource templates. */
const ITEMS = 4;

/** The rows measured: each a request, round-robin over the items of its kind (requests.json holds them by key). */
const ROWS = [
  { key: "prompt", method: "prompts/get", label: "prompts/get of a prompt with arguments" },
  { key: "resource", method: "resources/read", label: "resources/read of a fixed JSON resource" },
  { key: "template", method: "resources/read", label: "resources/read of a resource template (a number, JSON)" },
];

// A prompt with a few string arguments, a string-literal union and a number, returning its text.
const promptName = (k) => `review_change_${k}`;
const PROMPT_DOC = [
  "Asks for a review of a change.",
  "@param title The change's title.",
  "@param code The code to review.",
  "@param focus What to look at first.",
  "@param language The code's language.",
  "@param max_comments At most this many comments.",
];
const PROMPT_PARAMS = "title, code, focus, language, max_comments";
const PROMPT_BODY =
  'return `Review "${title}" (${language}), focusing on ${focus}, in at most ${max_comments} comments:\\n${code}`;';
const promptArguments = (k) => ({
  title: `Cache the user list ${k}`,
  code: "function users() {\n  return db.query('select * from users');\n}",
  focus: "correctness",
  language: "ts",
  max_comments: "5",
});

// A fixed resource whose value is an object type: its JSON checked against the type's schema.
const resourceName = (k) => `app_config_${k}`;
const resourceUri = (k) => `bench://config-${k}`;
const RESOURCE_TYPES = `
interface Feature {
  name: string;
  enabled: boolean;
  /** Share of users who have it, 0 to 1. */
  rollout?: number;
}
interface Maintenance {
  weekday: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
  /** UTC, HH:MM. */
  start: string;
  minutes: Integer;
}
interface AppConfig {
  service: string;
  version: string;
  /** Requests a client may make per minute. */
  rate_limit: Integer;
  regions: string[];
  features: Feature[];
  maintenance: Maintenance | null;
}`;
const RESOURCE_BODY = `return {
    service: "orders",
    version: "4.2.1",
    rate_limit: 600,
    regions: ["eu-west-1", "us-east-1", "ap-south-1"],
    features: [
      { name: "bulk_export", enabled: true, rollout: 0.25 },
      { name: "new_checkout", enabled: false },
      { name: "audit_log", enabled: true, rollout: 1 },
    ],
    maintenance: { weekday: "sun", start: "02:00", minutes: 45 },
  };`;

// A resource template whose variable is a number (an Integer id), its value an object type (JSON).
const templateName = (k) => `user_profile_${k}`;
const templateUri = (k) => `bench://profiles-${k}/{id}`;
const templateRead = (k) => `bench://profiles-${k}/${1000 + k}`;
const TEMPLATE_TYPES = `
interface Stats {
  posts: Integer;
  followers: Integer;
}
interface Profile {
  id: Integer;
  name: string;
  email: string;
  roles: ("admin" | "editor" | "viewer")[];
  joined: string;
  stats: Stats;
}`;
const TEMPLATE_BODY = `return {
    id,
    name: "user " + id,
    email: "user" + id + "@example.com",
    roles: ["editor", "viewer"],
    joined: "2024-03-01",
    stats: { posts: id % 97, followers: id * 3 },
  };`;

const withDoc = (lines) => ["/**", ...lines.map((line) => ` * ${line}`), " */"].join("\n");

/** The requests measured, one per item: `prompts/get`, then `resources/read` of the fixed resources and of the templates. */
function requests() {
  const items = Array.from({ length: ITEMS }, (_, k) => k);
  return {
    prompt: items.map((k) => ({ name: promptName(k), arguments: promptArguments(k) })),
    resource: items.map((k) => ({ uri: resourceUri(k) })),
    template: items.map((k) => ({ uri: templateRead(k) })),
  };
}

/** typemcp: src/kinds/*.ts and src/index.ts (createServer), built later with the transformer. */
function writeTypemcp(dir) {
  const modules = [];
  for (let k = 0; k < ITEMS; k++) {
    modules.push(`prompt${k}`, `resource${k}`, `template${k}`);
    write(
      path.join(dir, "src", "kinds", `prompt${k}.ts`),
      `// Generated by bench/prompts-resources.js: prompt ${k}.
import type { MCPServer } from "typemcp";

${withDoc(PROMPT_DOC)}
function ${promptName(k)}(title: string, code: string, focus: string, language: "ts" | "py" | "go", max_comments: number): string {
  ${PROMPT_BODY}
}

export function register(mcp: MCPServer): void {
  mcp.prompt(${promptName(k)});
}
`,
    );
    write(
      path.join(dir, "src", "kinds", `resource${k}.ts`),
      `// Generated by bench/prompts-resources.js: fixed resource ${k}.
import type { Integer, MCPServer } from "typemcp";
${RESOURCE_TYPES}

/** The service's configuration. */
function ${resourceName(k)}(): AppConfig {
  ${RESOURCE_BODY}
}

export function register(mcp: MCPServer): void {
  mcp.resource("${resourceUri(k)}", ${resourceName(k)});
}
`,
    );
    write(
      path.join(dir, "src", "kinds", `template${k}.ts`),
      `// Generated by bench/prompts-resources.js: resource template ${k}.
import type { Integer, MCPServer } from "typemcp";
${TEMPLATE_TYPES}

${withDoc(["A user's profile.", "@param id The user's id."])}
function ${templateName(k)}(id: Integer): Profile {
  ${TEMPLATE_BODY}
}

export function register(mcp: MCPServer): void {
  mcp.resource("${templateUri(k)}", ${templateName(k)});
}
`,
    );
  }
  write(
    path.join(dir, "src", "index.ts"),
    `import { MCPServer, type ServerOptions } from "typemcp";
${modules.map((m) => `import * as ${m} from "./kinds/${m}";`).join("\n")}

const registrations = [${modules.join(", ")}];

export function createServer(options?: ServerOptions): MCPServer {
  const mcp = new MCPServer("bench", options);
  for (const registration of registrations) registration.register(mcp);
  return mcp;
}
`,
  );
  writeTsconfig(dir);
}

const promptText = (k) => `function ${promptName(k)}(${PROMPT_PARAMS}) {\n  ${PROMPT_BODY}\n}`;
const resourceJs = (k) => `function ${resourceName(k)}() {\n  ${RESOURCE_BODY}\n}`;
const templateJs = (k) => `function ${templateName(k)}(id) {\n  ${TEMPLATE_BODY}\n}`;
/** The answer to a read: the value's JSON text, as typemcp writes a JSON resource's (runtime/resource.ts). */
const JSON_CONTENTS = `const json = (uri, value) => ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) }] });`;

/** McpServer: what users of the SDK write today. */
function writeZod(dir) {
  const modules = [];
  for (let k = 0; k < ITEMS; k++) {
    modules.push(`prompt${k}`, `resource${k}`, `template${k}`);
    write(
      path.join(dir, "kinds", `prompt${k}.js`),
      `// Generated by bench/prompts-resources.js: prompt ${k}.
"use strict";
const { z } = require("zod");

${promptText(k)}

const argsSchema = z.object({
  title: z.string().describe("The change's title."),
  code: z.string().describe("The code to review."),
  focus: z.string().describe("What to look at first."),
  language: z.enum(["ts", "py", "go"]).describe("The code's language."),
  max_comments: z.coerce.number().describe("At most this many comments."),
});

exports.register = (server) =>
  server.registerPrompt("${promptName(k)}", { description: ${JSON.stringify(PROMPT_DOC[0])}, argsSchema }, (args) => ({
    messages: [{ role: "user", content: { type: "text", text: ${promptName(k)}(${PROMPT_PARAMS.split(", ")
      .map((p) => `args.${p}`)
      .join(", ")}) } }],
  }));
`,
    );
    write(
      path.join(dir, "kinds", `resource${k}.js`),
      `// Generated by bench/prompts-resources.js: fixed resource ${k}.
"use strict";

${resourceJs(k)}
${JSON_CONTENTS}

exports.register = (server) =>
  server.registerResource("${resourceName(k)}", "${resourceUri(k)}", { description: "The service's configuration.", mimeType: "application/json" }, async (uri) =>
    json(uri.href, ${resourceName(k)}()),
  );
`,
    );
    write(
      path.join(dir, "kinds", `template${k}.js`),
      `// Generated by bench/prompts-resources.js: resource template ${k}.
"use strict";
const { ResourceTemplate } = require("@modelcontextprotocol/server");

${templateJs(k)}
${JSON_CONTENTS}

exports.register = (server) =>
  server.registerResource(
    "${templateName(k)}",
    new ResourceTemplate("${templateUri(k)}", { list: undefined }),
    { description: "A user's profile.", mimeType: "application/json" },
    async (uri, { id }) => json(uri.href, ${templateName(k)}(Number(id))),
  );
`,
    );
  }
  write(
    path.join(dir, "index.js"),
    `"use strict";
const { McpServer } = require("@modelcontextprotocol/server");
const registrations = [${modules.map((m) => `require("./kinds/${m}.js")`).join(",\n  ")}];
exports.createServer = () => {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  for (const registration of registrations) registration.register(server);
  return server;
};
`,
  );
}

/**
 * The floor: the low-level Server answering the lists typemcp answers (`lists`: its
 * prompts/list, resources/list and resources/templates/list), and each request with the
 * function's value and nothing checked.
 */
function writeFloor(dir, lists) {
  const modules = [];
  for (let k = 0; k < ITEMS; k++) {
    modules.push(`prompt${k}`, `resource${k}`, `template${k}`);
    write(
      path.join(dir, "kinds", `prompt${k}.js`),
      `// Generated by bench/prompts-resources.js: prompt ${k}.
"use strict";

${promptText(k)}

exports.name = "${promptName(k)}";
exports.get = (args) => ({
  messages: [{ role: "user", content: { type: "text", text: ${promptName(k)}(${PROMPT_PARAMS.split(", ")
    .map((p) => `args.${p}`)
    .join(", ")}) } }],
});
`,
    );
    write(
      path.join(dir, "kinds", `resource${k}.js`),
      `// Generated by bench/prompts-resources.js: fixed resource ${k}.
"use strict";

${resourceJs(k)}
${JSON_CONTENTS}

exports.uri = "${resourceUri(k)}";
exports.read = (uri) => json(uri, ${resourceName(k)}());
`,
    );
    write(
      path.join(dir, "kinds", `template${k}.js`),
      `// Generated by bench/prompts-resources.js: resource template ${k}.
"use strict";

${templateJs(k)}
${JSON_CONTENTS}

exports.uriTemplate = "${templateUri(k)}";
exports.read = (uri, variables) => json(uri, ${templateName(k)}(Number(variables.id)));
`,
    );
  }
  write(
    path.join(dir, "index.js"),
    `"use strict";
const { ResourceNotFoundError, Server, UriTemplate } = require("@modelcontextprotocol/server");
const modules = [${modules.map((m) => `require("./kinds/${m}.js")`).join(",\n  ")}];
const lists = ${JSON.stringify(lists)};
exports.createServer = () => {
  const prompts = new Map(modules.filter((m) => m.name).map((m) => [m.name, m]));
  const resources = new Map(modules.filter((m) => m.uri).map((m) => [m.uri, m]));
  const templates = modules.filter((m) => m.uriTemplate).map((m) => ({ template: new UriTemplate(m.uriTemplate), read: m.read }));
  const server = new Server(
    { name: "bench", version: "1.0.0" },
    { capabilities: { prompts: { listChanged: true }, resources: { listChanged: true } } },
  );
  server.setRequestHandler("prompts/list", () => ({ prompts: lists.prompts }));
  server.setRequestHandler("resources/list", () => ({ resources: lists.resources }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: lists.resourceTemplates }));
  server.setRequestHandler("prompts/get", ({ params }) => prompts.get(params.name).get(params.arguments ?? {}));
  server.setRequestHandler("resources/read", ({ params }) => {
    const resource = resources.get(params.uri);
    if (resource) return resource.read(params.uri);
    for (const { template, read } of templates) {
      const variables = template.match(params.uri);
      if (variables) return read(params.uri, variables);
    }
    throw new ResourceNotFoundError(params.uri);
  });
  return server;
};
`,
  );
}

/** Writes <dir>/typemcp (TypeScript, to be built), <dir>/zod and <dir>/requests.json; the floor is written once typemcp's lists are known. */
function generate(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  writeTypemcp(path.join(dir, "typemcp"));
  writeZod(path.join(dir, "zod"));
  write(path.join(dir, "requests.json"), JSON.stringify(requests()));
}

module.exports = { ITEMS, ROWS, generate, writeFloor };
