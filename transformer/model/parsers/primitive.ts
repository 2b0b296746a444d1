import ts from "typescript";
import type { TypeParser } from "../modeler";

/** `string`, `number`, `boolean`. (`boolean` is the union `true | false` to the checker; it is caught here first.) */
export const primitiveParser: TypeParser = {
  construct: "string / number / boolean",
  supports: (type) => (type.flags & (ts.TypeFlags.String | ts.TypeFlags.Number | ts.TypeFlags.Boolean)) !== 0,
  parse: (type) => {
    if (type.flags & ts.TypeFlags.String) return { kind: "string" };
    if (type.flags & ts.TypeFlags.Number) return { kind: "number" };
    return { kind: "boolean" };
  },
};
