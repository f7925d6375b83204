import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { signInOverHttp } from "../helpers/admins";
import { signUpOverHttp, toBrowserCookies } from "../helpers/applicants";
import { submitApplication } from "../helpers/applications";
import { axeViolations, gotoHydrated, testSecrets } from "./harness";
import { mark, waitForMail } from "./helpers/mailbox";
import { openWatchedPage } from "./helpers/pages";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Download My Data and Close My Account in a real browser against the built server (issue 23): the
 * request, the background job (polling every 300 ms here), the e-mailed link, the download (unzipped
 * and checked: every entry, a saved draft's fields too, the SSN and bank numbers masked), another
 * person refused; then Close My Account: refused while an application is pending (the page names it
 * and links to it), Withdraw Application through its dialog, then closing through its dialog: signed
 * out, and signing in again refused. The pages are axe-clean.
 */

const PASSWORD = "Str0ng!Passw0rd";
const stack = e2eStackForFile({ firstIp: 140, env: { ...testSecrets(), TRUST_PROXY: "true", DATA_EXPORT_POLL_MS: "300" } });

const cookiePair = (raw: string, url: string) => {
  const [pair] = toBrowserCookies(raw, url);
  if (!pair?.value) throw new Error("no session cookie");
  return { name: pair.name, value: pair.value, url };
};

describe("Your Data on /account", () => {
  it("Download My Data: requested in the browser, prepared in the background, linked by e-mail, downloaded by its owner only", async () => {
    const { server, sink, browser } = stack;
    const email = "dana.data@example.com";
    const raw = await signUpOverHttp(server.url, sink, email, stack.nextIp(), "Dana Data", PASSWORD);
    const applicationId = await submitApplication(server.url, raw.split(";")[0]!, { ip: stack.nextIp() });
    const strangerRaw = await signUpOverHttp(server.url, sink, "sam.stranger@example.com", stack.nextIp(), "Sam Stranger", PASSWORD);
    // A Business Loan application saved to finish later, with its own numbers (kept encrypted).
    const draftSecrets = ["234-56-7891", "234567891", "4455667788", "011000015"];
    const save = new FormData();
    const draftFields = { intent: "save", step: "5", loanType: "business", firstName: "Dana", businessName: "Data Draft LLC", ssn: "234-56-7891", accountNumber: "4455667788", routingNumber: "011000015" };
    for (const [k, v] of Object.entries(draftFields)) save.append(k, v);
    expect((await fetch(`${server.url}/api/drafts`, { method: "POST", body: save, headers: { cookie: raw.split(";")[0]!, origin: server.url } })).status).toBe(200);

    const { context, page, errors } = await openWatchedPage(browser, { cookies: [cookiePair(raw, server.url)] });
    await gotoHydrated(page, `${server.url}/account`);
    await page.getByRole("heading", { name: "Download My Data" }).waitFor();
    await page.getByRole("heading", { name: "Close My Account" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const before = mark(sink);
    await page.getByRole("button", { name: "Download My Data" }).click();
    await page.getByText("We are preparing your file; we will e-mail you a link.").first().waitFor();
    const mail = await waitForMail(sink, { to: email, subject: /data file is ready/, after: before, timeoutMs: 30_000 });
    const link = /\/account\/data\/download\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    for (const secret of ["123-45-6789", "123456789", "000123456789", "021000021"]) expect(mail.text).not.toContain(secret);

    // The page now says the file is ready and until when.
    await gotoHydrated(page, `${server.url}/account`);
    await page.getByText(/Your file is ready: use the link we e-mailed you\. The link is valid until/).waitFor();

    // The download, with the browser's own cookies.
    const response = await context.request.get(`${server.url}${link}`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/zip");
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="private-loans-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers()["cache-control"]).toContain("no-store");
    const zip = unzipSync(new Uint8Array(await response.body()));
    const names = Object.keys(zip);
    for (const name of ["README.txt", "profile.json", "applications.json", "messages.json", "consents.json", "payments.json"]) expect(names).toContain(name);
    expect(names.filter((n) => n.startsWith(`documents/${applicationId}/`)).length).toBeGreaterThan(0);
    const applications = JSON.parse(strFromU8(zip["applications.json"]!)) as { id: string; ssn: string; bankAccounts: { accountNumber: string; routingNumber: string }[] }[];
    expect(applications.map((a) => a.id)).toEqual([applicationId]);
    expect(applications[0]!.ssn).toBe("***-**-6789");
    expect(applications[0]!.bankAccounts[0]).toMatchObject({ accountNumber: "****6789", routingNumber: "*****0021" });
    const drafts = JSON.parse(strFromU8(zip["drafts.json"]!)) as { loanType: string; stepReached: number; fields: Record<string, string>; ssn: string; bankAccount: unknown }[];
    expect(drafts).toEqual([
      expect.objectContaining({
        loanType: "business",
        stepReached: 5,
        fields: { loanType: "business", firstName: "Dana", businessName: "Data Draft LLC" },
        ssn: "***-**-7891",
        bankAccount: { accountNumber: "****7788", routingNumber: "*****0015" },
      }),
    ]);
    for (const name of names.filter((n) => !n.startsWith("documents/"))) {
      for (const secret of ["123-45-6789", "123456789", "000123456789", "021000021", ...draftSecrets]) expect(strFromU8(zip[name]!)).not.toContain(secret);
    }

    // Another signed-in person: 404. Signed out: to sign in.
    const strangerCookie = cookiePair(strangerRaw, server.url);
    const other = await fetch(`${server.url}${link}`, { headers: { cookie: `${strangerCookie.name}=${strangerCookie.value}` }, redirect: "manual" });
    expect(other.status).toBe(404);
    const anonymous = await fetch(`${server.url}${link}`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Close My Account: refused while an application is under consideration (Withdraw Application first), then explains what goes and what stays, asks for the password, signs out everywhere; signing in is refused after", async () => {
    const { server, sink, browser } = stack;
    const email = "casey.close@example.com";
    const raw = await signUpOverHttp(server.url, sink, email, stack.nextIp(), "Casey Close", PASSWORD);
    const applicationId = await submitApplication(server.url, raw.split(";")[0]!, { ip: stack.nextIp() });
    // A second session elsewhere: it ends too.
    const elsewhere = await signInOverHttp(server.url, email, PASSWORD, stack.nextIp());

    const { context, page, errors } = await openWatchedPage(browser, { cookies: [cookiePair(raw, server.url)] });
    await gotoHydrated(page, `${server.url}/account`);
    let section = page.getByTestId("close-my-account");
    // The pending application blocks closing: the page names it, says to withdraw it, and links to it.
    const blocked = section.getByTestId("close-account-blocked");
    expect(await blocked.textContent()).toContain(
      `Your account cannot be closed while your Personal Loan application ${applicationId.slice(0, 8)} is pending. Withdraw it first: open the application and choose Withdraw Application.`,
    );
    expect(await section.getByRole("button", { name: "Close My Account" }).isDisabled()).toBe(true);
    // The server refuses it too (the disabled button is only the page's courtesy).
    const refused = await fetch(`${server.url}/account/data`, {
      method: "POST",
      body: new URLSearchParams({ intent: "close-account", password: PASSWORD, confirmation: "CLOSE" }),
      headers: { cookie: raw.split(";")[0]!, origin: server.url },
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { toast: { description: string } }).toast.description).toContain("Withdraw it first");

    // Withdraw Application on the application's page: Escape keeps it (focus back on the button), then confirmed.
    await blocked.getByRole("link", { name: `Open application ${applicationId.slice(0, 8)}` }).click();
    await page.waitForURL(new RegExp(`/dashboard/applications/${applicationId}$`));
    await page.getByRole("heading", { name: `Application ${applicationId.slice(0, 8)}` }).waitFor();
    const withdraw = page.getByRole("button", { name: "Withdraw Application" });
    await withdraw.click();
    const dialog = page.getByRole("dialog", { name: "Withdraw this application?" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("withdraw-application-button");
    const beforeWithdrawal = mark(sink);
    await withdraw.click();
    await dialog.getByRole("button", { name: "Withdraw Application" }).click();
    await page.getByText("We have recorded that you withdrew it and e-mailed you a confirmation.").first().waitFor();
    const notice = page.getByTestId("application-withdrawn");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("You withdrew this application on");
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "application-withdrawn");
    expect(await page.locator("[data-status]").first().getAttribute("data-status")).toBe("withdrawn");
    await page.getByText("Withdrawn by the Applicant").first().waitFor();
    expect(await page.getByRole("button", { name: "Withdraw Application" }).count()).toBe(0);
    const confirmation = await waitForMail(sink, { to: email, subject: /You withdrew your .* application/, after: beforeWithdrawal });
    expect(confirmation.text).toContain("Application withdrawn by the applicant");

    await gotoHydrated(page, `${server.url}/account`);
    section = page.getByTestId("close-my-account");
    expect(await section.getByTestId("close-account-blocked").count()).toBe(0);
    expect(await section.textContent()).toContain("7 years after the decision or the loan's end");
    expect(await section.textContent()).toMatch(/application, its documents and bank account: kept until \w+ \d{1,2}, \d{4}/);

    const before = mark(sink);
    await section.getByRole("button", { name: "Close My Account" }).click();
    const closeDialog = page.getByRole("dialog", { name: "Close My Account" });
    await closeDialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // A wrong password is refused on its field; nothing is closed.
    await closeDialog.getByLabel("Password").fill("wrong-password");
    await closeDialog.getByLabel("Type CLOSE to confirm").fill("CLOSE");
    await closeDialog.getByRole("button", { name: "Close My Account" }).click();
    await closeDialog.getByText("The password is not correct.").waitFor();

    await closeDialog.getByLabel("Password").fill(PASSWORD);
    await closeDialog.getByRole("button", { name: "Close My Account" }).click();
    await page.waitForURL(/\/auth/);
    await waitForMail(sink, { to: email, subject: /account is closed/, after: before });

    // Signed out here and elsewhere; signing in again is refused.
    await gotoHydrated(page, `${server.url}/account`);
    expect(new URL(page.url()).pathname).toBe("/auth");
    const other = await fetch(`${server.url}/account`, { headers: { cookie: elsewhere.split(";")[0]! }, redirect: "manual" });
    expect(other.status).toBe(302);
    await expect(signInOverHttp(server.url, email, PASSWORD, stack.nextIp())).rejects.toThrow(/sign-in failed/);
    expect(errors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });
});
