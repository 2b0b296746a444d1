/**
 * The transformer under every way tsc builds, not only a plain program:
 *
 * - declaration files: `declaration: true` output is byte for byte the same with and without
 *   the transformer (only the JavaScript carries contracts);
 * - `--incremental`: a second build from the .tsbuildinfo re-emits what changed (with the new
 *   schemas, also in files that only import a changed type) and nothing else, and its output
 *   is identical to a full build of the same sources;
 * - `--watch`: the watch program's builder emits through the transformer, and editing a file
 *   emits the new contract;
 * - `--build` with project references: the tools' types come from a referenced project (its
 *   .d.ts output), the transformer is passed through the solution builder's custom
 *   transformers, and a change in the referenced project rebuilds the tools with the new schema.
 */
import * as path from "node:path";
import * as ts from "typescript";
import { createTransformer } from "typemcp/transformer";
import { TSC_JSDOC_PARSING, tscCompilerHost } from "./support/build";
import {
  contractsIn,
  emitWith,
  formatted,
  projectOptions,
  readTree,
  sourcesOf,
  writeFile,
  writeProject,
} from "./support/build-modes";

const TYPES = `/** A weather reading. */
export interface Weather {
  /** Degrees Celsius. */
  temperature: number;
  conditions: "sunny" | "rain";
}

export type Unit = "metric" | "imperial";
`;

const TOOLS = `import { MCPServer, tool, type Integer } from "typemcp";
import type { Unit, Weather } from "./types";

export const mcp = new MCPServer("modes");

/** Current weather for a city. */
export function get_weather(city: string, unit: Unit = "metric"): Weather {
  return { temperature: unit === "metric" ? 16 : 61, conditions: "rain" };
}

export class Forecasts {
  /** Daily forecast. */
  @tool()
  forecast(city: string, days: Integer): Weather[] {
    return [];
  }
}

mcp.tool(get_weather);
mcp.tools(new Forecasts());
`;

const OTHER = `import { mcp } from "./tools";

export function identity<T>(value: T): T {
  return value;
}

export function pick(a: string): string;
export function pick(a: number): number;
export function pick(a: string | number) {
  return a;
}

export const shout = (text: string): { text: string; length: number } => ({ text: text.toUpperCase(), length: text.length });

export abstract class Shape {
  abstract area(): number;
  protected constructor(readonly name: string) {}
}

export enum Level { Low, High }

mcp.tool(shout);
`;

const SOURCES = { "src/types.ts": TYPES, "src/tools.ts": TOOLS, "src/other.ts": OTHER };

function build(dir: string, transform: boolean, extra: ts.CompilerOptions = {}) {
  const options = projectOptions(dir, extra);
  const program = ts.createProgram({ rootNames: sourcesOf(dir), options, host: tscCompilerHost(options) });
  return emitWith(program, dir, transform);
}

const only = (files: Record<string, string>, ext: string) =>
  Object.fromEntries(Object.entries(files).filter(([f]) => f.endsWith(ext)));

test("declaration files are the same with and without the transformer, byte for byte", () => {
  const plain = build(writeProject("dts_plain", SOURCES), false, { declaration: true });
  const transformed = build(writeProject("dts_transformed", SOURCES), true, { declaration: true });
  expect(formatted(plain.compiler)).toEqual([]);
  expect(formatted(transformed.typemcp)).toEqual([]);
  const declarations = only(transformed.files, ".d.ts");
  expect(Object.keys(declarations).sort()).toEqual(["out/other.d.ts", "out/tools.d.ts", "out/types.d.ts"]);
  expect(declarations).toEqual(only(plain.files, ".d.ts"));
  // ...while the JavaScript differs by the contracts alone.
  expect(Object.keys(contractsIn(transformed.files["out/tools.js"])).sort()).toEqual(["forecast", "get_weather"]);
  expect(Object.keys(contractsIn(transformed.files["out/other.js"]))).toEqual(["shout"]);
  expect(contractsIn(plain.files["out/tools.js"])).toEqual({});
});

