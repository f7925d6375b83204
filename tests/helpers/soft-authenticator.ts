import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software passkey for integration tests: an ES256 key pair and a signature counter, producing the
 * same JSON @simplewebauthn/browser hands the server (attestation "none"). The browser tests use
 * Chromium's virtual authenticator instead; this one lets tests set the UV flag and the counter exactly.
 */

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

export type SoftPasskey = {
  credentialId: string;
  counter: number;
  privateKey: KeyObject;
  publicKeyCose: Uint8Array;
  userHandle: string;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  const key = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, "base64url")],
    [-3, Buffer.from(jwk.y!, "base64url")],
  ]);
  return isoCBOR.encode(key as never);
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export function newSoftPasskey(userId: string): SoftPasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { credentialId: b64(randomBytes(16)), counter: 0, privateKey, publicKeyCose: coseKey(publicKey), userHandle: b64(Buffer.from(userId, "utf8")) };
}

/** The registration answer for creation options' `challenge`. */
export function registrationResponse(key: SoftPasskey, challenge: string, rp: { rpID: string; origin: string }, opts: { uv?: boolean } = {}) {
  const credId = Buffer.from(key.credentialId, "base64url");
  const credLen = Buffer.alloc(2);
  credLen.writeUInt16BE(credId.length);
  const authData = Buffer.concat([
    sha256(rp.rpID),
    Buffer.from([FLAG_UP | FLAG_AT | (opts.uv === false ? 0 : FLAG_UV)]),
    counterBytes(key.counter),
    Buffer.alloc(16),
    credLen,
    credId,
    Buffer.from(key.publicKeyCose),
  ]);
  const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never);
  return credentialJson(key, { clientDataJSON: b64(clientData("webauthn.create", challenge, rp.origin)), attestationObject: b64(attestationObject), transports: ["internal"] });
}

/** The JSON @simplewebauthn/browser hands the server for this platform credential, around `response`. */
function credentialJson<R>(key: SoftPasskey, response: R) {
  return {
    id: key.credentialId,
    rawId: key.credentialId,
    type: "public-key" as const,
    authenticatorAttachment: "platform" as const,
    clientExtensionResults: {},
    response,
  };
}

/** An assertion for request options' `challenge`, with the given counter (default: one more) and UV flag. */
export function assertionResponse(key: SoftPasskey, challenge: string, rp: { rpID: string; origin: string }, opts: { uv?: boolean; counter?: number } = {}) {
  key.counter = opts.counter ?? key.counter + 1;
  const authData = Buffer.concat([sha256(rp.rpID), Buffer.from([FLAG_UP | (opts.uv === false ? 0 : FLAG_UV)]), counterBytes(key.counter)]);
  const client = clientData("webauthn.get", challenge, rp.origin);
  const signature = sign("sha256", Buffer.concat([authData, sha256(client)]), key.privateKey);
  return credentialJson(key, { clientDataJSON: b64(client), authenticatorData: b64(authData), signature: b64(signature), userHandle: key.userHandle });
}
