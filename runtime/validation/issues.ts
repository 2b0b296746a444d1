/** What a check finds: where a value is invalid and why, or why it cannot go over the wire. */

/** A place in a value: property names and array indices from the root. */
export type Path = readonly (string | number)[];

/** One reason a value is invalid: where, and which keyword said so (with what it needs to say why). */
export interface Issue {
  path: Path;
  keyword: string;
  /** The keyword's value in the schema (the limit, the pattern, the allowed values...). */
  expected?: unknown;
  /** The value found there. */
  value: unknown;
  /** Found inside a `$ref` within a union's branch: kept when no branch fits (see SchemaCompiler.union, runtime/validation/compile.ts). */
  viaRef?: boolean;
  /** The places in `path` whose key the value chose (a record's key, an undeclared one), not the schema. */
  dataKeys?: readonly number[];
}

/** A value that cannot go over the wire as JSON, and where in the value it is. */
export class WireError extends Error {
  constructor(
    readonly reason: string,
    readonly path: Path = [],
    /** As Issue.dataKeys. */
    readonly dataKeys: readonly number[] = [],
  ) {
    super(reason);
  }
  /** `result.items[2].owner: a bigint, which JSON cannot represent`, the path starting at `root`. */
  describe(root: string): string {
    const path = this.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("");
    return `${root}${path}`.replace(/^\./, "") + `: ${this.reason}`;
  }
}

/** Why a value is invalid: the first issues (at most the limit), and how many there are. None: it is valid. */
export interface Found {
  issues: readonly Issue[];
  total: number;
}

/** What a wire copy comes to: the copy (null when the value is invalid), and its issues. */
export interface Outcome extends Found {
  value: unknown;
}

/** How many issues a check lists (it counts the others): as many as a message shows. */
export const LISTED_ISSUES = 50;