test("declaration maps and declarationDir too", () => {
  const extra = { declaration: true, declarationMap: true, declarationDir: "types" } as const;
  const plainDir = writeProject("dts_map_plain", SOURCES);
  const transformedDir = writeProject("dts_map_transformed", SOURCES);
  const plain = build(plainDir, false, { ...extra, declarationDir: path.join(plainDir, "types") });
  const transformed = build(transformedDir, true, { ...extra, declarationDir: path.join(transformedDir, "types") });
  const declarations = Object.fromEntries(Object.entries(transformed.files).filter(([f]) => f.startsWith("types/")));
  expect(Object.keys(declarations)).toHaveLength(6);
  expect(declarations).toEqual(Object.fromEntries(Object.entries(plain.files).filter(([f]) => f.startsWith("types/"))));
});

describe("--incremental", () => {
  const incremental = (dir: string, extra: ts.CompilerOptions = {}) => {
    const options = projectOptions(dir, {
      incremental: true,
      declaration: true,
      tsBuildInfoFile: path.join(dir, "out", ".tsbuildinfo"),
      ...extra,
    });
    const host = ts.createIncrementalCompilerHost(options);
    host.jsDocParsingMode = TSC_JSDOC_PARSING; // as tsc's own host
    return emitWith(ts.createIncrementalProgram({ rootNames: sourcesOf(dir), options, host }), dir, true);
  };

  test("a second build emits only what changed, with the new schemas, and the same output as a full build", () => {
    const dir = writeProject("incremental", SOURCES);
    const first = incremental(dir);
    expect(formatted(first.typemcp)).toEqual([]);
    expect(Object.keys(first.files).sort()).toEqual([
      "out/.tsbuildinfo",
      "out/other.d.ts",
      "out/other.js",
      "out/tools.d.ts",
      "out/tools.js",
      "out/types.d.ts",
      "out/types.js",
    ]);

    // Nothing changed: nothing but the build info is written.
    expect(Object.keys(incremental(dir).files).filter((f) => !f.endsWith(".tsbuildinfo"))).toEqual([]);

    // A type changes in types.ts: tools.ts, which only imports it, gets the new schema.
    writeFile(
      dir,
      "src/types.ts",
      TYPES.replace(
        'conditions: "sunny" | "rain";',
        'conditions: "sunny" | "rain" | "snow";\n  /** Relative humidity. */\n  humidity?: number;',
      ),
    );
    const second = incremental(dir);
    expect(formatted(second.typemcp)).toEqual([]);
    expect(second.files["out/tools.js"]).toBeDefined();
    const weather = contractsIn(second.files["out/tools.js"]).get_weather.outputSchema!;
    expect(weather.properties).toMatchObject({
      conditions: { enum: ["sunny", "rain", "snow"] },
      humidity: { type: "number", description: "Relative humidity." },
    });
    expect(contractsIn(second.files["out/tools.js"]).forecast.outputSchema).toMatchObject({
      properties: { result: { items: { $ref: "#/$defs/Weather" } } },
    });

    // A tool's own file changes.
    writeFile(dir, "src/other.ts", OTHER.replace("length: number", "length: number; words: string[]"));
    const third = incremental(dir);
    expect(
      Object.keys(third.files)
        .filter((f) => f.endsWith(".js"))
        .sort(),
    ).toEqual(["out/other.js"]);
    expect(contractsIn(third.files["out/other.js"]).shout.outputSchema).toMatchObject({
      required: ["text", "length", "words"],
    });

    // The incremental output is the output of a full build of the same sources.
    const full = writeProject("incremental_full", { "src/types.ts": "", "src/tools.ts": "", "src/other.ts": "" });
    for (const file of ["src/types.ts", "src/tools.ts", "src/other.ts"]) writeFile(full, file, readTree(dir)[file]);
    build(full, true, { declaration: true });
    const outputs = (d: string) =>
      Object.fromEntries(Object.entries(readTree(path.join(d, "out"))).filter(([f]) => !f.endsWith(".tsbuildinfo")));
    expect(Object.keys(outputs(dir))).toHaveLength(6);
    expect(outputs(dir)).toEqual(outputs(full));
  });

  // With removeComments the declaration files do not change: the importing file is re-emitted all the same.
  test.each([false, true])(
    "a change to a JSDoc comment alone reaches the schemas of the files that import the type (removeComments: %s)",
    (removeComments) => {
      const dir = writeProject(`incremental_jsdoc_${removeComments}`, SOURCES);
      incremental(dir, { removeComments });
      writeFile(
        dir,
        "src/types.ts",
        TYPES.replace("/** Degrees Celsius. */", "/**\n   * Degrees Celsius.\n   * @minimum -90\n   */"),
      );
      const second = incremental(dir, { removeComments });
      expect(contractsIn(second.files["out/tools.js"]).get_weather.outputSchema!.properties).toMatchObject({
        temperature: { description: "Degrees Celsius.", minimum: -90 },
      });
    },
  );
});

