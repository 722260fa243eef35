import { useEffect, useRef } from "react";
import type { Binder } from "~/enhance/dom";

/**
 * Binds a vanilla enhancement (app/enhance) to a server-rendered widget when React renders it
 * in the browser, i.e. after a client-side navigation from a signed-in page. Public pages
 * loaded directly run no React: there the enhancement module binds the same markup.
 * See docs/decisions/0008-zero-js-public-pages.md.
 */
export function useEnhancement<T extends HTMLElement>(bind: Binder) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    return el ? bind(el) : undefined;
  }, [bind]);
  return ref;
}
