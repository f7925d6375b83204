import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, setConfig, type S3Config } from "~/server/platform/config.server";
import {
  EMPTY_SHA256,
  canonicalQuery,
  createS3Storage,
  decodeXmlText,
  parseListPage,
  sha256Hex,
  signV4,
  uriEncode,
  type S3StorageOptions,
} from "~/server/platform/storage/s3-storage.server";
import { getStorage, setStorage } from "~/server/platform/storage/storage.server";
import { startFakeS3, type FakeS3 } from "../helpers/fake-s3";
import { makePdf, makePng } from "../helpers/files";
import { rejectionOf } from "../helpers/rejection";
import { scratchDirs } from "../helpers/scratch-dirs";

const ACCESS_KEY = "AKIDTESTPORTAL0001";
const SECRET_KEY = "t3st+Secret/Key=NeverReal-8c1f2e";
const WRONG_SECRET = "wr0ng+Secret/Key=AlsoNotReal-77aa";

let fake: FakeS3;
const tempDir = scratchDirs("portal-s3-");

beforeAll(async () => {
  fake = await startFakeS3({ accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, region: "us-east-1", buckets: ["loan-documents"] });
});
afterAll(async () => {
  setStorage(undefined);
  await fake.close();
});
beforeEach(() => {
  fake.hang = false;
  fake.hangBody = false;
  fake.requests.length = 0;
  for (const bucket of fake.buckets.values()) bucket.clear();
});

function s3(over: Partial<S3Config> = {}, options: S3StorageOptions = {}) {
  const config: S3Config = {
    endpoint: fake.endpoint,
    region: "us-east-1",
    bucket: "loan-documents",
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    forcePathStyle: true,
    ...over,
  };
  return createS3Storage(config, options);
}

