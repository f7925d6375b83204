import { createHash, createHmac } from "node:crypto";
import { Readable } from "node:stream";
import type { S3Config } from "~/server/platform/config.server";
import { assertSafeKey, limitedBody, type DocumentStorage, type StoredObjectInfo } from "./storage-keys.server";

/**
 * DocumentStorage on any S3-compatible service (AWS S3, MinIO, Ceph, R2...), written by hand on
 * fetch and AWS Signature Version 4 (docs/decisions/0008-document-storage.md). Five operations:
 * PutObject, GetObject, HeadObject, DeleteObject and ListObjectsV2, plus the multipart upload
 * (Create, UploadPart, Complete, Abort) for bodies of unknown length (putStream). No SDK: the whole
 * protocol we use is this file, and it is checked against AWS's published signing examples in the tests.
 *
 * Errors name the operation, the key and S3's error code; they never contain the secret key.
 */

export type S3StorageOptions = {
  /** Transport; tests inject one. Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** ListObjectsV2 max-keys (1–1000). */
  pageSize?: number;
  /** How long a put may take, and a get until its response headers (and between body chunks). */
  transferTimeoutMs?: number;
  /** How long head, delete and each list page may take. */
  requestTimeoutMs?: number;
  /** Clock for x-amz-date (tests). */
  now?: () => Date;
  /** putStream's part size (S3's minimum, 5 MiB, up to 64 MiB): the memory one streamed write holds. */
  partSizeBytes?: number;
};

const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_BYTES = 64 * 1024 * 1024;

/** fetch takes views of ArrayBuffers only; a view of a SharedArrayBuffer is copied. */
const fetchBody = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);

const xmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * SigV4's URI encoding: every byte except A–Z a–z 0–9 - _ . ~ becomes %XY (upper-case hex);
 * '/' is kept when encodeSlash is false (object key paths) and encoded otherwise (query values).
 */
export function uriEncode(value: string, encodeSlash: boolean): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c) || (c === "/" && !encodeSlash)) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

export type SignInput = {
  method: string;
  /** Host header value as sent (host, plus :port when not the scheme's default). */
  host: string;
  /** Canonical URI: already URI-encoded, '/' kept. */
  path: string;
  /** Query parameters, not yet encoded. */
  query?: Record<string, string>;
  /** Headers to send and sign besides host, x-amz-date and x-amz-content-sha256. */
  headers?: Record<string, string>;
  payloadHash: string;
  date: Date;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  service?: string;
};

/** The canonical query string: names and values URI-encoded, sorted by name then value. */
export function canonicalQuery(query: Record<string, string> = {}): string {
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k, true), uriEncode(v, true)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

/**
 * Signs a request (AWS Signature Version 4, Authorization header). Returns every header to send,
 * names in lower case, including `authorization`; `host` is included for the signature but fetch
 * sets it itself from the URL.
 */
export function signV4(input: SignInput): { headers: Record<string, string>; signature: string; canonicalRequest: string } {
  const service = input.service ?? "s3";
  const stamp = amzDate(input.date);
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  headers.host = input.host;
  headers["x-amz-date"] = stamp;
  headers["x-amz-content-sha256"] = input.payloadHash;

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, " ")}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    input.method.toUpperCase(),
    input.path,
    canonicalQuery(input.query),
    canonicalHeaders,
    signedHeaders,
    input.payloadHash,
  ].join("\n");
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, sha256Hex(canonicalRequest)].join("\n");

  const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();
  const kDate = hmac(`AWS4${input.secretAccessKey}`, day);
  const kSigning = hmac(hmac(hmac(kDate, input.region), service), "aws4_request");
  const signature = createHmac("sha256", kSigning).update(stringToSign, "utf8").digest("hex");

  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers, signature, canonicalRequest };
}

/** Decodes the five XML entities and numeric character references; unwraps CDATA. */
export function decodeXmlText(text: string): string {
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(text.trim());
  if (cdata) return cdata[1]!;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    switch (entity) {
      case "amp":
        return "&";
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "quot":
        return '"';
      case "apos":
        return "'";
      default: {
        const code = entity[1] === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
    }
  });
}

/** Every `<tag>…</tag>` text in a document (namespaces and attributes on the tag allowed). */
function xmlValues(xml: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g");
  return [...xml.matchAll(re)].map((m) => decodeXmlText(m[1]!));
}

