/**
 * The HTTP status a provider answered a failed call with, as its client's error carries it:
 * `status` (the OpenAI, Anthropic, Groq and Mistral SDKs; ChatGoogleGenerativeAI), `statusCode`,
 * `response.status` (fetch-based clients), `$metadata.httpStatusCode` (the AWS SDK), on the error
 * or its `cause`. Undefined when none says (a connection refused, a timeout).
 */
export function httpStatus(error: unknown): number | undefined {
  for (let e = error, depth = 0; e !== null && typeof e === "object" && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const o = e as { status?: unknown; statusCode?: unknown; response?: { status?: unknown }; $metadata?: { httpStatusCode?: unknown } };
    for (const v of [o.status, o.statusCode, o.response?.status, o.$metadata?.httpStatusCode]) {
      if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) return v;
    }
  }
  return undefined;
}
