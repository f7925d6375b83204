import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, setConfig, type S3Config } from "~/server/platform/config.server";
import { createS3Storage, EMPTY_SHA256, signV4, type S3StorageOptions } from "~/server/platform/storage/s3-storage.server";
import { getStorage, setStorage } from "~/server/platform/storage/storage.server";
import { startS3CompatibleServer, type S3CompatibleServer } from "../helpers/s3-compatible-server";
import { makePdf, makePng } from "../helpers/files";
import { rejectionOf } from "../helpers/rejection";
import { scratchDirs } from "../helpers/scratch-dirs";

/**
 * The S3 adapter against a real S3-compatible server (s3rver, run by this test on a loopback port),
 * not our own fake: every operation the adapter offers, signatures checked by someone else's code.
 */

const ACCESS_KEY = "AKIDPORTALS3RVER01";
// Characters that need care in SigV4 (+, /, =) so a signing slip shows up as SignatureDoesNotMatch.
const SECRET_KEY = "s3rver+Test/Secret=Key-0b7e41d9";
const WRONG_SECRET = "s3rver+Wrong/Secret=Key-deadbeef";
const BUCKET = "loan-documents";

let server: S3CompatibleServer;
const scratchDir = scratchDirs("portal-s3rver-cfg-");

beforeAll(async () => {
  server = await startS3CompatibleServer({ accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, buckets: [BUCKET] });
});
afterAll(async () => {
  setStorage(undefined);
  await server?.close();
});

function config(over: Partial<S3Config> = {}): S3Config {
  return {
    endpoint: server.endpoint,
    region: "us-east-1",
    bucket: BUCKET,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    forcePathStyle: true,
    ...over,
  };
}

const s3 = (over: Partial<S3Config> = {}, options: S3StorageOptions = {}) => createS3Storage(config(over), options);

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** A signed request of our own, to see what the server stored beyond the bytes. */
async function rawHead(key: string): Promise<Response> {
  const url = new URL(`${server.endpoint}/${BUCKET}/${key}`);
  const { headers } = signV4({
    method: "HEAD",
    host: url.host,
    path: url.pathname,
    payloadHash: EMPTY_SHA256,
    date: new Date(),
    region: "us-east-1",
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
  });
  delete headers.host;
  return fetch(url, { method: "HEAD", headers });
}

