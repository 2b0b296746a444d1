/**
 * Types for the type model's unit tests: one small module (written to .build/unit/<name>.ts),
 * in a program with the snippets' compiler options, and a TypeModeler over it. Each type to
 * probe is written as `declare const <name>: <type>;`, so that an anonymous type stays
 * anonymous and a named one keeps its name. The module may import typemcp's tag types.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { Ts5Checker } from "../../transformer/ts5/checker";
import { TypeModeler } from "../../transformer/model/modeler";
import { parsers } from "../../transformer/model/parsers";
import { ROOT, tscCompilerHost } from "./build";
import { withTypemcpFromSources } from "./package-types";
import { snippetOptions } from "./snippets";

export interface TypeProbe {
  /** The compiler's own errors on the module (none, or the probes are not the types they say). */
  compilerErrors: string[];
  checker: ts.TypeChecker;
  /** The modeler the parsers get as their context (one per probe, as one per program in a build). */
  modeler: TypeModeler;
  /** The type of `declare const <name>`. */
  type(name: string): ts.Type;
  /** The type of a property of a declared interface, as declared (`Box.value` of `interface Box<P>` is the type parameter P). */
  property(interfaceName: string, property: string): ts.Type;
}

/** `declarations` (interfaces, classes, aliases, imports) then `declare const <name>: <type>;` for each probe. */
export function probeTypes(name: string, declarations: string, probes: Record<string, string>): TypeProbe {
  const dir = path.join(ROOT, ".build", "unit");
  const file = path.join(dir, `${name}.ts`);
  fs.mkdirSync(dir, { recursive: true });
  const text = `${declarations}\n${Object.entries(probes)
    .map(([probe, type]) => `declare const ${probe}: ${type};`)
    .join("\n")}\nexport {};\n`;
  fs.writeFileSync(file, text);
  const options = snippetOptions(dir, { noEmit: true });
  const program = ts.createProgram({
    rootNames: [file],
    options,
    host: withTypemcpFromSources(tscCompilerHost(options), options),
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const declared = (probe: string): ts.Declaration => {
    for (const statement of source.statements) {
      if (ts.isVariableStatement(statement)) {
        const found = statement.declarationList.declarations.find(
          (d) => ts.isIdentifier(d.name) && d.name.text === probe,
        );
        if (found) return found;
      }
      if ((ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === probe)
        return statement;
    }
    throw new Error(`${name}.ts declares no ${probe}`);
  };
  return {
    compilerErrors: ts
      .getPreEmitDiagnostics(program, source)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    checker,
    modeler: new TypeModeler(new Ts5Checker(checker, program), parsers),
    type: (probe) => checker.getTypeOfSymbol(checker.getSymbolAtLocation(ts.getNameOfDeclaration(declared(probe))!)!),
    property: (interfaceName, property) => {
      const symbol = checker.getSymbolAtLocation(ts.getNameOfDeclaration(declared(interfaceName))!)!;
      return checker.getTypeOfSymbol(checker.getPropertyOfType(checker.getDeclaredTypeOfSymbol(symbol), property)!);
    },
  };
}
