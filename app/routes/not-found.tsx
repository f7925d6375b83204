import { NotFoundPage } from "~/components/error-page";

/** The catch-all: a real 404 status, rendered by root's ErrorBoundary inside the normal layout. */
export function loader() {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return <NotFoundPage />;
}
