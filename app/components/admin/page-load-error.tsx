import { RefreshCw } from "lucide-react";
import { isRouteErrorResponse, useRevalidator } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { AdminShell } from "~/components/admin/admin-shell";
import { Button } from "~/components/ui/button";
import type { Toast } from "~/domain/action-result";
import { REVIEW_TOASTS } from "~/domain/validation/review";

type AdminPageLoad = {
  /** The page's AdminShell title. */
  title: string;
  /** The alert's heading, e.g. "Error Loading Clients". */
  heading: string;
  /** What to say when the failure is ours (a 5xx or a thrown error): its details stay in the log. */
  fallback: string;
  /** A toast to show as well (the spec's 'Failed to load applications'). */
  toast?: Toast;
};

/** Each admin page's words for a failed load, by route. */
const ADMIN_PAGE_LOADS = {
  applications: {
    title: "Admin Dashboard",
    heading: REVIEW_TOASTS.loadFailed.title,
    fallback: "The applications could not be loaded. Please try again.",
    toast: REVIEW_TOASTS.loadFailed,
  },
  application: { title: "Application", heading: "Error Loading Application", fallback: "The application could not be loaded. Please try again." },
  clients: { title: "Client Information", heading: "Error Loading Clients", fallback: "The client data could not be loaded. Please try again." },
  documents: { title: "Document Viewer", heading: "Error Loading Documents", fallback: "The documents could not be loaded. Please try again." },
  messages: { title: "Contact Inbox", heading: "Error Loading Messages", fallback: "The messages could not be loaded. Please try again." },
  conversations: { title: "Application Messages", heading: "Error Loading Messages", fallback: "The application messages could not be loaded. Please try again." },
  testimonials: {
    title: "Testimonial Moderation",
    heading: "Error Loading Testimonials",
    fallback: "The pending testimonials could not be loaded. Please try again.",
  },
  monitoring: { title: "Activity Monitoring", heading: "Error Loading Activity", fallback: "The activity could not be loaded. Please try again." },
  security: {
    title: "Security Settings",
    heading: "Error Loading Security Settings",
    fallback: "The security settings could not be loaded. Please try again.",
  },
  staff: { title: "Staff", heading: "Error Loading Staff", fallback: "The staff list could not be loaded. Please try again." },
  ach: { title: "ACH Batch", heading: "Error Loading ACH Batches", fallback: "The ACH batches could not be loaded. Please try again." },
} as const satisfies Record<string, AdminPageLoad>;

/** The one way an admin page shows that its data could not be loaded, with a way to try again. */
export function PageLoadError({ page, detail }: { page: AdminPageLoad; detail: string }) {
  const revalidator = useRevalidator();
  useActionToast(page.toast ? page : undefined);
  return (
    <AdminShell title={page.title}>
      <div role="alert" className="flex flex-col items-start gap-3 rounded-xl border border-destructive/40 bg-red-50 p-5">
        <div>
          <h2 className="font-semibold text-destructive">{page.heading}</h2>
          <p className="mt-1 text-sm text-slate-800">{detail}</p>
        </div>
        <Button variant="outline" onClick={() => void revalidator.revalidate()}>
          <RefreshCw aria-hidden="true" />
          Try Again
        </Button>
      </div>
    </AdminShell>
  );
}

/**
 * An admin route's ErrorBoundary (`export const ErrorBoundary = adminLoadErrorBoundary("clients")`): a
 * refusal (4xx) is named by its status, anything else gets the page's own sentence.
 */
export function adminLoadErrorBoundary(route: keyof typeof ADMIN_PAGE_LOADS) {
  const page: AdminPageLoad = ADMIN_PAGE_LOADS[route];
  return function AdminLoadErrorBoundary({ error }: { error: unknown }) {
    const detail = isRouteErrorResponse(error) && error.status < 500 ? `${error.status} ${error.statusText}` : page.fallback;
    return <PageLoadError page={page} detail={detail} />;
  };
}
