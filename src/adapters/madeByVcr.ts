/**
 * `VcrCache` and `VcrEmbeddings` are exported (for types and `instanceof`), but only a `Vcr` can
 * make one: it holds the fixture directory, the mode and the normalizers they record with.
 * Constructed directly, one would fail on its first call with a TypeError from deep inside; it
 * fails at once, saying how to get one.
 */
import { VcrConfigError } from "../errors";

export function requireMadeByVcr(what: "VcrCache" | "VcrEmbeddings", recorder: unknown, normalize: unknown): void {
  if (typeof (recorder as { find?: unknown } | undefined)?.find === "function" && typeof normalize === "function") return;
  const get = what === "VcrCache" ? "vcr.cache (pass it as `cache:` to the model)" : "vcr.embeddings(yourEmbeddings)";
  throw new VcrConfigError(
    `new ${what}(…) was called directly; a ${what} records through a Vcr, which holds the fixture directory, the mode and the normalizers.\n` +
      `  Fix it: make one Vcr and take the ${what} from it: const vcr = new Vcr({ dir: "cassettes" }); then ${get}.\n` +
      `  Or, with no wiring at all: vcr.install() (docs/zero-touch.md).`,
  );
}
