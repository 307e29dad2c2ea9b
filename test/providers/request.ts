/** The canonical request one call of a provider's client records (for "what the key holds" checks). */
import { Vcr } from "../../src/index";
import { readFixtures, tmpDir } from "../helpers/tmp";
import type { KeyCall } from "./suite";
import type { ProviderSpec } from "./spec";

export async function recordedRequest(spec: ProviderSpec, call: KeyCall): Promise<Record<string, any>> {
  const fake = await spec.start();
  try {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await call((f) => spec.chat(fake.url, vcr.cache, f), fake.url);
    const [fixture] = readFixtures(dir);
    return fixture.request;
  } finally {
    await fake.close();
  }
}
