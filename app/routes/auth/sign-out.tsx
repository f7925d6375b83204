import { redirect } from "react-router";
import { signOut } from "~/server/accounts/flows.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/sign-out";

export function loader() {
  // Signing out changes state: only the header's POST form does it.
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const headers = await signOut(request.headers);
  return redirectWithToast(
    "/",
    { type: "success", title: "Signed Out", description: "You have been successfully signed out" },
    { headers, request },
  );
}
