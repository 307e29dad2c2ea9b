/**
 * The stand-in provider's script for the examples: one canned answer per question the
 * examples ask (see ./canned.ts for how an entry is matched and played). A question that is
 * not here gets the stand-in's echo ("echo: <question>"). This is a lookup table, not a
 * model: it lets the examples record meaningful fixtures with no key and no network.
 */
import type { CannedAnswer } from "./canned";

export const EXAMPLE_ANSWERS: readonly CannedAnswer[] = [
  // chat.spec.ts
  { question: "What is the capital of France?", answer: "Paris." },
  { question: "What is 12 times 12?", answer: "144" },
  // agent.spec.ts, readme.spec.ts: the refund agent looks the order up, refunds it, answers
  {
    question: "Order 42 arrived broken",
    toolTurns: [[{ name: "get_order_status", args: { orderId: "42" } }], [{ name: "issue_refund", args: { orderId: "42", amount: 25 } }]],
    answer: "I've refunded $25 for order 42. It will reach your card within 5 business days.",
  },
  // rag.spec.ts
  { question: "How long do refunds take?", answer: "Refunds are issued within 14 days of purchase." },
  // structured-output.spec.ts
  {
    question: "Extract the support ticket",
    json: { orderId: "1234", category: "late", wantsRefund: false },
  },
  // streaming.spec.ts
  { question: "Write a haiku about replayed tests", answer: "Recorded once, then\nreplayed on every run:\nno network, no key." },
  {
    question: "What's the weather in Paris?",
    toolTurns: [[{ name: "get_weather", args: { city: "Paris" } }]],
    answer: "It is sunny in Paris.",
  },
  // ollama.spec.ts
  { question: "Can I change my delivery address?", answer: "Yes: you can change the delivery address on the Orders page until the order ships." },
  // normalize-redact.spec.ts
  { question: "which of my invoices are overdue?", answer: "Two invoices are overdue: INV-1001 and INV-1002." },
  // live-smoke.spec.ts (runs only against a real provider; here for a local dry run)
  { question: "Reply with the word: pong", answer: "pong" },
];
