import busboy from "busboy";
import { Readable, Transform } from "node:stream";
import {
  APPLICATION_MESSAGES,
  APPLICATION_TEXT_FIELDS,
  DOCUMENT_FIELDS,
  MAX_FILE_BYTES,
  MAX_SIGNATURE_BYTES,
  SIGNATURE_FIELD,
  type StepProblem,
} from "~/domain/validation/application";

/**
 * Reads the wizard's multipart submission as a stream. Limits are enforced while reading: a file
 * past 5 MB, a body past the total, an unknown field or a second copy of one stops the read at once,
 * so a 100 MB upload costs no more memory than the limits allow.
 */

/** Six 5 MB documents, an optional seventh, a signature and the text fields. */
export const MAX_SUBMISSION_BYTES = 7 * MAX_FILE_BYTES + MAX_SIGNATURE_BYTES + 256 * 1024;

export type UploadedFile = { field: string; filename: string; declaredType: string; bytes: Buffer };
export type ParsedSubmission = { fields: Record<string, string>; files: Map<string, UploadedFile> };

export class SubmissionRejected extends Error {
  constructor(
    public readonly status: number,
    public readonly problem: Partial<StepProblem> & { message: string },
  ) {
    super(problem.message);
    this.name = "SubmissionRejected";
  }
}

const TEXT_FIELDS = new Set<string>(APPLICATION_TEXT_FIELDS);
const FILE_FIELDS = new Map<string, number>([
  ...DOCUMENT_FIELDS.map((d) => [d.field, MAX_FILE_BYTES] as [string, number]),
  [SIGNATURE_FIELD, MAX_SIGNATURE_BYTES],
]);

/**
 * A refused file: the document is named (the wizard shows one toast for the whole submission) and
 * the spec's rule follows. The client's file name is never repeated back.
 */
export function fileProblem(field: string, status: number, reason: string): SubmissionRejected {
  if (field === SIGNATURE_FIELD) {
    return new SubmissionRejected(status, { step: 5, field, message: `${APPLICATION_MESSAGES.signature} (${reason}).` });
  }
  const label = DOCUMENT_FIELDS.find((d) => d.field === field)?.label ?? field;
  return new SubmissionRejected(status, { step: 4, field, message: `${label}: ${reason}. ${APPLICATION_MESSAGES.file}` });
}

const TOO_LARGE = "the file is too large";

export async function parseSubmission(request: Request): Promise<ParsedSubmission> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new SubmissionRejected(415, { message: "The application must be sent as multipart/form-data." });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_SUBMISSION_BYTES) {
    throw new SubmissionRejected(413, { message: "The application is too large (35 MB at most)." });
  }
  if (!request.body) throw new SubmissionRejected(400, { message: "The application is empty." });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      limits: { fileSize: MAX_FILE_BYTES + 1, files: FILE_FIELDS.size, fields: TEXT_FIELDS.size, fieldSize: 4096, parts: 64, fieldNameSize: 64 },
    });
  } catch {
    throw new SubmissionRejected(400, { message: "The application could not be read." });
  }

  const source = Readable.fromWeb(request.body as never);
  return new Promise<ParsedSubmission>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files = new Map<string, UploadedFile>();
    let settled = false;
    let total = 0;

    const fail = (error: SubmissionRejected) => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.destroy();
      parser.removeAllListeners();
      parser.on("error", () => undefined);
      reject(error);
    };

    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length;
        if (total > MAX_SUBMISSION_BYTES) {
          fail(new SubmissionRejected(413, { message: "The application is too large (35 MB at most)." }));
          done();
          return;
        }
        done(null, chunk);
      },
    });

    parser.on("field", (name, value, info) => {
      if (!TEXT_FIELDS.has(name) || name in fields) {
        fail(new SubmissionRejected(400, { field: name, message: `Unexpected field: ${name.slice(0, 64)}` }));
        return;
      }
      if (info.valueTruncated) {
        fail(new SubmissionRejected(400, { field: name, message: `The value of ${name} is too long.` }));
        return;
      }
      fields[name] = value;
    });

    parser.on("file", (name, stream, info) => {
      const limit = FILE_FIELDS.get(name);
      if (limit === undefined || files.has(name)) {
        stream.resume();
        fail(new SubmissionRejected(400, { field: name, message: `Unexpected file: ${name.slice(0, 64)}` }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          fail(fileProblem(name, 413, TOO_LARGE));
          stream.resume();
          return;
        }
        chunks.push(chunk);
      });
      stream.on("limit", () => fail(fileProblem(name, 413, TOO_LARGE)));
      stream.on("end", () => {
        if (settled) return;
        files.set(name, {
          field: name,
          filename: info.filename ?? "",
          declaredType: info.mimeType ?? "",
          bytes: Buffer.concat(chunks, size),
        });
      });
    });

    parser.on("filesLimit", () => fail(new SubmissionRejected(400, { message: "Too many files." })));
    parser.on("fieldsLimit", () => fail(new SubmissionRejected(400, { message: "Too many fields." })));
    parser.on("partsLimit", () => fail(new SubmissionRejected(400, { message: "Too many parts." })));
    parser.on("error", () => fail(new SubmissionRejected(400, { message: "The application could not be read." })));
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      resolve({ fields, files });
    });
    source.on("error", () => fail(new SubmissionRejected(400, { message: "The upload was interrupted." })));
    source.pipe(counter).pipe(parser);
  });
}
