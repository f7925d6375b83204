/** What the Node entry hands to every loader and action (see server/app.ts). */
export type LoadContext = {
  /** Per-request nonce for the enforced Content-Security-Policy. */
  cspNonce: string;
  /** Client IP as seen by us (the trusted proxy's header when TRUST_PROXY is on). */
  clientIp: string;
  /** True when the request reached us over HTTPS (directly or via a trusted proxy). */
  secure: boolean;
  /**
   * Filled in while the request runs, read by the Node entry afterwards: entry.server's handleError
   * marks a request whose loader or action failed because the database is unreachable, so the answer
   * becomes a 503 rather than a 500.
   */
  outcome?: { databaseUnavailable: boolean };
};

declare module "react-router" {
  interface AppLoadContext extends LoadContext {}
}
