import { describe, expect, it } from "vitest";
import { lowPriorityModulePreloads } from "~/server/http/preload-priority.server";

const html = '<head><link rel="modulepreload" href="/a.js"/><link rel="stylesheet" href="/s.css"/><link rel="modulepreload" href="/b.js"/></head><p>Ünïcødé €</p>';
const expected = html.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

describe("lowPriorityModulePreloads", () => {
  it("marks every module preload low priority and leaves the rest alone", () => {
    expect(lowPriorityModulePreloads(html)).toBe(expected);
    expect(expected.match(/fetchpriority="low"/g)).toHaveLength(2);
  });

  it("passes a document without preloads through unchanged", () => {
    const plain = '<html><body><link rel="icon" href="/f.svg"/><p>hello <</p></body></html>';
    expect(lowPriorityModulePreloads(plain)).toBe(plain);
  });
});
