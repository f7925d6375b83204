import type { Browser, BrowserContext, Page } from "playwright-core";

/** A fresh browser context and page; `errors` collects the page's uncaught errors and console errors. */
export type WatchedPage = { context: BrowserContext; page: Page; errors: string[] };

export type WatchedPageOptions = {
  /** Cookies to sign the context in with (see toBrowserCookies). */
  cookies?: { name: string; value: string; url: string }[];
  width?: number;
  /** The viewport's height; 900 by default. */
  height?: number;
  acceptDownloads?: boolean;
  /** Console errors the test expects (a refused action the browser logs as a failed resource). */
  expectedConsoleErrors?: RegExp;
};

export async function openWatchedPage(browser: Browser, options: WatchedPageOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
  });
  if (options.cookies?.length) await context.addCookies(options.cookies);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !options.expectedConsoleErrors?.test(message.text())) errors.push(message.text());
  });
  return { context, page, errors };
}
