/**
 * The literal credentials a model or embeddings client holds, so that the secret scanner
 * (./secrets.ts) refuses any fixture that would contain one, whatever the client calls the
 * field. Read from the client's own fields and the few places LangChain clients keep their
 * options: its constructor fields (`lc_kwargs`, `fields`), SDK options (`clientOptions`,
 * `clientConfig`, `configuration`), AWS `credentials`, and the SDK client it built (`client`,
 * its `_options`).
 *
 * Not reachable: credentials inside an injected AWS SDK client (BedrockRuntimeClient keeps
 * them in a closure). They never travel in a request body or an answer (SigV4 signs headers,
 * which fixtures do not hold), and the scanner's AWS patterns still catch their shapes.
 */

/** Field names that hold a credential: apiKey, anthropicApiKey, openAIApiKey, bedrockApiSecret, secretAccessKey, sessionToken, ... */
const SECRET_FIELD = /(?:api_?key|secret|secret_?access_?key|session_?token|bearer_?token|access_?key_?id|password|auth_?token)$/i;
const CONTAINERS: ReadonlySet<string> = new Set(["lc_kwargs", "fields", "clientOptions", "clientConfig", "configuration", "credentials", "client", "_options"]);
const MAX_DEPTH = 3;

export function clientSecrets(model: Record<string, unknown>): string[] {
  const out: string[] = [];
  collect(model, 0, out, new Set());
  return out;
}

function collect(obj: object, depth: number, out: string[], seen: Set<object>): void {
  if (depth > MAX_DEPTH || seen.has(obj)) return;
  seen.add(obj);
  let entries: [string, unknown][];
  try {
    entries = Object.entries(obj);
  } catch {
    return; // a proxy or an accessor that throws: nothing readable here
  }
  for (const [k, v] of entries) {
    if (typeof v === "string") {
      if (v.length >= 8 && SECRET_FIELD.test(k) && !out.includes(v)) out.push(v);
    } else if (v !== null && typeof v === "object" && CONTAINERS.has(k)) {
      collect(v, depth + 1, out, seen);
    }
  }
}
