/**
 * The transformer on `mcp.prompt` and `mcp.resource`: the contracts it writes into the emitted
 * calls (compared whole), and every diagnostic exactly (code, category, position, message).
 */
import { compileSnippets, type SnippetResult } from "./support/snippets";
import { emittedCalls } from "./support/emitted-contracts";
import type { DiagnosticSummary } from "./support/build";
import { documentedBlock } from "./support/documentation";
import type { Contract, JsonSchema } from "typemcp";

const HEADER =
  `import { MCPServer, type Integer, type ToolContext, type Minimum, type Maximum, type MinLength, type Tag, ` +
  `type TextResourceContents, type BlobResourceContents, type ResourceContents } from "typemcp";\n` +
  `export const mcp = new MCPServer("t");\n`;

/** The message every TS93004 ends with, after what the argument is. */
const TEXT =
  "its type must be a string, a number or a boolean (their literal types and unions of one of them, enums, template literal types, Integer, and types constrained with tags, included)";
const LIST =
  "its type must be an array of strings, of numbers or of booleans (their literal types and unions of one of them, enums, template literal types, Integer, and types constrained with tags, included)";

const sources: Record<string, string> = {
  prompt_review: `/**
 * Review code for style.
 * @param code The code.
 * @param language Its language.
 */
function review_code(code: string, language: "ts" | "py" = "ts", strict?: boolean): string { return code + language + strict; }
mcp.prompt(review_code);
mcp.prompt(review_code, { name: "review", title: "Review" });
`,
  prompt_kinds: `enum Level { Low, Medium, High }
enum Color { Red = "red", Green = "green" }
type Percent = number & Minimum<0> & Maximum<100>;
/** Every kind of text. */
function kinds(
  count: Integer,
  share: Percent,
  level: Level,
  size: 1 | 2 | 3,
  color: Color,
  on: true,
  version: \`v\${number}\`,
  id: string & { readonly __brand: "Id" },
  code: string & MinLength<2>,
  mode?: "fast" | "slow",
): string { return ""; }
mcp.prompt(kinds);
mcp.tool(kinds);
`,
  prompt_proto: `function odd(__proto__: "a" | "b", constructor: number): string { return __proto__ + constructor; }
mcp.prompt(odd);
`,
  prompt_object: `interface TripArgs {
  /** Where to. */
  city: string;
  days?: Integer;
  flexible?: boolean;
}
/** Plans a trip. */
function plan({ city, days = 3 }: TripArgs, ctx: ToolContext): string { return city + days + ctx.requestId; }
mcp.prompt(plan, { name: "plan_trip" });
`,
  prompt_not_text: `class Point { x = 0; }
enum Answer { No = 0, Yes = "yes" }
function wrong(a: { x: number }, b: string[], c: Date, d: string | number, e: bigint, f: any, g: unknown, h: string | null, i: Point, j: Answer, k: undefined): string { return ""; }
mcp.prompt(wrong);
function undescribed(l: Uppercase<string>, m: string & Tag<"format", "e-mail">, n: 1e400): string { return ""; }
mcp.prompt(undescribed);
function go({ to, at }: { to: string; at: Date }): string { return to + at; }
mcp.prompt(go);
`,
  prompt_registration: `function a(): string { return ""; }
function f(x: string): string;
function f(x: number): string;
function f(x: any) { return String(x); }
function sum(...xs: number[]): string { return String(xs); }
function pair([x, y]: [string, string]): string { return x + y; }
function both({ x }: { x: string }, y: string): string { return x + y; }
const notFn: any = 1;
const args = [a] as const;
mcp.prompt(() => "x");
mcp.prompt(a, { name: "" });
mcp.prompt(f);
mcp.prompt(sum);
mcp.prompt(pair);
mcp.prompt(both);
mcp.prompt(notFn);
mcp.prompt(...args);
`,
  prompt_names: `function a(): string { return ""; }
function b(): string { return ""; }
mcp.prompt(a);
mcp.prompt(b, { name: "a" });
mcp.tool(a);
mcp.resource("a://x", a, { name: "a" });
const other_mcp = new MCPServer("o");
other_mcp.prompt(a);
`,
  prompt_complete: `function review(code: string, language?: "ts" | "py"): string { return code + language; }
mcp.prompt(review, { complete: { language: () => ["ts"], langauge: () => [], "code": (v) => [v] } });
function none(): string { return ""; }
mcp.prompt(none, { complete: { x: () => [] } });
`,
  resource_templates: `interface UserProfile {
  /** Shown to others. */
  name: string;
  tags: string[];
}
/**
 * A user's profile.
 * @param id The user's id.
 */
async function profile(id: Integer, ctx: ToolContext): Promise<UserProfile> { return { name: String(id) + ctx.requestId, tags: [] }; }
mcp.resource("users://{id}/profile", profile);
const NOTES = "notes://{+path}";
function note(path: string): string { return path; }
mcp.resource(NOTES, note, { name: "notes", mimeType: "text/markdown" });
function files(segments: string[]): Uint8Array { return new Uint8Array(segments.length); }
mcp.resource("files://{/segments*}", files);
function tagged(ids: Integer[], sort?: "asc" | "desc"): TextResourceContents[] { return [{ uri: String(ids) + sort, text: "" }]; }
mcp.resource("tags://{ids*}{?sort}", tagged);
function search({ q, limit = 10 }: { q: string; limit?: Integer }): ResourceContents { return { uri: q + limit, text: "" }; }
mcp.resource("search://items{?q,limit}", search);
mcp.resource("config://app", () => "text");
mcp.resource("config://version", (ctx: ToolContext): \`v\${number}\` => (ctx ? "v1" : "v2"), { name: "version" });
`,
  resource_contents: `class Opaque { constructor(private secret: string) {} }
class Bytes extends Uint8Array {}
function anything(): any { return 1; }
function nothing(): unknown { return 1; }
function list(): number[] { return []; }
function when(): Date { return new Date(); }
function counts(): Map<string, number> { return new Map(); }
function opaque(): Opaque { return new Opaque(""); }
function blobs(): BlobResourceContents | TextResourceContents { return { uri: "", blob: "" }; }
function bytes(): Bytes | Uint8Array { return new Bytes(1); }
function mode(): "on" | "off" { return "on"; }
mcp.resource("r://any", anything);
mcp.resource("r://unknown", nothing);
mcp.resource("r://list", list);
mcp.resource("r://date", when);
mcp.resource("r://map", counts);
mcp.resource("r://opaque", opaque);
mcp.resource("r://blobs", blobs);
mcp.resource("r://bytes", bytes);
mcp.resource("r://mode", mode);
`,
  // As @types/node declares them (without loading its 2 MB of declarations here): Buffer
  // extends Uint8Array, which it augments (so not every declaration of Uint8Array is the library's).
  resource_buffer: `declare global {
  interface Uint8Array { readonly augmented?: never }
  interface Buffer<TArrayBuffer extends ArrayBufferLike = ArrayBufferLike> extends Uint8Array<TArrayBuffer> {
    toJSON(): { type: "Buffer"; data: number[] };
  }
}
function read(): Buffer { return new Uint8Array(1) as Buffer; }
mcp.resource("r://buffer", read);
`,
  resource_mismatch: `function profile(id: string, section: string, note?: string): string { return id + section + note; }
mcp.resource("users://{id}/{user}", profile);
function fixed(a: string, b?: string, ctx?: ToolContext): string { return a + b + ctx; }
mcp.resource("config://app", fixed);
`,
  resource_not_text: `function one(ids: string[]): string { return String(ids); }
mcp.resource("a://{ids}", one);
function two(id: string): string { return id; }
mcp.resource("b://{id*}", two);
function three(at: Date, points: { x: number }[]): string { return String(at) + points; }
mcp.resource("c://{at}/{points*}", three);
`,
  resource_uri: `let dynamic = "a://{x}";
function f(x: string): string { return x; }
mcp.resource(dynamic, f);
function g(uri: string) { mcp.resource(uri, f); }
mcp.resource("a://{x,y}", f);
mcp.resource("a://{#x}", f);
mcp.resource("a://{x", f);
mcp.resource("a://{x}", 42 as any);
const rest = [f] as const;
mcp.resource("a://{x}", ...rest);
`,
  resource_duplicates: `function a(x: string): string { return x; }
mcp.resource("a://{x}", a);
mcp.resource("a://{x}", a, { name: "other" });
mcp.resource("b://{x}", a, { name: "a" });
mcp.tool(a, { name: "a" });
`,
  resource_complete: `function a(x: "p" | "q"): string { return x; }
mcp.resource("a://{x}", a, { complete: { x: () => [], y: () => [] } });
`,
  registration_forms: `import type { PromptContract } from "typemcp";
class Server extends MCPServer {}
const sub = new Server("s");
function a(): string { return ""; }
function b(x: string): string { return x; }
sub.prompt(a);
mcp["resource"]("e://{x}", b);
const { prompt: addPrompt } = mcp;
addPrompt(b);
class Other { prompt(fn: () => string) { return fn; } resource(uri: string, fn: () => string) { return uri + fn; } }
new Other().prompt(a);
new Other().resource("o://x", a);
declare const compiled: PromptContract;
mcp.prompt(a, {}, compiled);
`,
};

