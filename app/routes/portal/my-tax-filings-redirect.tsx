import { redirect } from "react-router";

// The mobile menu of the first build linked the plural; the route is singular
// (docs/product/workflow.md#what-the-client-sees).
export function loader() {
  return redirect("/my-tax-filing", 301);
}
