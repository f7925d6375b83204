import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small S3-compatible server for tests (node:http, in memory): PutObject, GetObject, HeadObject,
 * DeleteObject and ListObjectsV2 (with each object's LastModified), path-style or virtual-hosted. It VERIFIES AWS Signature V4 on every
 * request, independently of the adapter's signer (its own encoding, canonicalisation and key
 * derivation): unknown access key, wrong secret, wrong region, stale date, unsigned x-amz-* headers or
 * a body that does not match x-amz-content-sha256 are refused the way S3 refuses them.
 *
 * Why not s3rver: version 3.7.1 runs on Node 20 but does not check V4 signatures at all (its
 * authentication middleware accepts any V4 signature for a known access key id, and anonymous
 * requests), so it could not show that a wrong secret is refused.
 */

export type FakeS3Options = {
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  buckets?: string[];
};

/** lastModified may be moved back by a test to make an object look old (S3 only ever sets it on write). */
export type StoredObject = { body: Buffer; contentType: string; serverSideEncryption: string | undefined; lastModified: Date };

export type LoggedRequest = {
  method: string;
  url: string;
  host: string;
  status: number;
  signedHeaders: string[];
  error?: string;
};

export type FakeS3 = {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  port: number;
  /** bucket → key → object */
  buckets: Map<string, Map<string, StoredObject>>;
  requests: LoggedRequest[];
  /** While true, requests are read but never answered (for timeout tests). */
  hang: boolean;
  /** While true, GetObject sends its headers and first piece of the body, then nothing more. */
  hangBody: boolean;
  close(): Promise<void>;
};

const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/** RFC 3986 unreserved characters stay; everything else is %XX of its UTF-8 bytes. */
function encode(text: string, keepSlash: boolean): string {
  return Array.from(Buffer.from(text, "utf8"))
    .map((b) => {
      const ch = String.fromCharCode(b);
      if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || "-._~".includes(ch)) return ch;
      if (keepSlash && ch === "/") return ch;
      return "%" + (b < 16 ? "0" : "") + b.toString(16).toUpperCase();
    })
    .join("");
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function parseQuery(raw: string): [string, string][] {
  if (!raw) return [];
  return raw.split("&").map((pair) => {
    const at = pair.indexOf("=");
    const name = at < 0 ? pair : pair.slice(0, at);
    const value = at < 0 ? "" : pair.slice(at + 1);
    return [decodeURIComponent(name), decodeURIComponent(value)];
  });
}

