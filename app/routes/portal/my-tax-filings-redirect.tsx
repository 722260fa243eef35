import { redirect } from "react-router";

// The mobile menu of the first build linked the plural; the route is singular (decisions.md).
export function loader() {
  return redirect("/my-tax-filing", 301);
}
