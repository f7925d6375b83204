import fc from "fast-check";

/**
 * fast-check generators of what a hostile client posts: values that are well typed but wrong, and
 * envelopes that are malformed (duplicated, missing and unknown fields; urlencoded, multipart, JSON,
 * text/plain, broken multipart, wrong or missing content types).
 */

export type Posted = { label: string; body?: BodyInit; contentType?: string };

const NASTY = [
  "<script>window.__pwned=1</script>",
  '"><img src=x onerror="window.__pwned=1">',
  "\u0000",
  "a\u0000b",
  "\u202Efdp.exe",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00",
  "'; drop table \"user\"; --",
  "{{7*7}}${7*7}",
  "NaN",
  "-1",
  "0",
  "1e309",
  "-0.000001",
  "99999999999999999999999999",
  "null",
  "undefined",
  "[object Object]",
  "true",
  "🙂🙃".repeat(30),
  " ",
  "",
];

/** One hostile text value: random code points (NUL, unicode), classic payloads, or a huge string. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 4 },
  { arbitrary: fc.constantFrom(...NASTY), weight: 4 },
  { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }).map((s) => s.repeat(Math.ceil(70_000 / s.length))), weight: 1 },
);

/** A field name a form does not have (or a near miss of one it has). */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
  fc.constantFrom("__proto__", "constructor", "intent[]", "id\u0000", "a".repeat(300), "_data"),
);

export type Entries = [string, string][];

/**
 * The fields of one form: each known field either absent, a wrong value for it, or hostile text;
 * plus unknown fields and duplicates of known ones.
 */
export function hostileFields(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Entries> {
  const known = Object.entries(fields).map(([name, wrong]) =>
    fc.option(fc.oneof(wrong, hostileText), { nil: undefined }).map((v): Entries => (v === undefined ? [] : [[name, v]])),
  );
  const extra = fc.array(fc.tuple(hostileName, hostileText), { maxLength: 3 });
  const dupes = fc.array(fc.tuple(fc.constantFrom(...Object.keys(fields)), hostileText), { maxLength: 2 });
  return fc.tuple(fc.tuple(...known), extra, dupes).map(([k, e, d]) => [...k.flat(), ...e, ...d]);
}

const boundary = "----hostile" + "x".repeat(8);

function multipartOf(entries: Entries): FormData {
  const form = new FormData();
  for (const [k, v] of entries) form.append(k, v);
  return form;
}

/** Every way of sending a set of fields, well formed or not. */
export function hostileEnvelope(entries: fc.Arbitrary<Entries>): fc.Arbitrary<Posted> {
  return fc.oneof(
    entries.map((e): Posted => ({ label: "urlencoded", body: new URLSearchParams(e) })),
    entries.map((e): Posted => ({ label: "multipart", body: multipartOf(e) })),
    entries.map((e): Posted => ({ label: "json", body: JSON.stringify(Object.fromEntries(e)), contentType: "application/json" })),
    entries.map((e): Posted => ({ label: "text/plain", body: e.map(([k, v]) => `${k}=${v}`).join("\n"), contentType: "text/plain" })),
    fc.tuple(entries, fc.constantFrom(`multipart/form-data; boundary=${boundary}`, "multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\"unterminated")).map(
      ([e, type]): Posted => ({
        label: `broken multipart (${type})`,
        // A body that does not match its boundary, or is cut off in the middle of a part.
        body: `--${boundary}\r\nContent-Disposition: form-data; name="${e[0]?.[0] ?? "intent"}"\r\n\r\n${e[0]?.[1] ?? ""}`,
        contentType: type,
      }),
    ),
    fc.tuple(hostileText, fc.constantFrom("application/xml", "application/x-www-form-urlencoded; charset=utf-16", "image/png", "", "text/html")).map(
      ([text, type]): Posted => ({ label: `raw (${type || "no type"})`, body: text, contentType: type }),
    ),
    fc.constant<Posted>({ label: "no body" }),
  );
}

/** Strings that are not a UUID, or a UUID of nothing. */
export const wrongId: fc.Arbitrary<string> = fc.oneof(
  hostileText,
  fc.uuid(),
  fc.constantFrom("00000000-0000-0000-0000-000000000000", "1 or 1=1", "../admin"),
);

/** `fields` with `name` set to a wrong id (a generated `name` entry is dropped, so the wrong id is the one sent). */
export function withWrongId(fields: fc.Arbitrary<Entries>, name: string): fc.Arbitrary<Entries> {
  return fc.tuple(fields, wrongId).map(([entries, id]): Entries => [...entries.filter(([k]) => k !== name), [name, id]]);
}

/**
 * A form whose `intent` is one of `intents` and whose `field` always breaks a rule (a control character,
 * `tooLong` characters, or nothing but spaces), whatever else is sent with them.
 */
export function withBrokenText(intents: readonly string[], field: string, tooLong: number): fc.Arbitrary<Entries> {
  const intent = fc.constantFrom(...intents);
  return fc
    .tuple(
      hostileFields({ intent, [field]: hostileText }),
      intent,
      fc.oneof(hostileText.map((t) => `${t}\u0000`), fc.constant("x".repeat(tooLong)), fc.constant(" \n\t ")),
    )
    .map(([entries, chosen, text]): Entries => [["intent", chosen], [field, text], ...entries.filter(([k]) => k !== "intent" && k !== field)]);
}
