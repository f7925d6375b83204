/**
 * Telling "the database cannot be reached right now" apart from every other failure. Such a request
 * deserves a 503 that says to try again (the pool reconnects by itself once the server is back), not
 * a 500 that says something is broken; a query that is wrong stays a 500.
 */

export const DATABASE_UNAVAILABLE_MESSAGE = "Service temporarily unavailable. Please try again in a moment.";

/**
 * Socket-level failures while connecting to or talking with the database server (a backing service
 * such as S3 failing the same way is just as temporary, so it is not told apart).
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATEs of a server that is going away, starting up or refusing connections: class 08
 * (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now,
 * 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = /^(08\d{3}|08P01|57P0[123]|53300)$/;

/** What node-postgres and its pool say when a connection drops or cannot be had in time. */
const DRIVER_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /connection (?:is )?closed/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
];

function isUnavailableHere(error: object): boolean {
  const { code, message, syscall } = error as { code?: unknown; message?: unknown; syscall?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
  // A unix socket that is gone (the server stopped); ENOENT elsewhere is a missing file, a real bug.
  if (code === "ENOENT" && syscall === "connect") return true;
  return typeof message === "string" && DRIVER_MESSAGES.some((re) => re.test(message));
}

/**
 * True when the error, or anything it wraps (`cause`, as Drizzle and Better Auth wrap driver errors;
 * `errors` of an AggregateError, as Node reports a refused connection on every address), means the
 * database is unreachable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (isUnavailableHere(current)) return true;
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}
