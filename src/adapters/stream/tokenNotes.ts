/**
 * While a stream records: which stored chunk each `handleLLMNewToken` call the provider made
 * belongs to, so replay makes the same call after the same chunk. The first call for a chunk
 * wins (a provider makes one per chunk; a second would be its own handler's echo).
 * - With a chunk (ChatOpenAI, ChatOllama, ChatAnthropic, …): that chunk, whether the call comes
 *   after the chunk was yielded or before (a provider that calls first, then yields).
 * - With no chunk (ChatGoogleGenerativeAI, right after each yield): the chunk just yielded,
 *   marked bare so replay makes the call without a chunk too; one before any chunk is dropped.
 */
import { storeChunk, storeNewToken, type GenerationChunkLike, type StoredChunk } from "./chunks";

export class TokenNotes {
  /** The stored chunks, in the order the provider yielded them. */
  readonly recorded: StoredChunk[] = [];
  private readonly byChunk = new Map<unknown, StoredChunk>();
  /** A call made before its chunk was yielded: noted when the chunk comes. */
  private readonly early = new Map<unknown, [unknown, unknown]>();

  /** A `handleLLMNewToken(text, idx, …, { chunk })` call of the provider's (`chunk` undefined when it named none). */
  note(text: unknown, idx: unknown, chunk: unknown): void {
    if (chunk === undefined) {
      const last = this.recorded[this.recorded.length - 1];
      if (last && !last.newToken) storeNewToken(last, text, idx, true);
      return;
    }
    const stored = this.byChunk.get(chunk);
    if (stored) {
      if (!stored.newToken) storeNewToken(stored, text, idx);
    } else if (!this.early.has(chunk)) this.early.set(chunk, [text, idx]);
  }

  /** A chunk the provider yielded: stored, with a call noted for it before it came. */
  add(chunk: GenerationChunkLike): void {
    const stored = storeChunk(chunk);
    const before = this.early.get(chunk);
    if (before) storeNewToken(stored, before[0], before[1]);
    this.recorded.push(stored);
    this.byChunk.set(chunk, stored);
  }
}
