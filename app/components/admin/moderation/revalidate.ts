import type { ShouldRevalidateFunctionArgs } from "react-router";

/** After a decision (even a refused one) the list is read again, so an item decided elsewhere goes away. */
export function revalidateAfterPost({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;
}
