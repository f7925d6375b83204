import { expect } from "vitest";
import type { Page } from "playwright-core";

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Runs `action` and waits for a toast titled `title` that was not on screen before it (sonner keeps
 * older toasts in the DOM for a while; they are marked first so a repeat title is not mistaken for new).
 * With `description`, the toast's description is that text (or matches that pattern).
 */
export async function expectToast(page: Page, title: string, action: () => Promise<unknown>, description?: string | RegExp) {
  await page.evaluate(() => document.querySelectorAll("[data-sonner-toast]").forEach((t) => t.setAttribute("data-test-seen", "")));
  await action();
  const toast = page
    .locator("[data-sonner-toast]:not([data-test-seen])")
    .filter({ has: page.locator("[data-title]", { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
    .first();
  try {
    await toast.waitFor({ state: "visible" });
  } catch (error) {
    const seen = await page.locator("[data-sonner-toast]").allTextContents();
    throw new Error(`Expected toast '${title}'; toasts on the page: ${JSON.stringify(seen)}`, { cause: error });
  }
  if (description !== undefined) {
    const text = (await toast.locator("[data-description]").textContent()) ?? "";
    if (typeof description === "string") expect(text).toBe(description);
    else expect(text).toMatch(description);
  }
}
