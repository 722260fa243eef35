import { data } from "react-router";

/** The 404 page is a public page: no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

// Any path outside the route table: the root error boundary renders the 404 page.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
