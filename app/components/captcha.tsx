import type {} from "altcha/types/react";
import type { AltchaWidgetElement } from "altcha/types/generic";
import { useEffect, useImperativeHandle, useRef, useState, type CSSProperties, type Ref } from "react";
import { CAPTCHA_FIELD_NAME, type CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";

/**
 * The captcha inside a form. Whatever the provider, the token is posted as the form field `name`
 * (default "captcha"); the action reads it and calls verifyCaptcha().
 *
 * ALTCHA (default): the `altcha-widget` web component. Its script touches window/customElements, so
 * it is imported in an effect, in the browser only. It fetches a challenge from `challengeUrl` when the
 * form first gets focus (or on a click of its checkbox), solves it in Web Workers (blob: URLs, allowed
 * by `worker-src 'self' blob:`), ticks its checkbox and writes the payload into a hidden input named
 * `name`. Its checkbox is `required`, so the browser will not submit the form before it is solved.
 * It needs a secure context: HTTPS, or http://localhost in development.
 *
 * reCAPTCHA v2 (when configured): Google's checkbox, light theme; the token is mirrored into a hidden
 * input named `name` (Google also posts its own `g-recaptcha-response`).
 *
 * Changing `resetKey` remounts the widget: a new challenge (after a failed attempt, since every solved
 * challenge is single-use on the server), solved at once, since focus is already in the form.
 *
 * `handle.solve()` lets a submit wait for the token instead of refusing while the widget still works.
 */
export type CaptchaProps = {
  config: CaptchaBrowserConfig;
  name?: string;
  resetKey?: number;
  /** Called with true once solved, false when reset or expired (e.g. to enable a submit button). */
  onVerifiedChange?: (verified: boolean) => void;
  className?: string;
  handle?: Ref<CaptchaHandle>;
};

/** A solved check's token, or why there is none (the keys of CAPTCHA_MESSAGES). */
export type CaptchaSolution = { token: string } | { token: null; reason: "missing" | "invalid" };

export type CaptchaHandle = {
  /**
   * The token once the check is passed: at once when it already is, after the running proof of work, or
   * after starting one. 'missing' when only the user can pass it (reCAPTCHA's box); 'invalid' when the
   * proof of work failed.
   */
  solve: () => Promise<CaptchaSolution>;
};

const solution = (token: string | null | undefined, reason: "missing" | "invalid"): CaptchaSolution =>
  token ? { token } : { token: null, reason };

export function Captcha({ config, name = CAPTCHA_FIELD_NAME, resetKey = 0, onVerifiedChange, className, handle }: CaptchaProps) {
  return (
    <div className={className}>
      {config.provider === "altcha" ? (
        <AltchaWidget
          key={resetKey}
          challengeUrl={config.challengeUrl}
          name={name}
          onVerifiedChange={onVerifiedChange}
          handle={handle}
          solveNow={resetKey > 0}
        />
      ) : (
        <RecaptchaWidget key={resetKey} siteKey={config.siteKey} name={name} onVerifiedChange={onVerifiedChange} handle={handle} />
      )}
      <noscript>
        <p className="mt-1 text-sm text-red-700">Please enable JavaScript: this form needs it for its security check.</p>
      </noscript>
    </div>
  );
}

export default Captcha;

// ---------------------------------------------------------------------------------------------
// ALTCHA
// ---------------------------------------------------------------------------------------------

/**
 * Light theme with readable contrast whatever the page's color scheme: near-black label on white,
 * a checkbox border of 4.8:1 (WCAG non-text contrast needs 3:1), the site's navy for buttons.
 */
const ALTCHA_LIGHT_THEME = {
  colorScheme: "light",
  "--altcha-color-base": "#ffffff",
  "--altcha-color-base-content": "#111827",
  "--altcha-color-neutral": "#d1d5db",
  "--altcha-color-neutral-content": "#374151",
  "--altcha-color-primary": "#0f2a4f",
  "--altcha-color-primary-content": "#ffffff",
  "--altcha-color-error": "#b91c1c",
  "--altcha-color-error-content": "#ffffff",
  "--altcha-color-success": "#15803d",
  "--altcha-color-success-content": "#ffffff",
  "--altcha-checkbox-border-color": "#6b7280",
  "--altcha-border-radius": "0.5rem",
  "--altcha-max-width": "100%",
} as CSSProperties;

/** The widget's fixed attributes: checkbox look, solving on first focus; `configuration` holds the options it takes only as JSON. */
const ALTCHA_ATTRIBUTES = {
  auto: "onfocus",
  type: "checkbox",
  display: "standard",
  language: "en",
  configuration: JSON.stringify({ hideLogo: true, hideFooter: true }),
  style: ALTCHA_LIGHT_THEME,
} as const;

/** What both widgets take from <Captcha>. */
type WidgetProps = { name: string; onVerifiedChange?: (verified: boolean) => void; handle?: Ref<CaptchaHandle> };

/** The latest onVerifiedChange, for listeners registered once (a new callback must not re-render the widget). */
function useLatestCallback(onVerifiedChange: WidgetProps["onVerifiedChange"]) {
  const latest = useRef(onVerifiedChange);
  useEffect(() => {
    latest.current = onVerifiedChange;
  });
  return latest;
}

function LoadFailedAlert({ failed }: { failed: boolean }) {
  return failed ? (
    <p role="alert" className="mt-1 text-sm text-red-700">
      The security check could not load. Please reload the page.
    </p>
  ) : null;
}

type AltchaStateEvent = CustomEvent<{ state?: string; payload?: string | null }>;

/** Longest a submit waits for the proof of work (it takes about a second; a stuck one must not hang the form). */
const SOLVE_TIMEOUT_MS = 30_000;

/** How long a submit waits for the widget's script (which loads after the page) before giving up. */
const LOAD_TIMEOUT_MS = 10_000;

/** Waits until the element is an upgraded, mounted widget; null if its script never came. */
async function upgraded(element: HTMLElement): Promise<AltchaWidgetElement | null> {
  const defined = customElements.whenDefined("altcha-widget").then(() => true);
  const late = new Promise<false>((resolve) => setTimeout(() => resolve(false), LOAD_TIMEOUT_MS));
  if (!(await Promise.race([defined, late]))) return null;
  const widget = element as AltchaWidgetElement;
  for (let tries = 0; tries < 20 && typeof widget.getState !== "function"; tries++) await new Promise((r) => setTimeout(r, 50));
  return typeof widget.getState === "function" ? widget : null;
}

/** The payload of a solved widget: from a running or a new proof of work, or the one it holds. */
function solveAltcha(widget: AltchaWidgetElement, name: string): Promise<string | null> {
  return new Promise((resolve) => {
    const finish = (value: string | null) => {
      clearTimeout(timer);
      widget.removeEventListener("statechange", listener);
      resolve(value);
    };
    const listener = (event: Event) => {
      const { state, payload } = (event as AltchaStateEvent).detail ?? {};
      if (state === "verified") finish(payload ?? null);
      else if (state === "error" || state === "expired") finish(null);
    };
    const timer = setTimeout(() => finish(null), SOLVE_TIMEOUT_MS);
    widget.addEventListener("statechange", listener);
    const state = widget.getState();
    if (state === "verified") {
      const input = widget.querySelector<HTMLInputElement>(`input[name="${name}"]`);
      if (input?.value) return finish(input.value);
    }
    // A proof of work under way ends in a statechange; starting another would abort it.
    if (state !== "verifying") widget.verify().catch(() => finish(null));
  });
}

/**
 * Space (or a click) on a ticked box would reset the widget and throw its solution away: a passed
 * check stays passed until the server spends it.
 */
function keepVerified(event: Event) {
  const widget = event.currentTarget as AltchaWidgetElement;
  const target = event.target as HTMLElement | null;
  if (target instanceof HTMLInputElement && target.type === "checkbox" && widget.getState?.() === "verified") event.preventDefault();
}

/** Whether the focused element is in the widget's form (where 'onfocus' would have started it). */
function focusIsInFormOf(widget: HTMLElement): boolean {
  const form = widget.closest("form");
  return !!form && !!document.activeElement && form.contains(document.activeElement);
}

function AltchaWidget({ challengeUrl, name, onVerifiedChange, handle, solveNow }: WidgetProps & { challengeUrl: string; solveNow: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const [failedToLoad, setFailedToLoad] = useState(false);
  const onChange = useLatestCallback(onVerifiedChange);

  useImperativeHandle(
    handle,
    () => ({
      solve: async () => {
        const widget = ref.current && (await upgraded(ref.current));
        return solution(widget ? await solveAltcha(widget, name) : null, "invalid");
      },
    }),
    [name],
  );

  useEffect(() => {
    let cancelled = false;
    const element = ref.current;
    import("altcha")
      .then(async () => {
        // 'onfocus' listens from the upgrade on: focus that came first (a quick user, a slow network)
        // would otherwise leave the check unstarted until the submit.
        const widget = element && !solveNow && (await upgraded(element));
        if (cancelled || !widget || !focusIsInFormOf(widget) || widget.getState() !== "unverified") return;
        widget.verify().catch(() => undefined);
      })
      .catch((error: unknown) => {
        console.error("[captcha] could not load the ALTCHA widget:", error);
        if (!cancelled) setFailedToLoad(true);
      });
    const listener = (event: Event) => onChange.current?.((event as AltchaStateEvent).detail?.state === "verified");
    element?.addEventListener("statechange", listener);
    element?.addEventListener("click", keepVerified, { capture: true });
    return () => {
      cancelled = true;
      element?.removeEventListener("statechange", listener);
      element?.removeEventListener("click", keepVerified, { capture: true });
    };
  }, [onChange, solveNow]);

  return (
    // Reserves the widget's height so nothing moves when the script upgrades the element.
    <div className="min-h-12">
      <altcha-widget
        ref={ref}
        challenge={challengeUrl}
        name={name}
        {...ALTCHA_ATTRIBUTES}
        auto={solveNow ? "onload" : ALTCHA_ATTRIBUTES.auto}
        suppressHydrationWarning
      />
      <LoadFailedAlert failed={failedToLoad} />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// reCAPTCHA v2
// ---------------------------------------------------------------------------------------------

const RECAPTCHA_SCRIPT_URL = "https://www.google.com/recaptcha/api.js";
const RECAPTCHA_ONLOAD = "__privateLoansRecaptchaOnload";

type Grecaptcha = {
  render: (
    container: HTMLElement,
    parameters: {
      sitekey: string;
      theme?: "light" | "dark";
      callback?: (token: string) => void;
      "expired-callback"?: () => void;
      "error-callback"?: () => void;
    },
  ) => number;
};

let recaptchaLoading: Promise<Grecaptcha> | undefined;

/** Loads api.js once per page (explicit rendering, so remounted widgets can render again). */
function loadRecaptcha(): Promise<Grecaptcha> {
  recaptchaLoading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const w = window as unknown as Record<string, unknown> & { grecaptcha?: Grecaptcha };
    w[RECAPTCHA_ONLOAD] = () => (w.grecaptcha ? resolve(w.grecaptcha) : reject(new Error("grecaptcha missing")));
    const script = document.createElement("script");
    script.src = `${RECAPTCHA_SCRIPT_URL}?render=explicit&onload=${RECAPTCHA_ONLOAD}`;
    script.async = true;
    script.defer = true;
    script.onerror = () => {
      recaptchaLoading = undefined;
      script.remove();
      reject(new Error("could not load reCAPTCHA"));
    };
    document.head.appendChild(script);
  });
  return recaptchaLoading;
}

function RecaptchaWidget({ siteKey, name, onVerifiedChange, handle }: WidgetProps & { siteKey: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [token, setToken] = useState("");
  const [failedToLoad, setFailedToLoad] = useState(false);
  const onChange = useLatestCallback(onVerifiedChange);
  // Google's box is the user's to tick: there is nothing to wait for.
  useImperativeHandle(handle, () => ({ solve: () => Promise.resolve(solution(token, "missing")) }), [token]);

  useEffect(() => {
    let cancelled = false;
    const update = (value: string) => {
      if (cancelled) return;
      setToken(value);
      onChange.current?.(value !== "");
    };
    loadRecaptcha()
      .then((grecaptcha) => {
        if (cancelled || !ref.current) return;
        grecaptcha.render(ref.current, {
          sitekey: siteKey,
          theme: "light",
          callback: update,
          "expired-callback": () => update(""),
          "error-callback": () => update(""),
        });
      })
      .catch((error: unknown) => {
        console.error("[captcha] could not load reCAPTCHA:", error);
        if (!cancelled) setFailedToLoad(true);
      });
    return () => {
      cancelled = true;
    };
  }, [siteKey, onChange]);

  return (
    <div className="min-h-[78px]">
      <div ref={ref} className="g-recaptcha" data-sitekey={siteKey} data-theme="light" />
      <input type="hidden" name={name} value={token} />
      <LoadFailedAlert failed={failedToLoad} />
    </div>
  );
}
