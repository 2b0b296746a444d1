/**
 * fast-check arbitraries of TypeScript types, as source text: unions, intersections, generics,
 * recursion, mapped and conditional types, classes, overloads, enums, tuples with optional and
 * rest elements, template literals, index signatures, getters, private fields, `keyof` and
 * indexed access, library types (Map, Set, Promise, Date, ...), unresolved type parameters...
 *
 * A generated type is the text of a type expression and the declarations it needs
 * (interfaces, classes, enums, aliases), named after a hash of their text, so the same
 * declaration generated twice is declared once. Every type is meant to be valid TypeScript in
 * the batch module `typeBatchSource` writes (its prelude declares what the leaves refer to,
 * and each tool function has one type parameter `P`): the fuzz test checks that the compiler
 * agrees, so that the transformer is tried on the types the generator means.
 */
import fc from "fast-check";
import { KEYWORD_ROWS } from "../../contract/keywords";

export interface GeneratedType {
  /** A type expression: atomic, or parenthesized, so it can go anywhere a type can. */
  text: string;
  /** The declarations it refers to, each complete. */
  decls: readonly string[];
  /** Whether it mentions the tool function's type parameter `P` (its declarations are then generic in P). */
  p: boolean;
}

/** Declared once at the top of every batch module; leaves refer to these. */
export const PRELUDE = `import { MCPServer, type Format, type Integer, type Maximum, type MinItems, type MinLength, type Minimum, type Pattern, type Tag, type UniqueItems } from "typemcp";
const mcp = new MCPServer("fuzz");
declare const SYM: unique symbol;
const VALUE = { a: 1, b: ["x", "y"], c: { d: true, e: null } } as const;
enum Color { Red, Green = 5, Blue }
enum Direction { Up = "UP", Down = "DOWN" }
enum Mixed { One = 1, Two = "two" }
const enum Flags { None = 0, A = 1 << 0, B = 1 << 1 }
enum Computed { Length = "abc".length, Fixed = 2 }
declare enum Ambient { Q, R }
class Base { base = "b"; protected hidden = 1; }
class Empty {}
class OnlyMethods { run(): void {} get size(): number { return 0; } }
interface Named { name: string }
interface HasThis { me?: this; n: number }
type Deep<X> = X extends object ? { [K in keyof X]: Deep<X[K]> } : X;
type Flatten<X> = X extends readonly (infer U)[] ? U : X;
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Wrap<X, Y> = { w: X; also?: Y };
interface Pair<X, Y> { first: X; second: Y[] }
function helper(a: string, b?: number): boolean { return a === String(b); }
`;

function hash(text: string): string {
  // cyrb53: 53 bits, so that distinct declarations of one run never share a name.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const atom = (text: string): GeneratedType => ({ text, decls: [], p: text === "P" });

/** A type built from parts: `make` gets their texts. */
function compose(parts: GeneratedType[], make: (...texts: string[]) => string): GeneratedType {
  return {
    text: make(...parts.map((part) => part.text)),
    decls: parts.flatMap((part) => part.decls),
    p: parts.some((part) => part.p),
  };
}

/**
 * A declared type. `make(name, params)` writes the declaration and the use: `params` is the
 * type parameter list the declaration needs (`<P>` when a part mentions P, else empty), the
 * use passes P on. The name is a hash of the declaration, so equal declarations coincide.
 */
function declared(
  prefix: string,
  parts: GeneratedType[],
  make: (name: string, params: string, args: string) => { decl: string; use: string },
): GeneratedType {
  const p = parts.some((part) => part.p);
  const params = p ? "<P>" : "";
  const args = p ? "<P>" : "";
  const draft = make("NAME", params, args).decl;
  const name = `${prefix}_${hash(draft)}`;
  const { decl, use } = make(name, params, args);
  return { text: use, decls: [...parts.flatMap((part) => part.decls), decl], p };
}

// Property names: identifiers, and names that need quotes, look like numbers or are special to JavaScript.
const NAMES = [
  "a",
  "b",
  "value",
  "id",
  "items",
  "$dollar",
  "_under",
  "with space",
  "kebab-case",
  "0",
  "12",
  "",
  "__proto__",
  "toString",
  "toJSON",
  "é",
  "日本",
  'quo"te',
  "back\\slash",
  "new\nline",
  "\u2028",
];
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

const stringLiterals = fc.oneof(
  fc.constantFrom(
    "",
    "a",
    "UP",
    "with space",
    'quo"te',
    "back\\slash",
    "line\nbreak",
    "\u2028",
    "日本",
    "😀",
    "\ud800",
    "${x}",
    "`",
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);
const numberLiterals = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n)),
  fc.constantFrom(
    "0",
    "-0",
    "0.1",
    "1e21",
    "1e-7",
    "0x1f",
    "0b101",
    "0o17",
    "1_000",
    "9007199254740993",
    "1e400",
    "-1e400",
  ),
);
const literal: fc.Arbitrary<GeneratedType> = fc.oneof(
  stringLiterals.map((s) => atom(JSON.stringify(s))),
  numberLiterals.map((n) => atom(n.startsWith("-") ? `(${n})` : n)),
  fc.constantFrom("true", "false", "0n", "(-12n)", "12345678901234567890n").map(atom),
);

