/**
 * POSTs a multipart body with XMLHttpRequest, because fetch cannot report upload progress.
 * Resolves for every answer the server gives (any status) and for network failures (status 0);
 * it never rejects, so the caller has one place to decide what to tell the applicant.
 */

export type SubmissionAnswer = {
  ok: boolean;
  applicationId?: string;
  duplicate?: boolean;
  step?: number;
  field?: string;
  message?: string;
};

export type SubmitResult = {
  /** HTTP status; 0 when the request never got an answer (offline, connection reset, timeout). */
  status: number;
  body: SubmissionAnswer | null;
};

/** No answer within this long counts as a network failure (35 MB on a slow line still fits). */
export const SUBMIT_TIMEOUT_MS = 10 * 60 * 1000;

function parseBody(text: string): SubmissionAnswer | null {
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === "object" && data !== null ? (data as SubmissionAnswer) : null;
  } catch {
    return null;
  }
}

export function submitWithProgress(
  url: string,
  body: FormData,
  onProgress: (percent: number) => void,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<SubmitResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.timeout = options.timeoutMs ?? SUBMIT_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.upload.onload = () => onProgress(100);
    xhr.onload = () => resolve({ status: xhr.status, body: parseBody(xhr.responseText) });
    const failed = () => resolve({ status: 0, body: null });
    xhr.onerror = failed;
    xhr.ontimeout = failed;
    xhr.onabort = failed;
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