describe("S3 adapter against an S3-compatible server (s3rver)", () => {
  it("puts, gets, checks, lists and deletes a document", async () => {
    const storage = s3();
    const key = "user_1/app_1/photo_id.png";
    const png = makePng(200, 200);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();

    await storage.put(key, png, "image/png");
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got?.size).toBe(png.byteLength);
    expect((await readAll(got!.body)).equals(Buffer.from(png))).toBe(true);
    const head = await rawHead(key);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");

    expect(await storage.list()).toEqual([key]);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.list()).toEqual([]);
    // Deleting what is gone is not an error (a retried clean-up).
    await storage.delete(key);
  });

  it("keeps a 6 MB scan byte for byte", async () => {
    const storage = s3();
    const key = "user_1/app_2/bank_statement.pdf";
    // Random bytes behind a PDF header: a chunk lost, repeated or reordered changes the hash.
    const pdf = Buffer.concat([makePdf(), randomBytes(6 * 1024 * 1024)]);
    await storage.put(key, pdf, "application/pdf");
    const got = await storage.get(key);
    expect(got?.size).toBe(pdf.byteLength);
    const back = await readAll(got!.body);
    expect(createHash("sha256").update(back).digest("hex")).toBe(createHash("sha256").update(pdf).digest("hex"));
    await storage.delete(key);
  });

  it("putStream: a body of unknown length as a multipart upload (one part in memory), a short one as one PUT; past maxBytes nothing is stored", async () => {
    const seen: string[] = [];
    const logging: typeof fetch = (input, init) => {
      seen.push(`${init?.method ?? "GET"} ${new URL(String(input)).search}`);
      return fetch(input, init);
    };
    const storage = s3({}, { fetch: logging, partSizeBytes: 5 * 1024 * 1024 });
    const key = "exports/export_s3/data_export.zip";
    // 11 MB in 256 KB chunks: parts of 5, 5 and 1 MB.
    const whole = randomBytes(11 * 1024 * 1024);
    const chunks = Array.from({ length: 44 }, (_, i) => whole.subarray(i * 262_144, (i + 1) * 262_144));
    expect(await storage.putStream(key, chunks, "application/zip")).toEqual({ bytes: whole.byteLength });
    expect(seen.filter((s) => s.startsWith("POST ?uploads"))).toHaveLength(1);
    expect(seen.filter((s) => /^PUT \?partNumber=\d&uploadId=/.test(s))).toHaveLength(3);
    expect(seen.filter((s) => s.startsWith("POST ?uploadId="))).toHaveLength(1);
    const got = await storage.get(key);
    expect(got?.size).toBe(whole.byteLength);
    expect(createHash("sha256").update(await readAll(got!.body)).digest("hex")).toBe(createHash("sha256").update(whole).digest("hex"));

    seen.length = 0;
    const small = "exports/export_s3b/data_export.zip";
    expect(await storage.putStream(small, [Buffer.from("PK small")], "application/zip")).toEqual({ bytes: 8 });
    expect(seen).toEqual(["PUT "]);
    expect((await readAll((await storage.get(small))!.body)).toString()).toBe("PK small");

    // Past maxBytes in the second part: the upload is abandoned, no object under the key.
    const refused = "exports/export_s3c/data_export.zip";
    await expect(storage.putStream(refused, chunks, "application/zip", { maxBytes: 7 * 1024 * 1024 })).rejects.toThrow(/larger than 7340032 bytes/);
    expect(await storage.exists(refused)).toBe(false);
    await storage.delete(key);
    await storage.delete(small);
  });

  it("overwrites an object put twice under one key", async () => {
    const storage = s3();
    const key = "user_1/app_3/signature.png";
    await storage.put(key, makePng(20, 20), "image/png");
    const second = makePng(30, 30);
    await storage.put(key, second, "image/png");
    const got = await storage.get(key);
    expect(got?.size).toBe(second.byteLength);
    expect((await readAll(got!.body)).equals(Buffer.from(second))).toBe(true);
    await storage.delete(key);
  });

  it("lists by prefix and follows continuation tokens across pages", async () => {
    const storage = s3({}, { pageSize: 2 });
    const keys = [
      "user_a/app_1/photo_id.png",
      "user_a/app_1/pay_stub.pdf",
      "user_a/app_2/photo_id.png",
      "user_b/app_3/photo_id.jpg",
      "user_b/app_3/bank_statement.pdf",
    ];
    for (const key of keys) await storage.put(key, randomBytes(100), key.endsWith(".pdf") ? "application/pdf" : "image/png");
    try {
      expect(await storage.list()).toEqual([...keys].sort());
      expect(await storage.list("user_a/")).toEqual(keys.filter((k) => k.startsWith("user_a/")).sort());
      expect(await storage.list("user_a/app_1/")).toEqual(["user_a/app_1/pay_stub.pdf", "user_a/app_1/photo_id.png"]);
      expect(await storage.list("user_c/")).toEqual([]);
    } finally {
      for (const key of keys) await storage.delete(key);
    }
  });

  it("signs the server-side encryption header with the upload", async () => {
    const storage = s3({ serverSideEncryption: "AES256" });
    const key = "user_1/app_4/photo_id.png";
    await storage.put(key, makePng(), "image/png");
    expect(await storage.exists(key)).toBe(true);
    await storage.delete(key);
  });

  it("is refused with a wrong secret key (the server checks the signature), and the error never shows a secret", async () => {
    const good = s3();
    const key = "user_1/app_5/photo_id.png";
    await good.put(key, makePng(), "image/png");
    const bad = s3({ secretAccessKey: WRONG_SECRET });

    const put = await rejectionOf(bad.put("user_1/app_5/other.png", makePng(), "image/png"));
    expect(put.message).toContain("SignatureDoesNotMatch");
    expect(put.message).toContain("check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
    const get = await rejectionOf(bad.get(key));
    expect(get.message).toContain("SignatureDoesNotMatch");
    const list = await rejectionOf(bad.list());
    expect(list.message).toContain("SignatureDoesNotMatch");
    const del = await rejectionOf(bad.delete(key));
    expect(del.message).toContain("SignatureDoesNotMatch");
    const head = await rejectionOf(bad.exists(key));
    expect(head.message).toContain("HTTP 403");
    for (const error of [put, get, list, del, head]) {
      expect(error.message).not.toContain(WRONG_SECRET);
      expect(error.message).not.toContain(SECRET_KEY);
    }
    // Nothing the refused requests asked for happened.
    expect(await good.exists(key)).toBe(true);
    expect(await good.exists("user_1/app_5/other.png")).toBe(false);
    await good.delete(key);
  });

  it("is refused with an unknown access key and names a missing bucket", async () => {
    const unknown = await rejectionOf(s3({ accessKeyId: "AKIDNOBODY00000000" }).list());
    expect(unknown.message).toContain("InvalidAccessKeyId");
    const noBucket = await rejectionOf(s3({ bucket: "no-such-bucket" }).put("user_1/app_6/photo_id.png", makePng(), "image/png"));
    expect(noBucket.message).toContain("NoSuchBucket");
    expect(noBucket.message).toContain("check S3_BUCKET");
  });

  it("is what getStorage() uses when the S3_* variables point at it", async () => {
    const dataDir = scratchDir();
    setConfig(
      loadConfig({
        DATA_DIR: dataDir,
        S3_ENDPOINT: server.endpoint,
        S3_BUCKET: BUCKET,
        S3_ACCESS_KEY_ID: ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: SECRET_KEY,
      }),
    );
    setStorage(undefined);
    const storage = getStorage();
    expect(storage.describe).toBe(`s3 ${server.endpoint}/${BUCKET}`);
    const key = "user_9/app_9/photo_id.jpg";
    await storage.put(key, randomBytes(1234), "image/jpeg");
    expect(await storage.exists(key)).toBe(true);
    // Stored on the server, not in DATA_DIR.
    expect(fs.existsSync(path.join(dataDir, "storage"))).toBe(false);
    await storage.delete(key);
    setStorage(undefined);
  });
});
