import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";

/** A word as poppler's `pdftotext -bbox` places it: its page (from 1) and its box in points. */
export type Word = { page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** The PDF written to `dir/name.pdf` and read back word by word with `pdftotext -bbox`. */
export function wordsOf(bytes: Buffer, dir: string, name: string): { words: Word[]; file: string } {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, bytes);
  const html = execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" });
  const words: Word[] = [];
  let page = 0;
  for (const part of html.split(/<page /).slice(1)) {
    page += 1;
    for (const m of part.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      words.push({ page, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: m[5]! });
    }
  }
  return { words, file };
}

/** Pairs of words whose boxes intersect by more than a sliver (glyph boxes of neighbours may touch). */
export function overlaps(words: Word[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) {
      const a = words[i]!;
      const b = words[j]!;
      if (a.page !== b.page) continue;
      const w = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const h = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      if (w > 0.5 && h > 1) found.push(`p${a.page} "${a.text}" × "${b.text}"`);
    }
  }
  return found;
}

/**
 * Every word of the PDF on its page (US Letter) and clear of every other word, and `pdftoppm` draws
 * each page (its PNGs go beside the file in `dir`); returns the words.
 */
export function expectLaidOut(bytes: Buffer, dir: string, name: string): Word[] {
  const { words, file } = wordsOf(bytes, dir, name);
  expect(words.length).toBeGreaterThan(20);
  expect(overlaps(words)).toEqual([]);
  for (const w of words) {
    expect(w.xMin, w.text).toBeGreaterThanOrEqual(0);
    expect(w.xMax, w.text).toBeLessThanOrEqual(612);
    expect(w.yMax, w.text).toBeLessThanOrEqual(792);
  }
  const pages = new Set(words.map((w) => w.page)).size;
  execFileSync("pdftoppm", ["-r", "30", "-png", file, path.join(dir, name)]);
  const images = fs.readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith(".png"));
  expect(images).toHaveLength(pages);
  return words;
}
