import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BUCKET, createLocalStorage, documentKey, StoredObjectTooLarge } from "~/server/platform/storage/storage.server";
import { makePdf, makePng } from "../helpers/files";
import { tempDirMaker } from "../helpers/temp-config";

const tempDir = tempDirMaker("local-storage");

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** Every file and folder under dir, relative, sorted. */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe("local folder storage", () => {
  it("put → exists → get (same bytes, size) → overwrite → delete → get null", async () => {
    const root = tempDir();
    const storage = createLocalStorage(root);
    const base = path.join(root, BUCKET);
    expect(storage.describe).toBe(`local folder ${base}`);
    const key = documentKey("user_1", "app_1", "id_front", "pdf");
    const bytes = makePdf(100_000);

    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, bytes, "application/pdf");
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got!.size).toBe(bytes.length);
    expect((await readAll(got!.body)).equals(bytes)).toBe(true);

    const replacement = makePdf(3_000);
    await storage.put(key, replacement, "application/pdf");
    expect((await readAll((await storage.get(key))!.body)).equals(replacement)).toBe(true);

    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key); // a missing object is not an error
    // The emptied application folder is tidied away; the user's folder stays.
    expect(fs.existsSync(path.join(base, "user_1", "app_1"))).toBe(false);
    expect(fs.existsSync(path.join(base, "user_1"))).toBe(true);
  });

  it("writes documents with mode 0600 in folders with mode 0700, and leaves no temp files", async () => {
    const root = tempDir();
    const storage = createLocalStorage(root);
    await storage.put("user_1/app_1/statement_1.png", makePng(), "image/png");
    await storage.put("user_1/app_1/statement_1.png", makePng(4, 4), "image/png"); // overwrite keeps the mode
    await storage.put("user_1/app_1/id_back.jpg", Buffer.from([0xff, 0xd8, 0xff, 0xe0]), "image/jpeg");
    const base = path.join(root, BUCKET);
    for (const file of ["user_1/app_1/statement_1.png", "user_1/app_1/id_back.jpg"]) {
      expect(fs.statSync(path.join(base, file)).mode & 0o777).toBe(0o600);
    }
    for (const dir of [base, path.join(base, "user_1"), path.join(base, "user_1", "app_1")]) {
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(tree(base).filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  it("lists keys by prefix, sorted, and never lists .part files", async () => {
    const root = tempDir();
    const storage = createLocalStorage(root);
    expect(await storage.list()).toEqual([]); // no folder yet
    const keys = ["user_1/app_1/id_front.pdf", "user_1/app_1/statement_1.png", "user_1/app_2/id_front.pdf", "user_2/app_3/id_back.jpg"];
    for (const key of [...keys].reverse()) await storage.put(key, Buffer.from(key), "application/octet-stream");
    // A write interrupted by a crash leaves a temp file behind under a name that is not a key.
    const partial = path.join(root, BUCKET, "user_1", "app_1", "statement_2.png.4242.1700000000000.part");
    fs.writeFileSync(partial, "half a file", { mode: 0o600 });

    expect(await storage.list()).toEqual(keys);
    expect(await storage.list("user_1/")).toEqual(keys.slice(0, 3));
    expect(await storage.list("user_1/app_1/")).toEqual(keys.slice(0, 2));
    expect(await storage.list("user_3/")).toEqual([]);
    expect(await storage.exists("user_1/app_1/statement_2.png")).toBe(false);
  });

  it("refuses unsafe keys on every operation and touches nothing outside its folder", async () => {
    const root = tempDir();
    const outside = path.join(root, "outside.pdf");
    fs.writeFileSync(outside, "not a document");
    const storage = createLocalStorage(path.join(root, "store"));
    await storage.put("u/a/keep.pdf", Buffer.from("kept"), "application/pdf");
    const before = tree(root);

    const unsafe = [
      "../x",
      "../../outside.pdf",
      "a/b",
      "x.pdf",
      "/etc/passwd",
      "/u/a/f.pdf",
      path.join(root, "outside.pdf"),
      "u/a/../f.pdf",
      "u/../../outside.pdf",
      "../a/f.pdf",
      "u/a/f.pdf\0",
      "u/a\0/f.pdf",
      "u/a/f.pdf\0.png",
      "u\\a\\f.pdf",
      "u/a/f.pdf/",
      "u/a/F.PDF",
      "u/a/f.exe",
      "",
    ];
    for (const key of unsafe) {
      await expect(storage.put(key, Buffer.from("x"), "application/pdf"), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.get(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.exists(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/unsafe storage key/);
      await expect(storage.putStream(key, [Buffer.from("x")], "application/pdf"), key).rejects.toThrow(/unsafe storage key/);
    }
    expect(tree(root)).toEqual(before);
    expect(fs.readFileSync(outside, "utf8")).toBe("not a document");
    expect(() => documentKey("u", "..", "f", "pdf")).toThrow(/unsafe storage key/);
  });

  it("putStream writes a body as it arrives: the object appears only once complete; past maxBytes or on a failing body nothing is left", async () => {
    const root = tempDir();
    const storage = createLocalStorage(root);
    const key = "exports/export_1/data_export.zip";
    const pieces = [Buffer.alloc(300_000, 1), Buffer.alloc(300_000, 2), Buffer.alloc(300_000, 3)];
    let seenMidway: boolean | undefined;
    async function* body() {
      yield pieces[0]!;
      yield pieces[1]!;
      // Halfway: nothing under the key yet (a reader never sees half a file).
      seenMidway = await storage.exists(key);
      yield pieces[2]!;
    }
    expect(await storage.putStream(key, body(), "application/zip")).toEqual({ bytes: 900_000 });
    expect(seenMidway).toBe(false);
    expect((await readAll((await storage.get(key))!.body)).equals(Buffer.concat(pieces))).toBe(true);

    // Over the limit: refused, the earlier object under that key kept, no part file left.
    const tooBig = await storage.putStream(key, pieces, "application/zip", { maxBytes: 700_000 }).catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(StoredObjectTooLarge);
    expect((await storage.get(key))!.size).toBe(900_000);
    async function* failing() {
      yield pieces[0]!;
      throw new Error("the source broke");
    }
    const otherKey = "exports/export_2/data_export.zip";
    await expect(storage.putStream(otherKey, failing(), "application/zip")).rejects.toThrow("the source broke");
    expect(await storage.exists(otherKey)).toBe(false);
    expect(tree(root).filter((f) => f.endsWith(".part") || f.includes("export_2"))).toEqual([]);
  });
});
