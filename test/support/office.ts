/** The back office's cookie session over real HTTP, as a browser on the server's own pages holds it. */
import type { Page } from 'playwright-core';
import { client, type Merchant } from './server.ts';

export interface OfficeCookie {
  /** `office_session=…`, as a browser sends it back. */
  cookie: string;
  /** The whole Set-Cookie line the server answered with. */
  setCookie: string;
}

/** The cookie a Set-Cookie header sets, as a browser would send it back. */
export function cookieOf(headers: Headers): OfficeCookie {
  const setCookie = headers.getSetCookie().find((line) => line.startsWith('office_session='));
  if (!setCookie) throw new Error(`no office_session cookie in ${JSON.stringify(headers.getSetCookie())}`);
  return { cookie: setCookie.split(';')[0]!, setCookie };
}

/** Signs in at /office/session from the server's own origin; the answer's cookie. */
export async function officeSignIn(
  baseUrl: string,
  merchant: Pick<Merchant, 'email' | 'password'>,
  mode: 'test' | 'live' = 'test',
): Promise<OfficeCookie & { body: any }> {
  const response = await client(baseUrl).post(
    '/office/session',
    { email: merchant.email, password: merchant.password, mode },
    { Origin: baseUrl },
  );
  if (response.status !== 201)
    throw new Error(`office sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { ...cookieOf(response.headers), body: response.body };
}

/** A client carrying the cookie, its writes sent with `origin` (the server's own unless given). */
export function officeClient(baseUrl: string, cookie: string, origin: string | null = baseUrl) {
  const api = client(baseUrl);
  const headers = (extra: Record<string, string> = {}) => ({
    Cookie: cookie,
    ...(origin === null ? {} : { Origin: origin }),
    ...extra,
  });
  return {
    get: (path: string, extra?: Record<string, string>) => api.get(path, headers(extra)),
    post: (path: string, body?: unknown, extra?: Record<string, string>) =>
      api.post(path, body, headers(extra)),
    delete: (path: string, extra?: Record<string, string>) => api.delete(path, headers(extra)),
  };
}

/** Signs in on the office's sign-in page as a person does: email, password, Enter. */
export async function signInInBrowser(
  page: Page,
  baseUrl: string,
  merchant: Pick<Merchant, 'email' | 'password'>,
): Promise<void> {
  await page.goto(`${baseUrl}/office/`);
  await page.fill('[data-testid=email]', merchant.email);
  await page.fill('[data-testid=password]', merchant.password);
  await page.keyboard.press('Enter');
  await page.waitForSelector('nav[aria-label] a[aria-current=page]', { timeout: 30_000 });
}
