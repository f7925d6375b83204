import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { e2eStackForFile } from "./helpers/stack";

/**
 * The submission endpoint reads its body as a stream and stops at the limits: a 100 MB upload is
 * refused after a few megabytes, not after the whole body has been received and buffered.
 */

const BOUNDARY = "----portalLimitTest";

/** Streams a multipart body of one huge file; resolves with the status and how much we had sent. */
function streamHugeUpload(url: string, cookie: string, totalBytes: number, withLength: boolean) {
  return new Promise<{ status: number; sentBytes: number; body: string }>((resolve, reject) => {
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="idempotencyKey"\r\n\r\nlimit-test-key-000000\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="bankStatement1"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const target = new URL("/api/applications", url);
    const req = http.request(target, {
      method: "POST",
      headers: {
        cookie,
        origin: url,
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        ...(withLength ? { "content-length": String(head.length + totalBytes + tail.length) } : {}),
      },
    });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (d: Buffer) => (body += d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, sentBytes: sent, body });
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.write(head);
    const pump = () => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered) req.end(tail);
    };
    pump();
  });
}

describe("submission size limits", () => {
  const stack = e2eStackForFile({ browser: false, env: { TRUST_PROXY: "true" } });
  let cookie: string;

  beforeAll(async () => {
    cookie = await signUpOverHttp(stack.url, stack.sink, "limits@example.com", "198.18.1.1");
  });

  it("refuses a declared 100 MB body before reading it", async () => {
    const result = await streamHugeUpload(stack.url, cookie, 100 * 1024 * 1024, true);
    expect(result.status).toBe(413);
    expect(result.sentBytes).toBeLessThan(20 * 1024 * 1024);
  });

  it("cuts off a 100 MB streamed (chunked) file early with the spec's file message", async () => {
    const result = await streamHugeUpload(stack.url, cookie, 100 * 1024 * 1024, false);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({
      ok: false,
      step: 4,
      field: "bankStatement1",
      message: "Bank Statement (Month 1): the file is too large. File must be PDF, JPG, or PNG and under 5MB",
    });
    expect(result.sentBytes).toBeLessThan(20 * 1024 * 1024);
    // The server is fine afterwards.
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });

  it("refuses a visitor's submission with 401 before reading files", async () => {
    const res = await fetch(`${stack.url}/api/applications`, { method: "POST", body: new FormData(), headers: { origin: stack.url } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: "Please sign in to submit your application" });
  });
});
