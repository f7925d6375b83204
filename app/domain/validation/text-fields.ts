import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { z } from "./zod";

/**
 * Text a person writes in a text area (a note, a reason, a comment, a message): CRLF and CR become LF,
 * surrounding whitespace is trimmed, then at most `max` characters (`tooLong`) without control
 * characters. With `required`, empty text is refused with that message (also when the field is
 * missing); without it, empty text is allowed.
 */
export function writtenText({ max, tooLong, required }: { max: number; tooLong: string; required?: string }) {
  return z
    .string({ error: required ?? tooLong })
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(required ? 1 : 0, required ?? "")
        .max(max, tooLong)
        .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE),
    );
}

/**
 * The schema for a posted intent, from a map of intent to schema: null for an unknown intent (an
 * inherited name such as "constructor" included).
 */
export function intentSchemas<Map extends Record<string, unknown>>(schemas: Map): (intent: unknown) => Map[keyof Map] | null {
  return (intent) => (typeof intent === "string" && Object.hasOwn(schemas, intent) ? (schemas[intent] as Map[keyof Map]) : null);
}
