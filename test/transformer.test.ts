/**
 * The transformer on registrations that cannot become tools, and on the edges of how a
 * registration is found: exact diagnostics (text, category, code, position), and what it
 * writes into the emitted call.
 */
import * as path from "node:path";
import * as ts from "typescript";
import { Ts5Checker } from "../transformer/ts5/checker";
import { ToolCompiler } from "../transformer/compile";
import { compileSnippets, snippetProgram, type SnippetResult } from "./support/snippets";
import { emittedRegistrations } from "./support/emitted-contracts";
import type { JsonSchema } from "typemcp";

const HEADER = `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("t");\n`;
const LINE = 3; // first line after HEADER

const sources: Record<string, string> = {
  overloaded: `function f(a: string): string;\nfunction f(a: number): number;\nfunction f(a: any) { return a; }\nmcp.tool(f);\n`,
  not_a_function: `const notFn: any = 42;\nmcp.tool(notFn);\n`,
  anonymous: `mcp.tool((city: string): string => city);\n`,
  bad_name: `function ok(): string { return ""; }\nmcp.tool(ok, { name: "get weather!" });\n`,
  rest_parameter: `function sum(...xs: number[]): number { return 0; }\nmcp.tool(sum);\n`,
  destructured: `function f({ city }: { city: string }, days: number): string { return city; }\nmcp.tool(f);\n`,
  destructured_array: `function f([a, b]: [number, number]): number { return a + b; }\nmcp.tool(f);\n`,
  bigint_parameter: `interface Q { id: bigint }\nfunction lookup(query: Q): string { return ""; }\nmcp.tool(lookup);\n`,
  strict_any: `function free(): any { return 1; }\nmcp.tool(free, { structuredOutput: true });\n`,
  strict_unannotated: `function free() { return 1; }\nmcp.tool(free, { structuredOutput: true });\n`,
  explicit_text: `class Station { constructor() {} }\nfunction get_station(): Station { return new Station(); }\nmcp.tool(get_station, { structuredOutput: false });\n`,
  options_variable: `class Station { constructor() {} }\nconst strict = { structuredOutput: true } as const;\nfunction get_station(): Station { return new Station(); }\nmcp.tool(get_station, strict);\n`,
  spread: `const args = [() => "x"] as const;\nmcp.tool(...args);\n`,
  unrelated_tool_method: `class MCPServer2 { tool(fn: () => string) { return fn; } }\nclass Other { tool(fn: () => string) { return fn; } }\nnew Other().tool(() => "x");\n`,
  name_from_const: `const NAME = "renamed";\nfunction f(): string { return ""; }\nmcp.tool(f, { name: NAME });\n`,
  dynamic_name: `function f(): string { return ""; }\nfor (const name of ["a", "b"]) mcp.tool(f, { name });\n`,
  malformed_tags: `interface Reading {\n  /** @minimum warm */\n  celsius: number;\n}\nfunction read(r: Reading): string { return ""; }\nmcp.tool(read);\n`,
  misapplied_tag: `interface Reading {\n  /** @minLength 2 */\n  celsius: number;\n}\nfunction latest(): Reading { return { celsius: 1 }; }\nmcp.tool(latest);\n`,
  bad_pattern: `interface Q {\n  /** @pattern [a- */\n  code: string;\n}\nfunction find(q: Q): string { return ""; }\nmcp.tool(find);\n`,
  strict_content: `import { image, type ImageContent } from "typemcp";\nfunction map(): ImageContent { return image("", "image/png"); }\nmcp.tool(map, { structuredOutput: true });\n`,
  duplicate_name: `function a(): string { return ""; }\nfunction b(): string { return ""; }\nmcp.tool(a);\nmcp.tool(b, { name: "a" });\nmcp.tool(a);\n`,
  same_name_other_servers: `function a(): string { return ""; }\nconst other = new MCPServer("o");\nmcp.tool(a);\nother.tool(a);\n`,
  reassignable_server: `function a(): string { return ""; }\nlet s = new MCPServer("x");\ns.tool(a);\ns = new MCPServer("y");\ns.tool(a);\n`,
  duplicate_methods: `import { tool } from "typemcp";\nexport class Tools {\n  @tool({ name: "same" })\n  a(): string { return ""; }\n  @tool({ name: "same" })\n  b(): string { return ""; }\n}\n`,
  long_name: `function ok(): string { return ""; }\nmcp.tool(ok, { name: "${"x".repeat(128)}" });\nmcp.tool(ok, { name: "${"y".repeat(129)}" });\n`,
  unknown_format_tag: `import type { Tag } from "typemcp";\nfunction mail(to: string & Tag<"format", "e-mail">): string { return to; }\nmcp.tool(mail);\n`,
  output_tags:
    `/** A reading. @minLength 2 */\ninterface Reading {\n  /**\n   * @minimum warm\n   * @maximum 60\n   * @default {low: 1, high: 2}\n   */\n  celsius: number;\n  /** @default {extra: {field: "value"}} */\n  extra?: Record<string, unknown>;\n}\n` +
    `function latest(): Reading { return { celsius: 1 }; }\nmcp.tool(latest, { structuredOutput: true });\n` +
    `interface Many {\n${Array.from({ length: 21 }, (_, i) => `  /** @minimum x */\n  a${i}: number;\n`).join("")}}\n` +
    `function many(): Many { return {} as Many; }\nmcp.tool(many);\n` +
    `interface ManyAndOne extends Many {\n  z: Uppercase<string>;\n}\nfunction many_and_one(): ManyAndOne { return {} as ManyAndOne; }\nmcp.tool(many_and_one);\n`,
  parameter_tags:
    `import type { ToolContext } from "typemcp";\n` +
    `/**\n * @minimum 3\n * @param x The x.\n */\nfunction stray(x: number): string { return ""; }\nmcp.tool(stray);\n` +
    `/**\n * @param dayz Typo. @maximum 1\n * @param ctx The call. @minimum 1\n */\nfunction misnamed(days: number, ctx: ToolContext): string { return ""; }\nmcp.tool(misnamed);\n` +
    `/**\n * @param days Days. @minimum 1\n */\nfunction destructured({ days }: { days: number }): string { return ""; }\nmcp.tool(destructured);\n` +
    `/**\n * @param warm Warmth. @minimum warm\n * @param days Days. @default 5\n * @param linked @maximum {@link Math}\n */\nfunction bad(warm: number, days = 3, linked = 1): string { return ""; }\nmcp.tool(bad);\n`,
  backtracking_patterns: String.raw`import type { Pattern } from "typemcp";
interface Q {
  /** @pattern ^(a)\1$ */
  code: string;
  /** @pattern ^[a-z]+$ */
  plain: string;
}
/**
 * @param tag A tag. @pattern (?<=x)y
 * @param id An id.
 */
function find(q: Q, tag: string, id: string & Pattern<"^(a{1,100}){1,100}$">): { out: string & Pattern<"^(a+){1,5000}$"> } {
  return { out: "a" };
}
mcp.tool(find);
`,
  required_function: `interface Handlers { label: string; onClick: () => void }\nfunction press(h: Handlers, then: () => void): string { return ""; }\nmcp.tool(press);\n`,
  optional_function: `function later(city: string, onProgress?: (done: number) => void, log = (line: string) => {}): string { return city; }\nmcp.tool(later);\n`,
};

