import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of the current server response ("" in the browser). */
export function useNonce(): string {
  return useContext(NonceContext);
}
