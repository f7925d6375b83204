import { useEffect } from "react";
import { toast } from "~/components/toaster";

/** What the moderation and inbox actions answer: one toast to show (`at` makes each answer new). */
export type AdminActionData = { ok: boolean; title: string; description?: string; at: number };

/** Shows the toast of the latest action answer once. */
export function useActionToast(actionData: AdminActionData | undefined) {
  useEffect(() => {
    if (!actionData) return;
    const show = actionData.ok ? toast.success : toast.error;
    show(actionData.title, { description: actionData.description, id: `admin-action-${actionData.at}` });
  }, [actionData]);
}
