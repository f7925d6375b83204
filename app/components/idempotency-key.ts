/**
 * The key a form sends so that posting it twice (a double click, a retry after a lost answer) acts
 * once: the application wizard's submission and Record Payment. No I/O; browser and server alike.
 */

/** A v4 UUID: crypto.randomUUID where available (secure contexts), else from getRandomValues. */
export function newIdempotencyKey(cryptoImpl: Pick<Crypto, "getRandomValues"> & { randomUUID?: () => string } = crypto): string {
  if (typeof cryptoImpl.randomUUID === "function") return cryptoImpl.randomUUID();
  const bytes = cryptoImpl.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
