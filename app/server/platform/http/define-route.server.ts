import { noStoreJson } from "./action-answer.server";
import { assertSameOrigin } from "./origin.server";

/**
 * Routes are declarations: what guards them, and the one server function that answers. The helper
 * does the steps every route did by hand, always in the same order: the same-origin check (actions
 * only), then the guard, then the handler. The guard is a function of the request (see
 * `auth/guards.server.ts`: `signedIn`, `staffWith(permission)`, `anyone`); it throws the redirect or
 * the 403 the session rules decide, so a route never spells them out.
 */

type RouteArgs = { request: Request };

/** Who a guard let in: the signed-in user, a staff member, or `null` on an open route. */
export type Guard<Who> = (request: Request) => Promise<Who>;

/** The route's work once the guard let `who` in: its arguments as React Router passes them. */
export type Handler<Who, Args extends RouteArgs, Answer> = (args: Args, who: Who) => Promise<Answer> | Answer;

export type ActionSpec<Who, Args extends RouteArgs, Answer> = { guard: Guard<Who>; handle: Handler<Who, Args, Answer> };

export type StrictActionSpec<Who, Args extends RouteArgs, Answer> = ActionSpec<Who, Args, Answer> & {
  /** Methods other than these are answered 405 with Allow (the reveal API accepts POST alone). */
  methods: readonly string[];
  /** The 405's body, in the API's own shape. */
  notAllowedBody?: unknown;
};

const NOT_ALLOWED = { ok: false, message: "Method Not Allowed" } as const;

/** An action: same origin, then the guard, then the handler (with `methods`: 405 for any other method first). */
export function defineAction<Who, Args extends RouteArgs, Answer>(spec: StrictActionSpec<Who, Args, Answer>): (args: Args) => Promise<Answer | Response>;
export function defineAction<Who, Args extends RouteArgs, Answer>(spec: ActionSpec<Who, Args, Answer>): (args: Args) => Promise<Answer>;
export function defineAction<Who, Args extends RouteArgs, Answer>(spec: ActionSpec<Who, Args, Answer> & Partial<StrictActionSpec<Who, Args, Answer>>): (args: Args) => Promise<Answer | Response> {
  return async (args) => {
    if (spec.methods && !spec.methods.includes(args.request.method)) return methodNotAllowed(spec.methods, spec.notAllowedBody);
    assertSameOrigin(args.request);
    return spec.handle(args, await spec.guard(args.request));
  };
}

/** A loader behind a guard (pages and downloads: no origin check, a GET carries no side effect). */
export function defineLoader<Who, Args extends RouteArgs, Answer>(spec: { guard: Guard<Who>; handle: Handler<Who, Args, Answer> }): (args: Args) => Promise<Answer> {
  return async (args) => spec.handle(args, await spec.guard(args.request));
}

/** The 405 of a method the route does not serve: never cached, with Allow naming the ones it does. */
export function methodNotAllowed(allowed: readonly string[], body: unknown = NOT_ALLOWED): Response {
  return noStoreJson(body, 405, { Allow: allowed.join(", ") });
}

/** The loader of a route that only answers posts: a GET (or HEAD) is a 405 naming POST. */
export function postOnly(): Response {
  return methodNotAllowed(["POST"]);
}