let results: Record<string, SnippetResult>;
beforeAll(() => {
  results = compileSnippets("prompts-and-resources", {
    ...Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, HEADER + v])),
    // In the same program (one program is much faster than two), as the document writes it.
    rules_example: documentedBlock("rules:prompts-and-resources"),
    // The README's excerpt, with what it leaves out (the server and the Note type) written before it.
    readme_example:
      HEADER +
      "interface Note { id: Integer; title: string; body: string }\n" +
      documentedBlock("readme:prompts-and-resources"),
  });
});

/**
 * Where `needle` (its `nth` occurrence, from 0) is in a snippet, as a diagnostic gives it:
 * 1-based line and column of its start, or of the `^` in it (`"b: ^string[]"`: the type).
 */
function at(name: string, needle: string, nth = 0): { line: number; column: number } {
  const text = HEADER + sources[name];
  const caret = Math.max(0, needle.indexOf("^"));
  const plain = needle.replace("^", "");
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(plain, offset + 1);
    if (offset < 0) throw new Error(`${plain} is not in ${name} ${nth + 1} times`);
  }
  offset += caret;
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

function diagnostic(
  name: string,
  needle: string,
  code: number,
  message: string,
  category: DiagnosticSummary["category"] = "error",
  nth = 0,
): DiagnosticSummary {
  return { file: `${name}.ts`, ...at(name, needle, nth), category, code, message };
}

