// Placeholder registered by the issue-20 foundation; replaced by its owner's work before merge.
import type { Route } from "./+types/application-offer";

export function loader(_args: Route.LoaderArgs): never {
  throw new Response("Not Found", { status: 404 });
}