let results: Record<string, SnippetResult>;
beforeAll(() => {
  results = compileSnippets(
    "transformer",
    Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, HEADER + v])),
  );
});

function only(name: string) {
  const result = results[name];
  expect(result.diagnostics).toHaveLength(1);
  return result.diagnostics[0];
}

test("a pattern the linear-time engine does not run is a warning at its parameter, naming why; the schema keeps it", () => {
  const { diagnostics } = results.backtracking_patterns;
  const why = (pattern: string, reason: string) =>
    `the pattern ${JSON.stringify(pattern)} holds ${reason}, which the linear-time engine does not run: V8's backtracking engine checks it, and a value it cannot decide in 100 ms is refused`;
  expect(diagnostics.map(({ line, category, code, message }) => ({ line, category, code, message }))).toEqual([
    {
      line: LINE + 11,
      category: "warning",
      code: 93007,
      message: `Function find: parameter q has a pattern that may backtrack: a value that takes it too long is refused\n  find: q.code: ${why("^(a)\\1$", "a backreference")}`,
    },
    {
      line: LINE + 11,
      category: "warning",
      code: 93007,
      message: `Function find: parameter tag has a pattern that may backtrack: a value that takes it too long is refused\n  find: tag: ${why("(?<=x)y", "a lookbehind")}`,
    },
    {
      line: LINE + 11,
      category: "warning",
      code: 93007,
      message: `Function find: parameter id has a pattern that may backtrack: a value that takes it too long is refused\n  find: id: ${why("^(a{1,100}){1,100}$", "counted repetitions that, written out, take more than 20,000 instructions")}`,
    },
  ]);
  // `(a+){1,5000}` is `a+` to the linear engine: no warning for the result. The schema keeps every pattern.
  const { inputSchema, outputSchema } = emittedRegistrations(results.backtracking_patterns.js)[0].contract;
  const properties = inputSchema.properties as Record<string, JsonSchema>;
  expect(((inputSchema.$defs as Record<string, JsonSchema>).Q.properties as Record<string, JsonSchema>).code).toEqual({
    type: "string",
    pattern: "^(a)\\1$",
  });
  expect(properties.tag).toEqual({ type: "string", description: "A tag.", pattern: "(?<=x)y" });
  expect(properties.id).toEqual({ type: "string", description: "An id.", pattern: "^(a{1,100}){1,100}$" });
  expect((outputSchema!.properties as Record<string, JsonSchema>).out).toEqual({
    type: "string",
    pattern: "^(a+){1,5000}$",
  });
});

