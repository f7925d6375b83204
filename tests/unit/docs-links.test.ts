import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is what a newcomer reads first, so it stays short (the detail lives in docs/), and every
 * relative link in it and in docs/ must lead somewhere: a moved or renamed file, or a renamed heading,
 * would otherwise leave a dead link that no reader reports.
 */

const root = path.resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

function brokenLinks(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:: not this test's business
    const [pathPart, anchor] = target!.split("#") as [string, string | undefined];
    const resolved = pathPart === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
    const where = `${path.relative(root, file)} → ${target}`;
    if (!fs.existsSync(resolved)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith(".md") && !anchors(fs.readFileSync(resolved, "utf8")).has(anchor)) {
      broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

const documents = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

describe("the README and docs/", () => {
  it("keep the README under 250 lines", () => {
    const lines = fs.readFileSync(path.join(root, "README.md"), "utf8").split("\n").length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it("have no relative link to a missing file or heading", () => {
    expect(documents.flatMap(brokenLinks)).toEqual([]);
  });

  it("finds a broken link and a broken anchor (the check itself works)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-links-"));
    try {
      fs.writeFileSync(path.join(dir, "a.md"), "# A Title (first)\n\n[ok](#a-title-first) [gone](b.md) [bad](#nope) `[code](c.md)`\n");
      expect(brokenLinks(path.join(dir, "a.md")).map((b) => b.split(" → ")[1])).toEqual(["b.md (no such file)", "#nope (no such heading)"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
