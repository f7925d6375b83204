import { randomBytes } from "node:crypto";

/**
 * What a failure log line may say. Drizzle's error message is "Failed query: <sql> params: <every
 * value>", so logging an error as it is wrote whole applications (names, dates of birth, addresses,
 * incomes) and contact messages into the server log in clear text. A log line instead names the
 * error's kind, the database's SQLSTATE and the constraint, table or column it concerns, and a short
 * reference to find the line again; never a message that can repeat what was submitted.
 */

type ErrorFacts = { name?: unknown; code?: unknown; message?: unknown; constraint?: unknown; table?: unknown; column?: unknown; cause?: unknown };

/** SQLSTATEs are five characters of digits and capitals. */
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Node's own error codes (ECONNREFUSED, ERR_INVALID_CHAR...): the kind of failure, never data. */
const NODE_CODE = /^(E[A-Z0-9_]{2,60})$/;

function describeOne(error: ErrorFacts, innermost: boolean): string {
  const parts = [typeof error.name === "string" && error.name ? error.name : "Error"];
  const code = typeof error.code === "string" ? error.code : undefined;
  if (code && SQLSTATE.test(code)) {
    // A database error: its message may quote the offending value ("invalid input syntax: \"…\""),
    // so only the code and the names of the objects involved are kept.
    parts.push(`sqlstate=${code}`);
    for (const key of ["constraint", "table", "column"] as const) {
      if (typeof error[key] === "string" && error[key]) parts.push(`${key}=${error[key]}`);
    }
    return parts.join(" ");
  }
  if (code && NODE_CODE.test(code)) parts.push(`code=${code}`);
  if (!innermost) return parts.join(" ");
  // Where it was thrown (a file and line: code, not data) instead of a message that might hold data.
  const frame = typeof (error as { stack?: unknown }).stack === "string" ? /\n\s+at (.{1,200})/.exec((error as { stack: string }).stack)?.[1] : undefined;
  if (frame) parts.push(`at ${frame.trim()}`);
  return parts.join(" ");
}

/** One line: the chain of causes, outermost first, e.g. "DrizzleQueryError ← error sqlstate=22021". */
export function describeError(error: unknown): string {
  const chain: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth += 1) {
    const cause = (current as ErrorFacts).cause;
    chain.push(describeOne(current as ErrorFacts, !(cause && typeof cause === "object")));
    current = cause;
  }
  if (chain.length === 0) return typeof error === "string" ? "Error (a thrown string)" : `Error (${typeof error})`;
  return chain.join(" ← ");
}

/** A short random reference, printed in the log line (and safe to show to the person affected). */
export function newErrorReference(): string {
  return randomBytes(4).toString("hex");
}

/** `[scope] what failed (ref 1a2b3c4d): DrizzleQueryError ← error sqlstate=22021`, written to stderr. */
export function logFailure(scope: string, what: string, error: unknown, ids: Record<string, string | undefined> = {}): string {
  const ref = newErrorReference();
  const known = Object.entries(ids)
    .filter(([, value]) => value)
    .map(([key, value]) => ` ${key}=${value}`)
    .join("");
  console.error(`[${scope}] ${what} (ref ${ref}${known}): ${describeError(error)}`);
  return ref;
}
