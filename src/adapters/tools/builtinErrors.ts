/**
 * The error classes a replayed tool error is rebuilt as itself (`outcome.ts`'s rebuildError): `instanceof TypeError`
 * holds on replay as it did live. Any other class (the app's) replays as a subclass of one of these named like it, which
 * no `instanceof` of the app's class sees (a miss's hint says so: diagnose/diff.ts).
 */
const BUILTIN_ERRORS: Readonly<Record<string, ErrorConstructor>> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/** The builtin class of that name, which a replayed error of it is an instance of. */
export function builtinError(name: string): ErrorConstructor | undefined {
  return Object.hasOwn(BUILTIN_ERRORS, name) ? BUILTIN_ERRORS[name] : undefined;
}
