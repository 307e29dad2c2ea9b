/** A file's bytes as base64 (an image a tool returned), as show and diff print it: mime type, size, sha256 (trial 57 M4). */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { binaryLabel } from "../../src/kinds/binaryText";
import { json } from "../../src/kinds/text";
import { renderMarkdown, renderText } from "../../src/cli/diffRender";
import type { DiffReport } from "../../src/cli/diffCompute";

describe("binaryLabel: a file's bytes as base64, labelled", () => {
  const pixels = Buffer.from(Array.from({ length: 19_000 }, (_, i) => (i * 7919) % 251));
  const png = (last: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pixels, Buffer.from([last])]);
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex").slice(0, 12);
  const url = (b: Buffer) => `data:image/png;base64,${b.toString("base64")}`;
  const SIZE = png(1).length.toLocaleString("en-US");

  it("a data URL and a bare base64 text as mime, size and the bytes' sha256; a short one, a word, an id, a text stay as they are", () => {
    expect(binaryLabel(url(png(1)))).to.equal(`[image/png base64, ${SIZE} bytes, sha256 ${sha(png(1))}]`);
    expect(binaryLabel(png(1).toString("base64"))).to.equal(`[base64, ${SIZE} bytes, sha256 ${sha(png(1))}]`);
    expect(binaryLabel("data:image/png;base64,iVBORw0KGgo=")).to.equal(undefined);
    for (const text of ["Paris", "x".repeat(400), "ab12".repeat(100), "call_" + "a1".repeat(20), "The answer is " + "A".repeat(300)])
      expect(binaryLabel(text)).to.equal(undefined);
  });

  it("show prints a tool result's image as its label, not its characters", () => {
    const shown = json([
      { type: "text", text: "the chart" },
      { type: "image_url", image_url: { url: url(png(1)) } },
    ]);
    expect(shown)
      .to.include(`"url": "[image/png base64, ${SIZE} bytes, sha256 ${sha(png(1))}]"`)
      .and.include('"text": "the chart"');
    expect(shown.length).to.be.below(300);
  });

  it("diff shows a changed image as its two labels, in text and markdown", () => {
    const report: DiffReport = {
      changed: [],
      added: [],
      removed: [],
      rerecorded: [
        {
          file: "cassettes/t.json",
          kind: "tool",
          title: 'render_chart({"query":"chart"})',
          request: [],
          response: [{ path: "result[1].value.image_url.url", recorded: url(png(1)), requested: url(png(2)) }],
        },
      ],
      damaged: [],
    };
    const change = `[image/png base64, ${SIZE} bytes, sha256 ${sha(png(1))}] → [image/png base64, ${SIZE} bytes, sha256 ${sha(png(2))}]`;
    const text = renderText(report, { dir: "cassettes", base: "HEAD" });
    expect(text).to.include(`result[1].value.image_url.url: ${change}`);
    expect(text.length).to.be.below(1000);
    expect(renderMarkdown(report, { dir: "cassettes", base: "HEAD" })).to.include(`\`[image/png base64, ${SIZE} bytes, sha256 ${sha(png(1))}]\` → `);
  });
});