test("the snippets are valid TypeScript apart from what typemcp reports", () => {
  for (const [name, result] of Object.entries(results)) expect([name, result.compilerErrors]).toEqual([name, []]);
});

test("overloaded functions are refused: which signature would the schema describe?", () => {
  expect(only("overloaded")).toEqual({
    file: "overloaded.ts",
    line: LINE + 3,
    column: 10,
    category: "error",
    code: 93003,
    message:
      "overloaded functions cannot be tools (which signature would the schema describe?): register a function with one signature",
  });
});

test("a value that is not a function is refused", () => {
  expect(only("not_a_function")).toMatchObject({
    line: LINE + 1,
    column: 10,
    category: "error",
    code: 93003,
    message: "the first argument of mcp.tool is not a function",
  });
});

test("an anonymous function needs a name", () => {
  expect(only("anonymous")).toMatchObject({
    line: LINE,
    column: 10,
    code: 93003,
    message: 'This tool function has no name: give it one, or pass { name: "..." } as options',
  });
});

test("tool names follow the MCP naming rules", () => {
  expect(only("bad_name")).toMatchObject({
    line: LINE + 1,
    column: 14,
    code: 93003,
    message: 'Tool name "get weather!" is not a valid MCP tool name: use 1 to 128 characters of A-Z a-z 0-9 _ . -',
  });
  // MCP's rule, the runtime's too: 128 characters are a name, 129 are not.
  expect(results.long_name.diagnostics.map((d) => [d.line, d.message])).toEqual([
    [
      LINE + 2,
      `Tool name "${"y".repeat(129)}" is not a valid MCP tool name: use 1 to 128 characters of A-Z a-z 0-9 _ . -`,
    ],
  ]);
});

test("a tool name registered twice on one server: an error at each later registration, naming the first", () => {
  const first = (file: string, line: number, column: number) =>
    `${path.join(".build", "snippets", "transformer", file)}:${line}:${column}`;
  expect(
    results.duplicate_name.diagnostics.map(({ line, column, code, category, message }) => ({
      line,
      column,
      code,
      category,
      message,
    })),
  ).toEqual([
    {
      line: LINE + 3,
      column: 1,
      code: 93003,
      category: "error",
      message: `Tool name "a" is already registered on this server, at ${first("duplicate_name.ts", LINE + 2, 1)}: give one of them another name with { name: "..." }`,
    },
    {
      line: LINE + 4,
      column: 1,
      code: 93003,
      category: "error",
      message: `Tool name "a" is already registered on this server, at ${first("duplicate_name.ts", LINE + 2, 1)}: give one of them another name with { name: "..." }`,
    },
  ]);
  expect(results.duplicate_methods.diagnostics.map(({ line, column, message }) => ({ line, column, message }))).toEqual(
    [
      {
        line: LINE + 4,
        column: 4,
        message: `Tool name "same" is already registered on this server, at ${first("duplicate_methods.ts", LINE + 2, 4)}: give one of them another name with { name: "..." }`,
      },
    ],
  );
});

test("the same tool name on two servers, or on a binding that may hold another server by then, is left to the runtime", () => {
  expect(results.same_name_other_servers.diagnostics).toEqual([]);
  expect(results.reassignable_server.diagnostics).toEqual([]);
});

test("rest and destructured parameters are refused with the reason", () => {
  expect(only("rest_parameter").message).toBe(
    "Function sum: rest parameter ...xs cannot be a tool argument: arguments are named",
  );
  expect(only("destructured").message).toBe(
    "Function f: a destructured object parameter must be the tool's only argument (its properties are the arguments)",
  );
  expect(only("destructured_array").message).toBe(
    "Function f: array destructuring cannot be a tool's parameters: name the parameter",
  );
});