test("--watch: the watch program emits through the transformer, and an edit emits the new contract", async () => {
  const dir = writeProject("watch", SOURCES);
  // The watchers are the test's: it fires them itself after writing a file, instead of waiting on the OS.
  const fileWatchers = new Map<string, ts.FileWatcherCallback[]>();
  const system: ts.System = {
    ...ts.sys,
    watchFile: (file, callback) => {
      fileWatchers.set(file, [...(fileWatchers.get(file) ?? []), callback]);
      return {
        close: () =>
          fileWatchers.set(
            file,
            (fileWatchers.get(file) ?? []).filter((c) => c !== callback),
          ),
      };
    },
    watchDirectory: () => ({ close: () => undefined }),
    setTimeout: (callback, ms, ...args) => setTimeout(callback, Math.min(ms, 10), ...args),
    clearTimeout: (id) => clearTimeout(id),
    clearScreen: () => undefined,
  };
  const builds: Emitted[] = [];
  let built: (() => void) | undefined;
  const host = ts.createWatchCompilerHost(
    sourcesOf(dir),
    projectOptions(dir),
    system,
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    () => undefined,
    () => undefined,
  );
  host.jsDocParsingMode = TSC_JSDOC_PARSING; // as tsc's own host
  host.afterProgramCreate = (builder) => {
    builds.push(emitWith(builder, dir, true));
    built?.();
  };
  const nextBuild = () => new Promise<void>((resolve) => (built = resolve));
  const watch = ts.createWatchProgram(host);
  try {
    expect(builds).toHaveLength(1);
    expect(formatted(builds[0].typemcp)).toEqual([]);
    expect(contractsIn(builds[0].files["out/tools.js"]).get_weather.inputSchema).toMatchObject({ required: ["city"] });

    const tools = path.join(dir, "src", "tools.ts");
    writeFile(dir, "src/tools.ts", TOOLS.replace('unit: Unit = "metric"', "unit: Unit, when?: string"));
    const rebuilt = nextBuild();
    for (const callback of fileWatchers.get(tools) ?? []) callback(tools, ts.FileWatcherEventKind.Changed, new Date());
    await rebuilt;
    expect(builds).toHaveLength(2);
    // tools.js, and other.js, which imports from it; types.js is left as it was.
    expect(Object.keys(builds[1].files).sort()).toEqual(["out/other.js", "out/tools.js"]);
    const contract = contractsIn(builds[1].files["out/tools.js"]).get_weather;
    expect(contract.inputSchema).toMatchObject({
      required: ["city", "unit"],
      properties: { when: { type: "string" } },
    });
  } finally {
    watch.close();
  }
});

type Emitted = ReturnType<typeof emitWith>;

