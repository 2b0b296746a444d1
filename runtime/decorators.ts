import type { ToolContract } from "../contract/contract";
import type { ToolOptions } from "./tool";

/** A method marked with `@tool()`: its name, options and compiled contract. */
export interface MarkedMethod {
  method: string | symbol;
  options: ToolOptions;
  compiled?: ToolContract;
}

const MARKED = Symbol("typemcp.tools");

function marksOf(holder: object): MarkedMethod[] {
  if (!Object.prototype.hasOwnProperty.call(holder, MARKED)) {
    Object.defineProperty(holder, MARKED, { value: [], enumerable: false });
  }
  return (holder as { [MARKED]: MarkedMethod[] })[MARKED];
}

/**
 * Marks a method as a tool; `mcp.tools(instance)` registers every marked method of the
 * instance, bound to it. Same schemas and rules as `mcp.tool(fn, options)`: the transformer
 * compiles the decorated method. Works with TC39 decorators (TypeScript 5+, the default) and
 * with `experimentalDecorators`.
 *
 * ```ts
 * class Weather {
 *   @tool()
 *   get_weather(city: string): WeatherData { ... }
 * }
 * mcp.tools(new Weather());
 * ```
 *
 * @param options as for `mcp.tool`.
 * @param compiled written by the transformer (see ToolContract); leave it out.
 */
export function tool(options?: ToolOptions, compiled?: ToolContract) {
  // Both decorator calling conventions: TC39 (value, context) and legacy (prototype, key, descriptor).
  return function (valueOrPrototype: unknown, contextOrKey: unknown, _descriptor?: unknown): void {
    const mark = (method: string | symbol): MarkedMethod => ({ method, options: options ?? {}, compiled });
    if (
      contextOrKey !== null &&
      typeof contextOrKey === "object" &&
      (contextOrKey as { kind?: unknown }).kind === "method"
    ) {
      const context = contextOrKey as ClassMethodDecoratorContext;
      if (context.static) throw new Error(`typemcp: @tool() marks instance methods; ${String(context.name)} is static`);
      context.addInitializer(function (this: unknown) {
        marksOf(this as object).push(mark(context.name));
      });
      return;
    }
    if (typeof contextOrKey === "string" || typeof contextOrKey === "symbol") {
      marksOf(valueOrPrototype as object).push(mark(contextOrKey));
      return;
    }
    throw new Error("typemcp: @tool() decorates methods only");
  };
}

/** The methods marked in an instance: on the instance (TC39) and on its prototype chain (legacy decorators). */
export function markedMethods(instance: object): MarkedMethod[] {
  const found: MarkedMethod[] = [];
  const seen = new Set<string | symbol>();
  for (
    let holder: object | null = instance;
    holder && holder !== Object.prototype;
    holder = Object.getPrototypeOf(holder)
  ) {
    if (!Object.prototype.hasOwnProperty.call(holder, MARKED)) continue;
    for (const marked of (holder as { [MARKED]: MarkedMethod[] })[MARKED]) {
      if (seen.has(marked.method)) continue;
      seen.add(marked.method);
      found.push(marked);
    }
  }
  return found;
}