test("a parameter type with no JSON form names the tool and the path inside the type", () => {
  expect(only("bigint_parameter")).toEqual({
    file: "bigint_parameter.ts",
    line: LINE + 1,
    column: 24,
    category: "error",
    code: 93002,
    message:
      "Function lookup: parameter query cannot be described as JSON Schema\n  lookup: query.id: bigint is not JSON-serializable (JSON.stringify throws on bigint): declare number (Number(value)) or string (String(value)) instead",
  });
});

test("a required function-typed parameter or property is an error with its path; an optional one is left out", () => {
  const fix =
    "declare data instead, or make it optional (an optional function is left out of the schema, as a method is)";
  expect(results.required_function.diagnostics).toEqual([
    {
      file: "required_function.ts",
      line: LINE + 1,
      column: 19,
      category: "error",
      code: 93002,
      message: `Function press: parameter h cannot be described as JSON Schema\n  press: h.onClick: () => void is a function, which JSON drops: ${fix}`,
    },
    {
      file: "required_function.ts",
      line: LINE + 1,
      column: 35,
      category: "error",
      code: 93002,
      message: `Function press: parameter then cannot be described as JSON Schema\n  press: then: () => void is a function, which JSON drops: ${fix}`,
    },
  ]);
  const [later] = emittedRegistrations(results.optional_function.js).map((r) => r.contract);
  expect(results.optional_function.diagnostics).toEqual([]);
  // Both stay in the call's parameters (the tool gets undefined, and a default applies), never in the schema.
  expect(later.params).toEqual(["city", "onProgress", "log"]);
  expect(later.inputSchema).toEqual({
    type: "object",
    title: "laterArguments",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  });
});

test("structuredOutput: true refuses any and unannotated return types", () => {
  expect(only("strict_any")).toMatchObject({
    category: "error",
    code: 93001,
    message:
      "Function free: return type any is not serializable for structured output\n  free: result: any says nothing about the value's shape",
  });
  expect(only("strict_unannotated")).toMatchObject({
    category: "error",
    code: 93001,
    message:
      "Function free: return type (not annotated) is not serializable for structured output\n  free: annotate the function's return type: the output schema is built from it",
  });
});

test("MCP content has no structured output: structuredOutput: true says so", () => {
  expect(only("strict_content")).toMatchObject({
    category: "error",
    code: 93001,
    message:
      "Function map: return type ImageContent is not serializable for structured output\n  map: result: ImageContent is MCP content (for the model), which has no structured output",
  });
});

test("structuredOutput: false is explicit and silent", () => {
  expect(results.explicit_text.diagnostics).toEqual([]);
  expect(results.explicit_text.js).not.toContain('"outputSchema"');
});

test("options are read from a const variable too", () => {
  expect(only("options_variable")).toMatchObject({
    line: LINE + 2,
    column: 25,
    category: "error",
    message:
      "Function get_station: return type Station is not serializable for structured output\n  get_station: result: Station is a class with no declared properties",
  });
});

test("a spread argument list is refused", () => {
  expect(only("spread")).toMatchObject({
    line: LINE + 1,
    column: 1,
    code: 93003,
    message: "mcp.tool takes the tool function as its first argument, written out (not spread)",
  });
});

test("tool() methods of other classes are not registrations", () => {
  expect(results.unrelated_tool_method.diagnostics).toEqual([]);
  expect(results.unrelated_tool_method.js).not.toContain('"v":');
});

test("a name from a const is known at build time; a dynamic one is left to the runtime", () => {
  expect(results.name_from_const.js).toContain('"name":"renamed"');
  expect(results.name_from_const.js).toContain('"title":"renamedOutput"');
  expect(results.dynamic_name.diagnostics).toEqual([]);
  expect(results.dynamic_name.js).toContain('"name":"f"');
});

