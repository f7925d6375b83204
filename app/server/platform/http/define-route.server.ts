import { noStoreJson, readActionInput, type ActionForm, type ServiceAnswer } from "./action-answer.server";
import { assertSameOrigin } from "./origin.server";

/**
 * Routes are declarations: what guards them, and the one server function that answers. The helper
 * does the steps every route did by hand, always in the same order: the same-origin check (actions
 * only), then the guard, then the handler. The guard is a function of the request (see
 * `auth/guards.server.ts`: `signedIn`, `staffWith(permission)`, `anyone`); it throws the redirect or
 * the 403 the session rules decide, so a route never spells them out. With `form`, the helper also
 * reads the posted form (the body limits of `readActionForm`) and parses it with the action's schema
 * before the handler, which receives the parsed input; a form that is too large, unreadable or
 * refused by the schema is answered with the action's own refusal (`ActionForm.refuse`), sent as the
 * route sends its answers (`send`).
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

/** An action's form as `defineAction` reads it, and how the route sends a refusal (`respond`, `jsonAnswer`). */
export type RouteForm<Input, Body, Sent> = ActionForm<Input, Body> & { send: (answer: ServiceAnswer<Body>) => Sent };

export type FormActionSpec<Who, Args extends RouteArgs, Input, Body, Sent, Answer> = {
  guard: Guard<Who>;
  form: RouteForm<Input, Body, Sent>;
  handle: (args: Args, who: Who, input: Input) => Promise<Answer> | Answer;
};

/**
 * An action: same origin, then the guard, then the handler (with `methods`: 405 for any other method
 * first; with `form`: the form read and parsed between the guard and the handler).
 */
export function defineAction<Who, Args extends RouteArgs, Input, Body, Sent, Answer>(spec: FormActionSpec<Who, Args, Input, Body, Sent, Answer>): (args: Args) => Promise<Answer | Sent>;
export function defineAction<Who, Args extends RouteArgs, Answer>(spec: StrictActionSpec<Who, Args, Answer>): (args: Args) => Promise<Answer | Response>;
export function defineAction<Who, Args extends RouteArgs, Answer>(spec: ActionSpec<Who, Args, Answer>): (args: Args) => Promise<Answer>;
export function defineAction<Who, Args extends RouteArgs, Answer>(
  spec: (ActionSpec<Who, Args, Answer> & Partial<StrictActionSpec<Who, Args, Answer>>) | FormActionSpec<Who, Args, unknown, unknown, unknown, Answer>,
): (args: Args) => Promise<unknown> {
  return async (args) => {
    if ("methods" in spec && spec.methods && !spec.methods.includes(args.request.method)) return methodNotAllowed(spec.methods, spec.notAllowedBody);
    assertSameOrigin(args.request);
    const who = await spec.guard(args.request);
    if (!("form" in spec)) return spec.handle(args, who);
    const read = await readActionInput(args.request, spec.form);
    return read.ok ? spec.handle(args, who, read.input) : spec.form.send(read.answer);
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
