import type { AppLoadContext } from "react-router";
import type { Caller, RequestInfo } from "~/server/platform/audit/audit.server";

/**
 * Who is on the other end of this request, as the audit log records it: the client IP the Node
 * entry resolved (the trusted proxy's header when TRUST_PROXY is on) and the User-Agent header.
 * Every loader and action that audits or throttles builds it here, the same way.
 */
export function requestInfo(request: Request, context: Pick<AppLoadContext, "clientIp">): RequestInfo {
  return { ip: context.clientIp, userAgent: request.headers.get("user-agent") };
}

/** The service's caller for this request: who (as the route's guard resolved them) and from where. */
export function callerOf<A>(actor: A, request: Request, context: Pick<AppLoadContext, "clientIp">): Caller<A> {
  return { actor, request: requestInfo(request, context) };
}