test("a malformed or misapplied JSDoc tag is a diagnostic with the path to it", () => {
  expect(only("malformed_tags")).toMatchObject({
    category: "error",
    code: 93002,
    message:
      'Function read: parameter r cannot be described as JSON Schema\n  read: r.celsius: @minimum takes a number, not "warm"',
  });
  // In a result, a tag typemcp cannot use costs that tag, not the output schema.
  expect(only("misapplied_tag")).toMatchObject({
    category: "warning",
    code: 93001,
    message:
      "Function latest: return type Reading keeps its output schema without the JSDoc tags typemcp cannot use\n  latest: result.celsius: @minLength applies to strings only",
  });
  expect(emittedRegistrations(results.misapplied_tag.js)[0].contract.outputSchema).toEqual({
    title: "Reading",
    type: "object",
    properties: { celsius: { type: "number" } },
    required: ["celsius"],
    additionalProperties: false,
  });
  expect(only("bad_pattern").message).toMatch(
    /\n {2}find: q\.code: @pattern is not a valid regular expression: Invalid regular expression: \/\[a-\/u?: Unterminated character class$/,
  );
  expect(only("unknown_format_tag").message).toMatch(
    /\n {2}mail: to: Tag<"format", "e-mail">: format "e-mail" is not a format typemcp validates \(one of: date, time, date-time/,
  );
});

test("in a result, JSDoc tags typemcp cannot use are warnings and the output schema stays, without them, in every mode", () => {
  const [latest, many, manyAndOne] = results.output_tags.diagnostics;
  const lines = (message: string) => message.split("\n");
  // structuredOutput: true asks for a schema, and gets it.
  expect(latest).toMatchObject({ category: "warning", code: 93001, line: LINE + 11, column: 20 });
  expect(lines(latest.message)).toEqual([
    "Function latest: return type Reading keeps its output schema without the JSDoc tags typemcp cannot use",
    "  latest: result: Reading: @minLength applies to strings only",
    '  latest: result.celsius: @minimum takes a number, not "warm"',
  ]);
  const [latestContract, manyContract, manyAndOneContract] = emittedRegistrations(results.output_tags.js).map(
    (r) => r.contract,
  );
  // JSON5, as the value is written in code; the other tags of the property still apply.
  expect(latestContract.outputSchema).toEqual({
    title: "Reading",
    type: "object",
    properties: {
      celsius: { type: "number", maximum: 60, default: { low: 1, high: 2 } },
      extra: { type: "object", additionalProperties: {}, default: { extra: { field: "value" } } },
    },
    required: ["celsius"],
    additionalProperties: false,
    description: "A reading.",
  });
  // More than 20: the list is cut short, and the schema kept, since every one is a tag's.
  expect(many).toMatchObject({ category: "warning", code: 93001 });
  expect(lines(many.message)).toHaveLength(22);
  expect(lines(many.message).at(-1)).toBe("  many: result: ...and more: only the first 20 problems are listed");
  expect(manyContract.outputSchema).toMatchObject({ title: "Many", required: expect.arrayContaining(["a20"]) });
  // One more that is no tag's, beyond the 20 listed: no schema, as for any type that cannot be described.
  expect(lines(manyAndOne.message)[0]).toBe(
    "Function many_and_one: return type ManyAndOne is not serializable for structured output, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)",
  );
  expect(manyAndOneContract.outputSchema).toBeUndefined();
});

test("a parameter's JSDoc tag that cannot apply is an error, never ignored", () => {
  expect(
    results.parameter_tags.diagnostics.map(({ line, column, code, message }) => ({ line, column, code, message })),
  ).toEqual([
    {
      line: LINE + 6,
      column: 10,
      code: 93003,
      message:
        "Function stray: @minimum 3 in its JSDoc is for no parameter: write it after the parameter's @param, on the parameter itself, or name the parameter first (@minimum <parameter> 3)",
    },
    {
      line: LINE + 12,
      column: 10,
      code: 93003,
      message:
        "Function misnamed: @minimum 1 is for ctx, which is not one of the tool's arguments; @maximum 1 is for dayz, which is not one of the tool's arguments",
    },
    {
      line: LINE + 17,
      column: 10,
      code: 93003,
      message:
        "Function destructured: @minimum 1: the arguments of a destructured parameter are its type's properties: put the tag on the property",
    },
    {
      line: LINE + 23,
      column: 20,
      code: 93002,
      message:
        'Function bad: parameter warm cannot be described as JSON Schema\n  bad: warm: @minimum takes a number, not "warm"',
    },
    {
      line: LINE + 23,
      column: 28,
      code: 93002,
      message:
        "Function bad: parameter days cannot be described as JSON Schema\n  bad: days: @default 5 is not the parameter's default, 3",
    },
    {
      line: LINE + 23,
      column: 38,
      code: 93002,
      message:
        "Function bad: parameter linked cannot be described as JSON Schema\n  bad: linked: @maximum holds more than text (a {@link ...}): write its value as text",
    },
  ]);
});

test("a refused registration is emitted with its error, so the runtime refuses it too", () => {
  expect(results.overloaded.js).toContain(
    `mcp.tool(f, void 0, JSON.parse('{"v":2,"name":"","params":[],"inputSchema":{"type":"object"},"error":"overloaded functions cannot be tools`,
  );
});

test("a call that other transforms rewrite is still printed with its contract: lowered optional chaining, legacy decorators", () => {
  // The contract is added as the call is printed, to the call as the other transforms left it.
  const rewritten = compileSnippets(
    "rewritten",
    {
      chained:
        HEADER +
        `function shout(text: string): string { return text; }\nmcp?.tool(shout);\nmcp?.tool((city: string): string => city, { name: "echo" });\n`,
      legacy: `import { MCPServer, tool } from "typemcp";\nexport const mcp = new MCPServer("t");\nclass Tools {\n  /** Adds. */\n  @tool()\n  add(a: number, b: number): number { return a + b; }\n}\nmcp.tools(new Tools());\n`,
      refused:
        HEADER +
        `function f(x: string): string;\nfunction f(x: number): number;\nfunction f(x: any) { return x; }\nmcp?.tool(f);\n`,
    },
    undefined,
    { target: ts.ScriptTarget.ES2019, experimentalDecorators: true, lib: ["lib.es2022.d.ts"] },
  );
  for (const result of Object.values(rewritten)) expect(result.compilerErrors).toEqual([]);
  // ES2019 has no `?.`: the call is rebuilt inside a conditional (and the module transform
  // writes the exported `mcp` as `exports.mcp`), and still carries its contract.
  expect(rewritten.chained.js).toContain(
    `exports.mcp === null || exports.mcp === void 0 ? void 0 : exports.mcp.tool(shout, void 0, JSON.parse('{"v":2,"name":"shout",`,
  );
  expect(rewritten.chained.js).toContain(
    `mcp.tool((city) => city, { name: "echo" }, JSON.parse('{"v":2,"name":"echo",`,
  );
  expect(rewritten.legacy.js).toContain(
    `(0, typemcp_1.tool)(void 0, JSON.parse('{"v":2,"name":"add","params":["a","b"],`,
  );
  expect(rewritten.legacy.js).toContain("__decorate([");
  // Diagnostics come from the original call, where the source has it, once.
  expect(rewritten.refused.diagnostics).toEqual([
    {
      file: "refused.ts",
      category: "error",
      code: 93003,
      line: LINE + 3,
      column: 11,
      message:
        "overloaded functions cannot be tools (which signature would the schema describe?): register a function with one signature",
    },
  ]);
  expect(rewritten.refused.js).toContain(
    `mcp.tool(f, void 0, JSON.parse('{"v":2,"name":"","params":[],"inputSchema":{"type":"object"},"error":"overloaded functions cannot be tools`,
  );
});

test("the transformer never throws out of the compiler: an internal failure is a diagnostic", () => {
  const sabotaged = compileSnippets(
    "sabotaged",
    { tool: HEADER + `function f(): string { return ""; }\nmcp.tool(f);\n` },
    (program) => {
      const checker = program.getTypeChecker();
      const broken = new Proxy(checker, {
        get: (target, key) =>
          key === "getTypeOfSymbol"
            ? () => {
                throw new Error("checker exploded");
              }
            : Reflect.get(target, key),
      });
      return new Proxy(program, {
        get: (target, key) => (key === "getTypeChecker" ? () => broken : Reflect.get(target, key)),
      }) as ts.Program;
    },
  );
  const [diagnostic] = sabotaged.tool.diagnostics;
  expect(diagnostic).toMatchObject({ category: "error", code: 93099, line: LINE + 1, column: 1 });
  expect(diagnostic.message).toMatch(
    /^typemcp could not compile this tool registration \(please report it\): Error: checker exploded/,
  );
  expect(sabotaged.tool.js).toContain('"error":"typemcp could not compile this tool registration');
});

test("each distinct type is converted once per program: 500 tools sharing types cost what one costs", () => {
  const shared =
    `interface Station { id: string; name: string; location: { lat: number; lon: number } }\n` +
    `interface Weather { temperature: number; station: Station; history: { day: string; high: number }[]; tags?: string[] }\n`;
  const tools = (n: number) =>
    shared +
    Array.from(
      { length: n },
      (_, i) =>
        `function get_weather_${i}(city: string, days?: number): Weather | null { return null; }\nmcp.tool(get_weather_${i});\n`,
    ).join("");
  const converted = (n: number) => {
    const program = snippetProgram(`cache_${n}`, { tools: HEADER + tools(n) });
    const compiler = new ToolCompiler(new Ts5Checker(program.getTypeChecker(), program));
    let registrations = 0;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && compiler.isRegistration(node)) {
        expect(compiler.compile(node).diagnostics).toEqual([]);
        registrations++;
      }
      ts.forEachChild(node, visit);
    };
    visit(program.getSourceFiles().find((f) => f.fileName.endsWith("tools.ts"))!);
    expect(registrations).toBe(n);
    return compiler.typesConverted;
  };
  const one = converted(1);
  expect(one).toBeGreaterThan(5);
  expect(converted(500)).toBe(one);
});