/** What a template literal placeholder may be. */
const placeholder: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "string",
    "number",
    "bigint",
    "boolean",
    "null",
    "undefined",
    "Uppercase<string>",
    'Lowercase<"AB">',
    '"a" | "b"',
    "1 | 2",
    "Direction",
  ),
  stringLiterals.filter((s) => !/[`\\$]/.test(s)).map((s) => JSON.stringify(s)),
);
const templateText = fc.constantFrom(
  "",
  "user_",
  "-",
  ".",
  "a.b",
  "^",
  "(x)",
  "[",
  "|",
  "?",
  "+",
  "*",
  "{1}",
  "\\\\",
  "\\n",
  "é",
);
const templateLiteral: fc.Arbitrary<GeneratedType> = fc
  .tuple(templateText, fc.array(fc.tuple(placeholder, templateText), { minLength: 1, maxLength: 3 }))
  .map(([head, spans]) => atom(`\`${head}${spans.map(([type, text]) => `\${${type}}${text}`).join("")}\``));

const leaf: fc.Arbitrary<GeneratedType> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(
        "string",
        "number",
        "boolean",
        "null",
        "undefined",
        "void",
        "any",
        "unknown",
        "never",
        "object",
        "{}",
        "Object",
        "symbol",
        "bigint",
        "Function",
      )
      .map(atom),
  },
  { weight: 6, arbitrary: literal },
  { weight: 2, arbitrary: templateLiteral },
  {
    weight: 2,
    arbitrary: fc.constantFrom("P", "P[]", "Partial<P>", "(keyof P)").map((text) => ({ text, decls: [], p: true })),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "Integer",
        "(number & Minimum<0> & Maximum<100>)",
        '(string & Format<"email">)',
        '(string & Pattern<"^[a-z]+$">)',
        "(string & MinLength<2>)",
        "(string & MinLength<-1>)",
        '(number & Tag<"nonsense", 1>)',
        '(number & Format<"date">)',
        '(string & { __brand: "UserId" })',
        "(string & number)",
        "(string[] & MinItems<1> & UniqueItems)",
        "(Integer | null)",
      )
      .map(atom),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "Color",
        "Color.Green",
        "Direction",
        "Direction.Up",
        "Mixed",
        "Flags",
        "Flags.B",
        "Computed",
        "Computed.Length",
        "Ambient",
        "(keyof typeof Color)",
        "(typeof VALUE)",
        '(typeof VALUE)["b"]',
        "(typeof SYM)",
        "(typeof helper)",
        "Base",
        "Empty",
        "OnlyMethods",
        "Named",
        "HasThis",
        "Json",
        "InstanceType<typeof Base>",
        "ConstructorParameters<typeof Base>",
        "Parameters<typeof helper>",
        "ReturnType<typeof helper>",
        'Uppercase<"abc">',
      )
      .map(atom),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        "Date",
        "RegExp",
        "Error",
        "Uint8Array",
        "ArrayBuffer",
        "DataView",
        "Map<string, number>",
        "Set<string>",
        "Promise<string>",
        "WeakMap<object, string>",
        "WeakSet<object>",
        "ReadonlyMap<string, Date>",
        "PromiseLike<number>",
        "Iterable<string>",
        "IterableIterator<number>",
        "Generator<number>",
        "ArrayLike<string>",
        "URL",
        "AbortSignal",
        "Response",
        "Headers",
        "Blob",
        "TextEncoder",
        "Math",
        "JSON",
        "globalThis.Array<number>",
        "Symbol",
      )
      .map(atom),
  },
);