test("--build with project references: types from the referenced project, transformer through the solution builder", () => {
  const dir = writeProject("references", {
    "core/tsconfig.json": JSON.stringify({
      compilerOptions: { ...tsconfigOptions(), composite: true, rootDir: "src", outDir: "out" },
      include: ["src"],
    }),
    "core/src/types.ts": TYPES,
    "core/src/api.ts": `import type { Unit, Weather } from "./types";\n\n/** Weather by station code. */\nexport function by_station(code: string, unit: Unit = "metric"): Weather {\n  return { temperature: 1, conditions: "sunny" };\n}\n`,
    "app/tsconfig.json": JSON.stringify({
      compilerOptions: { ...tsconfigOptions(), rootDir: "src", outDir: "out" },
      include: ["src"],
      references: [{ path: "../core" }],
    }),
    // The app registers a tool of its own, and one declared in the referenced project (seen through its .d.ts).
    "app/src/tools.ts": `${TOOLS.replace('"./types"', '"../../core/src/types"')}import { by_station } from "../../core/src/api";\nmcp.tool(by_station);\n`,
  });
  // The solution builder asks for custom transformers by project; the program each project was
  // built with is taken from the createProgram it calls.
  const programs = new Map<string, ts.Program>();
  const typemcp: ts.Diagnostic[] = [];
  const createProgram: ts.CreateProgram<ts.EmitAndSemanticDiagnosticsBuilderProgram> = (...args) => {
    const builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(...args);
    programs.set(builder.getCompilerOptions().configFilePath as string, builder.getProgram());
    return builder;
  };
  const compilerErrors: string[] = [];
  const host = ts.createSolutionBuilderHost(
    ts.sys,
    createProgram,
    (d) => compilerErrors.push(ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    () => undefined,
  );
  host.jsDocParsingMode = TSC_JSDOC_PARSING; // as tsc's own host
  const written: string[] = [];
  const writeFileCallback: ts.WriteFileCallback = (fileName, text, bom) => {
    written.push(path.relative(dir, fileName));
    ts.sys.writeFile(fileName, text, bom);
  };
  const customTransformers = (project: string): ts.CustomTransformers => ({
    before: [
      (context) => createTransformer(programs.get(project)!, { addDiagnostic: (d) => typemcp.push(d) })(context),
    ],
  });
  const app = path.join(dir, "app", "tsconfig.json");
  const buildAll = () => {
    written.length = 0;
    return ts
      .createSolutionBuilder(host, [app], { verbose: false })
      .build(undefined, undefined, writeFileCallback, customTransformers);
  };

  expect(buildAll()).toBe(ts.ExitStatus.Success);
  expect(compilerErrors).toEqual([]);
  expect(formatted(typemcp)).toEqual([]);
  expect(written.sort()).toEqual([
    "app/out/tools.d.ts",
    "app/out/tools.js",
    "app/tsconfig.tsbuildinfo",
    "core/out/api.d.ts",
    "core/out/api.js",
    "core/out/types.d.ts",
    "core/out/types.js",
    "core/tsconfig.tsbuildinfo",
  ]);
  // The app's program saw Weather in the referenced project's declaration file, JSDoc included.
  expect(
    programs
      .get(app)!
      .getSourceFiles()
      .some((f) => f.fileName.endsWith("core/out/types.d.ts")),
  ).toBe(true);
  const first = contractsIn(readTree(path.join(dir, "app", "out"))["tools.js"]).get_weather;
  expect(first.outputSchema).toMatchObject({
    title: "Weather",
    description: "A weather reading.",
    properties: { temperature: { type: "number", description: "Degrees Celsius." } },
  });
  // The declaration file has no default value: the parameter is optional, its default unknown to the schema.
  const byStation = contractsIn(readTree(path.join(dir, "app", "out"))["tools.js"]).by_station;
  expect(byStation).toMatchObject({
    description: "Weather by station code.",
    params: ["code", "unit"],
    inputSchema: { required: ["code"], properties: { unit: { enum: ["metric", "imperial"] } } },
  });
  expect(byStation.outputSchema).toEqual(first.outputSchema);

  // A change in the referenced project rebuilds it, then the tools, with the new schema.
  writeFile(
    dir,
    "core/src/types.ts",
    TYPES.replace("  temperature: number;", "  temperature: number;\n  /** Wind speed, km/h. */\n  wind?: number;"),
  );
  const status = buildAll();
  expect(compilerErrors).toEqual([]);
  expect(status).toBe(ts.ExitStatus.Success);
  expect(written).toContain("app/out/tools.js");
  const second = contractsIn(readTree(path.join(dir, "app", "out"))["tools.js"]).get_weather;
  expect(second.outputSchema).toMatchObject({
    required: ["temperature", "conditions"],
    properties: { wind: { type: "number", description: "Wind speed, km/h." } },
  });
  expect(formatted(typemcp)).toEqual([]);
});

function tsconfigOptions() {
  return {
    target: "ES2022",
    module: "node16",
    moduleResolution: "node16",
    strict: true,
    skipLibCheck: true,
    types: [],
    declaration: true,
  };
}