test("the JSDoc tsc skips is parsed where typemcp reads it, with the language service's rules", () => {
  // tsc parses no JSDoc in TypeScript files; an editor parses it all. typemcp parses the comments it
  // reads, so both give the same contract: a function's comment and its @param, the variable
  // statement of an arrow function, comments and tags inherited from a base in another file,
  // @inheritDoc, a comment on a parameter itself, and one tsc parses anyway (it has @see); the
  // tags of a parameter, after its @param, naming it, and on the parameter itself.
  const sources = {
    base:
      `export interface Located {\n  /**\n   * Latitude in degrees.\n   * @minimum -90\n   * @maximum 90\n   */\n  lat: number;\n  /** Longitude in degrees. */\n  lon: number;\n}\n` +
      `export class Named {\n  /** The station's name. */\n  name = "";\n}\n`,
    docs:
      HEADER +
      `import { Named, type Located } from "./base";\n` +
      `/** A weather station. */\ninterface Station extends Located {\n  lat: number;\n  /**\n   * @inheritDoc\n   * East is positive.\n   */\n  lon: number;\n}\n` +
      `class Tower extends Named {\n  name = "t";\n  /** Height in metres. */\n  height = 1;\n}\n` +
      `/**\n * Finds a station.\n * @param code The station's code. @pattern ^[A-Z]{3}$\n * @maxLength code 3\n */\nexport const find_station = (code: string, near?: Located): Station => ({ lat: 0, lon: 0 });\n` +
      `/** Lists towers. */\nfunction towers(/** How many. @minimum 1 */ limit: number): Tower[] { return []; }\n` +
      `/** Counts stations; see {@link find_station}. */\nfunction count(/** Of the region. */ region: string): number { return 0; }\n` +
      `mcp.tool(find_station);\nmcp.tool(towers);\nmcp.tool(count);\n`,
  };
  const contracts = (mode: ts.JSDocParsingMode, folder: string) => {
    const compiled = compileSnippets(folder, sources, undefined, {}, mode);
    expect(compiled.docs.compilerErrors).toEqual([]);
    expect(compiled.docs.diagnostics).toEqual([]);
    return emittedRegistrations(compiled.docs.js).map((r) => r.contract);
  };
  const skipped = contracts(ts.JSDocParsingMode.ParseForTypeErrors, "jsdoc_skipped");
  expect(contracts(ts.JSDocParsingMode.ParseAll, "jsdoc_parsed")).toEqual(skipped);
  const latitude = { type: "number", description: "Latitude in degrees.", minimum: -90, maximum: 90 };
  const [find_station, towers, count] = skipped;
  const definition = (schema: JsonSchema | undefined, name: string) =>
    (schema!.$defs as Record<string, JsonSchema>)[name];
  expect(find_station.description).toBe("Finds a station.");
  expect(find_station.inputSchema.properties).toEqual({
    code: { type: "string", description: "The station's code.", pattern: "^[A-Z]{3}$", maxLength: 3 },
    near: { $ref: "#/$defs/Located" },
  });
  expect(definition(find_station.inputSchema, "Located").properties).toEqual({
    lat: latitude,
    lon: { type: "number", description: "Longitude in degrees." },
  });
  expect(find_station.outputSchema).toEqual({
    title: "Station",
    type: "object",
    properties: { lat: latitude, lon: { type: "number", description: "Longitude in degrees.\nEast is positive." } },
    required: ["lat", "lon"],
    additionalProperties: false,
    description: "A weather station.",
  });
  expect(towers.description).toBe("Lists towers.");
  expect(towers.inputSchema.properties).toEqual({ limit: { type: "number", description: "How many.", minimum: 1 } });
  expect(definition(towers.outputSchema, "Tower").properties).toEqual({
    name: { type: "string", description: "The station's name." },
    height: { type: "number", description: "Height in metres." },
  });
  expect(count.description).toBe("Counts stations; see {@link find_station}.");
  expect(count.inputSchema.properties).toEqual({ region: { type: "string", description: "Of the region." } });
});