/**
 * A JSDoc comment: a description and tags typemcp reads (`@minimum`, `@pattern`, `@default`...),
 * with values well- and ill-formed: numbers JSON has not, broken regular expressions, unknown
 * formats, text that is no JSON, keys like `__proto__`.
 */
const TAG_NAMES = [...KEYWORD_ROWS.filter(([, row]) => row.tag).map(([name]) => name), "see", "param"];
const TAG_VALUES = [
  "0",
  "1",
  "-5",
  "2.5",
  "1e400",
  "-1e400",
  "0x1f",
  "warm",
  "",
  "^[a-z]+$",
  "[a-",
  "(?<year>\\d{4})",
  "\\p{L}+",
  "a{2,1}",
  "email",
  "date-time",
  "uuid",
  "e-mail",
  "true",
  "false",
  "null",
  '{"a": 1}',
  "[1, 2]",
  "[1e999]",
  '{"__proto__": {"x": 1}}',
  '"quoted"',
  "not json",
  "日本",
];
export const jsdoc: fc.Arbitrary<string | undefined> = fc.option(
  fc
    .tuple(
      fc.constantFrom("", "A description.", "Line one.\n * Line two.", "With `code` and {braces}.", "日本語の説明"),
      fc.array(fc.tuple(fc.constantFrom(...TAG_NAMES), fc.constantFrom(...TAG_VALUES)), { maxLength: 3 }),
    )
    .map(
      ([description, tags]) =>
        `/** ${[description, ...tags.map(([name, value]) => `@${name} ${value}`)].filter((line) => line !== "").join("\n * ")} */ `,
    ),
  { freq: 3 },
);

interface Member {
  /** A JSDoc comment to write before it. */
  doc?: string;
  name: string;
  kind: "property" | "getter" | "method";
  optional: boolean;
  readonly: boolean;
  type: GeneratedType;
}

type IndexKind = "string" | "number" | "template" | "symbol" | undefined;

function members(type: fc.Arbitrary<GeneratedType>, names: readonly string[] = NAMES): fc.Arbitrary<Member[]> {
  const member = fc.record({
    doc: jsdoc.map((d) => d ?? ""),
    name: fc.constantFrom(...names),
    kind: fc.constantFrom<Member["kind"]>("property", "property", "property", "property", "getter", "method"),
    optional: fc.boolean(),
    readonly: fc.boolean(),
    type,
  });
  return fc.uniqueArray(member, { selector: (m) => m.name, maxLength: 4 });
}

/** The members of an object type or interface, and an index signature that they all fit. */
function objectBody(list: Member[], index: IndexKind, indexType: GeneratedType): string {
  const lines = list.map((m) => {
    const name = key(m.name);
    if (m.kind === "getter") return `${m.doc ?? ""}get ${name}(): ${m.type.text};`;
    if (m.kind === "method") return `${m.doc ?? ""}${name}${m.optional ? "?" : ""}(): ${m.type.text};`;
    return `${m.doc ?? ""}${m.readonly ? "readonly " : ""}${name}${m.optional ? "?" : ""}: ${m.type.text};`;
  });
  if (index) {
    // Every property must fit a string (or number) index signature: its value type admits them all.
    const fits = list.map((m) => (m.kind === "method" ? `(() => ${m.type.text})` : m.type.text));
    if (list.some((m) => m.optional)) fits.push("undefined");
    const value = [indexType.text, ...fits].join(" | ");
    if (index === "string") lines.push(`[key: string]: ${value};`);
    if (index === "number") lines.push(`[key: number]: ${value};`);
    if (index === "template") lines.push(`[key: \`x_\${string}\`]: ${indexType.text};`);
    if (index === "symbol") lines.push(`[key: symbol]: ${indexType.text};`);
  }
  return `{ ${lines.join(" ")} }`;
}

const indexKind = fc.constantFrom<IndexKind>(
  undefined,
  undefined,
  undefined,
  undefined,
  "string",
  "number",
  "template",
  "symbol",
);

interface ClassMember {
  doc?: string;
  name: string;
  kind:
    | "field"
    | "optional"
    | "readonly"
    | "private"
    | "protected"
    | "static"
    | "declare"
    | "getter"
    | "accessor"
    | "method"
    | "toJSON";
  type: GeneratedType;
}

