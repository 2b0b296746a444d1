/**
 * The session on TypeScript 7: the project read through the API (project.ts), and its build by
 * the path that fits: TypeScript 7.1 and later emit through the API, in its one process
 * (emit.ts); 7.0, and a project whose options only tsc honours, run tsc beside it (build.ts).
 * Each path is loaded only by a build.
 */
import type { Built, Session } from "../session";
import { Ts7Project } from "./project";

export class Ts7Session extends Ts7Project implements Session {
  async build(pretty: boolean): Promise<Built> {
    const { buildOnTs7, tscErrorCount } = require("./build") as typeof import("./build");
    const { tsc, compiled, forms, placed, failure } = this.emitsInProcess
      ? (require("./emit") as typeof import("./emit")).buildInProcess(this, pretty)
      : await buildOnTs7(this, this.configFile, pretty);
    return {
      compilerOutput: tsc.output,
      compilerErrors: tsc.errors ?? tscErrorCount(tsc.output, pretty),
      // tsc: 0 clean, 1 errors and nothing emitted, 2 errors (emitted anyway); anything else is no build.
      compilerFailed: tsc.status !== 0,
      diagnostics: [...[...compiled, ...forms].flatMap((c) => c.diagnostics), ...placed.diagnostics],
      registrations: compiled.map((c) => c.registration.registers),
      failure,
    };
  }
}
