/**
 * What a refused request must look like to the client: a 4xx, a message a person can read, and no
 * trace of the server's insides (stack frames, module paths).
 */

const LEAKS: [RegExp, string][] = [
  [/\n\s{2,}at [\w$.<>]+ \(|\n\s{4}at /, "a stack frame"],
  [/node_modules/, "a node_modules path"],
  [/\/(work|home|root|tmp|usr)\/[\w.-]+\//, "a file system path"],
  [/file:\/\//, "a file URL"],
  [/\.(server\.)?[jt]sx?:\d+:\d+/, "a source position"],
  [/\b(TypeError|ReferenceError|SyntaxError|RangeError): /, "an exception name"],
];

export function leaksInternals(body: string): string | null {
  for (const [pattern, what] of LEAKS) if (pattern.test(body)) return what;
  return null;
}

const KEYS = new Set(["message", "description", "title"]);
const readable = (s: string) => /[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(s);

function jsonMessage(value: unknown, key = ""): string | null {
  if (typeof value === "string") return KEYS.has(key) && readable(value) ? value : null;
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = jsonMessage(v, k);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The data a server-rendered page hydrates with: React Router streams it as a flat, index-linked
 * array (`{"_1":2}` means key at index 1, value at index 2; negative numbers are constants).
 */
export function hydrationData(html: string): Record<string, unknown> | null {
  const chunks = [...html.matchAll(/enqueue\(("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]!) as string);
  for (const chunk of chunks) {
    let flat: unknown[];
    try {
      flat = JSON.parse(chunk.trim()) as unknown[];
    } catch {
      continue;
    }
    const seen = new Map<number, unknown>();
    const resolve = (i: unknown): unknown => {
      if (typeof i !== "number" || i < 0) return undefined;
      if (seen.has(i)) return seen.get(i);
      const v = flat[i];
      if (Array.isArray(v)) {
        const out = v.every((x) => typeof x === "number") ? v.map(resolve) : v;
        seen.set(i, out);
        return out;
      }
      if (v && typeof v === "object") {
        const out: Record<string, unknown> = {};
        seen.set(i, out);
        for (const [k, val] of Object.entries(v)) out[String(flat[Number(k.slice(1))])] = resolve(val);
        return out;
      }
      return v;
    };
    const root = resolve(0);
    if (root && typeof root === "object") return root as Record<string, unknown>;
  }
  return null;
}

/**
 * The human message of a refusal: `message`/`description`/`title` of a JSON answer, the text of a
 * plain-text answer, or for a page (a form post without JavaScript) the message in the action's data
 * or the route's error, which the page hydrates with (and shows).
 */
export function humanMessage(body: string, contentType: string): string | null {
  if (contentType.includes("application/json")) {
    try {
      return jsonMessage(JSON.parse(body));
    } catch {
      return null;
    }
  }
  if (contentType.includes("text/plain")) return readable(body) ? body.trim() : null;
  if (contentType.includes("text/html")) {
    const data = hydrationData(body);
    return jsonMessage({ actionData: data?.actionData, errors: data?.errors });
  }
  return null;
}

export type Refusal = { status: number; body: string; contentType: string };

/** Problems with a response that should have been a refusal ('' when it is a proper one). */
export function refusalProblems(res: Refusal): string[] {
  const problems: string[] = [];
  if (res.status < 400 || res.status > 499) problems.push(`status ${res.status}`);
  const leak = leaksInternals(res.body);
  if (leak) problems.push(`leaks ${leak}`);
  if (!humanMessage(res.body, res.contentType)) problems.push(`no human message in ${res.contentType || "untyped"} body: ${JSON.stringify(hydrationData(res.body)?.actionData ?? res.body.slice(0, 300))}`);
  return problems;
}
