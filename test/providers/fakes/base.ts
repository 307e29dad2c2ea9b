/**
 * The part every provider fake shares: a loopback server (HTTP/1.1, or cleartext HTTP/2 for
 * the AWS SDK's default handler) on 127.0.0.1 that counts requests and answers each one from
 * a FIFO script of replies. Each provider's file only turns a `Reply` into its own wire format.
 */
import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface Reply {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** a reasoning block before the answer (Anthropic `thinking`, Bedrock `reasoningContent`) */
  thinking?: string;
  /** answer with this HTTP status and the provider's error body instead */
  status?: number;
  /** stream: send two good events, then one whose JSON is cut short */
  malformed?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** What a provider's handler gets for one request. */
export interface Exchange {
  request: FakeRequest;
  reply: Reply;
  /** a fresh id per exchange (LangGraph merges messages that share one) */
  serial: number;
  /** an http2 response offers the same methods the handlers use */
  res: http.ServerResponse;
}

export interface Fake {
  url: string;
  requests: FakeRequest[];
  /** requests so far (optionally only those whose path starts with `prefix`) */
  count(prefix?: string): number;
  enqueue(...replies: Reply[]): void;
  close(): Promise<void>;
}

export const DEFAULT_REPLY: Reply = { text: "ok" };

export function startFake(handle: (x: Exchange) => void | Promise<void>, options: { http2?: boolean } = {}): Promise<Fake> {
  const requests: FakeRequest[] = [];
  const queue: Reply[] = [];
  const sockets = new Set<Socket>();
  let serial = 0;
  const onRequest = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: unknown = raw === "" ? undefined : raw;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        // not JSON: keep the string
      }
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      requests.push(request);
      serial += 1;
      Promise.resolve(handle({ request, reply: queue.shift() ?? DEFAULT_REPLY, serial, res: res as http.ServerResponse })).catch((err) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: String(err) }));
      });
    });
  };
  const server = options.http2 ? http2.createServer(onRequest) : http.createServer(onRequest);
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        count: (prefix) => (prefix ? requests.filter((r) => r.path.startsWith(prefix)).length : requests.length),
        enqueue: (...r) => void queue.push(...r),
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

export function sendJson(res: Exchange["res"], status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Server-sent events: each item is `[event name or undefined, data]`; a string data is sent as is. */
export function sendSse(res: Exchange["res"], events: [string | undefined, unknown][]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [name, data] of events) {
    res.write((name ? `event: ${name}\n` : "") + `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

/** Text in small pieces (one word and its trailing space each); joined they give the text back. */
export function pieces(text: string): string[] {
  return (text.match(/\S*\s*/g) ?? []).filter((p) => p.length > 0);
}

export function words(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}

/** A JSON text cut in the middle, as a dropped connection or a broken proxy leaves it. */
export const CUT_JSON = '{"broken": "this JSON never clo';
