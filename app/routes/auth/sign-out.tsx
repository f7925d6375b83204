import { redirect } from "react-router";
import { signOut } from "~/server/accounts/index.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/sign-out";
import { anyone } from "~/server/accounts/index.server";
import { defineAction } from "~/server/platform/http/define-route.server";

export function loader() {
  // Signing out changes state: only the header's POST form does it.
  return redirect("/");
}

export const action = defineAction({
  guard: anyone,
  handle: async ({ request }: Route.ActionArgs) => {
    const headers = await signOut(request.headers);
    return redirectWithToast(
      "/",
      { type: "success", title: "Signed Out", description: "You have been successfully signed out" },
      { headers, request },
    );
  },
});
