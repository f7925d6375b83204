/**
 * What free text a form may hold. PostgreSQL refuses NUL in text columns (the insert fails and the
 * request became a 5xx), and other control characters have no business in a name, an address or a
 * message: they hide text on screen and break e-mail headers and logs. Every schema refuses them with
 * one readable message (a 400 the form shows beside the field) instead of quietly removing them, so
 * what is stored is always what the person typed. Tab and line breaks stay allowed: text areas and
 * pasted text use them, and each field's own rules decide whether they matter.
 */

/** C0 controls except tab, LF and CR; DEL; C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const CONTROL_CHARACTER_MESSAGE = "Please remove the unsupported characters (control codes such as NUL) from this field.";

export function hasNoControlCharacters(value: string): boolean {
  return !CONTROL_CHARACTER.test(value);
}

/** For a search box, where refusing would help no one: the same characters, dropped. */
export function withoutControlCharacters(value: string): string {
  return value.replace(new RegExp(CONTROL_CHARACTER.source, "g"), "");
}
