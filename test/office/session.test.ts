/**
 * The back office's cookie session over real HTTP (docs/OFFICE.md): the
 * cookie's flags, `/v1` from the office's own origin, a write from another
 * origin refused 403, mode switching, signing out here and everywhere, a
 * password change ending the other sessions, and the login lockout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import { cookieOf, officeClient, officeSignIn } from '../support/office.ts';

let server: RunningServer;
let merchant: Merchant;

beforeAll(async () => {
  server = await startTestServer({ SESSION_TTL_HOURS: '8' });
  merchant = await signUp(server.url);
});
afterAll(() => server?.close());

const attributes = (setCookie: string) =>
  setCookie
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Strict cookie that expires with the session, and no token in the page', async () => {
    const signedIn = await officeSignIn(server.url, merchant);
    const flags = attributes(signedIn.setCookie);
    expect(flags).toContain('httponly');
    expect(flags).toContain('samesite=strict');
    expect(flags).toContain('path=/');
    expect(flags).not.toContain('secure'); // plain HTTP: a Secure cookie would never come back
    const maxAge = Number(flags.find((flag) => flag.startsWith('max-age='))!.split('=')[1]);
    expect(maxAge).toBeGreaterThan(8 * 3600 - 60);
    expect(maxAge).toBeLessThanOrEqual(8 * 3600);
    expect(signedIn.body).toMatchObject({
      object: 'office_session',
      mode: 'test',
      livemode: false,
      merchant: { id: merchant.id, email: merchant.email },
    });
    const token = signedIn.cookie.split('=')[1]!;
    expect(JSON.stringify(signedIn.body)).not.toContain(token);
    expect(JSON.stringify(signedIn.body)).not.toMatch(/sess_|sk_(test|live)_/);
    const stored = await server.database.pool.query(
      `SELECT token_hash, browser FROM sessions WHERE merchant_id = $1 AND browser`,
      [merchant.id],
    );
    expect(JSON.stringify(stored.rows)).not.toContain(token);
  });

  it('marks the cookie Secure when the server is served over HTTPS', async () => {
    const https = await startTestServer({ PUBLIC_URL: 'https://office.duka.example' });
    try {
      const own = await signUp(https.url);
      const response = await client(https.url).post(
        '/office/session',
        { email: own.email, password: own.password },
        { Origin: 'https://office.duka.example' },
      );
      expect(response.status).toBe(201);
      expect(attributes(cookieOf(response.headers).setCookie)).toContain('secure');
    } finally {
      await https.close();
    }
  });

  it('refuses a wrong password with the login’s answer, and a sign-in from another origin with 403', async () => {
    const wrong = await client(server.url).post(
      '/office/session',
      { email: merchant.email, password: 'not the password' },
      { Origin: server.url },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'credentials_invalid' });
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const elsewhere = await client(server.url).post(
      '/office/session',
      { email: merchant.email, password: merchant.password },
      { Origin: 'https://evil.example' },
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toMatchObject({ error: 'permission_error', code: 'origin_not_allowed' });
    expect(elsewhere.headers.getSetCookie()).toEqual([]);
  });

  it('applies the login lockout: past the limit even the right password is refused 429', async () => {
    const locked = await startTestServer({ LOGIN_ATTEMPTS_PER_ADDRESS_EMAIL: '3' });
    try {
      const own = await signUp(locked.url);
      const attempt = (password: string) =>
        client(locked.url).post('/office/session', { email: own.email, password }, { Origin: locked.url });
      for (let i = 0; i < 3; i++) expect((await attempt(`guess ${i}`)).status).toBe(401);
      const blocked = await attempt(own.password);
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({ code: 'rate_limited' });
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      // The API's login counts the same guesses.
      const api = await client(locked.url).post('/v1/merchants/login', {
        email: own.email,
        password: own.password,
      });
      expect(api.status).toBe(429);
    } finally {
      await locked.close();
    }
  });
});

describe('the cookie on /v1', () => {
  it('reads as the signed-in merchant in the session’s mode, like a login token', async () => {
    const { cookie } = await officeSignIn(server.url, merchant);
    const office = officeClient(server.url, cookie);
    const overview = await office.get('/v1/overview');
    expect(overview.status).toBe(200);
    expect(overview.body.livemode).toBe(false);
    const session = await office.get('/office/session');
    expect(session.body).toMatchObject({ mode: 'test', merchant: { id: merchant.id } });
  });

  it('writes from the server’s own origin, and refuses a write from another origin with 403', async () => {
    const { cookie } = await officeSignIn(server.url, merchant);
    const own = await officeClient(server.url, cookie).post('/v1/customers', { name: 'Asha' });
    expect(own.status).toBe(201);
    expect(own.body.livemode).toBe(false);

    const before = await client(server.url, merchant.keys.secretTest).get('/v1/customers?limit=100');
    const forged = await officeClient(server.url, cookie, 'https://evil.example').post('/v1/customers', {
      name: 'Mallory',
    });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({
      error: 'permission_error',
      code: 'origin_not_allowed',
      message: expect.stringContaining('https://evil.example'),
    });
    const refererOnly = await officeClient(server.url, cookie, null).post(
      '/v1/customers',
      { name: 'M' },
      {
        Referer: 'https://evil.example/form',
      },
    );
    expect(refererOnly.status).toBe(403);
    const unnamed = await officeClient(server.url, cookie, null).post('/v1/customers', { name: 'M' });
    expect(unnamed.status).toBe(403);
    const ownReferer = await officeClient(server.url, cookie, null).post(
      '/v1/customers',
      { name: 'Baraka' },
      {
        Referer: `${server.url}/office/`,
      },
    );
    expect(ownReferer.status).toBe(201);
    const keys = await client(server.url, merchant.keys.secretTest).get('/v1/api-keys');
    const publishable = keys.body.data.find((key: any) => key.type === 'publishable' && key.mode === 'test');
    const revoked = await officeClient(server.url, cookie, 'null').delete(`/v1/api-keys/${publishable.id}`);
    expect(revoked.status).toBe(403);
    const still = await client(server.url, merchant.keys.secretTest).get('/v1/api-keys');
    expect(still.body.data.find((key: any) => key.id === publishable.id).status).toBe('active');
    const after = await client(server.url, merchant.keys.secretTest).get('/v1/customers?limit=100');
    expect(after.body.data.length).toBe(before.body.data.length + 1); // only Baraka
    // Reads carry no risk of a forged write: a GET from anywhere reads as usual.
    expect((await officeClient(server.url, cookie, 'https://evil.example').get('/v1/balance')).status).toBe(
      200,
    );
  });

  it('switches mode explicitly: a new cookie in the other mode, the old one ended', async () => {
    const { cookie } = await officeSignIn(server.url, merchant);
    const switched = await officeClient(server.url, cookie).post('/office/session/mode', { mode: 'live' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ mode: 'live', livemode: true });
    const live = cookieOf(switched.headers).cookie;
    expect(live).not.toBe(cookie);
    expect((await officeClient(server.url, live).get('/v1/overview')).body.livemode).toBe(true);
    expect((await officeClient(server.url, cookie).get('/v1/overview')).status).toBe(401);
    const forged = await officeClient(server.url, live, 'https://evil.example').post('/office/session/mode', {
      mode: 'test',
    });
    expect(forged.status).toBe(403);
  });
});

describe('signing out', () => {
  it('signs this browser out and clears its cookie', async () => {
    const { cookie } = await officeSignIn(server.url, merchant);
    const office = officeClient(server.url, cookie);
    expect((await office.get('/v1/balance')).status).toBe(200);
    const out = await office.delete('/office/session');
    expect(out.status).toBe(200);
    expect(attributes(cookieOf(out.headers).setCookie)).toContain('max-age=0');
    const after = await office.get('/v1/balance');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: 'authentication_error' });
    expect((await office.get('/office/session')).status).toBe(401);
  });

  it('signs every browser out everywhere at once; an API login token stays', async () => {
    const own = await signUp(server.url);
    const phone = (await officeSignIn(server.url, own)).cookie;
    const laptop = (await officeSignIn(server.url, own, 'live')).cookie;
    const token = (
      await client(server.url).post('/v1/merchants/login', { email: own.email, password: own.password })
    ).body.token as string;
    // Each read once, so the sessions are in the server's cache of resolved credentials.
    for (const cookie of [phone, laptop])
      expect((await officeClient(server.url, cookie).get('/v1/balance')).status).toBe(200);

    const everywhere = await officeClient(server.url, phone).delete('/office/sessions');
    expect(everywhere.status).toBe(200);
    expect(everywhere.body).toMatchObject({ sessions_ended: 2 });
    for (const cookie of [phone, laptop]) {
      expect((await officeClient(server.url, cookie).get('/v1/balance')).status).toBe(401);
      expect((await officeClient(server.url, cookie).post('/v1/customers', { name: 'X' })).status).toBe(401);
    }
    expect((await client(server.url, token).get('/v1/balance')).status).toBe(200);
  });
});

describe('changing the password', () => {
  it('needs the current password and signs out every other session, keeping this one', async () => {
    const own = await signUp(server.url);
    const here = (await officeSignIn(server.url, own)).cookie;
    const there = (await officeSignIn(server.url, own)).cookie;
    const token = (
      await client(server.url).post('/v1/merchants/login', { email: own.email, password: own.password })
    ).body.token as string;
    for (const check of [
      officeClient(server.url, here).get('/v1/balance'),
      officeClient(server.url, there).get('/v1/balance'),
      client(server.url, token).get('/v1/balance'),
    ])
      expect((await check).status).toBe(200);

    const wrong = await officeClient(server.url, here).post('/v1/merchants/password', {
      current_password: 'not it at all',
      new_password: 'a brand new passphrase',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      code: 'credentials_invalid',
      details: { current_password: 'is incorrect' },
    });
    expect((await officeClient(server.url, there).get('/v1/balance')).status).toBe(200);

    const changed = await officeClient(server.url, here).post('/v1/merchants/password', {
      current_password: own.password,
      new_password: 'a brand new passphrase',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ object: 'password_change', sessions_ended: 2 });
    expect((await officeClient(server.url, here).get('/v1/balance')).status).toBe(200);
    expect((await officeClient(server.url, there).get('/v1/balance')).status).toBe(401);
    expect((await client(server.url, token).get('/v1/balance')).status).toBe(401);
    // The API keys are not sessions: they go on working.
    expect((await client(server.url, own.keys.secretTest).get('/v1/balance')).status).toBe(200);
    const old = await client(server.url).post(
      '/office/session',
      { email: own.email, password: own.password },
      {
        Origin: server.url,
      },
    );
    expect(old.status).toBe(401);
    await officeSignIn(server.url, { email: own.email, password: 'a brand new passphrase' });
  });

  it('refuses a password change from another origin', async () => {
    const own = await signUp(server.url);
    const { cookie } = await officeSignIn(server.url, own);
    const forged = await officeClient(server.url, cookie, 'https://evil.example').post(
      '/v1/merchants/password',
      {
        current_password: own.password,
        new_password: 'attacker chosen pass',
      },
    );
    expect(forged.status).toBe(403);
    await officeSignIn(server.url, own);
  });
});
