/**
 * `--allow-secret-pattern a,b` (validate, show, diff): the credential patterns a project allows
 * (test tokens, a test database URL), as `allowSecretPatterns` does for the recorder; and what
 * `show` and `diff` print in place of any other credential a fixture holds by mistake.
 */
import { envSecrets } from "../clientSecrets";
import { maskSecrets, SECRET_PATTERN_NAMES } from "../secrets";
import { UsageError, type ParsedArgs } from "./args";

export const SECRET_FLAG = "allow-secret-pattern";

/** The names the flag gives, checked. */
export function allowedSecretPatterns(args: ParsedArgs): string[] {
  const value = args.flags[SECRET_FLAG];
  const allow = typeof value === "string" ? value.split(",").map((s) => s.trim()) : [];
  for (const name of allow) {
    if (!SECRET_PATTERN_NAMES.includes(name))
      throw new UsageError(`${JSON.stringify(name)} is not a secret pattern name (valid: ${SECRET_PATTERN_NAMES.join(", ")})`);
  }
  return allow;
}

/** `value` with every credential the flag does not allow, and every credential variable's value of this shell, masked (`[secret: openai_key]`). */
export function masked<T>(value: T, args: ParsedArgs): T {
  return maskSecrets(value, envSecrets(), new Set(allowedSecretPatterns(args))) as T;
}
