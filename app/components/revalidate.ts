import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * A route's `shouldRevalidate` that skips the reload after a post of `intent` (asking for a document
 * link changes nothing on the page, and a reload would read, and audit, the page again for nothing).
 */
export function revalidateExcept(intent: string) {
  return function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
    if (formData?.get("intent") === intent) return false;
    return defaultShouldRevalidate;
  };
}