const CLASS_NAMES = NAMES.filter((name) => name !== "toJSON" && name !== "__proto__");

function classDeclaration(
  name: string,
  params: string,
  list: ClassMember[],
  privateField: GeneratedType | undefined,
  parameterProperty: GeneratedType | undefined,
  extendsBase: boolean,
): string {
  const lines = list.map((m) => `${m.doc ?? ""}${classMember(m)}`);
  function classMember(m: ClassMember): string {
    const n = key(m.name);
    switch (m.kind) {
      case "field":
        return `${n}!: ${m.type.text};`;
      case "optional":
        return `${n}?: ${m.type.text};`;
      case "readonly":
        return `readonly ${n}!: ${m.type.text};`;
      case "private":
        return `private ${n}!: ${m.type.text};`;
      case "protected":
        return `protected ${n}!: ${m.type.text};`;
      case "static":
        return `static ${n}?: ${m.type.p ? "unknown" : m.type.text};`; // statics cannot refer to P
      case "declare":
        return `declare ${n}: ${m.type.text};`;
      case "getter":
        return `get ${n}(): ${m.type.text} { return undefined!; }`;
      case "accessor":
        return `get ${n}(): ${m.type.text} { return undefined!; } set ${n}(value: ${m.type.text}) {}`;
      case "method":
        return `${n}(): ${m.type.text} { return undefined!; }`;
      case "toJSON":
        return `toJSON(): ${m.type.text} { return undefined!; }`;
    }
  }
  if (privateField) lines.push(`#secret: ${privateField.text} | undefined = undefined;`);
  if (parameterProperty)
    lines.push(`constructor(public param: ${parameterProperty.text}) {${extendsBase ? " super();" : ""} }`);
  return `class ${name}${params}${extendsBase ? " extends Base" : ""} { ${lines.join(" ")} }`;
}

function classType(type: fc.Arbitrary<GeneratedType>): fc.Arbitrary<GeneratedType> {
  const member = fc.record({
    doc: jsdoc.map((d) => d ?? ""),
    name: fc.constantFrom(...CLASS_NAMES),
    kind: fc.constantFrom<ClassMember["kind"]>(
      "field",
      "field",
      "field",
      "optional",
      "readonly",
      "private",
      "protected",
      "static",
      "declare",
      "getter",
      "accessor",
      "method",
    ),
    type,
  });
  return fc
    .tuple(
      fc.uniqueArray(member, { selector: (m) => m.name, maxLength: 4 }),
      fc.option(type, { freq: 4 }),
      fc.option(type, { freq: 4 }),
      fc.option(type, { freq: 5 }),
      fc.boolean(),
    )
    .map(([list, toJson, privateField, parameterProperty, extendsBase]) => {
      const all = toJson ? [...list, { name: "toJSON", kind: "toJSON" as const, type: toJson }] : list;
      const parts = [
        ...all.map((m) => m.type),
        ...(privateField ? [privateField] : []),
        ...(parameterProperty ? [parameterProperty] : []),
      ];
      return declared("Class", parts, (name, params, args) => ({
        decl: classDeclaration(
          name,
          params,
          all,
          privateField ?? undefined,
          parameterProperty ?? undefined,
          extendsBase,
        ),
        use: `${name}${args}`,
      }));
    });
}

function objectType(type: fc.Arbitrary<GeneratedType>): fc.Arbitrary<GeneratedType> {
  return fc.tuple(members(type), indexKind, type).map(([list, index, indexType]) => {
    const parts = [...list.map((m) => m.type), ...(index ? [indexType] : [])];
    return compose(parts, () => objectBody(list, index, indexType));
  });
}

function interfaceType(type: fc.Arbitrary<GeneratedType>): fc.Arbitrary<GeneratedType> {
  return fc
    .tuple(
      members(
        type,
        NAMES.filter((name) => name !== "name"),
      ),
      indexKind,
      type,
      fc.boolean(),
      jsdoc,
    )
    .map(([list, index, indexType, extendsNamed, doc]) => {
      const parts = [...list.map((m) => m.type), ...(index ? [indexType] : [])];
      return declared("Iface", parts, (name, params, args) => ({
        decl: `${doc ?? ""}interface ${name}${params}${extendsNamed && !index ? " extends Named" : ""} ${objectBody(list, index, indexType)}`,
        use: `${name}${args}`,
      }));
    });
}

