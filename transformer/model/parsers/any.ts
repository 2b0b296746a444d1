import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

/** `any` and `unknown`: any JSON value. */
export const anyParser: TypeParser = {
  construct: "any / unknown",
  supports: (type, ctx) => (ctx.checker.flags(type) & (TypeFlags.Any | TypeFlags.Unknown)) !== 0,
  parse: () => ({ kind: "any" }),
};