async function readAll(body: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe("SigV4 signer (AWS's published S3 examples)", () => {
  // docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
  const example = {
    host: "examplebucket.s3.amazonaws.com",
    date: new Date("2013-05-24T00:00:00Z"),
    region: "us-east-1",
    accessKeyId: "AKIAIOSFODNN7EXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  };

  it("GET Object with a Range header", () => {
    const signed = signV4({ ...example, method: "GET", path: "/test.txt", headers: { Range: "bytes=0-9" }, payloadHash: EMPTY_SHA256 });
    expect(signed.headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
    expect(signed.headers["x-amz-date"]).toBe("20130524T000000Z");
  });

  it("PUT Object: payload hash and a key that needs encoding ($)", () => {
    const payloadHash = sha256Hex("Welcome to Amazon S3.");
    expect(payloadHash).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    const signed = signV4({
      ...example,
      method: "PUT",
      path: `/${uriEncode("test$file.text", false)}`,
      headers: { Date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY" },
      payloadHash,
    });
    expect(signed.canonicalRequest.split("\n")[1]).toBe("/test%24file.text");
    expect(signed.signature).toBe("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  });

  it("GET Bucket lifecycle (a query parameter with an empty value)", () => {
    const signed = signV4({ ...example, method: "GET", path: "/", query: { lifecycle: "" }, payloadHash: EMPTY_SHA256 });
    expect(signed.signature).toBe("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  });

  it("GET Bucket (List Objects): query parameters sorted", () => {
    const signed = signV4({ ...example, method: "GET", path: "/", query: { prefix: "J", "max-keys": "2" }, payloadHash: EMPTY_SHA256 });
    expect(signed.signature).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  });

  it("encodes the SigV4 way: unreserved characters kept, '/' kept only in paths, UTF-8 bytes upper-case hex", () => {
    expect(uriEncode("u-1/app_2/id_front.pdf", false)).toBe("u-1/app_2/id_front.pdf");
    expect(uriEncode("a/b", true)).toBe("a%2Fb");
    expect(uriEncode("a b+c*~'()!$&=", false)).toBe("a%20b%2Bc%2A~%27%28%29%21%24%26%3D");
    expect(uriEncode("ключ", false)).toBe("%D0%BA%D0%BB%D1%8E%D1%87");
    expect(canonicalQuery({ prefix: "a b/", "list-type": "2", "continuation-token": "x+y=" })).toBe(
      "continuation-token=x%2By%3D&list-type=2&prefix=a%20b%2F",
    );
  });
});

describe("ListObjectsV2 parsing", () => {
  it("reads keys with their LastModified, IsTruncated and NextContinuationToken, decoding XML entities and CDATA", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
        <Name>loan-documents</Name><Prefix>u/</Prefix><KeyCount>3</KeyCount><IsTruncated>true</IsTruncated>
        <Contents><Key>u/a/tom&amp;jerry&#x27;s &lt;1&gt;.pdf</Key><LastModified>2026-01-02T03:04:05.000Z</LastModified><Size>1</Size></Contents>
        <Contents>
          <Key>u/a/&#233;t&#xE9;.png</Key>
        </Contents>
        <Contents><Key><![CDATA[u/a/raw&name.pdf]]></Key></Contents>
        <CommonPrefixes><Prefix>u/b/</Prefix></CommonPrefixes>
        <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
      </ListBucketResult>`;
    const before = Date.now();
    const page = parseListPage(xml);
    expect(page.objects.map((o) => o.key)).toEqual(["u/a/tom&jerry's <1>.pdf", "u/a/été.png", "u/a/raw&name.pdf"]);
    expect(page.objects[0]!.modifiedAt.toISOString()).toBe("2026-01-02T03:04:05.000Z");
    // Without a LastModified the object counts as new: an orphan sweep's grace period spares it.
    expect(page.objects[1]!.modifiedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect({ ...page, objects: undefined }).toEqual({
      objects: undefined,
      truncated: true,
      nextToken: "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=",
    });
    expect(parseListPage("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>")).toEqual({
      objects: [],
      truncated: false,
      nextToken: undefined,
    });
    expect(decodeXmlText("&amp;lt;")).toBe("&lt;");
    expect(() => parseListPage("<Error><Code>AccessDenied</Code></Error>")).toThrow(/not a ListBucketResult/);
  });
});

describe("S3 adapter against a local S3-compatible server that checks SigV4", () => {
  it("put → exists → get (streamed, same bytes) → list by prefix → delete → get null", async () => {
    const storage = s3();
    expect(storage.describe).toBe(`s3 ${fake.endpoint}/loan-documents`);
    const key = "user_1/app_1/id_front.pdf";
    const bytes = makePdf(300_000);

    expect(await storage.exists(key)).toBe(false);
    await storage.put(key, bytes, "application/pdf");
    expect(await storage.exists(key)).toBe(true);
    const stored = fake.buckets.get("loan-documents")!.get(key)!;
    expect(stored.contentType).toBe("application/pdf");
    expect(stored.serverSideEncryption).toBeUndefined();

    const got = await storage.get(key);
    expect(got).not.toBeNull();
    expect(got!.size).toBe(bytes.length);
    expect(got!.body).toBeInstanceOf(Readable);
    const { bytes: read, chunks } = await readAll(got!.body);
    expect(read.equals(bytes)).toBe(true);
    expect(chunks).toBeGreaterThan(1); // really streamed, not one buffer

    await storage.put("user_1/app_1/statement_1.png", makePng(), "image/png");
    await storage.put("user_1/app_2/statement_1.png", makePng(), "image/png");
    await storage.put("user_2/app_9/id_back.jpg", Buffer.from([0xff, 0xd8, 0xff]), "image/jpeg");
    expect(await storage.list("user_1/app_1/")).toEqual(["user_1/app_1/id_front.pdf", "user_1/app_1/statement_1.png"]);
    expect(await storage.list("user_1/")).toHaveLength(3);
    expect(await storage.list()).toHaveLength(4);
    expect(await storage.list("nobody/")).toEqual([]);
    // A prefix that needs encoding in the query string is signed correctly too.
    expect(await storage.list("a b&c+d=/~*'(!)")).toEqual([]);

    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.exists(key)).toBe(false);
    await storage.delete(key); // a missing object is not an error

    // Every request above was signed, verified and answered without an error.
    expect(fake.requests.filter((r) => r.error && r.error !== "NoSuchKey")).toEqual([]);
    const put = fake.requests.find((r) => r.method === "PUT")!;
    expect(put.signedHeaders).toEqual(
      expect.arrayContaining(["host", "content-type", "content-length", "x-amz-content-sha256", "x-amz-date"]),
    );
  });

  it("lists across pages with continuation tokens", async () => {
    const storage = s3({}, { pageSize: 2 });
    const keys = ["u_1/a_1/f_1.pdf", "u_1/a_1/f_2.pdf", "u_1/a_1/f_3.pdf", "u_1/a_1/f_4.pdf", "u_1/a_1/f_5.pdf", "u_2/a_1/f_1.pdf"];
    for (const key of keys) await storage.put(key, Buffer.from(key), "application/pdf");
    const before = fake.requests.length;
    expect(await storage.list("u_1/")).toEqual(keys.slice(0, 5));
    const pages = fake.requests.slice(before);
    expect(pages).toHaveLength(3);
    expect(pages.filter((r) => r.url.includes("continuation-token="))).toHaveLength(2);
    expect(pages.every((r) => r.url.includes("max-keys=2") && r.status === 200)).toBe(true);
    expect(await storage.list()).toEqual(keys);
  });

  it("asks for server-side encryption when configured, as a signed header", async () => {
    const storage = s3({ serverSideEncryption: "AES256" });
    await storage.put("u_1/a_1/f.pdf", makePdf(), "application/pdf");
    expect(fake.buckets.get("loan-documents")!.get("u_1/a_1/f.pdf")!.serverSideEncryption).toBe("AES256");
    expect(fake.requests.at(-1)!.signedHeaders).toContain("x-amz-server-side-encryption");
  });

  it("works virtual-hosted (bucket.host/key) as well", async () => {
    // No DNS for loan-documents.localhost here: connect to the fake and send the Host header as fetch would.
    const viaLoopback = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      expect(url.hostname).toBe("loan-documents.localhost");
      const headers = { ...(init?.headers as Record<string, string>), host: url.host };
      return await new Promise<Response>((resolve, reject) => {
        const req = http.request(
          { host: "127.0.0.1", port: fake.port, method: init?.method, path: url.pathname + url.search, headers },
          (res) => {
            const out = new Headers();
            for (const [name, value] of Object.entries(res.headers)) if (typeof value === "string") out.set(name, value);
            const empty = init?.method === "HEAD" || res.statusCode === 204;
            if (empty) res.resume();
            const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
            resolve(new Response(body, { status: res.statusCode, headers: out }));
          },
        );
        req.on("error", reject);
        req.end(init?.body as Uint8Array | undefined);
      });
    }) as typeof fetch;
    const storage = s3({ endpoint: `http://localhost:${fake.port}`, forcePathStyle: false }, { fetch: viaLoopback });
    const bytes = makePng(16, 16);
    await storage.put("u_1/a_1/id_front.png", bytes, "image/png");
    expect((await readAll((await storage.get("u_1/a_1/id_front.png"))!.body)).bytes.equals(bytes)).toBe(true);
    expect(await storage.list("u_1/")).toEqual(["u_1/a_1/id_front.png"]);
    await storage.delete("u_1/a_1/id_front.png");
    expect(await storage.exists("u_1/a_1/id_front.png")).toBe(false);
    expect(fake.requests.at(-1)!.host).toBe(`loan-documents.localhost:${fake.port}`);
    expect(fake.requests.filter((r) => r.error && r.error !== "NoSuchKey")).toEqual([]);
  });

  it("a wrong secret key is refused, with a clear error that never contains a secret", async () => {
    const storage = s3({ secretAccessKey: WRONG_SECRET });
    const key = "u_1/a_1/f.pdf";
    const errors = await Promise.all([
      rejectionOf(storage.put(key, makePdf(), "application/pdf")),
      rejectionOf(storage.get(key)),
      rejectionOf(storage.exists(key)),
      rejectionOf(storage.delete(key)),
      rejectionOf(storage.list("u_1/")),
    ]);
    expect(errors[0]!.message).toMatch(/^S3 PutObject u_1\/a_1\/f\.pdf failed .*HTTP 403 SignatureDoesNotMatch/);
    expect(errors[0]!.message).toMatch(/check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(errors[1]!.message).toMatch(/GetObject .*SignatureDoesNotMatch/);
    expect(errors[2]!.message).toMatch(/HeadObject .*HTTP 403/);
    expect(errors[3]!.message).toMatch(/DeleteObject .*SignatureDoesNotMatch/);
    expect(errors[4]!.message).toMatch(/ListObjectsV2 .*SignatureDoesNotMatch/);
    for (const error of errors) {
      const text = `${error.message}\n${error.stack}\n${JSON.stringify(error)}`;
      expect(text).not.toContain(WRONG_SECRET);
      expect(text).not.toContain(SECRET_KEY);
    }
    expect(fake.buckets.get("loan-documents")!.size).toBe(0);

    const unknownKey = s3({ accessKeyId: "AKIDNOBODY" });
    expect((await rejectionOf(unknownKey.put(key, makePdf(), "application/pdf"))).message).toMatch(/403 InvalidAccessKeyId/);
    const wrongRegion = s3({ region: "eu-west-1" });
    expect((await rejectionOf(wrongRegion.list())).message).toMatch(/AuthorizationHeaderMalformed/);
  });

  it("refuses an unsafe key before any request is made", async () => {
    const storage = s3();
    const before = fake.requests.length;
    const unsafe = ["../x", "a/b", "/etc/passwd", "/u/a/f.pdf", "u/a/../f.pdf", "u/../a/f.pdf", "u/a/f.pdf\0", "u/a/f.pdf\0.png", "u/a/F.PDF", "u/a/f.exe", "u\\a\\f.pdf"];
    for (const key of unsafe) {
      await expect(storage.put(key, makePdf(), "application/pdf")).rejects.toThrow(/unsafe storage key/);
      await expect(storage.get(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.exists(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/unsafe storage key/);
    }
    expect(fake.requests.length).toBe(before);
  });

  it("gives up after its timeout, and says so", async () => {
    fake.hang = true;
    const storage = s3({}, { transferTimeoutMs: 300, requestTimeoutMs: 200 });
    const started = Date.now();
    expect((await rejectionOf(storage.put("u_1/a_1/f.pdf", makePdf(), "application/pdf"))).message).toMatch(
      /PutObject .*no response within 0\.3 s/,
    );
    expect((await rejectionOf(storage.get("u_1/a_1/f.pdf"))).message).toMatch(/GetObject .*no response within 0\.3 s/);
    expect((await rejectionOf(storage.exists("u_1/a_1/f.pdf"))).message).toMatch(/HeadObject .*no response within 0\.2 s/);
    expect((await rejectionOf(storage.list())).message).toMatch(/ListObjectsV2 .*within 0\.2 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("ends a download whose body stalls, with an error on the stream", async () => {
    const storage = s3({}, { transferTimeoutMs: 300 });
    await storage.put("u_1/a_1/f.pdf", makePdf(100_000), "application/pdf");
    fake.hangBody = true;
    const got = await storage.get("u_1/a_1/f.pdf");
    expect(got!.size).toBe(100_000);
    expect((await rejectionOf(readAll(got!.body))).message).toMatch(/GetObject .*the body stalled for 0\.3 s/);
  });

  it("says when the storage server cannot be reached", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const storage = s3({ endpoint: `http://127.0.0.1:${port}` });
    const error = await rejectionOf(storage.exists("u_1/a_1/f.pdf"));
    expect(error.message).toMatch(/cannot reach the storage server \(ECONNREFUSED\)/);
    expect(error.message).not.toContain(SECRET_KEY);
  });
});

describe("S3 configuration and getStorage()", () => {
  const base = () => ({ DATA_DIR: tempDir() });
  const creds = { S3_ACCESS_KEY_ID: ACCESS_KEY, S3_SECRET_ACCESS_KEY: SECRET_KEY };

  it("is off without S3 variables, and getStorage() is the local folder", () => {
    const config = loadConfig(base());
    expect(config.s3).toBeUndefined();
    setConfig(config);
    setStorage(undefined);
    expect(getStorage().describe).toBe(`local folder ${path.join(config.dataDir, "storage", "loan-documents")}`);
    setStorage(undefined);
  });

  it("S3_BUCKET alone means AWS in S3_REGION, path-style by default", () => {
    const config = loadConfig({ ...base(), ...creds, S3_BUCKET: "acme-loan-docs", S3_REGION: "us-west-2" });
    expect(config.s3).toEqual({
      endpoint: "https://s3.us-west-2.amazonaws.com",
      region: "us-west-2",
      bucket: "acme-loan-docs",
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      forcePathStyle: true,
    });
  });

  it("S3_ENDPOINT alone uses the loan-documents bucket; getStorage() then talks to S3", async () => {
    const config = loadConfig({
      ...base(),
      ...creds,
      S3_ENDPOINT: `${fake.endpoint}/`,
      S3_FORCE_PATH_STYLE: "true",
      S3_SERVER_SIDE_ENCRYPTION: "aws:kms",
    });
    expect(config.s3).toMatchObject({ endpoint: fake.endpoint, bucket: "loan-documents", region: "us-east-1", serverSideEncryption: "aws:kms" });
    setConfig(config);
    setStorage(undefined);
    const storage = getStorage();
    expect(storage.describe).toBe(`s3 ${fake.endpoint}/loan-documents`);
    await storage.put("u_1/a_1/f.pdf", makePdf(), "application/pdf");
    expect(fake.buckets.get("loan-documents")!.get("u_1/a_1/f.pdf")!.serverSideEncryption).toBe("aws:kms");
    setStorage(undefined);
  });

  it("S3_FORCE_PATH_STYLE=false selects virtual-hosted addressing", () => {
    const config = loadConfig({ ...base(), ...creds, S3_BUCKET: "loan-documents", S3_FORCE_PATH_STYLE: "false" });
    expect(config.s3!.forcePathStyle).toBe(false);
  });

  function problemsOf(env: Record<string, string>): string[] {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error("expected a ConfigError");
  }

  it("requires both keys once S3 is enabled, naming them", () => {
    expect(problemsOf({ ...base(), S3_BUCKET: "loan-documents" })).toEqual([
      "S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: required when S3_ENDPOINT or S3_BUCKET is set",
    ]);
    expect(problemsOf({ ...base(), S3_ENDPOINT: "http://127.0.0.1:9000", S3_ACCESS_KEY_ID: ACCESS_KEY })).toEqual([
      "S3_SECRET_ACCESS_KEY: required when S3_ENDPOINT or S3_BUCKET is set",
    ]);
  });

  it("refuses S3 settings without a bucket or endpoint instead of silently using the local folder", () => {
    expect(problemsOf({ ...base(), ...creds })).toEqual([
      "S3_BUCKET, S3_ENDPOINT: set S3_BUCKET (or S3_ENDPOINT) to use S3 storage (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY is set)",
    ]);
  });

  it("validates each value, without echoing the secret", () => {
    const problems = problemsOf({
      ...base(),
      ...creds,
      S3_ENDPOINT: "http://user:pw@minio.internal:9000",
      S3_BUCKET: "Bad_Bucket",
      S3_FORCE_PATH_STYLE: "yes",
      S3_SERVER_SIDE_ENCRYPTION: "DES",
      S3_REGION: "US East",
    });
    expect(problems.map((p) => p.split(":")[0])).toEqual([
      "S3_ENDPOINT",
      "S3_REGION",
      "S3_BUCKET",
      "S3_FORCE_PATH_STYLE",
      "S3_SERVER_SIDE_ENCRYPTION",
    ]);
    expect(problems.join("\n")).not.toContain(SECRET_KEY);
    expect(problemsOf({ ...base(), ...creds, S3_ENDPOINT: "ftp://example.com" })[0]).toMatch(/^S3_ENDPOINT: must be an http\(s\) URL/);
  });
});