function tupleType(type: fc.Arbitrary<GeneratedType>): fc.Arbitrary<GeneratedType> {
  const element = fc.record({ type, optional: fc.boolean() });
  return fc
    .tuple(
      fc.array(element, { maxLength: 4 }),
      fc.constantFrom("none", "none", "end", "start", "middle"),
      type,
      fc.boolean(),
      fc.boolean(),
    )
    .map(([elements, rest, restType, named, readonly]) => {
      const parts = [...elements.map((e) => e.type), ...(rest === "none" ? [] : [restType])];
      return compose(parts, () => {
        // Optional elements may not follow required ones, nor come after a rest element.
        const optionalFrom = rest === "none" || rest === "end" ? elements.findIndex((e) => e.optional) : -1;
        const items = elements.map((e, i) => {
          const optional = optionalFrom >= 0 && i >= optionalFrom;
          return named ? `e${i}${optional ? "?" : ""}: ${e.type.text}` : `${e.type.text}${optional ? "?" : ""}`;
        });
        const spread = named ? `...rest: ${restType.text}[]` : `...${restType.text}[]`;
        if (rest === "end") items.push(spread);
        if (rest === "start") items.unshift(spread);
        if (rest === "middle") items.splice(Math.floor(items.length / 2), 0, spread);
        return `(${readonly ? "readonly " : ""}[${items.join(", ")}])`;
      });
    });
}

/** Declarations that refer to themselves: recursive interfaces and aliases, mutual recursion, types that grow at each level. */
function recursiveType(type: fc.Arbitrary<GeneratedType>): fc.Arbitrary<GeneratedType> {
  return fc
    .tuple(
      fc.constantFrom(
        "list",
        "tree",
        "alias",
        "mutual",
        "generic",
        "deep",
        "list",
        "tree",
        "alias",
        "mutual",
        "generic",
        "deep",
        "grow",
      ),
      type,
    )
    .map(([shape, inner]) => {
      switch (shape) {
        case "list":
          return declared("List", [inner], (n, ps, as) => ({
            decl: `interface ${n}${ps} { value: ${inner.text}; next?: ${n}${as} }`,
            use: `${n}${as}`,
          }));
        case "tree":
          return declared("Tree", [inner], (n, ps, as) => ({
            decl: `interface ${n}${ps} { value: ${inner.text}; children: ${n}${as}[]; parent: ${n}${as} | null }`,
            use: `${n}${as}`,
          }));
        case "alias":
          return declared("Rec", [inner], (n, ps, as) => ({
            decl: `type ${n}${ps} = ${inner.text} | ${n}${as}[] | { [key: string]: ${n}${as} };`,
            use: `${n}${as}`,
          }));
        case "mutual":
          return declared("Mutual", [inner], (n, ps, as) => ({
            decl: `interface ${n}${ps} { other?: ${n}_B${as}; value: ${inner.text} } interface ${n}_B${ps} { back: ${n}${as}[] }`,
            use: `${n}${as}`,
          }));
        case "generic":
          return declared("Gen", [inner], (n) => ({
            decl: `interface ${n}<X> { value: X; children?: ${n}<X>[]; pair: [X, ${n}<X> | undefined] }`,
            use: `${n}<${inner.text}>`,
          }));
        case "grow":
          return declared("Grow", [inner], (n) => ({
            decl: `interface ${n}<X> { value: X; next?: ${n}<X[]> }`,
            use: `${n}<${inner.text}>`,
          }));
        case "deep":
          return compose([inner], (t) => `Deep<${t}>`);
      }
    });
}

