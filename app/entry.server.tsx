import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "~/components/nonce-provider";
import { documentResponse } from "~/server/platform/http/rendered-document.server";
import { scriptsAfterFirstPaint } from "~/server/platform/http/scripts-after-paint.server";
import { isDatabaseUnavailable } from "~/server/platform/db/unavailable.server";
import { describeError, logFailure } from "~/server/platform/log/describe-error.server";

export const streamTimeout = 5_000;

/**
 * Every error a loader, action or render throws. An unreachable database is an outage, not a bug: the
 * request is marked so the Node entry answers 503 (server/unavailable-response.ts), and one line is
 * logged instead of a stack trace per request.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isDatabaseUnavailable(error)) {
    const outcome = (context as AppLoadContext).outcome;
    if (outcome) outcome.databaseUnavailable = true;
    console.error(`[db] unavailable during ${request.method} ${new URL(request.url).pathname}: ${describeError(error)}`);
    return;
  }
  // React Router's own refusals (no route for the URL, a method the route has no handler for) are what
  // scanners cause all day: one line each, never a stack trace.
  if (isRouteErrorResponse(error)) {
    const path = new URL(request.url).pathname;
    const shown = JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
    console.error(`[http] ${error.status} ${request.method} ${shown}`);
    return;
  }
  // A failed query's message repeats its parameters (a whole application, a contact message): the
  // log names the error's kind and SQLSTATE instead. `npm run dev` keeps the full error for debugging.
  if (import.meta.env.DEV) console.error(error);
  else logFailure("http", `${request.method} ${new URL(request.url).pathname.slice(0, 200)} failed`, error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Security headers (CSP with this nonce included) are set by the Node entry for every response.
  const nonce = loadContext.cspNonce;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    let shellRendered = false;

    // The whole document is rendered before the first byte leaves: every loader has resolved before
    // rendering starts and nothing suspends on the server, so streaming would send the same bytes,
    // only in dozens of small writes, each through the compressor and the socket (measured: a fifth
    // of the server's time on the 160 KB admin list). One buffer also makes the script rewrite a
    // single pass.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const chunks: Buffer[] = [];
          const document = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              const body = scriptsAfterFirstPaint(Buffer.concat(chunks));
              resolve(documentResponse(body, { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(document);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Before the shell, onShellError rejects and React Router reports the error.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
