/**
 * typemcp's diagnostic codes. tsc prints them as `error TS93001: ...`; the README's table
 * lists them. Keep numbers stable: users may filter on them.
 */
export const DiagnosticCode = {
  /** The return type cannot be described; the tool answers with text only (warning), or structuredOutput: true made it an error. */
  OutputNotSerializable: 93001,
  /** A parameter's type cannot be described as JSON Schema. */
  InputNotSerializable: 93002,
  /** The registration itself is wrong: not a function, overloaded, no name, bad name, rest parameter, a URI template that does not fit the function... */
  InvalidRegistration: 93003,
  /** A prompt argument's or URI template variable's type is not one text can carry (a string, a number or a boolean). */
  ArgumentNotText: 93004,
  /**
   * `typemcp build` on TypeScript 7 could not write the contracts into a file's emitted
   * JavaScript: it does not parse (its source has a syntax error, which tsc reports).
   */
  ContractsNotWritten: 93005,
  /**
   * The form of a `ctx.elicit<T>()` call cannot be written from `T`: a form is a flat object of
   * strings, numbers, integers, booleans and enums (transformer/form/). The call gets no form.
   */
  FormNotWritable: 93006,
  /**
   * A warning: a pattern (`@pattern`, `Pattern<"...">`) the linear-time engine does not run (a
   * backreference, a lookbehind, a counted repetition too large to write out). The schema keeps
   * it; V8's backtracking engine checks it at run time, a value it cannot decide in time refused.
   */
  BacktrackingPattern: 93007,
  /** The transformer failed on this registration; the call is left to fail at run time with this message. */
  InternalError: 93099,
} as const;