function enumType(): fc.Arbitrary<GeneratedType> {
  const initializer = fc.oneof(
    fc.constant(""),
    fc.integer({ min: -5, max: 5 }).map((n) => ` = ${n}`),
    stringLiterals.map((s) => ` = ${JSON.stringify(s)}`),
  );
  return fc
    .tuple(fc.array(initializer, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.boolean())
    .map(([initializers, isConst, member]) => {
      // A member without an initializer must follow a numeric one (or come first).
      let numeric = true;
      const items = initializers.map((init, i) => {
        const text = init === "" && !numeric ? " = 0" : init;
        numeric = !text.includes('"');
        return `M${i}${text}`;
      });
      return declared("Enum", [], (n) => ({
        decl: `${isConst ? "const " : ""}enum ${n} { ${items.join(", ")} }`,
        use: member ? `${n}.M0` : n,
      }));
    });
}

/** Every generated type: leaves, and constructs of smaller generated types. */
export const typeArbitrary: fc.Arbitrary<GeneratedType> = fc.letrec<{ type: GeneratedType }>((tie) => {
  const type = tie("type");
  const two = fc.tuple(type, type);
  return {
    type: fc.oneof(
      { maxDepth: 3, depthIdentifier: "type" },
      { weight: 12, arbitrary: leaf },
      { weight: 2, arbitrary: enumType() },
      { weight: 3, arbitrary: type.map((t) => compose([t], (x) => `${x}[]`)) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(type, fc.constantFrom("readonly %[]", "Array<%>", "ReadonlyArray<%>"))
          .map(([t, form]) => compose([t], (x) => `(${form.replace("%", x)})`)),
      },
      { weight: 3, arbitrary: tupleType(type) },
      {
        weight: 4,
        arbitrary: fc
          .array(type, { minLength: 2, maxLength: 4 })
          .map((ts) => compose(ts, (...xs) => `(${xs.join(" | ")})`)),
      },
      {
        weight: 3,
        arbitrary: fc
          .array(type, { minLength: 2, maxLength: 3 })
          .map((ts) => compose(ts, (...xs) => `(${xs.join(" & ")})`)),
      },
      { weight: 4, arbitrary: objectType(type) },
      { weight: 3, arbitrary: interfaceType(type) },
      { weight: 3, arbitrary: classType(type) },
      { weight: 2, arbitrary: recursiveType(type) },
      {
        // Generic aliases and interfaces of the prelude, instantiated with generated types.
        weight: 2,
        arbitrary: two.chain(([a, b]) =>
          fc.constantFrom(
            compose([a, b], (x, y) => `Wrap<${x}, ${y}>`),
            compose([a, b], (x, y) => `Wrap<Wrap<${x}, ${y}>, ${y}>`),
            compose([a, b], (x, y) => `Pair<${x}, ${y}>`),
            compose([a, b], (x, y) => `Pair<Wrap<${x}, ${y}>, Pair<${y}, ${x}>>`),
          ),
        ),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(
            type,
            fc.constantFrom(
              "Partial",
              "Required",
              "Readonly",
              "NonNullable",
              "Awaited",
              "Deep",
              "Flatten",
              "Pick*",
              "Omit*",
              "Exclude*",
              "Extract*",
              "ReturnType*",
              "Parameters*",
            ),
          )
          .map(([t, utility]) =>
            compose([t], (x) => {
              switch (utility) {
                case "Pick*":
                  return `Pick<${x}, keyof ${x}>`;
                case "Omit*":
                  return `Omit<${x}, "a" | "id">`;
                case "Exclude*":
                  return `Exclude<${x}, null | undefined | string>`;
                case "Extract*":
                  return `Extract<${x}, object>`;
                case "ReturnType*":
                  return `ReturnType<() => ${x}>`;
                case "Parameters*":
                  return `Parameters<(a: ${x}, b?: number) => void>`;
                default:
                  return `${utility}<${x}>`;
              }
            }),
          ),
      },
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            type,
            type,
            fc.constantFrom("string", "number", '"a" | "b"', "`k_${number}`", "symbol", "Color", "Direction"),
          )
          .chain(([t, u, keys]) =>
            fc.constantFrom(
              compose([t], (x) => `Record<${keys}, ${x}>`),
              compose([t], (x) => `{ [K in keyof ${x}]: ${x}[K] }`),
              compose([t], (x) => `{ [K in keyof ${x}]?: ${x}[K] }`),
              compose([t], (x) => `{ -readonly [K in keyof ${x}]-?: ${x}[K] }`),
              compose([t], (x) => `{ [K in keyof ${x} as Exclude<K, "a">]: ${x}[K] }`),
              compose([t], (x) => `{ [K in keyof ${x} as \`get_\${K & string}\`]: () => ${x}[K] }`),
              compose([t, u], (x, y) => `{ [K in keyof ${x}]: ${y} }`),
              compose([t], (x) => `{ [K in "x" | "y"]: ${x} }`),
            ),
          ),
      },
      {
        weight: 3,
        arbitrary: fc.tuple(type, type, type).chain(([t, u, v]) =>
          fc.constantFrom(
            compose([t, u, v], (x, y, z) => `(${x} extends string ? ${y} : ${z})`),
            compose([t], (x) => `(${x} extends (infer E)[] ? E : ${x})`),
            { ...compose([t, u], (x, y) => `(P extends string ? ${x} : ${y})`), p: true },
            compose([t], (x) => `(keyof ${x})`),
            compose([t], (x) => `(${x} extends infer O ? O[keyof O] : never)`),
            compose([t, u], (x, y) => `[${x}, ${y}][number]`),
            compose([t, u], (x, y) => `[${x}, ${y}][0]`),
            compose([t], (x) => `{ k: ${x} }["k"]`),
            compose([t], (x) => `(${x})[][number]`),
          ),
        ),
      },
      {
        weight: 2,
        arbitrary: two.chain(([a, b]) =>
          fc.constantFrom(
            compose([a, b], (x, y) => `((arg: ${x}) => ${y})`),
            compose([a], (x) => `(new () => ${x})`),
            compose([a, b], (x, y) => `{ (x: ${x}): ${y}; (x: ${y}, again: ${x}): ${x} }`),
            compose([a, b], (x, y) => `{ run(x: ${x}): ${y}; run(): void; data: ${x} }`),
            compose([a, b], (x, y) => `Map<${x}, ${y}>`),
            compose([a], (x) => `Set<${x}>`),
            compose([a], (x) => `Promise<${x}>`),
            compose([a, b], (x, y) => `{ get both(): ${x}; set both(value: ${x}); plain: ${y} }`),
          ),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(literal, { minLength: 2, maxLength: 6 })
          .map((ls) => compose(ls, (...xs) => `\`pre_\${${xs.join(" | ")}}\``)),
      },
    ),
  };
}).type;

