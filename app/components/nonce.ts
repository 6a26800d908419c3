import { createContext, useContext } from "react";

/**
 * The per-request Content-Security-Policy nonce (made in server.ts). Only the server render has it;
 * an inline <script> you add needs nonce={useNonce()}. In the browser it is "" (browsers hide it).
 */
export const NonceContext = createContext<string>("");

export function useNonce(): string {
  return useContext(NonceContext);
}
