import fc from "fast-check";
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { readBodyBytes, readForm, readJson } from "~/server/platform/http/read-body.server";
import { requestUrl } from "../../server/fetch-bridge";

/**
 * The body helper every action reads through: a chunked body (no Content-Length) or one whose
 * Content-Length lies must stop being read once it passes the limit, not be buffered whole.
 */

/** A body of `chunks` chunks of `chunkSize` bytes, counting how many the reader pulled. */
function countingStream(chunks: number, chunkSize: number, fill = 0x61) {
  const stats = { pulled: 0, bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stats.pulled === chunks) return controller.close();
      stats.pulled += 1;
      stats.bytes += chunkSize;
      controller.enqueue(new Uint8Array(chunkSize).fill(fill));
    },
    cancel() {
      stats.cancelled = true;
    },
  });
  return { stream, stats };
}

const post = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/contact", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readForm", () => {
  it("stops a chunked body (no Content-Length) as soon as it passes the limit, and refuses it with 413", async () => {
    // 20 MB offered in 16 KB chunks against a 64 KB limit.
    const { stream, stats } = countingStream(1280, 16 * 1024);
    const result = await readForm(post(stream, { "content-type": "application/x-www-form-urlencoded" }), 64 * 1024);
    expect(result).toEqual({ ok: false, status: 413, message: "The form is too large." });
    expect(stats.cancelled).toBe(true);
    // Stream queues pull one chunk ahead at most: the read stopped at the limit, not at the end.
    expect(stats.bytes).toBeLessThanOrEqual(64 * 1024 + 2 * 16 * 1024);
  });

  it("does not believe a Content-Length smaller than the body", async () => {
    const { stream, stats } = countingStream(100, 16 * 1024);
    const result = await readForm(post(stream, { "content-type": "application/x-www-form-urlencoded", "content-length": "100" }), 64 * 1024);
    expect(result).toMatchObject({ ok: false, status: 413 });
    expect(stats.pulled).toBeLessThan(10);
  });

  it("refuses a declared length over the limit without reading a byte", async () => {
    const { stream, stats } = countingStream(100, 16 * 1024);
    const result = await readForm(post(stream, { "content-type": "application/x-www-form-urlencoded", "content-length": String(10 * 1024 * 1024) }), 64 * 1024);
    expect(result).toMatchObject({ ok: false, status: 413 });
    expect(stats.pulled).toBeLessThanOrEqual(1);
  });

  it("reads a form within the limit, urlencoded or multipart", async () => {
    const urlencoded = await readForm(post("name=Jane&message=hi%20there", { "content-type": "application/x-www-form-urlencoded" }), 1024);
    expect(urlencoded.ok && Object.fromEntries(urlencoded.value)).toEqual({ name: "Jane", message: "hi there" });
    const form = new FormData();
    form.append("code", "123456");
    const multipart = await readForm(new Request("http://localhost/x", { method: "POST", body: form }), 1024);
    expect(multipart.ok && multipart.value.get("code")).toBe("123456");
  });

  it("answers a body exactly at the limit, and one byte over with 413", async () => {
    const at = "a=" + "b".repeat(98);
    expect((await readForm(post(at, { "content-type": "application/x-www-form-urlencoded" }), 100)).ok).toBe(true);
    expect(await readForm(post(at + "c", { "content-type": "application/x-www-form-urlencoded" }), 100)).toMatchObject({ status: 413 });
  });

  it("answers 400 for a body that is not a form, and for a stream that breaks off", async () => {
    expect(await readForm(post("{}", { "content-type": "application/json" }), 1024)).toEqual({ ok: false, status: 400, message: "The form could not be read." });
    expect(await readForm(post("--x\r\nbroken", { "content-type": "multipart/form-data; boundary=x" }), 1024)).toMatchObject({ status: 400 });
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([0x61]));
        controller.error(new Error("The request body was cut off."));
      },
    });
    expect(await readForm(post(broken, { "content-type": "application/x-www-form-urlencoded" }), 1024)).toMatchObject({ status: 400 });
  });
});

describe("readJson", () => {
  it("parses JSON within the limit and refuses larger or broken bodies", async () => {
    expect(await readJson(post('{"kind":"ssn"}'), 100)).toEqual({ ok: true, value: { kind: "ssn" } });
    expect(await readJson(post(JSON.stringify({ pad: "x".repeat(200) })), 100)).toMatchObject({ status: 413 });
    expect(await readJson(post("{nope"), 100)).toMatchObject({ status: 400 });
  });
});

describe("readBodyBytes", () => {
  it("never holds more than the limit plus one chunk, whatever the chunking", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 20_000 }), async (chunks, size, limit) => {
        const { stream, stats } = countingStream(chunks, size);
        const result = await readBodyBytes(post(stream), limit);
        if (chunks * size <= limit) expect(result.ok && result.value.byteLength).toBe(chunks * size);
        else {
          expect(result).toMatchObject({ status: 413 });
          expect(stats.bytes).toBeLessThanOrEqual(limit + 2 * size);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("requestUrl (the Node entry's request target)", () => {
  const req = (url: string, host = "portal.example") => ({ url, headers: { host } }) as unknown as http.IncomingMessage;

  it("keeps a doubled slash as a path on our own host instead of reading it as a host", () => {
    for (const target of ["//", "//evil.example/x", "///", "/\\evil.example", "//evil.example:80/@x"]) {
      const url = requestUrl(req(target), false);
      expect(url instanceof URL && url.host, target).toBe("portal.example");
    }
  });

  it("refuses targets that are not a path, bad percent-encoding and hosts that are not host names", () => {
    for (const target of ["*", "http://other.example/", "evil.example/x", "/%", "/%E0%A4%A", "/a%zz"]) {
      expect(requestUrl(req(target), false), target).toMatchObject({ status: 400 });
    }
    for (const host of ["a b", "evil.example/x", "x@evil.example", ""]) expect(requestUrl(req("/", host), false), host).toMatchObject({ status: 400 });
    expect(requestUrl(req("/", "[::1]:5173"), false)).toBeInstanceOf(URL);
    expect(requestUrl(req("/", "web_1:3000"), false)).toBeInstanceOf(URL);
  });

  it("never leaves our host for any path", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (tail) => {
        const url = requestUrl(req(`/${tail}`), true);
        if (url instanceof URL) expect(url.origin).toBe("https://portal.example");
        else expect(url.status).toBe(400);
      }),
      { numRuns: 500 },
    );
  });
});