const NUMBER_DEFAULTS = ["0", "-1", "2.5", "1e400", "-1e400", "0x1f", "1_000", ".5", "1e21", "-0"];

/** One tool per generated type and direction: the type as the only parameter, and as the declared return type. */
export interface TypeCase {
  index: number;
  type: GeneratedType;
  /** `in_<index>`: the type is the parameter. */
  input: string;
  /** `out_<index>`: the type is the return type (structuredOutput: true, so that no type goes silently without a schema). */
  output: string;
  /** Every 97th input tool is registered overloaded, which must be refused. */
  overloaded: boolean;
}

/** The batch module: the prelude, every declaration once, then two tools per type. */
export function typeBatchSource(
  types: readonly GeneratedType[],
  firstIndex = 0,
): { source: string; cases: TypeCase[] } {
  const decls = new Set<string>();
  for (const type of types) for (const decl of type.decls) decls.add(decl);
  const cases: TypeCase[] = [];
  const lines = [PRELUDE, ...decls];
  types.forEach((type, i) => {
    const index = firstIndex + i;
    const input = `in_${index}`;
    const output = `out_${index}`;
    const overloaded = index % 97 === 96;
    // Every third input tool has more parameters: optional, defaults JSON may or may not have, and
    // tags on a parameter itself (its @default the parameter's own, as it must be).
    const extra =
      index % 3 === 0
        ? `, extra?: number, count: number = ${NUMBER_DEFAULTS[index % NUMBER_DEFAULTS.length]}, label: string = ${JSON.stringify(NAMES[index % NAMES.length])}, list: number[] = [${NUMBER_DEFAULTS[(index + 1) % NUMBER_DEFAULTS.length]}], /** The mode. @default "slow" @maxLength 4 */ mode: "fast" | "slow" = "slow"`
        : "";
    if (overloaded) {
      lines.push(
        `function ${input}<P>(value: ${type.text}): string;\nfunction ${input}<P>(value: ${type.text}, extra: number): string;\nfunction ${input}(value: unknown): string { return ""; }`,
      );
    } else {
      lines.push(`function ${input}<P>(value: ${type.text}${extra}): string { return ""; }`);
    }
    lines.push(`mcp.tool(${input});`);
    lines.push(`function ${output}<P>(): ${type.text} { throw new Error("no value"); }`);
    lines.push(`mcp.tool(${output}, { structuredOutput: true });`);
    cases.push({ index, type, input, output, overloaded });
  });
  return { source: `${lines.join("\n")}\n`, cases };
}
