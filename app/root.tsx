import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import { NotFoundPage, UnexpectedErrorPage } from "~/components/error-page";
import { Footer } from "~/components/footer";
import { Header, type HeaderUser } from "~/components/header";
import { SeoHead } from "~/components/seo/structured-data";
import { useNonce } from "~/components/nonce-provider";
import { TransitionOverlay, usePageTransition } from "~/components/page-transition";
import { Toaster, useServerToast } from "~/components/toaster";
import { site } from "~/content/site";
import { getConfig } from "~/server/platform/config.server";
import { getOptionalUser, type SessionUser } from "~/server/accounts/session.server";
import { totalUnread } from "~/server/conversation/messages.server";
import { newContactMessages } from "~/server/public-site/contact-inbox.server";
import { getToast } from "~/server/platform/http/toast.server";
import appCss from "./app.css?url";

export async function loader({ request }: Route.LoaderArgs) {
  const { toast, headers } = await getToast(request);
  const sessionUser = await getOptionalUser(request);
  const user: HeaderUser = sessionUser ? { name: sessionUser.name, ...(await unreadForHeader(sessionUser)) } : null;
  const isStaff = sessionUser?.isStaff ?? false;
  // The staff navigation shows what the role may open (the server refuses the rest anyway).
  const staffRole = sessionUser?.role ?? null;
  const { transitionMs, publicUrl, licensing } = getConfig();
  // Configuration read at start-up: the same for every visitor, so cached public pages stay correct.
  return data({ toast, transitionMs, user, isStaff, staffRole, publicUrl, licensing: licensing ?? null }, { headers });
}

/**
 * The header's unread badges, for signed-in visitors only (an anonymous request has no cookie, gets no
 * query and may be served from the public page cache). Staff counts only past the second factor.
 */
async function unreadForHeader(user: SessionUser): Promise<{ unreadMessages: number; staffUnreadMessages?: number; staffUnreadContact?: number }> {
  const staff = user.isStaff && user.mfaVerified;
  const [mine, theirs, contact] = await Promise.all([
    totalUnread({ id: user.id, side: "applicant" }),
    staff ? totalUnread({ id: user.id, side: "staff" }) : Promise.resolve(undefined),
    // The Contact Inbox's badge: contact-form messages still New (one kept count row, decision 0048's way).
    staff ? newContactMessages() : Promise.resolve(undefined),
  ]);
  return theirs === undefined ? { unreadMessages: mine } : { unreadMessages: mine, staffUnreadMessages: theirs, staffUnreadContact: contact };
}

export const meta: Route.MetaFunction = ({ error }) => {
  if (error) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return [{ title: notFound ? `Page Not Found | ${site.name}` : `Unexpected Error | ${site.name}` }];
  }
  return [
    { title: `${site.name} | ${site.tagline}` },
    { name: "description", content: `${site.name}: ${site.footerLine.toLowerCase()} in the United States.` },
  ];
};

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Layout also wraps the ErrorBoundary, when the root loader may have failed: no data then.
  const rootData = useRouteLoaderData<typeof loader>("root");
  const transitionMs = rootData?.transitionMs ?? 0;
  const transition = usePageTransition(transitionMs);
  useServerToast(rootData?.toast);
  // Marks the document once React has hydrated it and run the page's first effects (Layout's effects
  // run after those of everything inside it). Scripts load after the first paint (decision 0021), so
  // the load event says nothing about that; browser tests and monitoring can read this instead.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);

  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* With a precedence React writes the stylesheet right after the viewport, ahead of the dozens of
            module preloads: over HTTP/1.1's six connections the one render-blocking file must not queue
            behind scripts that are not (Lighthouse's FCP and LCP on slow 4G). */}
        <link rel="stylesheet" href={appCss} precedence="default" />
        <meta name="theme-color" content="#0f2a4f" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <SeoHead />
        <Links />
      </head>
      <body>
        {transition.overlayMounted ? (
          <TransitionOverlay key={transition.overlayKey} durationMs={transitionMs} onDone={transition.onOverlayDone} />
        ) : null}
        <div className="flex min-h-screen flex-col" aria-busy={transition.busy ? true : undefined}>
          <a
            href="#main"
            className="sr-only z-50 rounded-md bg-primary px-4 py-2 font-semibold text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
          >
            Skip to main content
          </a>
          <Header user={rootData?.user ?? null} isStaff={rootData?.isStaff ?? false} />
          <main id="main" tabIndex={-1} className="flex flex-1 flex-col">
            {children}
          </main>
          <Footer licensing={rootData?.licensing ?? null} />
        </div>
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    return <UnexpectedErrorPage detail={`${error.status} ${error.statusText}`.trim()} />;
  }
  if (import.meta.env.PROD) {
    return <UnexpectedErrorPage detail="Something went wrong on our side. Please try again in a moment." />;
  }
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? error.stack : undefined;
  return <UnexpectedErrorPage detail={message} stack={stack} />;
}
