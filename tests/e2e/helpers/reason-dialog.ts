import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { axeViolations } from "../harness";
import { expectToast } from "./toasts";

/** A dialog that asks staff for a reason before an action. */
export type ReasonDialog = {
  /** The dialog's title; its button is "Confirm <title>". */
  title: string;
  /** What the dialog says when Confirm is pressed with no reason. */
  required: string;
  /** The toast's title once the action is done. */
  toast: string;
};

export const REASON_DIALOGS = {
  withdrawOffer: { title: "Withdraw Offer", required: "Give the reason for withdrawing the offer (the applicant reads it)", toast: "Offer withdrawn" },
  reversePayment: { title: "Reverse Payment", required: "Give the reason for the reversal (for example Returned / NSF)", toast: "Payment reversed" },
} as const satisfies Record<string, ReasonDialog>;

/**
 * A staff action that needs a reason: `opener` opens the dialog, which is axe-clean; Confirm without
 * a reason is refused with the dialog's message; with `reason` it ends in the dialog's toast and the
 * dialog closes.
 */
export async function confirmWithReason(page: Page, opener: Locator, { title, required, toast }: ReasonDialog, reason: string): Promise<void> {
  await opener.click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  expect(await axeViolations(page)).toEqual([]);
  const confirm = dialog.getByRole("button", { name: `Confirm ${title}` });
  await confirm.click();
  await dialog.getByText(required).waitFor();
  await dialog.getByLabel(/^Reason/).fill(reason);
  await expectToast(page, toast, () => confirm.click());
  await dialog.waitFor({ state: "detached" });
}
