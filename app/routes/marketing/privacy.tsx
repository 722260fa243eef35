import type { Route } from "./+types/privacy";
import { PolicyPage } from "~/components/marketing/policy-page";
import { privacyPolicy, termsOfService } from "~/content/policies";
import { seo } from "~/seo";

/** A public page: server-rendered, no React in the browser (docs/decisions/0008). */
export const handle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  seo(args, { title: privacyPolicy.title, description: privacyPolicy.seoDescription });

export default function PrivacyPage() {
  return <PolicyPage policy={privacyPolicy} otherPolicy={termsOfService} />;
}
