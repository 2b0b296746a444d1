/**
 * The type fixtures (fixtures/type_<construct>/): each registers echo tools, one per type,
 * `function echo_x(value: T): T`, so that one type is both a tool's input and its output.
 * This module finds them in the sources, says how to name each type from another file, and
 * connects a client to the built modules (test/global-setup.ts builds them).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { MCPServer } from "typemcp";
import { FIXTURES, FIXTURES_OUT } from "./fixtures";

export type JsonSchema = { [keyword: string]: unknown };

/** One echo tool of a type fixture. */
export interface EchoTool {
  /** `type_unions/echo_shape`: tool names repeat across fixtures. */
  id: string;
  /** `type_unions` */
  fixture: string;
  /** `echo_shape` */
  tool: string;
  /** The type as the fixture writes it: `Shape`, `Page<User>`, `readonly number[]`. */
  type: string;
  /** The same type, written from another module: fixture declarations as `<namespace>.<Name>`. */
  qualifiedType: string;
  /** The fixture source that declares it (absolute). */
  source: string;
}

/** What a module of a type fixture declares that the oracle needs. */
export interface FixtureModule {
  fixture: string;
  /** Absolute path of the `.ts` source. */
  source: string;
  /** Absolute path of the built module, which exports `mcp`. */
  built: string;
  /** The namespace its types are imported under from other files. */
  namespace: string;
  /** The type-only names the module imports from "typemcp" (`Integer`, ...). */
  typemcpImports: string[];
  /** Exported classes and their public instance accessors (getters, setters): not data. */
  accessors: Map<string, string[]>;
  tools: EchoTool[];
}

export const TYPE_FIXTURE_PREFIX = "type_";

function isExported(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** The top-level type declarations of a source file: name → exported (imported names → false: not declared here). */
function typeDeclarations(file: ts.SourceFile): Map<string, boolean> {
  const names = new Map<string, boolean>();
  for (const statement of file.statements) {
    const bindings =
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text.startsWith(".")
        ? statement.importClause?.namedBindings
        : undefined;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) names.set(element.name.text, false);
    if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.set(statement.name.text, isExported(statement));
    }
  }
  return names;
}

