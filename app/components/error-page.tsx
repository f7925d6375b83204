import { House } from "lucide-react";
import { LinkButton } from "./link-button";
import type { ButtonSize } from "./ui/button";

function HomeButton({ size }: { size?: ButtonSize }) {
  return (
    <LinkButton to="/" size={size} icon={House} className="mt-8">
      Return to Home
    </LinkButton>
  );
}

/** docs/requirements.md §2: the catch-all's page. */
export function NotFoundPage() {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <h1 className="text-7xl font-extrabold tracking-tight text-primary sm:text-8xl">404</h1>
      <p className="mt-4 text-xl font-semibold text-foreground sm:text-2xl">Oops! Page not found</p>
      <p className="mt-2 text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <HomeButton size="lg" />
    </div>
  );
}

/** Any other error: the heading of docs/requirements.md §9, then a status line or a message, and a dev-only stack. */
export function UnexpectedErrorPage({ detail, stack }: { detail: string; stack?: string }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-20 sm:py-28">
      <h1 className="text-3xl font-bold tracking-tight text-primary sm:text-4xl">Unexpected Application Error!</h1>
      <p className="mt-4 text-lg text-foreground">{detail}</p>
      {stack ? (
        <pre tabIndex={0} className="mt-6 max-h-96 overflow-auto rounded-lg bg-muted p-4 text-xs text-slate-800">
          {stack}
        </pre>
      ) : null}
      <HomeButton />
    </div>
  );
}