function verifySignature(
  req: http.IncomingMessage,
  rawPath: string,
  query: [string, string][],
  body: Buffer,
  options: Required<FakeS3Options>,
): string[] {
  const authorization = req.headers.authorization;
  if (!authorization) throw new S3Failure(403, "AccessDenied", "Anonymous access is not allowed.");
  const match = AUTH.exec(authorization);
  if (!match) throw new S3Failure(400, "AuthorizationHeaderMalformed", "The authorization header is malformed.");
  const [, accessKeyId, day, region, service, signedList, signature] = match as unknown as string[];
  if (accessKeyId !== options.accessKeyId) {
    throw new S3Failure(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.");
  }
  if (region !== options.region || service !== "s3") {
    throw new S3Failure(400, "AuthorizationHeaderMalformed", `The region '${region}' is wrong; expecting '${options.region}'.`);
  }
  const signed = signedList!.split(";");
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"]) {
    if (!signed.includes(required)) throw new S3Failure(403, "AccessDenied", `The header ${required} must be signed.`);
  }
  for (const name of Object.keys(req.headers)) {
    if (name.startsWith("x-amz-") && !signed.includes(name)) {
      throw new S3Failure(403, "AccessDenied", `There were headers present in the request which were not signed: ${name}`);
    }
  }
  const stamp = String(req.headers["x-amz-date"] ?? "");
  const t = ISO_BASIC.exec(stamp);
  if (!t) throw new S3Failure(403, "AccessDenied", "AWS authentication requires a valid x-amz-date header.");
  const when = Date.UTC(+t[1]!, +t[2]! - 1, +t[3]!, +t[4]!, +t[5]!, +t[6]!);
  if (Math.abs(Date.now() - when) > 15 * 60_000) {
    throw new S3Failure(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.");
  }
  if (stamp.slice(0, 8) !== day) throw new S3Failure(403, "SignatureDoesNotMatch", "The credential date does not match x-amz-date.");

  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (!/^[0-9a-f]{64}$/.test(payloadHash)) {
    throw new S3Failure(400, "InvalidArgument", "x-amz-content-sha256 must be the hex SHA-256 of the payload.");
  }
  if (createHash("sha256").update(body).digest("hex") !== payloadHash) {
    throw new S3Failure(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }

  // The canonical request as S3 computes it: the path decoded and re-encoded segment by segment.
  const canonicalUri = rawPath
    .split("/")
    .map((segment) => encode(decodeURIComponent(segment), false))
    .join("/");
  const canonicalQueryString = query
    .map(([k, v]) => [encode(k, false), encode(v, false)])
    .sort((a, b) => (a[0]! === b[0]! ? (a[1]! < b[1]! ? -1 : 1) : a[0]! < b[0]! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headerLines = signed.map((name) => {
    const value = req.headers[name];
    if (value === undefined) throw new S3Failure(403, "AccessDenied", `The signed header ${name} is missing.`);
    const text = Array.isArray(value) ? value.join(",") : value;
    return `${name}:${text.trim().replace(/\s+/g, " ")}\n`;
  });
  const canonicalRequest = [req.method, canonicalUri, canonicalQueryString, headerLines.join(""), signedList, payloadHash].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${stamp}\n${scope}\n${createHash("sha256").update(canonicalRequest).digest("hex")}`;
  let key: Buffer = Buffer.from(`AWS4${options.secretAccessKey}`, "utf8");
  for (const part of [day!, region!, "s3", "aws4_request"]) key = createHmac("sha256", key).update(part).digest();
  const expected = createHmac("sha256", key).update(stringToSign).digest();
  const provided = Buffer.from(signature!, "hex");
  if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
    throw new S3Failure(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
    );
  }
  return signed;
}

export async function startFakeS3(input: FakeS3Options): Promise<FakeS3> {
  const options: Required<FakeS3Options> = { region: "us-east-1", buckets: ["loan-documents"], ...input };
  const buckets = new Map(options.buckets.map((b) => [b, new Map<string, StoredObject>()] as const));
  const requests: LoggedRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (fake.hang) return; // never answered; close() drops the connection
      const body = Buffer.concat(chunks);
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      const rawPath = q < 0 ? url : url.slice(0, q);
      const query = parseQuery(q < 0 ? "" : url.slice(q + 1));
      const host = String(req.headers.host ?? "");
      const log: LoggedRequest = { method: req.method ?? "", url, host, status: 0, signedHeaders: [] };
      requests.push(log);
      const send = (status: number, headers: Record<string, string>, payload?: Buffer | string) => {
        log.status = status;
        res.writeHead(status, headers);
        res.end(req.method === "HEAD" ? undefined : payload);
      };
      try {
        log.signedHeaders = verifySignature(req, rawPath, query, body, options);
        // Virtual-hosted (bucket.host) or path-style (/bucket/key).
        const hostname = host.replace(/:\d+$/, "");
        const vhost = options.buckets.find((b) => hostname.startsWith(`${b}.`));
        const parts = rawPath.split("/").slice(1).map(decodeURIComponent);
        const bucketName = vhost ?? parts.shift() ?? "";
        const key = parts.join("/");
        const bucket = buckets.get(bucketName);
        if (!bucket) throw new S3Failure(404, "NoSuchBucket", "The specified bucket does not exist.");
        const params = new Map(query);

        if (!key) {
          if (req.method !== "GET" || params.get("list-type") !== "2") throw new S3Failure(501, "NotImplemented", "Only ListObjectsV2.");
          const prefix = params.get("prefix") ?? "";
          const maxKeys = Math.min(1000, Number(params.get("max-keys") ?? 1000));
          const after = params.has("continuation-token")
            ? Buffer.from(params.get("continuation-token")!, "base64url").toString("utf8")
            : "";
          const all = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
          const page = all.slice(0, maxKeys);
          const truncated = all.length > page.length;
          const xml = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
            `<Name>${xmlEscape(bucketName)}</Name><Prefix>${xmlEscape(prefix)}</Prefix>`,
            `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>`,
            ...page.map(
              (k) =>
                `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${bucket.get(k)!.lastModified.toISOString()}</LastModified>` +
                `<Size>${bucket.get(k)!.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
            ),
            truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString("base64url")}</NextContinuationToken>` : "",
            "</ListBucketResult>",
          ].join("");
          return send(200, { "content-type": "application/xml" }, xml);
        }

        switch (req.method) {
          case "PUT": {
            const length = Number(req.headers["content-length"]);
            if (length !== body.length) throw new S3Failure(400, "IncompleteBody", "Content-Length does not match the body.");
            const sse = req.headers["x-amz-server-side-encryption"] as string | undefined;
            bucket.set(key, {
              body,
              contentType: String(req.headers["content-type"] ?? "binary/octet-stream"),
              serverSideEncryption: sse,
              lastModified: new Date(),
            });
            const etag = `"${createHash("md5").update(body).digest("hex")}"`;
            return send(200, { etag, ...(sse ? { "x-amz-server-side-encryption": sse } : {}) });
          }
          case "GET":
          case "HEAD": {
            const object = bucket.get(key);
            if (!object) throw new S3Failure(404, "NoSuchKey", "The specified key does not exist.");
            log.status = 200;
            res.writeHead(200, { "content-type": object.contentType, "content-length": String(object.body.length) });
            if (req.method === "HEAD") return res.end();
            if (fake.hangBody) return void res.write(object.body.subarray(0, 16 * 1024));
            // Stream in small pieces so the client really reads a stream.
            for (let i = 0; i < object.body.length; i += 16 * 1024) res.write(object.body.subarray(i, i + 16 * 1024));
            return res.end();
          }
          case "DELETE":
            bucket.delete(key);
            return send(204, {});
          default:
            throw new S3Failure(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
        }
      } catch (error) {
        const failure = error instanceof S3Failure ? error : new S3Failure(500, "InternalError", (error as Error).message);
        log.error = failure.code;
        const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${failure.code}</Code><Message>${xmlEscape(failure.message)}</Message></Error>`;
        send(failure.status, { "content-type": "application/xml" }, xml);
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const fake: FakeS3 = {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    buckets,
    requests,
    hang: false,
    hangBody: false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}
