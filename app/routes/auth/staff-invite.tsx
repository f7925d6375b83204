import { data } from "react-router";

/** Issue 22: placeholder until the invitation page lands (a helper fills it in). */
export async function loader() {
  throw data(null, { status: 404 });
}

export default function Placeholder() {
  return null;
}
