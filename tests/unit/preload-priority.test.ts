import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads } from "~/server/http/preload-priority.server";

async function run(chunks: string[]): Promise<string> {
  const out: Buffer[] = [];
  const stream = Readable.from(chunks.map((c) => Buffer.from(c))).pipe(lowPriorityModulePreloads());
  for await (const chunk of stream) out.push(chunk as Buffer);
  return Buffer.concat(out).toString("utf8");
}

const html = '<head><link rel="modulepreload" href="/a.js"/><link rel="stylesheet" href="/s.css"/><link rel="modulepreload" href="/b.js"/></head><p>Ünïcødé €</p>';
const expected = html.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

describe("lowPriorityModulePreloads", () => {
  it("marks every module preload low priority and leaves the rest alone", async () => {
    expect(await run([html])).toBe(expected);
  });

  it("handles a preload (or a multi-byte character) split across any two chunks", async () => {
    const bytes = Buffer.from(html);
    for (let cut = 1; cut < bytes.length; cut++) {
      const parts = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const out: Buffer[] = [];
      for await (const chunk of Readable.from(parts).pipe(lowPriorityModulePreloads())) out.push(chunk as Buffer);
      expect(Buffer.concat(out).toString("utf8"), `cut at ${cut}`).toBe(expected);
    }
  });

  it("passes a document without preloads through unchanged, one byte at a time", async () => {
    const plain = "<html><body><link rel=\"icon\" href=\"/f.svg\"/><p>hello <</p></body></html>";
    expect(await run(plain.split(""))).toBe(plain);
  });
});