/** `type` with every reference to a declaration of `file` written as `<namespace>.<Name>`. */
function qualify(
  type: ts.TypeNode,
  file: ts.SourceFile,
  declared: Map<string, boolean>,
  namespace: string,
  where: string,
): string {
  const text = file.text;
  const start = type.getStart(file);
  const edits: { at: number; name: string }[] = [];
  const leftmost = (name: ts.EntityName | ts.Expression): ts.Identifier | undefined => {
    if (ts.isIdentifier(name)) return name;
    if (ts.isQualifiedName(name)) return leftmost(name.left);
    if (ts.isPropertyAccessExpression(name)) return leftmost(name.expression);
    return undefined;
  };
  const visit = (node: ts.Node): void => {
    let id: ts.Identifier | undefined;
    if (ts.isTypeReferenceNode(node)) id = leftmost(node.typeName);
    else if (ts.isTypeQueryNode(node)) id = leftmost(node.exprName);
    else if (ts.isExpressionWithTypeArguments(node)) id = leftmost(node.expression);
    if (id && declared.has(id.text)) {
      if (!declared.get(id.text))
        throw new Error(
          `${where}: the type ${id.text} must be declared and exported by this module (the oracle imports it from here)`,
        );
      edits.push({ at: id.getStart(file), name: id.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(type);
  let out = text.slice(start, type.end);
  for (const edit of edits.sort((a, b) => b.at - a.at)) {
    const at = edit.at - start;
    out = `${out.slice(0, at)}${namespace}.${out.slice(at)}`;
  }
  return out;
}

function readModule(fixture: string, source: string): FixtureModule {
  const file = ts.createSourceFile(source, fs.readFileSync(source, "utf8"), ts.ScriptTarget.Latest, true);
  const declared = typeDeclarations(file);
  const base = path.basename(source, ".ts");
  const namespace = `${fixture}__${base}`;
  const module: FixtureModule = {
    fixture,
    source,
    built: path.join(FIXTURES_OUT, fixture, `${base}.js`),
    namespace,
    typemcpImports: [],
    accessors: new Map(),
    tools: [],
  };
  const registered = new Set<string>();
  const echoes = new Map<string, ts.FunctionDeclaration>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "tool" &&
      node.arguments[0] &&
      ts.isIdentifier(node.arguments[0])
    ) {
      registered.add(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  for (const statement of file.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text === "typemcp"
    ) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements)
          if (element.isTypeOnly || statement.importClause!.isTypeOnly) module.typemcpImports.push(element.name.text);
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name?.text.startsWith("echo_")) {
      echoes.set(statement.name.text, statement);
    } else if (ts.isClassDeclaration(statement) && statement.name && isExported(statement)) {
      const accessors = statement.members
        .filter((m) => (ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) && ts.isIdentifier(m.name))
        .filter(
          (m) =>
            !hasModifier(m, ts.SyntaxKind.StaticKeyword) &&
            !hasModifier(m, ts.SyntaxKind.PrivateKeyword) &&
            !hasModifier(m, ts.SyntaxKind.ProtectedKeyword),
        )
        .map((m) => (m.name as ts.Identifier).text);
      if (accessors.length) module.accessors.set(statement.name.text, [...new Set(accessors)]);
    }
    visit(statement);
  }
  for (const [tool, fn] of echoes) {
    const where = `${path.relative(FIXTURES, source)}: ${tool}`;
    const parameter = fn.parameters[0];
    if (
      fn.parameters.length !== 1 ||
      !parameter.type ||
      !fn.type ||
      parameter.type.getText(file) !== fn.type.getText(file)
    ) {
      throw new Error(`${where}: an echo tool takes one parameter, value: T, and returns T`);
    }
    if (!registered.has(tool)) throw new Error(`${where}: never registered with mcp.tool`);
    module.tools.push({
      id: `${fixture}/${tool}`,
      fixture,
      tool,
      type: parameter.type.getText(file),
      qualifiedType: qualify(parameter.type, file, declared, namespace, where),
      source,
    });
  }
  return module;
}

/** Every module of every type fixture (`tool.ts` first), in folder order. */
export function typeFixtureModules(): FixtureModule[] {
  const modules: FixtureModule[] = [];
  const folders = fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith(TYPE_FIXTURE_PREFIX))
    .map((e) => e.name)
    .sort();
  for (const fixture of folders) {
    const files = fs
      .readdirSync(path.join(FIXTURES, fixture))
      .filter((f) => f.endsWith(".ts"))
      .sort((a, b) => (a === "tool.ts" ? -1 : b === "tool.ts" ? 1 : a.localeCompare(b)));
    for (const file of files) modules.push(readModule(fixture, path.join(FIXTURES, fixture, file)));
  }
  return modules;
}

/** An echo tool with what the server publishes for it. */
export interface ServedTool extends EchoTool {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** Whether structuredContent is `{"result": value}` (scalars, arrays, unions) rather than the value itself. */
  wrapped: boolean;
  client: Client;
}

/**
 * Whether an output schema is typemcp's wrapper `{"result": S}` rather than an object type's own
 * schema: the wrapper's root is the only object schema typemcp writes without `additionalProperties`.
 */
function isWrapper(schema: JsonSchema | undefined): boolean {
  if (!schema || schema.additionalProperties !== undefined || schema.patternProperties !== undefined) return false;
  const properties = Object.keys((schema.properties ?? {}) as object);
  return properties.length === 1 && properties[0] === "result" && JSON.stringify(schema.required) === '["result"]';
}

export interface ConnectedFixtures {
  tools: ServedTool[];
  /** Modules that did not load (a registration the build refused throws): the message, per module source. */
  failures: { source: string; error: string }[];
  close(): Promise<void>;
}

/** Loads every built type fixture module, connects a client to each server, lists the echo tools. */
export async function connectTypeFixtures(modules: FixtureModule[] = typeFixtureModules()): Promise<ConnectedFixtures> {
  const clients: Client[] = [];
  const tools: ServedTool[] = [];
  const failures: ConnectedFixtures["failures"] = [];
  for (const module of modules) {
    let mcp: MCPServer;
    try {
      ({ mcp } = require(module.built) as { mcp: MCPServer });
    } catch (error) {
      failures.push({ source: path.relative(FIXTURES, module.source), error: (error as Error).message });
      continue;
    }
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverTransport);
    const client = new Client({ name: "type-fixtures", version: "1.0.0" });
    await client.connect(clientTransport);
    clients.push(client);
    const listed = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const echo of module.tools) {
      const tool = listed.get(echo.tool);
      if (!tool) throw new Error(`${echo.fixture}: ${echo.tool} is not listed`);
      const outputSchema = tool.outputSchema as JsonSchema | undefined;
      tools.push({
        ...echo,
        inputSchema: tool.inputSchema as JsonSchema,
        outputSchema,
        wrapped: isWrapper(outputSchema),
        client,
      });
    }
  }
  return {
    tools,
    failures,
    close: async () => {
      for (const client of clients) await client.close();
    },
  };
}

/** The schema of the `value` argument, with the root's `$defs` (which its `$ref`s point into). */
export function valueSchema(tool: ServedTool): { schema: JsonSchema; root: JsonSchema } {
  const properties = tool.inputSchema.properties as Record<string, JsonSchema>;
  return { schema: properties.value, root: tool.inputSchema };
}
