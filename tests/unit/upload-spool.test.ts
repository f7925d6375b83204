import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSpool, removeStaleSpools } from "~/server/platform/uploads/upload-spool.server";

/** Spooled uploads are private while they exist and do not outlive the requests that made them. */

const roots: string[] = [];
const newRoot = () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "spool-test-"));
  roots.push(root);
  return path.join(root, "uploads");
};
afterEach(() => roots.splice(0).forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

describe("upload spool", () => {
  it("gives each request its own private folder and removes it whole", async () => {
    const root = newRoot();
    const a = await createSpool(root);
    const b = await createSpool(root);
    expect(a.dir).not.toBe(b.dir);
    expect(fs.statSync(root).mode & 0o777).toBe(0o700);
    expect(fs.statSync(a.dir).mode & 0o777).toBe(0o700);
    const file = a.nextPath();
    expect(a.nextPath()).not.toBe(file);
    fs.writeFileSync(file, "scan");
    await a.remove();
    expect(fs.existsSync(a.dir)).toBe(false);
    expect(fs.existsSync(b.dir)).toBe(true);
  });

  it("removes only the folders older than the cut-off, and nothing else in the folder", async () => {
    const root = newRoot();
    const old = await createSpool(root);
    fs.writeFileSync(old.nextPath(), "left by a killed process");
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(old.dir, hourAgo, hourAgo);
    const fresh = await createSpool(root);
    fs.writeFileSync(path.join(root, "unrelated.txt"), "not ours");
    expect(await removeStaleSpools(root, new Date(Date.now() - 60_000))).toBe(1);
    expect(fs.existsSync(old.dir)).toBe(false);
    expect(fs.existsSync(fresh.dir)).toBe(true);
    expect(fs.existsSync(path.join(root, "unrelated.txt"))).toBe(true);
  });

  it("has nothing to do before any upload", async () => {
    expect(await removeStaleSpools(newRoot(), new Date())).toBe(0);
  });
});

describe("upload spool owners", () => {
  it("removes at once the folders of a process that is gone, never a live one's", async () => {
    const root = newRoot();
    const mine = await createSpool(root);
    const gone = path.join(root, path.basename(mine.dir).replace(`-${process.pid}-`, "-999999999-"));
    fs.mkdirSync(gone);
    const otherHost = path.join(root, path.basename(mine.dir).replace(/^submission-[^-]+(?=-)/, "submission-elsewhere").replace(`-${process.pid}-`, "-999999999-"));
    fs.mkdirSync(otherHost);
    expect(await removeStaleSpools(root, new Date(Date.now() - 3600_000))).toBe(1);
    expect(fs.existsSync(gone)).toBe(false);
    expect(fs.existsSync(mine.dir)).toBe(true);
    // Another host's process cannot be asked: its folder waits for the age rule.
    expect(fs.existsSync(otherHost)).toBe(true);
  });
});
