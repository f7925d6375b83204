import busboy from "busboy";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { getConfig } from "~/server/platform/config.server";
import {
  APPLICATION_MESSAGES,
  APPLICATION_TEXT_FIELDS,
  DOCUMENT_FIELDS,
  documentFileMessage,
  MAX_FILE_BYTES,
  MAX_SIGNATURE_BYTES,
  SIGNATURE_FIELD,
  type StepProblem,
} from "~/domain/validation/application";
import { TOO_LARGE } from "~/domain/upload-rules";
import { createSpool, SPOOL_FOLDER } from "./upload-spool.server";

/**
 * Reads the wizard's multipart submission as a stream. Limits are enforced while reading: a file
 * past 5 MB, a body past the total, an unknown field or a second copy of one stops the read at once.
 * Files go straight to a private spool folder (upload-spool.server.ts), so however many applicants
 * upload at once, their documents cost disk, not memory.
 */

/** Six 5 MB documents, an optional seventh, a signature and the text fields. */
export const MAX_SUBMISSION_BYTES = 7 * MAX_FILE_BYTES + MAX_SIGNATURE_BYTES + 256 * 1024;

/** A received file, spooled to disk: `read()` loads it when (and only while) it is checked or stored. */
export type UploadedFile = { field: string; filename: string; declaredType: string; size: number; read: () => Promise<Buffer> };
export type ParsedSubmission = {
  fields: Record<string, string>;
  files: Map<string, UploadedFile>;
  /** Removes the spooled files; the caller calls it once the submission is stored or refused. */
  dispose?: () => Promise<void>;
};

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
  return new SubmissionRejected(status, { step: 4, field, message: documentFileMessage(label, reason) });
}

/**
 * Which parts a form may carry: the submission's by default; the wizard's draft names its
 * own text fields and takes the documents without the signature.
 */
export type FormShape = { textFields: ReadonlySet<string>; fileFields: ReadonlyMap<string, number>; maxBytes: number; tooLarge: string };

export const SUBMISSION_SHAPE: FormShape = {
  textFields: TEXT_FIELDS,
  fileFields: FILE_FIELDS,
  maxBytes: MAX_SUBMISSION_BYTES,
  tooLarge: "The application is too large (35 MB at most).",
};

export async function parseSubmission(request: Request, options: { spoolRoot?: string; shape?: FormShape } = {}): Promise<ParsedSubmission> {
  const { textFields, fileFields, maxBytes, tooLarge } = options.shape ?? SUBMISSION_SHAPE;
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new SubmissionRejected(415, { message: "The application must be sent as multipart/form-data." });
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    throw new SubmissionRejected(413, { message: tooLarge });
  }
  if (!request.body) throw new SubmissionRejected(400, { message: "The application is empty." });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      // Browsers send a file's name as UTF-8 bytes; busboy's default (latin1) would garble "é" or "—".
      defParamCharset: "utf8",
      limits: { fileSize: MAX_FILE_BYTES + 1, files: fileFields.size, fields: textFields.size, fieldSize: 4096, parts: 64, fieldNameSize: 64 },
    });
  } catch {
    throw new SubmissionRejected(400, { message: "The application could not be read." });
  }

  const spool = await createSpool(options.spoolRoot ?? path.join(getConfig().dataDir, SPOOL_FOLDER));
  const source = Readable.fromWeb(request.body as never);
  const parsed = new Promise<ParsedSubmission>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files = new Map<string, UploadedFile>();
    const writers = new Set<fs.WriteStream>();
    let settled = false;
    let parserClosed = false;
    let total = 0;

    const fail = (error: SubmissionRejected) => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.destroy();
      parser.removeAllListeners();
      parser.on("error", () => undefined);
      for (const writer of writers) writer.destroy();
      reject(error);
    };
    // Done when the parser has seen the whole body and every spooled file is on disk.
    const finishIfDone = () => {
      if (settled || !parserClosed || writers.size > 0) return;
      settled = true;
      resolve({ fields, files });
    };

    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        total += chunk.length;
        if (total > maxBytes) {
          fail(new SubmissionRejected(413, { message: tooLarge }));
          done();
          return;
        }
        done(null, chunk);
      },
    });

    parser.on("field", (name, value, info) => {
      if (!textFields.has(name) || name in fields) {
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
      const limit = fileFields.get(name);
      if (settled || limit === undefined || files.has(name)) {
        stream.resume();
        fail(new SubmissionRejected(400, { field: name, message: `Unexpected file: ${name.slice(0, 64)}` }));
        return;
      }
      const file = spool.nextPath();
      const writer = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
      writers.add(writer);
      let size = 0;
      const sizeCheck = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > limit) {
            fail(fileProblem(name, 413, TOO_LARGE));
            stream.resume();
            done();
            return;
          }
          done(null, chunk);
        },
      });
      stream.on("limit", () => fail(fileProblem(name, 413, TOO_LARGE)));
      // Registered when the part is announced, so that a second part of the same name is refused at once.
      files.set(name, {
        field: name,
        filename: info.filename ?? "",
        declaredType: info.mimeType ?? "",
        get size() {
          return size;
        },
        read: () => fs.promises.readFile(file),
      });
      writer.on("error", () => fail(new SubmissionRejected(503, { message: APPLICATION_MESSAGES.submitFailed })));
      writer.on("finish", () => {
        writers.delete(writer);
        finishIfDone();
      });
      stream.pipe(sizeCheck).pipe(writer);
    });

    parser.on("filesLimit", () => fail(new SubmissionRejected(400, { message: "Too many files." })));
    parser.on("fieldsLimit", () => fail(new SubmissionRejected(400, { message: "Too many fields." })));
    parser.on("partsLimit", () => fail(new SubmissionRejected(400, { message: "Too many parts." })));
    parser.on("error", () => fail(new SubmissionRejected(400, { message: "The application could not be read." })));
    parser.on("close", () => {
      parserClosed = true;
      finishIfDone();
    });
    source.on("error", () => fail(new SubmissionRejected(400, { message: "The upload was interrupted." })));
    source.pipe(counter).pipe(parser);
  });

  try {
    const submission = await parsed;
    return { ...submission, dispose: spool.remove };
  } catch (error) {
    await spool.remove().catch(() => undefined);
    throw error;
  }
}
