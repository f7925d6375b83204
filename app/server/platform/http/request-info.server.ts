import type { AppLoadContext } from "react-router";
import type { RequestInfo } from "~/server/platform/audit/audit.server";

/**
 * Who is on the other end of this request, as the audit log records it: the client IP the Node
 * entry resolved (the trusted proxy's header when TRUST_PROXY is on) and the User-Agent header.
 * Every loader and action that audits or throttles builds it here, the same way.
 */
export function requestInfo(request: Request, context: Pick<AppLoadContext, "clientIp">): RequestInfo {
  return { ip: context.clientIp, userAgent: request.headers.get("user-agent") };
}
