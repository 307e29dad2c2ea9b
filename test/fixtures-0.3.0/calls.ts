/**
 * The calls behind the committed 0.3.0 fixture set (test/fixtures-0.3.0/cassettes/): binary
 * input that langchain-vcr 0.3.0 keyed and stored as raw base64 because it sits one level down
 * in its content block (an Anthropic `source: {type: "base64", data}` image and PDF, OpenAI's
 * `input_audio: {data}`), and Google's `media` block (type not known to 0.3.0). Written once by
 * `record.ts` with 0.3.0's canonical form; the upgrade test replays them after the canonical
 * form digests those bytes. Returns what each call answered.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { Vcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { spec as anthropic } from "../providers/specs/anthropic";
import { spec as google } from "../providers/specs/google";

/** A 1×1 PNG, a minimal PDF and a few bytes of WAV, as base64. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
export const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n").toString("base64");
export const WAV = Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00").toString("base64");

export const messages = {
  anthropicImage: () =>
    new HumanMessage({
      content: [
        { type: "text", text: "What is in this image?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    }),
  anthropicPdf: () =>
    new HumanMessage({
      content: [
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, cache_control: { type: "ephemeral" } },
        { type: "text", text: "Summarize the document." },
      ],
    }),
  anthropicText: () =>
    new HumanMessage({
      content: [
        { type: "document", source: { type: "text", media_type: "text/plain", data: "Plain text stays text." } },
        { type: "text", text: "Summarize the document." },
      ],
    }),
  openaiAudio: () =>
    new HumanMessage({
      content: [
        { type: "text", text: "Transcribe this." },
        { type: "input_audio", input_audio: { data: WAV, format: "wav" } },
      ],
    }),
  googleMedia: () =>
    new HumanMessage({
      content: [
        { type: "text", text: "Describe this picture." },
        { type: "media", mimeType: "image/png", data: PNG },
      ],
    }),
};

export interface Urls {
  anthropic: string;
  google: string;
}

export async function runCalls(vcr: Vcr, fake: FakeProvider, urls: Urls): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const claude = anthropic.chat(urls.anthropic, vcr.cache);
  out.anthropicImage = (await claude.invoke([messages.anthropicImage()])).content;
  let streamed = "";
  for await (const c of await claude.stream([messages.anthropicImage()])) streamed += typeof c.content === "string" ? c.content : "";
  out.anthropicImageStream = streamed;
  out.anthropicPdf = (await claude.invoke([messages.anthropicPdf()])).content;
  out.anthropicText = (await claude.invoke([messages.anthropicText()])).content;
  out.openaiAudio = (await openai(fake, vcr.cache, { model: "gpt-4o-audio-preview" }).invoke([messages.openaiAudio()])).content;
  out.googleMedia = (await google.chat(urls.google, vcr.cache).invoke([messages.googleMedia()])).content;
  return out;
}