/** Parses one ListObjectsV2 page. */
export function parseListPage(xml: string): { objects: StoredObjectInfo[]; truncated: boolean; nextToken: string | undefined } {
  if (!/<ListBucketResult[\s>]/.test(xml)) throw new Error("not a ListBucketResult document");
  // One <Contents> per object (CommonPrefixes use <Prefix>, never <Key>).
  const objects = xmlValues(xml, "Contents").flatMap((contents): StoredObjectInfo[] => {
    const key = xmlValues(contents, "Key")[0];
    if (key === undefined) return [];
    const modified = Date.parse(xmlValues(contents, "LastModified")[0] ?? "");
    // An object of unknown age counts as brand new, so a grace period never lets it be swept.
    return [{ key, modifiedAt: Number.isNaN(modified) ? new Date() : new Date(modified) }];
  });
  const truncated = xmlValues(xml, "IsTruncated")[0]?.trim().toLowerCase() === "true";
  const nextToken = xmlValues(xml, "NextContinuationToken")[0];
  return { objects, truncated, nextToken: nextToken || undefined };
}

const MAX_ERROR_BODY = 16 * 1024;

export function createS3Storage(config: S3Config, options: S3StorageOptions = {}): DocumentStorage {
  const doFetch = options.fetch ?? fetch;
  const pageSize = options.pageSize ?? 1000;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new Error("S3 pageSize must be 1–1000");
  const transferMs = options.transferTimeoutMs ?? 30_000;
  const requestMs = options.requestTimeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const partBytes = options.partSizeBytes ?? 8 * 1024 * 1024;
  if (!Number.isInteger(partBytes) || partBytes < MIN_PART_BYTES || partBytes > MAX_PART_BYTES) throw new Error("S3 partSizeBytes must be 5–64 MiB");

  const endpoint = new URL(config.endpoint);
  const basePath = endpoint.pathname.replace(/\/+$/, "");
  const origin = config.forcePathStyle ? endpoint.host : `${config.bucket}.${endpoint.host}`;
  const bucketPath = config.forcePathStyle ? `${basePath}/${uriEncode(config.bucket, true)}` : basePath;
  const describe = `s3 ${config.endpoint.replace(/\/+$/, "")}/${config.bucket}`;

  /** Never let the secret reach a message, whatever a server or a library put in it. */
  const redact = (text: string) =>
    config.secretAccessKey ? text.split(config.secretAccessKey).join("[redacted]") : text;
  const fail = (what: string, detail: string, cause?: unknown): Error =>
    new Error(redact(`S3 ${what} failed (${describe}): ${detail}`), cause === undefined ? undefined : { cause });

  type Request = {
    method: "GET" | "PUT" | "HEAD" | "DELETE" | "POST";
    /** The object key (already checked), or undefined for the bucket itself. */
    key?: string;
    query?: Record<string, string>;
    headers?: Record<string, string>;
    body?: Uint8Array<ArrayBuffer>;
    signal: AbortSignal;
  };

  async function send(req: Request, what: string, timeoutMs: number): Promise<Response> {
    const path = req.key === undefined ? bucketPath || "/" : `${bucketPath}/${uriEncode(req.key, false)}`;
    const query = canonicalQuery(req.query);
    const url = `${endpoint.protocol}//${origin}${path}${query ? `?${query}` : ""}`;
    const { headers } = signV4({
      method: req.method,
      host: origin,
      path,
      query: req.query,
      headers: req.headers,
      payloadHash: req.body ? sha256Hex(req.body) : EMPTY_SHA256,
      date: now(),
      region: config.region,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
    });
    delete headers.host; // fetch derives it from the URL (the same value)
    try {
      return await doFetch(url, { method: req.method, headers, body: req.body, signal: req.signal, redirect: "manual" });
    } catch (error) {
      if (req.signal.aborted) throw fail(what, `no response within ${timeoutMs / 1000} s`, error);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw fail(what, `cannot reach the storage server (${cause?.code ?? cause?.message ?? (error as Error).message})`, error);
    }
  }

  /** An error for a non-success answer, with S3's <Code> and <Message> when the body has them. */
  async function answerError(res: Response, what: string): Promise<Error> {
    let code = "";
    let message = "";
    if (res.body) {
      try {
        const text = (await res.text()).slice(0, MAX_ERROR_BODY);
        code = xmlValues(text, "Code")[0] ?? "";
        message = xmlValues(text, "Message")[0] ?? "";
      } catch {
        // The status alone will do.
      }
    }
    const hint =
      code === "SignatureDoesNotMatch" || code === "InvalidAccessKeyId"
        ? " — check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY"
        : code === "NoSuchBucket"
          ? " — check S3_BUCKET"
          : "";
    const detail = [`HTTP ${res.status}`, code, message && `(${message})`].filter(Boolean).join(" ");
    return fail(what, `${detail}${hint}`);
  }

  async function discard(res: Response) {
    await res.body?.cancel().catch(() => undefined);
  }

  return {
    describe,

    async put(key, bytes, contentType) {
      assertSafeKey(key);
      await putObject(key, bytes, contentType);
    },

    async putStream(key, body, contentType, options = {}) {
      assertSafeKey(key);
      const counted = { bytes: 0 };
      const source = limitedBody(key, body, options.maxBytes, counted)[Symbol.asyncIterator]();
      let ended = false;
      /** The next part: at least partBytes, or what is left when the body ends (one part in memory). */
      const nextPart = async (): Promise<Buffer | null> => {
        const pieces: Buffer[] = [];
        let size = 0;
        while (!ended && size < partBytes) {
          const step = await source.next();
          if (step.done) ended = true;
          else {
            pieces.push(Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength));
            size += step.value.byteLength;
          }
        }
        return size === 0 && pieces.length === 0 && ended ? null : Buffer.concat(pieces, size);
      };
      let part: Buffer | null;
      try {
        part = await nextPart();
      } catch (error) {
        await source.return?.(undefined);
        throw error;
      }
      // A body that fits in one part is one PutObject (a multipart upload needs no fewer requests).
      if (ended) {
        await putObject(key, part ?? new Uint8Array(0), contentType);
        return { bytes: counted.bytes };
      }
      const uploadId = await createMultipartUpload(key, contentType);
      try {
        const etags: string[] = [];
        while (part) {
          etags.push(await uploadPart(key, uploadId, etags.length + 1, part));
          part = ended ? null : await nextPart();
        }
        await completeMultipartUpload(key, uploadId, etags);
      } catch (error) {
        await source.return?.(undefined);
        // Best effort: an upload never completed stores no object; aborting frees its parts (a bucket
        // lifecycle rule for incomplete uploads catches what an abort that fails leaves).
        await abortMultipartUpload(key, uploadId).catch(() => undefined);
        throw error;
      }
      return { bytes: counted.bytes };
    },

    async get(key) {
      assertSafeKey(key);
      const what = `GetObject ${key}`;
      // Not AbortSignal.timeout: the limit covers the wait for headers and each wait between body
      // chunks, not the whole download of a large scan to a slow client.
      const controller = new AbortController();
      let timer = setTimeout(() => controller.abort(), transferMs);
      let res: Response;
      try {
        res = await send({ method: "GET", key, signal: controller.signal }, what, transferMs);
      } catch (error) {
        clearTimeout(timer);
        throw error;
      }
      clearTimeout(timer);
      if (res.status === 404) {
        await discard(res);
        return null;
      }
      if (!res.ok) throw await answerError(res, what);
      const size = Number(res.headers.get("content-length"));
      if (!res.body || !Number.isSafeInteger(size) || size < 0) {
        await discard(res);
        throw fail(what, "the answer has no Content-Length");
      }
      const reader = res.body.getReader();
      async function* chunks() {
        try {
          for (;;) {
            timer = setTimeout(() => controller.abort(), transferMs);
            let step: ReadableStreamReadResult<Uint8Array>;
            try {
              step = await reader.read();
            } catch (error) {
              if (controller.signal.aborted) throw fail(what, `the body stalled for ${transferMs / 1000} s`, error);
              throw fail(what, `the body was cut off (${(error as Error).message})`, error);
            } finally {
              clearTimeout(timer);
            }
            if (step.done) return;
            yield Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength);
          }
        } finally {
          // Early destroy by the consumer: stop the download and free the connection.
          reader.cancel().catch(() => undefined);
        }
      }
      return { body: Readable.from(chunks(), { objectMode: false }), size };
    },

    async delete(key) {
      assertSafeKey(key);
      const what = `DeleteObject ${key}`;
      const res = await send({ method: "DELETE", key, signal: AbortSignal.timeout(requestMs) }, what, requestMs);
      if (!res.ok && res.status !== 404) throw await answerError(res, what);
      await discard(res);
    },

    async exists(key) {
      assertSafeKey(key);
      const what = `HeadObject ${key}`;
      const res = await send({ method: "HEAD", key, signal: AbortSignal.timeout(requestMs) }, what, requestMs);
      await discard(res);
      if (res.ok) return true;
      if (res.status === 404) return false;
      // A HEAD answer has no body, so no S3 error code: the status must do.
      const hint = res.status === 403 ? " — check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and the bucket policy" : "";
      throw fail(what, `HTTP ${res.status}${hint}`);
    },

    async list(prefix = "") {
      return (await listObjects(prefix)).map((o) => o.key);
    },

    listObjects,

    async removeIncompleteWrites() {
      return 0; // a PUT is atomic: an interrupted upload leaves no object behind
    },
  };

  async function putObject(key: string, bytes: Uint8Array, contentType: string) {
    const what = `PutObject ${key}`;
    const headers: Record<string, string> = {
      "content-type": contentType,
      "content-length": String(bytes.byteLength),
    };
    if (config.serverSideEncryption) headers["x-amz-server-side-encryption"] = config.serverSideEncryption;
    const signal = AbortSignal.timeout(transferMs);
    const res = await send({ method: "PUT", key, headers, body: fetchBody(bytes), signal }, what, transferMs);
    if (!res.ok) throw await answerError(res, what);
    await discard(res);
  }

  async function createMultipartUpload(key: string, contentType: string): Promise<string> {
    const what = `CreateMultipartUpload ${key}`;
    const headers: Record<string, string> = { "content-type": contentType };
    if (config.serverSideEncryption) headers["x-amz-server-side-encryption"] = config.serverSideEncryption;
    const res = await send({ method: "POST", key, query: { uploads: "" }, headers, signal: AbortSignal.timeout(requestMs) }, what, requestMs);
    if (!res.ok) throw await answerError(res, what);
    const uploadId = xmlValues(await res.text(), "UploadId")[0];
    if (!uploadId) throw fail(what, "the answer has no UploadId");
    return uploadId;
  }

  async function uploadPart(key: string, uploadId: string, partNumber: number, bytes: Uint8Array): Promise<string> {
    const what = `UploadPart ${key} #${partNumber}`;
    const headers = { "content-length": String(bytes.byteLength) };
    const query = { partNumber: String(partNumber), uploadId };
    const res = await send({ method: "PUT", key, query, headers, body: fetchBody(bytes), signal: AbortSignal.timeout(transferMs) }, what, transferMs);
    if (!res.ok) throw await answerError(res, what);
    await discard(res);
    const etag = res.headers.get("etag");
    if (!etag) throw fail(what, "the answer has no ETag");
    return etag;
  }

  async function completeMultipartUpload(key: string, uploadId: string, etags: string[]) {
    const what = `CompleteMultipartUpload ${key}`;
    const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${xmlText(etag)}</ETag></Part>`).join("");
    const body = new TextEncoder().encode(`<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${parts}</CompleteMultipartUpload>`);
    const headers = { "content-type": "application/xml", "content-length": String(body.byteLength) };
    const res = await send({ method: "POST", key, query: { uploadId }, headers, body, signal: AbortSignal.timeout(transferMs) }, what, transferMs);
    if (!res.ok) throw await answerError(res, what);
    // S3 may answer 200 and report a failure in the body (it sends the status before assembling).
    const text = (await res.text()).slice(0, MAX_ERROR_BODY);
    if (/<Error[\s>]/.test(text)) throw fail(what, `${xmlValues(text, "Code")[0] ?? "error"} (${xmlValues(text, "Message")[0] ?? ""})`);
  }

  async function abortMultipartUpload(key: string, uploadId: string) {
    const what = `AbortMultipartUpload ${key}`;
    const res = await send({ method: "DELETE", key, query: { uploadId }, signal: AbortSignal.timeout(requestMs) }, what, requestMs);
    await discard(res);
    if (!res.ok && res.status !== 404) throw fail(what, `HTTP ${res.status}`);
  }

  async function listObjects(prefix = ""): Promise<StoredObjectInfo[]> {
    const what = `ListObjectsV2 ${JSON.stringify(prefix)}`;
    const objects: StoredObjectInfo[] = [];
    let token: string | undefined;
    for (;;) {
      const query: Record<string, string> = { "list-type": "2", "max-keys": String(pageSize) };
      if (prefix) query.prefix = prefix;
      if (token) query["continuation-token"] = token;
      const signal = AbortSignal.timeout(requestMs);
      const res = await send({ method: "GET", query, signal }, what, requestMs);
      if (!res.ok) throw await answerError(res, what);
      let page: ReturnType<typeof parseListPage>;
      try {
        page = parseListPage(await res.text());
      } catch (error) {
        if (signal.aborted) throw fail(what, `no complete answer within ${requestMs / 1000} s`, error);
        throw fail(what, `unexpected answer (${(error as Error).message})`, error);
      }
      objects.push(...page.objects);
      if (!page.truncated) break;
      if (!page.nextToken || page.nextToken === token) throw fail(what, "a truncated page without a new NextContinuationToken");
      token = page.nextToken;
    }
    return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
