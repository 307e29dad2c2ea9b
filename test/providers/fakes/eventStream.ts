/**
 * AWS event-stream framing (application/vnd.amazon.eventstream), written from the format:
 * prelude (total length, headers length: uint32 BE), prelude CRC32, headers (name length
 * uint8, name, type 7 = string, value length uint16 BE, value), payload, message CRC32.
 * The SDK's decoder checks both CRCs, so a wrong frame fails the client, as it would live.
 */
import { crc32 } from "node:zlib";

export function eventFrame(headers: Record<string, string>, payload: string): Buffer {
  const head = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name, "utf8");
      const v = Buffer.from(value, "utf8");
      const lengths = Buffer.alloc(3);
      lengths.writeUInt8(7, 0);
      lengths.writeUInt16BE(v.length, 1);
      return Buffer.concat([Buffer.from([n.length]), n, lengths, v]);
    }),
  );
  const body = Buffer.from(payload, "utf8");
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + head.length + body.length + 4, 0);
  prelude.writeUInt32BE(head.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, head, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(message), 0);
  return Buffer.concat([message, crc]);
}

/** One event of a Bedrock ConverseStream answer. */
export function bedrockEvent(type: string, payload: unknown): Buffer {
  return eventFrame(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    typeof payload === "string" ? payload : JSON.stringify(payload),
  );
}
