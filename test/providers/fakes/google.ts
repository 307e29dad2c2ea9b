/**
 * Google Generative Language API (Gemini) on loopback: POST /{version}/models/{model}:generateContent
 * (JSON), :streamGenerateContent?alt=sse (SSE, one GenerateContentResponse per event),
 * :embedContent and :batchEmbedContents. Answers carry `functionCall` parts (each with a
 * `thoughtSignature`, as Gemini 2.5 sends them, which the next turn must send back), thought
 * parts (`thought: true`), safety ratings and `usageMetadata`; errors use Google's body:
 * { error: { code, message, status } }.
 */
import { fakeVector } from "../../../examples/provider/server";
import { CUT_JSON, pieces, sendJson, sendSse, startFake, words, type Exchange, type Fake } from "./base";

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL" };
const SAFETY = ["HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_DANGEROUS_CONTENT", "HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_SEXUALLY_EXPLICIT"].map(
  (category) => ({ category, probability: "NEGLIGIBLE" }),
);

function usage(x: Exchange) {
  const prompt = words(JSON.stringify(x.request.body?.contents ?? []));
  const out = words(x.reply.text ?? "") + 3 * (x.reply.toolCalls?.length ?? 0);
  return { promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out };
}

const candidate = (parts: unknown[], last: boolean) => ({
  content: { role: "model", parts },
  index: 0,
  ...(last ? { finishReason: "STOP", safetyRatings: SAFETY } : {}),
});

const functionCalls = (x: Exchange) =>
  (x.reply.toolCalls ?? []).map((c, i) => ({ functionCall: { name: c.name, args: c.args }, thoughtSignature: `c2lnLWZha2U-${x.serial}-${i}` }));
const thought = (x: Exchange, text: string) => ({ text, thought: true, thoughtSignature: `dGhvdWdodA-${x.serial}` });

function generate(x: Exchange): void {
  const parts = [...(x.reply.thinking ? [thought(x, x.reply.thinking)] : []), ...(x.reply.text ? [{ text: x.reply.text }] : []), ...functionCalls(x)];
  const body = { candidates: [candidate(parts, true)], usageMetadata: usage(x), modelVersion: "gemini-fake-001" };
  sendJson(x.res, 200, body);
}

function stream(x: Exchange): void {
  const parts: unknown[][] = [
    ...pieces(x.reply.thinking ?? "").map((text) => [thought(x, text)]),
    ...pieces(x.reply.text ?? "").map((text) => [{ text }]),
    ...functionCalls(x).map((p) => [p]),
  ];
  const events: [undefined, unknown][] = parts.map((p, i) => [
    undefined,
    { candidates: [candidate(p, i === parts.length - 1)], modelVersion: "gemini-fake-001" },
  ]);
  const u = usage(x);
  events.forEach(([, e], i) =>
    Object.assign(e as object, { usageMetadata: i === events.length - 1 ? u : { promptTokenCount: u.promptTokenCount, totalTokenCount: u.promptTokenCount } }),
  );
  sendSse(x.res, x.reply.malformed ? [...events.slice(0, 2), [undefined, CUT_JSON]] : events);
}

export function startGoogleFake(): Promise<Fake> {
  return startFake((x) => {
    const m = /^\/v1(?:beta)?\/models\/([^:]+):(\w+)/.exec(x.request.path);
    if (!m) return sendJson(x.res, 404, { error: { code: 404, message: `no route ${x.request.path}`, status: "NOT_FOUND" } });
    const { status } = x.reply;
    if (status) return sendJson(x.res, status, { error: { code: status, message: `fake ${status}`, status: STATUS[status] ?? "UNKNOWN" } });
    const text = (c: any) => (c?.parts ?? []).map((p: any) => p.text ?? "").join("");
    switch (m[2]) {
      case "generateContent":
        return generate(x);
      case "streamGenerateContent":
        return stream(x);
      case "embedContent":
        return sendJson(x.res, 200, { embedding: { values: fakeVector(text(x.request.body.content), 8) } });
      case "batchEmbedContents":
        return sendJson(x.res, 200, { embeddings: x.request.body.requests.map((r: any) => ({ values: fakeVector(text(r.content), 8) })) });
      default:
        return sendJson(x.res, 404, { error: { code: 404, message: `no method ${m[2]}`, status: "NOT_FOUND" } });
    }
  });
}