function contracts(name: string): Contract[] {
  return emittedCalls(results[name].js).map((call) => call.contract);
}

const object = (properties: Record<string, JsonSchema>, required: string[], title: string): JsonSchema => ({
  type: "object",
  title,
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

test("the snippets are valid TypeScript apart from what typemcp reports", () => {
  for (const [name, result] of Object.entries(results)) expect([name, result.compilerErrors]).toEqual([name, []]);
});

describe("prompts", () => {
  test("a prompt's contract: name, JSDoc, text arguments with their @param, the schema, conversions and completions", () => {
    expect(results.prompt_review.diagnostics).toEqual([]);
    const schema = (title: string) =>
      object(
        {
          code: { type: "string", description: "The code." },
          language: { type: "string", enum: ["ts", "py"], description: "Its language.", default: "ts" },
          strict: { type: "boolean" },
        },
        ["code"],
        title,
      );
    const contract = (name: string) => ({
      v: 2,
      kind: "prompt",
      name,
      description: "Review code for style.",
      params: ["code", "language", "strict"],
      arguments: [
        { name: "code", description: "The code.", required: true },
        { name: "language", description: "Its language.", required: false },
        { name: "strict", required: false },
      ],
      argumentsSchema: schema(`${name}Arguments`),
      convert: { strict: "boolean" },
      completions: { language: ["ts", "py"], strict: ["true", "false"] },
    });
    expect(contracts("prompt_review")).toEqual([contract("review_code"), contract("review")]);
    // As the call is written: the contract after the options (void 0 when there are none), one JSON string.
    const [plain, named] = emittedCalls(results.prompt_review.js);
    expect(plain.args).toEqual(["review_code", "void 0"]);
    expect(named.args).toEqual(["review_code", '{ name: "review", title: "Review" }']);
    expect(plain.text).toBe(
      `JSON.parse('{"v":2,"kind":"prompt","name":"review_code","description":"Review code for style.","params":["code","language","strict"],"arguments":[{"name":"code","description":"The code.","required":true},{"name":"language","description":"Its language.","required":false},{"name":"strict","required":false}],"argumentsSchema":{"type":"object","title":"review_codeArguments","properties":{"code":{"type":"string","description":"The code."},"language":{"type":"string","enum":["ts","py"],"description":"Its language.","default":"ts"},"strict":{"type":"boolean"}},"required":["code"],"additionalProperties":false},"convert":{"strict":"boolean"},"completions":{"language":["ts","py"],"strict":["true","false"]}}')`,
    );
  });

  test("every text type is an argument; its schema is the one a tool of the same parameters gets", () => {
    expect(results.prompt_kinds.diagnostics).toEqual([]);
    const [prompt, tool] = contracts("prompt_kinds") as [Contract & { argumentsSchema: JsonSchema }, Contract];
    // A prompt and a tool may share a name: they are separate namespaces.
    expect(tool).toMatchObject({ name: "kinds" });
    expect(prompt.argumentsSchema).toEqual((tool as { inputSchema: JsonSchema }).inputSchema);
    const names = ["count", "share", "level", "size", "color", "on", "version", "id", "code", "mode"];
    expect(prompt).toEqual({
      v: 2,
      kind: "prompt",
      name: "kinds",
      description: "Every kind of text.",
      params: names,
      arguments: names.map((name) => ({ name, required: name !== "mode" })),
      argumentsSchema: prompt.argumentsSchema,
      convert: { count: "number", share: "number", level: "number", size: "number", on: "boolean" },
      completions: {
        level: ["0", "1", "2"],
        size: ["1", "2", "3"],
        color: ["red", "green"],
        on: ["true"],
        mode: ["fast", "slow"],
      },
    });
    const properties = prompt.argumentsSchema.properties as Record<string, JsonSchema>;
    expect(properties.count).toEqual({ type: "integer" });
    expect(properties.share).toEqual({ type: "number", minimum: 0, maximum: 100 });
    expect(properties.id).toEqual({ type: "string" });
    expect(properties.code).toEqual({ type: "string", minLength: 2 });
    expect(properties.version).toMatchObject({ type: "string" });
    expect(new RegExp(properties.version.pattern as string).test("v1.5")).toBe(true);
  });

  test("an argument named __proto__ stays a key of convert and completions, as the runtime reads them from JSON", () => {
    expect(results.prompt_proto.diagnostics).toEqual([]);
    const [call] = emittedCalls(results.prompt_proto.js);
    expect(call.text).toContain(`"convert":{"constructor":"number"},"completions":{"__proto__":["a","b"]}`);
    const contract = call.contract as Contract & { completions: Record<string, string[]> };
    expect(Object.hasOwn(contract.completions, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(contract.completions)).toBe(Object.prototype);
  });

  test("one destructured object and a ToolContext: passed as for a tool, its properties the arguments", () => {
    expect(results.prompt_object.diagnostics).toEqual([]);
    expect(contracts("prompt_object")).toEqual([
      {
        v: 2,
        kind: "prompt",
        name: "plan_trip",
        description: "Plans a trip.",
        params: [],
        argumentsObject: true,
        context: 1,
        arguments: [
          { name: "city", description: "Where to.", required: true },
          { name: "days", required: false },
          { name: "flexible", required: false },
        ],
        argumentsSchema: object(
          {
            city: { type: "string", description: "Where to." },
            days: { type: "integer", default: 3 },
            flexible: { type: "boolean" },
          },
          ["city"],
          "plan_tripArguments",
        ),
        convert: { days: "number", flexible: "boolean" },
        completions: { flexible: ["true", "false"] },
      },
    ]);
  });

  test("TS93004: a parameter of a type text cannot carry, at the parameter; a text type that cannot be described is TS93002", () => {
    const notText = (parameter: string, type: string) =>
      diagnostic(
        "prompt_not_text",
        `${parameter}: ^${type}`,
        93004,
        `Function wrong: parameter ${parameter} cannot be a prompt argument, which is text: ${TEXT}, not ${type === "{ x: number }" ? "{ x: number; }" : type}`,
      );
    const undescribed = (parameter: string, type: string, problem: string) =>
      diagnostic(
        "prompt_not_text",
        `${parameter}: ^${type}`,
        93002,
        `Function undescribed: parameter ${parameter} cannot be described as JSON Schema\n  undescribed: ${parameter}: ${problem}`,
      );
    expect(results.prompt_not_text.diagnostics).toEqual([
      notText("a", "{ x: number }"),
      notText("b", "string[]"),
      notText("c", "Date"),
      notText("d", "string | number"),
      notText("e", "bigint"),
      notText("f", "any"),
      notText("g", "unknown"),
      notText("h", "string | null"),
      notText("i", "Point"),
      notText("j", "Answer"),
      notText("k", "undefined"),
      undescribed(
        "l",
        "Uppercase<string>",
        "Uppercase<string> has no exact JSON Schema pattern (only string, number and bigint placeholders have one)",
      ),
      undescribed(
        "m",
        'string & Tag<"format", "e-mail">',
        'Tag<"format", "e-mail">: format "e-mail" is not a format typemcp validates (one of: date, time, date-time, iso-time, iso-date-time, duration, uri, uri-reference, uri-template, url, email, hostname, ipv4, ipv6, regex, uuid, json-pointer, json-pointer-uri-fragment, relative-json-pointer, byte, int32, int64, float, double, password, binary)',
      ),
      undescribed("n", "1e400", "Infinity is not a JSON number (JSON has no Infinity)"),
      diagnostic(
        "prompt_not_text",
        "{ to: string; at: Date }",
        93004,
        `Function go: property at of the destructured parameter cannot be a prompt argument, which is text: ${TEXT}, not Date`,
      ),
    ]);
    // Refused: the runtime gets the build's errors instead of a prompt.
    expect(contracts("prompt_not_text").map((c) => [c.kind, c.name, c.error?.split("\n").length])).toEqual([
      ["prompt", "", 11],
      ["prompt", "", 6],
      ["prompt", "", 1],
    ]);
  });

  test("a prompt registration that is wrong: no name, an empty name, overloads, rest or array parameters, not a function, spread", () => {
    const invalid = (needle: string, message: string) => diagnostic("prompt_registration", needle, 93003, message);
    expect(results.prompt_registration.diagnostics).toEqual([
      invalid('() => "x"', 'This prompt function has no name: give it one, or pass { name: "..." } as options'),
      invalid(
        '{ name: "" }',
        "A prompt's name cannot be empty: give it one character at least, or leave it out to use the function's name",
      ),
      invalid(
        "f);",
        "overloaded functions cannot be prompts (which signature would the schema describe?): register a function with one signature",
      ),
      invalid("sum);", "Function sum: rest parameter ...xs cannot be a prompt argument: arguments are named"),
      invalid("pair);", "Function pair: array destructuring cannot be a prompt's parameters: name the parameter"),
      invalid(
        "both);",
        "Function both: a destructured object parameter must be the prompt's only argument (its properties are the arguments)",
      ),
      invalid("notFn);", "the first argument of mcp.prompt is not a function"),
      invalid(
        "mcp.prompt(...args)",
        "mcp.prompt takes the prompt function as its first argument, written out (not spread)",
      ),
    ]);
    expect(contracts("prompt_registration")[0]).toEqual({
      v: 2,
      kind: "prompt",
      name: "",
      params: [],
      arguments: [],
      argumentsSchema: { type: "object" },
      error: 'This prompt function has no name: give it one, or pass { name: "..." } as options',
    });
  });

  test("a prompt name registered twice on one server is an error naming the first; tools, resources and other servers are apart", () => {
    expect(results.prompt_names.diagnostics).toEqual([
      diagnostic(
        "prompt_names",
        'mcp.prompt(b, { name: "a" })',
        93003,
        'Prompt name "a" is already registered on this server, at .build/snippets/prompts-and-resources/prompt_names.ts:5:1: give one of them another name with { name: "..." }',
      ),
    ]);
    expect(contracts("prompt_names").map((c) => [c.kind ?? "tool", c.name, c.error])).toEqual([
      ["prompt", "a", undefined],
      ["prompt", "a", undefined],
      ["tool", "a", undefined],
      ["resource", "a", undefined],
      ["prompt", "a", undefined],
    ]);
  });

  test("options.complete: each key names an argument, or TS93003 at the key", () => {
    expect(results.prompt_complete.diagnostics).toEqual([
      diagnostic(
        "prompt_complete",
        "langauge",
        93003,
        'options.complete: "langauge" is not an argument of prompt review (its arguments: code, language), so its completer would never be asked',
      ),
      diagnostic(
        "prompt_complete",
        "x: () => []",
        93003,
        'options.complete: "x" is not an argument of prompt none (it has no arguments), so its completer would never be asked',
      ),
    ]);
  });
});

describe("resources", () => {
  test("templates and fixed URIs: variables as text arguments, and the contents the return type gives", () => {
    expect(results.resource_templates.diagnostics).toEqual([]);
    const noArguments = (name: string) => ({
      params: [],
      arguments: [],
      argumentsSchema: object({}, [], `${name}Arguments`),
    });
    expect(contracts("resource_templates")).toEqual([
      {
        v: 2,
        kind: "resource",
        name: "profile",
        description: "A user's profile.",
        uri: "users://{id}/profile",
        template: true,
        params: ["id"],
        context: 1,
        arguments: [{ name: "id", description: "The user's id.", required: true }],
        argumentsSchema: object({ id: { type: "integer", description: "The user's id." } }, ["id"], "profileArguments"),
        convert: { id: "number" },
        contents: "json",
        outputSchema: {
          title: "UserProfile",
          type: "object",
          properties: {
            name: { type: "string", description: "Shown to others." },
            tags: { type: "array", items: { type: "string" } },
          },
          required: ["name", "tags"],
          additionalProperties: false,
        },
      },
      {
        v: 2,
        kind: "resource",
        name: "notes",
        uri: "notes://{+path}",
        template: true,
        params: ["path"],
        arguments: [{ name: "path", required: true }],
        argumentsSchema: object({ path: { type: "string" } }, ["path"], "notesArguments"),
        contents: "text",
      },
      {
        v: 2,
        kind: "resource",
        name: "files",
        uri: "files://{/segments*}",
        template: true,
        params: ["segments"],
        arguments: [{ name: "segments", required: true }],
        argumentsSchema: object(
          { segments: { type: "array", items: { type: "string" } } },
          ["segments"],
          "filesArguments",
        ),
        contents: "blob",
      },
      {
        v: 2,
        kind: "resource",
        name: "tagged",
        uri: "tags://{ids*}{?sort}",
        template: true,
        params: ["ids", "sort"],
        arguments: [
          { name: "ids", required: true },
          { name: "sort", required: false },
        ],
        argumentsSchema: object(
          { ids: { type: "array", items: { type: "integer" } }, sort: { type: "string", enum: ["asc", "desc"] } },
          ["ids"],
          "taggedArguments",
        ),
        convert: { ids: "number" },
        completions: { sort: ["asc", "desc"] },
        contents: "contents",
      },
      {
        v: 2,
        kind: "resource",
        name: "search",
        uri: "search://items{?q,limit}",
        template: true,
        params: [],
        argumentsObject: true,
        arguments: [
          { name: "q", required: true },
          { name: "limit", required: false },
        ],
        argumentsSchema: object(
          { q: { type: "string" }, limit: { type: "integer", default: 10 } },
          ["q"],
          "searchArguments",
        ),
        convert: { limit: "number" },
        contents: "contents",
      },
      // An anonymous function at a fixed URI is named by its URI; no return annotation is auto.
      {
        v: 2,
        kind: "resource",
        name: "config://app",
        uri: "config://app",
        ...noArguments("config://app"),
        contents: "auto",
      },
      {
        v: 2,
        kind: "resource",
        name: "version",
        uri: "config://version",
        ...noArguments("version"),
        context: 0,
        contents: "text",
      },
    ]);
    const [profile, , , , , app] = emittedCalls(results.resource_templates.js);
    expect(profile.args).toEqual(['"users://{id}/profile"', "profile", "void 0"]);
    expect(app.text).toBe(
      `JSON.parse('{"v":2,"kind":"resource","name":"config://app","uri":"config://app","params":[],"arguments":[],"argumentsSchema":{"type":"object","title":"config://appArguments","properties":{},"additionalProperties":false},"contents":"auto"}')`,
    );
  });

  test("contents from the return type: auto, json with the type's own schema, contents, blob, text; lost data is an error, an undescribed type a warning", () => {
    expect(results.resource_contents.diagnostics).toEqual([
      diagnostic(
        "resource_contents",
        "Map<string, number>",
        93001,
        "Function counts: return type Map<string, number> loses data on the way out: the resource's contents are its JSON text\n  counts: result: Map<string, number> is sent as {} (JSON.stringify keeps none of a Map's entries): declare Record<string, number> (Object.fromEntries(map) makes one of a Map)",
      ),
      diagnostic(
        "resource_contents",
        "Opaque {",
        93001,
        "Function opaque: return type Opaque cannot be described as JSON Schema, so the resource's contents are sent as the function returns them, unchecked (declare the data it returns)\n  opaque: result: Opaque is a class with no declared properties",
        "warning",
        1,
      ),
    ]);
    expect(
      contracts("resource_contents").map((c) => [
        c.kind === "resource" && c.uri,
        c.kind === "resource" && c.contents,
        c.kind === "resource" ? c.outputSchema : undefined,
      ]),
    ).toEqual([
      ["r://any", "auto", undefined],
      ["r://unknown", "auto", undefined],
      // Any root: a resource's JSON is no tool output, which must be an object.
      ["r://list", "json", { type: "array", items: { type: "number" } }],
      // A Date is sent as its JSON, a date-time string: not text, which is a string as the function returns it.
      ["r://date", "json", { type: "string", format: "date-time" }],
      ["", "auto", undefined],
      ["r://opaque", "auto", undefined],
      ["r://blobs", "contents", undefined],
      ["r://bytes", "blob", undefined],
      ["r://mode", "text", undefined],
    ]);
  });

  test("bytes as @types/node declares Buffer: an interface extending Uint8Array, which it augments", () => {
    expect(results.resource_buffer.diagnostics).toEqual([]);
    expect(contracts("resource_buffer")).toEqual([
      {
        v: 2,
        kind: "resource",
        name: "read",
        uri: "r://buffer",
        params: [],
        arguments: [],
        argumentsSchema: object({}, [], "readArguments"),
        contents: "blob",
      },
    ]);
  });

  test("the template against the parameters, both ways: a variable with no parameter, a required parameter with no variable, an optional one (warning), a fixed URI with arguments", () => {
    expect(results.resource_mismatch.diagnostics).toEqual([
      diagnostic(
        "resource_mismatch",
        '"users://{id}/{user}"',
        93003,
        'Resource template "users://{id}/{user}": the variable {user} names no parameter of function profile (its parameters: id, section, note): each variable is passed to the parameter of its name',
      ),
      diagnostic(
        "resource_mismatch",
        "string, note",
        93003,
        'Function profile: parameter section is required, but the URI template "users://{id}/{user}" has no variable {section} to give it a value: add one, or make the parameter optional',
      ),
      diagnostic(
        "resource_mismatch",
        "string): string { return id",
        93003,
        'Function profile: parameter note never gets a value: the URI template "users://{id}/{user}" has no variable {note}',
        "warning",
      ),
      diagnostic(
        "resource_mismatch",
        "string, b?",
        93003,
        'Function fixed: parameter a never gets a value: the resource\'s URI "config://app" has no variables, so its function takes no arguments (a ToolContext only)',
      ),
      diagnostic(
        "resource_mismatch",
        "string, ctx?",
        93003,
        'Function fixed: parameter b never gets a value: the resource\'s URI "config://app" has no variables, so its function takes no arguments (a ToolContext only)',
      ),
    ]);
  });

  test("TS93004 for a variable: text for a simple one, a list of texts for an exploded one", () => {
    expect(results.resource_not_text.diagnostics).toEqual([
      diagnostic(
        "resource_not_text",
        "string[]): string { return String(ids)",
        93004,
        `Function one: parameter ids cannot be the variable {ids} of the URI template, which is text: ${TEXT}, not string[]`,
      ),
      diagnostic(
        "resource_not_text",
        "string): string { return id;",
        93004,
        `Function two: parameter id cannot be the exploded variable {id*} of the URI template, which is a list of texts: ${LIST}, not string`,
      ),
      diagnostic(
        "resource_not_text",
        "Date, points",
        93004,
        `Function three: parameter at cannot be the variable {at} of the URI template, which is text: ${TEXT}, not Date`,
      ),
      diagnostic(
        "resource_not_text",
        "{ x: number }[]",
        93004,
        `Function three: parameter points cannot be the exploded variable {points*} of the URI template, which is a list of texts: ${LIST}, not { x: number; }[]`,
      ),
    ]);
  });

  test("the URI must be a string literal type and a template the runtime can match; the function must be there", () => {
    const invalid = (needle: string, message: string, nth = 0) =>
      diagnostic("resource_uri", needle, 93003, message, "error", nth);
    const unknown = (type: string) =>
      `The URI must be known at build time, so that its template can be checked against the function's parameters: pass a string literal, or a const holding one (this URI is a ${type})`;
    expect(results.resource_uri.diagnostics).toEqual([
      invalid("dynamic, f", unknown("string")),
      invalid("uri, f", unknown("string")),
      invalid(
        '"a://{x,y}"',
        'Resource URI "a://{x,y}" is not a URI template typemcp can serve: {x,y}: the SDK\'s UriTemplate.match matches only the first variable of an expression with several, unless its operator is "?" or "&": write one expression per variable',
      ),
      invalid(
        '"a://{#x}"',
        'Resource URI "a://{#x}" is not a URI template typemcp can serve: {#x}: the operator "#" is not one the SDK\'s UriTemplate.match handles ("", "+", ".", "/", "?", "&")',
      ),
      invalid(
        '"a://{x"',
        'Resource URI "a://{x" is not a URI template typemcp can serve: the expression at character 5 is not closed (a "}" is missing)',
      ),
      invalid("42 as any", "the second argument of mcp.resource is not a function"),
      invalid(
        'mcp.resource("a://{x}", ...rest)',
        "mcp.resource takes the URI and the resource function as its first two arguments, written out (not spread)",
      ),
    ]);
    // The contract goes fourth whatever was written before it.
    expect(emittedCalls(results.resource_uri.js).at(-1)!.args).toEqual(['"a://{x}"', "...rest", "void 0"]);
  });

  test("a URI registered twice on one server is an error naming the first; names and tools are apart", () => {
    expect(results.resource_duplicates.diagnostics).toEqual([
      diagnostic(
        "resource_duplicates",
        'mcp.resource("a://{x}", a, { name: "other" })',
        93003,
        'Resource URI "a://{x}" is already registered on this server, at .build/snippets/prompts-and-resources/resource_duplicates.ts:4:1: a URI (or URI template) names one resource',
      ),
    ]);
  });

  test("options.complete: each key names a variable, or TS93003 at the key", () => {
    expect(results.resource_complete.diagnostics).toEqual([
      diagnostic(
        "resource_complete",
        "y: () => []",
        93003,
        'options.complete: "y" is not a variable of resource template a://{x} (its variables: x), so its completer would never be asked',
      ),
    ]);
  });
});

test("registrations are found through the checker: a subclass, an element access, a destructured method; other classes' prompt() and resource() are not; a call with its contract is left as it is", () => {
  const result = results.registration_forms;
  expect(result.diagnostics).toEqual([]);
  expect(result.js).toContain(`sub.prompt(a, void 0, JSON.parse('{"v":2,"kind":"prompt","name":"a",`);
  expect(result.js).toContain(
    `mcp["resource"]("e://{x}", b, void 0, JSON.parse('{"v":2,"kind":"resource","name":"b","uri":"e://{x}","template":true,`,
  );
  expect(result.js).toContain(`addPrompt(b, void 0, JSON.parse('{"v":2,"kind":"prompt","name":"b",`);
  expect(result.js).toContain(`new Other().prompt(a);`);
  expect(result.js).toContain(`new Other().resource("o://x", a);`);
  expect(result.js).toContain(`mcp.prompt(a, {}, compiled);`);
});

test("the README's example compiles with no diagnostic: a prompt whose style completes from its type, a template whose id is a number", () => {
  expect(results.readme_example.compilerErrors).toEqual([]);
  expect(results.readme_example.diagnostics).toEqual([]);
  const [prompt, resource] = contracts("readme_example");
  expect(prompt).toMatchObject({
    kind: "prompt",
    name: "summarize",
    arguments: [
      { name: "id", description: "The note to summarize.", required: true },
      { name: "style", description: "How to write the summary.", required: false },
    ],
    convert: { id: "number" },
    completions: { style: ["short", "detailed"] },
  });
  expect(resource).toMatchObject({
    kind: "resource",
    name: "note",
    uri: "notes://{id}",
    template: true,
    contents: "json",
  });
});

test("the example of docs/prompts-and-resources.md compiles to these contracts", () => {
  expect(results.rules_example.compilerErrors).toEqual([]);
  expect(results.rules_example.diagnostics).toEqual([]);
  expect(contracts("rules_example")).toEqual([
    {
      v: 2,
      kind: "prompt",
      name: "review_code",
      description: "Review code for style.",
      params: ["code", "language", "strict"],
      arguments: [
        { name: "code", description: "The code.", required: true },
        { name: "language", description: "Its language.", required: false },
        { name: "strict", required: false },
      ],
      argumentsSchema: object(
        {
          code: { type: "string", description: "The code." },
          language: { type: "string", enum: ["ts", "py"], description: "Its language.", default: "ts" },
          strict: { type: "boolean" },
        },
        ["code"],
        "review_codeArguments",
      ),
      convert: { strict: "boolean" },
      completions: { language: ["ts", "py"], strict: ["true", "false"] },
    },
    {
      v: 2,
      kind: "resource",
      name: "profile",
      description: "A user's profile.",
      uri: "users://{id}/profile",
      template: true,
      params: ["id"],
      arguments: [{ name: "id", description: "The user's id.", required: true }],
      argumentsSchema: object({ id: { type: "integer", description: "The user's id." } }, ["id"], "profileArguments"),
      convert: { id: "number" },
      contents: "json",
      outputSchema: {
        title: "UserProfile",
        type: "object",
        properties: {
          name: { type: "string" },
          days: { type: "integer", description: "Days since the user joined." },
        },
        required: ["name", "days"],
        additionalProperties: false,
      },
    },
    {
      v: 2,
      kind: "resource",
      name: "config://app",
      uri: "config://app",
      params: [],
      arguments: [],
      argumentsSchema: object({}, [], "config://appArguments"),
      contents: "text",
    },
  ]);
});