describe("the Dates of the arguments: the plan written into the contract", () => {
  // Each tool's `dates`, exactly: where the runtime makes a Date of a date-time string
  // (runtime/dates.ts). Declarations the tools share are written once.
  const DECLARATIONS =
    `import type { Format } from "typemcp";\n` +
    `interface Meeting { title: string; at: Date; ends?: Date }\n` +
    `interface Range { from: Date; to?: Date; label: string }\n` +
    `interface Plain { title: string; count: number }\n` +
    `type Step = { kind: "wait"; until: Date; then?: Step | Fork } | { kind: "stop" };\n` +
    `interface Fork { kind: "fork"; at: Date; branches: (Step | Fork)[] }\n`;
  const tools: Record<string, string> = {
    none: `(count: number, plain: Plain, stamp: string & Format<"date-time">, stamps: Record<string, string>)`,
    top: `(at: Date, count: number)`,
    optional_nullable: `(at?: Date | null, until: Date | undefined = undefined)`,
    shared: `(first: Meeting, rest: Meeting[], byRoom: Record<string, Meeting>)`,
    destructured: `({ from, to }: Range)`,
    literals_beside: `(at: Date | "now" | "never" | 0)`,
    tuples: `(pair: [Date, string, ...Date[]], head: [string, Date], tail: [Date, string])`,
    number_keys: `(byDay: Record<number, Date>)`,
    template_keys: `(log: { note: string; [key: \`at_\${string}\`]: Date })`,
    merged_objects: `(event: { kind: "once"; at: Date } | { kind: "every"; hours: number; at?: number })`,
    recursive_union: `(step: Step | Fork)`,
    absent: `(at: Date, nothing?: undefined)`,
  };
  let plans: Record<string, unknown>;
  beforeAll(() => {
    const body = Object.entries(tools)
      .map(([name, params]) => `function ${name}${params}: string { return ""; }\nmcp.tool(${name});\n`)
      .join("");
    const compiled = compileSnippets("dates", { tools: HEADER + DECLARATIONS + body }).tools;
    expect(compiled.compilerErrors).toEqual([]);
    expect(compiled.diagnostics).toEqual([]);
    plans = Object.fromEntries(emittedRegistrations(compiled.js).map(({ fn, contract }) => [fn, contract.dates]));
  });

  const date = { date: true };

  test('a tool whose arguments hold no Date has no plan: a string & Format<"date-time"> stays a string', () => {
    expect(plans.none).toBeUndefined();
  });

  test("parameters, optional and nullable ones: null and a missing argument stay as they are", () => {
    expect(plans.top).toEqual({ arguments: { properties: { at: date } } });
    expect(plans.optional_nullable).toEqual({ arguments: { properties: { at: date, until: date } } });
    expect(plans.absent).toEqual({ arguments: { properties: { at: date } } });
  });

  test("a named type's plan is written once and referred to, in arrays and records too", () => {
    expect(plans.shared).toEqual({
      arguments: {
        properties: {
          first: { ref: "Meeting" },
          rest: { items: { ref: "Meeting" } },
          byRoom: { additionalProperties: { ref: "Meeting" } },
        },
      },
      defs: { Meeting: { properties: { at: date, ends: date } } },
    });
  });

  test("one destructured parameter: its object is the arguments object", () => {
    expect(plans.destructured).toEqual({
      arguments: { ref: "Range" },
      defs: { Range: { properties: { from: date, to: date } } },
    });
  });

  test("a union's string literals stay strings beside a Date; a number is never a Date", () => {
    expect(plans.literals_beside).toEqual({
      arguments: { properties: { at: { date: true, keep: ["now", "never"] } } },
    });
  });

  test("tuples by position: before a rest element every position is listed, null where no Date is", () => {
    expect(plans.tuples).toEqual({
      arguments: {
        properties: {
          pair: { prefixItems: [date, null], items: date },
          head: { prefixItems: [null, date] },
          tail: { prefixItems: [date] },
        },
      },
    });
  });

  test("records: Record<number, Date> is an object or an array; declared keys beside an index signature are listed as null", () => {
    expect(plans.number_keys).toEqual({
      arguments: { properties: { byDay: { items: date, additionalProperties: date } } },
    });
    expect(plans.template_keys).toEqual({
      arguments: { properties: { log: { properties: { note: null }, additionalProperties: date } } },
    });
  });

  test("a union of objects is merged by key, as its values are JSON; a recursive union refers to itself", () => {
    expect(plans.merged_objects).toEqual({ arguments: { properties: { event: { properties: { at: date } } } } });
    expect(plans.recursive_union).toEqual({
      arguments: { properties: { step: { ref: "Step_Fork" } } },
      defs: {
        Step_Fork: {
          properties: { until: date, then: { ref: "Step_Fork" }, at: date, branches: { items: { ref: "Step_Fork" } } },
        },
      },
    });
  });
});
