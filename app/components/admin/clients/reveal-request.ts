import { REVEAL_TEXT, type RevealKind } from "~/domain/reveal";

/**
 * The browser side of POST /api/admin/reveal. The revealed value lives only in the caller's React
 * state: it never goes into the URL, loader data, storage or the console.
 */

export type RevealAnswer =
  | { ok: true; value: string; legacy: boolean }
  | { ok: false; status: number; title: string; message: string };

export async function requestReveal(kind: RevealKind, id: string): Promise<RevealAnswer> {
  let response: Response;
  try {
    response = await fetch("/api/admin/reveal", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ kind, id }),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return { ok: false, status: 0, title: REVEAL_TEXT.accessErrorTitle, message: "Network error. Please check your connection and try again." };
  }
  const body = (await response.json().catch(() => null)) as { value?: unknown; legacy?: unknown; title?: unknown; message?: unknown } | null;
  if (response.ok && body && typeof body.value === "string") return { ok: true, value: body.value, legacy: body.legacy === true };
  return {
    ok: false,
    status: response.status,
    title: typeof body?.title === "string" ? body.title : REVEAL_TEXT.accessErrorTitle,
    message: typeof body?.message === "string" ? body.message : REVEAL_TEXT.genericMessage,
  };
}
