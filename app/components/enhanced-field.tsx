import { useHydrated } from "~/components/hooks";
import { ENHANCED_FIELD } from "~/domain/requests";

/**
 * A hidden field present only once the page's script runs: the route then answers the post in
 * place (a fetcher's data) instead of sending the browser back to the page. A form posted
 * without JavaScript never carries it.
 */
export function EnhancedField() {
  return useHydrated() ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}
