import { ALLOWED_MIME_TYPES } from "~/domain/enums";

/**
 * What a file really is, by its bytes (magic numbers and trailers), never by its name or the type
 * the browser declared. Pure (bytes in, verdict out), so the wizard checks a chosen file in the
 * browser with the very rules the server applies again on submission. Only complete PDF, JPEG and PNG files pass. `inspectUpload` adds the rules of
 * docs/decisions/0016-upload-content-rules.md: the name's extension and the declared type must agree
 * with the content, and nothing another program (a browser, an archiver, a PDF viewer's script
 * engine) would read differently may ride along inside.
 */

export type SniffedType = { mime: "application/pdf" | "image/jpeg" | "image/png"; ext: "pdf" | "jpg" | "png" };

/** The documents step 4 takes. */
export const DOCUMENT_MIME_TYPES: readonly SniffedType["mime"][] = ALLOWED_MIME_TYPES;

const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Uint8Array.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** The bytes `start` to `end` as latin1 text: each byte one character, as Node's "latin1" decodes. */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let text = "";
  // In slices: one call with millions of arguments would overflow the stack.
  for (let i = start; i < end; i += 8192) text += String.fromCharCode(...bytes.subarray(i, Math.min(end, i + 8192)));
  return text;
}

const bytesOf = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function sameBytes(bytes: Uint8Array, at: number, expected: Uint8Array): boolean {
  if (at < 0 || at + expected.length > bytes.length) return false;
  return expected.every((byte, i) => bytes[at + i] === byte);
}

/** Whether `needle` occurs anywhere in `bytes`. */
function containsBytes(bytes: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  for (let i = bytes.indexOf(first!); i >= 0 && i + needle.length <= bytes.length; i = bytes.indexOf(first!, i + 1)) {
    if (sameBytes(bytes, i, needle)) return true;
  }
  return false;
}

export function sniffDocumentType(buf: Uint8Array): SniffedType | null {
  if (buf.length < 16) return null;
  if (latin1(buf, 0, 5) === "%PDF-") {
    // A PDF ends with %%EOF (allowing trailing whitespace); a truncated or disguised file does not.
    return latin1(buf, Math.max(0, buf.length - 1024)).includes("%%EOF") ? { mime: "application/pdf", ext: "pdf" } : null;
  }
  if (sameBytes(buf, 0, PNG_SIGNATURE)) {
    // IHDR must come first and IEND last.
    const ihdr = latin1(buf, 12, 16) === "IHDR";
    const iend = sameBytes(buf, buf.length - 8, PNG_IEND);
    return ihdr && iend ? { mime: "image/png", ext: "png" } : null;
  }
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    // JPEG ends with the EOI marker (some writers pad after it).
    const tail = buf.subarray(Math.max(0, buf.length - 64));
    for (let i = tail.length - 2; i >= 0; i--) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return { mime: "image/jpeg", ext: "jpg" };
    return null;
  }
  return null;
}

const EXTENSION_TYPES: Record<string, SniffedType["mime"]> = {
  pdf: "application/pdf",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
};

// Browsers send an empty type or octet-stream when the operating system does not know the file;
// image/jpg and image/pjpeg are what some of them call a JPEG.
const DECLARED_ALIASES: Record<string, SniffedType["mime"] | "unknown"> = {
  "": "unknown",
  "application/octet-stream": "unknown",
  "application/pdf": "application/pdf",
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/png": "image/png",
};

/**
 * Markup a browser would run if it ever rendered the bytes as HTML or SVG. Each marker is long enough
 * that compressed image or PDF data contains it by chance about once in ten thousand 5 MB files.
 */
const MARKUP = /<(?:script|iframe|object|embed|html|body|svg[\s/>]|!doctype)|javascript:|\bon(?:error|load)\s*=/i;
/**
 * Archives that readers find from anywhere in a file (ZIP's end record, RAR and 7-Zip signatures):
 * an image or PDF carrying one is also an archive.
 */
const ARCHIVE_SIGNATURES = [
  Uint8Array.from([0x50, 0x4b, 0x05, 0x06]),
  bytesOf("Rar!\x1a\x07"),
  Uint8Array.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
];
/** PDF actions that run code or open other files: a statement or a bill needs none of them. */
const PDF_ACTIVE = /\/(?:JavaScript|JS|Launch|EmbeddedFile|RichMedia)(?![A-Za-z0-9])/;

export type UploadVerdict =
  | { ok: true; type: SniffedType }
  | { ok: false; reason: "empty" | "content" | "extension" | "declared-type" | "not-allowed" | "markup" | "archive" | "active-pdf" };

