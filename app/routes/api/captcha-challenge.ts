import { captchaProvider, createCaptchaChallenge } from "~/server/platform/security/captcha.server";

/**
 * GET /api/captcha/challenge: a fresh signed ALTCHA challenge for the widget (JSON). Every request
 * gets a new one, so nothing may cache it. Only in ALTCHA mode; with reCAPTCHA configured it is a 404.
 * Resource route: no default export, no action (other methods get 405 from React Router).
 */
export async function loader() {
  if (captchaProvider() !== "altcha") {
    return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  const challenge = await createCaptchaChallenge();
  return Response.json(challenge, {
    headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}
