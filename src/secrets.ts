/**
 * The last line of defence: before any fixture is written it is scanned for strings shaped
 * like credentials, and for the literal API keys the wrapped clients hold. A hit refuses the
 * write with the field path. Users can allow a named pattern (`allowSecretPatterns`).
 */
import { VcrSecretError } from "./errors";

export const SECRET_PATTERNS: Readonly<Record<string, RegExp>> = {
  anthropic_key: /\bsk-ant-[A-Za-z0-9_-]{20,}/,
  openai_key: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/,
  bearer_token: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/,
  aws_access_key: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  // a 40-character secret access key is only told from other base64 by the name next to it
  aws_secret_key: /(?:secret_?access_?key|aws_?secret(?:_?key)?)["']?\s*(?:[:=]|=>)\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/i,
  // STS session tokens start with the base64 of their fixed header
  aws_session_token: /\b(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9/+=]{20,}/,
  private_key: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  // the key's last character may be "-", after which \b never matches: end at the last key character instead
  google_api_key: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/,
  groq_key: /\bgsk_[A-Za-z0-9]{20,}/,
  github_token: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/,
};
export const SECRET_PATTERN_NAMES = Object.keys(SECRET_PATTERNS);

export interface SecretHit {
  path: string;
  pattern: string;
}

/** The first credential-shaped string in `value`, with its JSON path. */
export function findSecret(value: unknown, knownSecrets: readonly string[], allow: ReadonlySet<string>, path = "$"): SecretHit | undefined {
  if (typeof value === "string") {
    for (const s of knownSecrets) if (s.length >= 8 && value.includes(s)) return { path, pattern: "client_api_key" };
    for (const [name, re] of Object.entries(SECRET_PATTERNS)) if (!allow.has(name) && re.test(value)) return { path, pattern: name };
    return undefined;
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === "number")) return undefined; // a vector
    for (let i = 0; i < value.length; i++) {
      const hit = findSecret(value[i], knownSecrets, allow, `${path}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const keyHit = findSecret(k, knownSecrets, allow, `${path}.<key>`);
      if (keyHit) return keyHit;
      const hit = findSecret(v, knownSecrets, allow, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** `when`: the request was refused before it was sent (no provider call), or the fixture after the call answered. */
export function secretError(
  hit: SecretHit,
  file: string,
  when: "before the call" | "before the tool ran" | "after the call" = "after the call",
): VcrSecretError {
  const how =
    hit.pattern === "client_api_key"
      ? "It holds a credential of the model client itself (its API key, or an AWS secret or session token)."
      : `It matches the credential pattern "${hit.pattern}".`;
  return new VcrSecretError(
    `refused to write ${file}: the fixture field ${hit.path} looks like a secret. ${how}\n` +
      (when === "after the call"
        ? `  Nothing was written; the call failed so the secret cannot reach the repository.\n`
        : `  Nothing was written, and ${when === "before the tool ran" ? "the tool's body did not run" : "the request was not sent to the provider"}: its fixture could never be written.\n`) +
      `  Fix it: keep the secret out of the prompt, or add a redactor (options.redactors) that masks it` +
      (hit.pattern === "client_api_key"
        ? "."
        : `, or, if it is a harmless test value, allow the pattern: new Vcr({ allowSecretPatterns: ["${hit.pattern}"] }).`),
    hit,
  );
}
