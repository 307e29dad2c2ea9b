/** Binary data in content blocks is keyed and stored as its sha256; text stays text (src/canonical/content.ts). */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { canonicalContent, withLegacyBinary } from "../../src/canonical/content";
import { identity } from "../../src/canonical/normalize";

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const canonical = (content: unknown) => canonicalContent(content, identity, (id) => id) as Record<string, any>[];
/** An Anthropic-style document block whose source holds `data` with this media type (no source type). */
const doc = (data: string, media_type = "application/json") => [{ type: "document", source: { media_type, data } }];

describe("canonical content: bytes and text one level down in a binary block", () => {
  it("base64 in a block's source is keyed by the sha256 of its bytes, padded, line-wrapped or base64url alike", () => {
    const bytes = Buffer.from("%PDF-1.7 a small document, long enough to wrap when encoded as base64 by a mail tool");
    const b64 = bytes.toString("base64");
    const wrapped = b64.replace(/(.{40})/g, "$1\n");
    expect(wrapped).to.include("\n");
    for (const data of [b64, wrapped, bytes.toString("base64url")]) {
      expect(canonical(doc(data, "application/pdf"))[0].source).to.deep.equal({ media_type: "application/pdf", data: { sha256: sha(bytes) } });
    }
  });

  it("text that is not base64 (a JSON document's source) stays text: two texts are two keys, and the fixture can be read", () => {
    const a = canonical(doc('{"total": 1}'))[0].source;
    const b = canonical(doc('{"total": 7}'))[0].source;
    expect(a).to.deep.equal({ media_type: "application/json", data: '{"total": 1}' });
    expect(b.data).to.equal('{"total": 7}');
    // decoded as base64 (before), these two had one key: the decoder skips what is not of its alphabet (" ", ":", "!", "?")
    const c = canonical(doc("total: one!"))[0].source;
    const d = canonical(doc("total: one?"))[0].source;
    expect(c).to.not.deep.equal(d);
    expect(Buffer.from("total: one!", "base64")).to.deep.equal(Buffer.from("total: one?", "base64"));
    // the alphabet alone is not enough: "abd" decodes to the bytes of "abc" (its last character's spare bits are dropped), so it stays text
    expect(Buffer.from("abd", "base64")).to.deep.equal(Buffer.from("abc", "base64"));
    expect(canonical(doc("abc"))[0].source.data).to.deep.equal({ sha256: sha(Buffer.from("abc", "base64")) });
    expect(canonical(doc("abd"))[0].source.data).to.equal("abd");
    expect(canonical(doc("ab cd"))[0].source.data).to.equal("ab cd");
  });

  it("a data: URL one level down is digested whatever its payload; a Uint8Array always", () => {
    const url = "data:text/csv,a%2Cb";
    expect(canonical(doc(url))[0].source.data).to.deep.equal({ mime: "text/csv", sha256: sha(Buffer.from("a,b")) });
    const bytes = new Uint8Array([1, 2, 3]);
    expect(canonical([{ type: "document", source: { media_type: "application/octet-stream", data: bytes } }])[0].source.data).to.deep.equal({
      sha256: sha(Buffer.from(bytes)),
    });
  });

  it("at a block's top level any string is keyed as 0.3.0 keyed it (decoded as base64), so those fixtures keep their names", () => {
    const text = "not base64!";
    expect(canonical([{ type: "file", mime_type: "text/plain", data: text }])[0].data).to.deep.equal({ sha256: sha(Buffer.from(text, "base64")) });
    expect(withLegacyBinary(() => canonical(doc('{"total": 1}'))[0].source)).to.deep.equal({ media_type: "application/json", data: '{"total": 1}' });
  });
});
