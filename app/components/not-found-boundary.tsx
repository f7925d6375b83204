import { isRouteErrorResponse } from "react-router";
import { NotFoundPage } from "./error-page";

/**
 * The ErrorBoundary of a page whose loader answers 404 for what is not there or not the viewer's: the
 * Not Found page in the page's place; any other error goes on to root's boundary. Its own file, so the
 * root bundle every page loads does not carry it.
 */
export function NotFoundBoundary({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  throw error;
}
