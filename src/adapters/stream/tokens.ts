/**
 * Watches the `handleLLMNewToken` calls a provider's `_streamResponseChunks` makes while it is
 * recorded, so a replay makes the same calls: providers differ (ChatOpenAI calls it after every
 * chunk with `{ prompt, completion }` indices; ChatOllama skips its last, usage-only chunk).
 *
 * With a run manager, the provider gets a view of it (`Object.create`) whose
 * `handleLLMNewToken` notes the call and forwards it; everything else reads through to the
 * real one. Without one (no callbacks configured, or the new-protocol `streamEvents()`),
 * the provider gets a stand-in that only notes calls, so a fixture always knows where the
 * callbacks go, whichever path recorded it.
 */

export type OnNewToken = (token: unknown, idx: unknown, chunk: unknown) => void;

type HandleNewToken = (token: string, idx?: unknown, runId?: unknown, parentRunId?: unknown, tags?: unknown, fields?: { chunk?: unknown }) => unknown;

export interface RunManagerLike {
  handleLLMNewToken?: HandleNewToken;
  [key: string]: unknown;
}

export function watchNewTokens(runManager: RunManagerLike | undefined, onToken: OnNewToken): RunManagerLike {
  if (runManager && typeof runManager.handleLLMNewToken === "function") {
    const real = runManager;
    const view = Object.create(real) as RunManagerLike;
    const handleLLMNewToken: HandleNewToken = function (this: unknown, token, idx, runId, parentRunId, tags, fields) {
      onToken(token, idx, fields?.chunk);
      return real.handleLLMNewToken!(token, idx, runId, parentRunId, tags, fields);
    };
    Object.defineProperty(view, "handleLLMNewToken", { value: handleLLMNewToken, configurable: true, writable: true });
    return view;
  }
  return standIn(onToken);
}

/**
 * A run manager with no handlers: `handleLLMNewToken` is noted, any other method is a no-op
 * (a provider may call `handleLLMNewToken`, `handleText` or `getChild`; none of it goes anywhere).
 */
function standIn(onToken: OnNewToken): RunManagerLike {
  const methods: Record<string, unknown> = {
    handleLLMNewToken: (token: unknown, idx: unknown, _r: unknown, _p: unknown, _t: unknown, fields?: { chunk?: unknown }) => {
      onToken(token, idx, fields?.chunk);
      return Promise.resolve();
    },
    handlers: [],
    inheritableHandlers: [],
    tags: [],
    inheritableTags: [],
    metadata: {},
    inheritableMetadata: {},
    getChild: () => undefined,
  };
  return new Proxy(methods, {
    get(target, prop) {
      if (typeof prop !== "string" || prop === "then") return undefined;
      if (prop in target) return target[prop];
      return () => Promise.resolve();
    },
  }) as RunManagerLike;
}
