/** Building blocks for the per-provider key tables (see describeKey in ./suite). */
import { HumanMessage } from "@langchain/core/messages";
import { CITY, IMAGE, WEATHER } from "./ops";
import type { KeyCall } from "./suite";

type Fields = Record<string, unknown>;

/** Pairs of calls that differ only in constructor fields: `{ temperature: [{ temperature: 0 }, { temperature: 0.5 }] }`. */
export function fieldPairs(table: Record<string, [Fields, Fields]>): Record<string, [KeyCall, KeyCall]> {
  return Object.fromEntries(Object.entries(table).map(([name, [a, b]]) => [name, [(c) => c(a).invoke("x"), (c) => c(b).invoke("x")]]));
}

const OTHER_IMAGE = "data:image/png;base64," + Buffer.from("other-image-bytes").toString("base64");
const image =
  (url: string): KeyCall =>
  (c) =>
    c().invoke([
      new HumanMessage({
        content: [
          { type: "text", text: "?" },
          { type: "image_url", image_url: { url } },
        ],
      }),
    ]);
const structured =
  (schema: typeof CITY): KeyCall =>
  (c) =>
    c()
      .withStructuredOutput(schema, { name: "city_answer" })
      .invoke("x")
      .catch(() => undefined);

/** temperature and top_p: every one of these clients takes them as `temperature` and `topP`. */
export const SAMPLING = fieldPairs({ temperature: [{ temperature: 0 }, { temperature: 0.5 }], top_p: [{ topP: 0.5 }, { topP: 0.9 }] });

/** The busts every provider shares, each in its own wire terms: stop sequences as a call option, tool choice, response schema, image bytes. */
export function sharedBusts(options: { stop: boolean; toolChoices: [unknown, unknown]; images: boolean }): Record<string, [KeyCall, KeyCall]> {
  const [one, two] = options.toolChoices;
  return {
    ...(options.stop ? { "stop sequences": [(c) => c().invoke("x", { stop: ["a"] }), (c) => c().invoke("x", { stop: ["b"] })] as [KeyCall, KeyCall] } : {}),
    "tool choice": [
      (c) => c().bindTools!([WEATHER], { tool_choice: one } as never).invoke("x"),
      (c) => c().bindTools!([WEATHER], { tool_choice: two } as never).invoke("x"),
    ],
    "response schema": [structured(CITY), structured(CITY.extend({ country: CITY.shape.city }))],
    ...(options.images ? { "image bytes": [image(IMAGE), image(OTHER_IMAGE)] as [KeyCall, KeyCall] } : {}),
  };
}
