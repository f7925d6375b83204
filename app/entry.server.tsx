import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { PassThrough, pipeline } from "node:stream";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { NonceProvider } from "~/components/nonce-provider";
import { lowPriorityModulePreloads } from "~/server/http/preload-priority.server";
import { isDatabaseUnavailable } from "~/server/db/unavailable.server";

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
    console.error(`[db] unavailable during ${request.method} ${new URL(request.url).pathname}: ${(error as Error).message}`);
    return;
  }
  console.error(error);
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
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the complete document in one piece.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const html = lowPriorityModulePreloads();
          // A visitor who leaves mid-page destroys `body` (with an error): pipeline listens for it, so it
          // never becomes an unhandled 'error' event that ends the process, and the render stops.
          pipeline(html, body, (error) => {
            if (error) abort();
          });
          // …also after the render finished, while the visitor is still reading the page.
          body.on("error", () => abort());
          pipe(html);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
