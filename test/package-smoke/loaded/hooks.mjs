// The resolve hook register.mjs installs: appends each resolved URL to $LOADED_LOG.
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOADED_LOG, resolved.url + "\n");
  return resolved;
}
