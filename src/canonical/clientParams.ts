/**
 * Request parameters a client sends on every call but leaves out of its `invocationParams()`,
 * because it hands them to its SDK client once, at construction. Without this they would
 * never reach the key, and two models that ask the provider different things would share a
 * fixture. Each entry is the member of the canonical request and the client field it is read
 * from, for one client (by its `_llmType()`, so no other client's key moves) or for any client
 * that has the field set.
 */
type Fields = readonly (readonly [member: string, field: string])[];

const CLIENT_FIELDS: Readonly<Record<string, Fields>> = {
  googlegenerativeai: [
    // ChatGoogleGenerativeAI: getGenerativeModel({ safetySettings }) puts them in every request body
    ["safetySettings", "safetySettings"],
    // before @langchain/google-genai 2.2.0, invocationParams() returns the tools only: temperature, topP, topK,
    // maxOutputTokens, stopSequences, json, thinkingConfig sit on its SDK client from construction, and the call's
    // response schema is put there by invocationParams() itself (read after it). 2.2.0 and later return the same
    // object as invocationParams().generationConfig, which wins: one key for both.
    ["generationConfig", "client.generationConfig"],
  ],
};

/**
 * Azure OpenAI (AzureChatOpenAI, whose `_llmType()` is "azure_openai", and the AzureOpenAI LLM,
 * whose is "openai"): the deployment in the URL decides which model answers, whatever `model`
 * says. Named as the Azure embeddings key names it. No other LangChain client has the field.
 * From @langchain/openai 1.0, `withConfig` (and so `bindTools`, `withStructuredOutput`,
 * `createAgent`'s binding) of an AzureChatOpenAI returns a plain ChatOpenAI built from its fields,
 * without the Azure ones, whose inner Chat Completions client (`completions`, the Responses API's
 * `responses` is built from the same fields) is still the Azure one and sends to the deployment:
 * read there when the model has none of its own (trial 48: a tool-bound call's key had no
 * deployment, and another deployment replayed its answer). In every table, the first field found for a member is kept.
 */
const ANY_CLIENT_FIELDS: Fields = [
  ["deployment", "azureOpenAIApiDeploymentName"],
  ["deployment", "completions.azureOpenAIApiDeploymentName"],
];

/** The parameters `model`'s client sends beyond its `invocationParams()`, or undefined for a client that sends none. */
export function clientOnlyParams(model: { _llmType?(): string }): Record<string, unknown> | undefined {
  const own = CLIENT_FIELDS[model._llmType?.() ?? ""];
  const out = own ? readFields(model, own, undefined) : undefined;
  return readFields(model, ANY_CLIENT_FIELDS, out);
}

function readFields(model: object, fields: Fields, into: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  for (const [member, field] of fields) {
    let v: unknown = model;
    for (const name of field.split(".")) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[name] : undefined;
    if (v !== undefined && v !== null && !(into !== undefined && Object.hasOwn(into, member))) (into ??= {})[member] = v;
  }
  return into;
}