export const UPLOAD_REASONS: Record<Exclude<UploadVerdict, { ok: true }>["reason"], string> = {
  empty: "the file is empty",
  content: "the file's content is not a complete PDF, JPG or PNG",
  extension: "the file name's extension does not match its content",
  "declared-type": "the file's declared type does not match its content",
  "not-allowed": "this type of file is not accepted here",
  markup: "the file contains web page or script code",
  archive: "the file has an archive hidden inside",
  "active-pdf": "the PDF contains scripts, actions or attached files",
};

/** The extension after the last dot of the name's last path segment (either slash), lowercased. */
function extensionOf(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot < 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** Why a file larger than the limit is refused (the server's stream check says the same). */
export const TOO_LARGE = "the file is too large";

export function inspectUpload(
  file: { filename: string; declaredType: string; bytes: Uint8Array },
  allowed: readonly SniffedType["mime"][],
): UploadVerdict {
  if (file.bytes.length === 0) return { ok: false, reason: "empty" };
  const type = sniffDocumentType(file.bytes);
  if (!type) return { ok: false, reason: "content" };
  if (!allowed.includes(type.mime)) return { ok: false, reason: "not-allowed" };
  if (EXTENSION_TYPES[extensionOf(file.filename)] !== type.mime) return { ok: false, reason: "extension" };
  const declared = DECLARED_ALIASES[file.declaredType.split(";")[0]!.trim().toLowerCase()];
  if (declared !== "unknown" && declared !== type.mime) return { ok: false, reason: "declared-type" };

  const buf = file.bytes;
  if (ARCHIVE_SIGNATURES.some((signature) => containsBytes(buf, signature))) return { ok: false, reason: "archive" };
  // Markup anywhere outranks a PDF action found earlier in the file: the reason names the worse problem.
  let activePdf = false;
  for (const text of latin1Windows(buf)) {
    if (MARKUP.test(text)) return { ok: false, reason: "markup" };
    activePdf ||= type.mime === "application/pdf" && PDF_ACTIVE.test(text);
  }
  return activePdf ? { ok: false, reason: "active-pdf" } : { ok: true, type };
}

const WINDOW_BYTES = 64 * 1024;
/** Longer than any fixed part of the patterns above (with the character \b or the lookahead reads). */
const CONTEXT_BYTES = 64;
/** The bytes JavaScript's \s matches in a latin1 string. */
const isRegExpSpace = (byte: number) => (byte >= 0x09 && byte <= 0x0d) || byte === 0x20 || byte === 0xa0;

/**
 * The file as latin1 text (each byte one character, so the patterns see the bytes as they are), in
 * overlapping 64 KB windows: a whole 5 MB file as one string would be a 5 MB allocation outside the
 * JavaScript heap per check. Nothing a whole-file scan finds is missed: the fixed parts of a pattern fit
 * in the overlap, and a window never ends inside a run of spaces, so `on...\s*=` however long is whole
 * in one window. (At most a match cut at a window's edge is reported that the whole text would not.)
 */
export function* latin1Windows(buf: Uint8Array): Generator<string> {
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(buf.length, start + WINDOW_BYTES);
    while (end < buf.length && isRegExpSpace(buf[end - 1]!)) end++;
    yield latin1(buf, Math.max(0, start - CONTEXT_BYTES), Math.min(buf.length, end + CONTEXT_BYTES));
    start = end;
  }
}


/** The longest original file name kept (characters, extension included). */
export const MAX_ORIGINAL_FILE_NAME = 120;

/**
 * The name the borrower's file had, as we keep it for display (borrower and staff pages) and as the
 * download's suggested name: never a path (files are stored under our own key). Only the last path
 * segment is kept; control characters (C0, DEL, C1) and Unicode format characters (bidi overrides,
 * zero-width joiners, which can disguise an extension) are removed rather than refused, because the
 * name is the operating system's, not something the borrower typed; runs of white space (tabs and
 * line breaks included) first become one space; the name is cut to MAX_ORIGINAL_FILE_NAME characters with the extension kept, and always
 * ends in the extension of the type the content was found to be. Nothing left: `fallback`.
 */
export function originalFileName(name: string, ext: SniffedType["ext"], fallback: string): string {
  const lastSegment = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const cleaned = lastSegment.normalize("NFC").replace(/\s+/gu, " ").replace(/[\u0000-\u001f\u007f-\u009f]|\p{Cf}/gu, "").trim();
  const suffix = `.${ext}`;
  const matches = extensionOf(cleaned) === ext || (ext === "jpg" && extensionOf(cleaned) === "jpeg");
  const stem = (matches ? cleaned.slice(0, cleaned.lastIndexOf(".")) : cleaned).replace(/^[.\s]+/u, "").trimEnd();
  const ending = matches ? cleaned.slice(cleaned.lastIndexOf(".")) : suffix;
  if (!stem) return fallback;
  const room = MAX_ORIGINAL_FILE_NAME - ending.length;
  return [...stem].slice(0, room).join("").trimEnd() + ending;
}
