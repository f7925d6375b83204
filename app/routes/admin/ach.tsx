// Placeholder registered by the issue-21 foundation; replaced by its owner's work before merge.
import type { Route } from "./+types/ach";

export function loader(_args: Route.LoaderArgs): never {
  throw new Response("Not Found", { status: 404 });
}
