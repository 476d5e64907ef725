/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the server is when the page is not served by it (the desktop app). */
  readonly VITE_TILL_SERVER_URL?: string;
  readonly VITE_TILL_VERSION?: string;
}
