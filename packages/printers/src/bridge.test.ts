import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, MAX_BRIDGE_BODY_BYTES, type Bridge } from './bridge.ts';
import { makeReceipt, makeZReport } from '../test/fixtures.ts';
import { closedPort } from '../test/network.ts';
import { printerAllowanceFrom, type PrinterTarget } from './till.ts';
import { startVirtualPrinter, type VirtualPrinter } from './virtual-printer.ts';

const TILL_ORIGIN = 'http://127.0.0.1:4000';
const FAST = { connectMs: 500, statusMs: 300, writeMs: 2_000 };
/** A developer's till settings: virtual printers on this machine, at any unprivileged port. */
const THIS_MACHINE = printerAllowanceFrom({ loopback: 'true', ports: '1024-65535' });

describe('printer bridge over HTTP', () => {
  let bridge: Bridge;
  let printer: VirtualPrinter;
  let target: PrinterTarget;

  beforeEach(async () => {
    printer = await startVirtualPrinter({ columns: 48 });
    target = { connection: printer.connection, paperWidth: 80, commandSet: 'epson' };
    bridge = await startBridge({
      port: 0,
      origins: [TILL_ORIGIN],
      tuning: { ...FAST, allowance: THIS_MACHINE },
    });
  });
  afterEach(async () => {
    await bridge.close();
    await printer.close();
  });

  function call(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${bridge.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${bridge.token}`,
        Origin: TILL_ORIGIN,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  it('prints a receipt that the printer decodes, kicks the drawer after the cut, and answers ok', async () => {
    const response = await call('/print-receipt', {
      printer: target,
      receipt: makeReceipt(),
      options: { openDrawer: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(TILL_ORIGIN);
    expect(await response.json()).toEqual({ ok: true, paperNearEnd: false });
    const [job] = await printer.waitForJobs(1);
    expect(job!.text).toContain('D u k a   l a   M a m a   A s h a');
    expect(job!.text).toContain('Café Touba (Sénégal) 250g');
    const kinds = job!.items.map((item) => item.kind);
    expect(kinds.indexOf('drawer')).toBeGreaterThan(kinds.indexOf('cut'));
  });

  it('prints a Z report sent where a receipt goes, laid out by its kind', async () => {
    const response = await call('/print-receipt', { printer: target, receipt: makeZReport('sw') });
    expect(await response.json()).toEqual({ ok: true, paperNearEnd: false });
    const [job] = await printer.waitForJobs(1);
    expect(job!.text).toContain('R I P O T I   Y A   Z');
    expect(job!.text).toMatch(/Mauzo \(42\) +1,234,500/);
    const bad = await call('/print-receipt', {
      printer: target,
      receipt: { ...makeZReport('sw'), title: 5 },
    });
    expect(bad.status).toBe(400);
  });

  it('opens the drawer without printing', async () => {
    const response = await call('/open-drawer', { printer: target });
    expect(await response.json()).toEqual({ ok: true, paperNearEnd: false });
    const [job] = await printer.waitForJobs(1);
    expect(job!.items).toEqual([{ kind: 'drawer', pin: 2, onMs: 50 }]);
  });

  it('prints text and reports the printer state', async () => {
    expect(
      await (await call('/print-text', { printer: target, text: 'Ripoti ya siku' })).json(),
    ).toMatchObject({ ok: true });
    expect((await printer.waitForJobs(1))[0]!.text).toContain('Ripoti ya siku');
    printer.set({ paperNearEnd: true });
    expect(await (await call('/status', { printer: target })).json()).toEqual({
      online: true,
      coverOpen: false,
      paperOut: false,
      paperNearEnd: true,
      detail: 'Ready; the paper roll is nearly finished.',
    });
  });

  it('sends one job at a time to a printer, in the order asked', async () => {
    printer.set({ printDelayMs: 500 });
    const started = performance.now();
    const [receipt, drawer] = await Promise.all([
      call('/print-receipt', { printer: target, receipt: makeReceipt() }),
      call('/open-drawer', { printer: target }),
    ]);
    expect(await receipt.json()).toMatchObject({ ok: true });
    expect(await drawer.json()).toMatchObject({ ok: true });
    // Each waits for its acknowledgement before the next connects: two print delays, not one.
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    const jobs = await printer.waitForJobs(2);
    expect(jobs[0]!.items.some((item) => item.kind === 'qr')).toBe(true);
    expect(jobs[1]!.items).toEqual([{ kind: 'drawer', pin: 2, onMs: 50 }]);
  });

  it('answers offline, having sent nothing, when the printer cannot be reached', async () => {
    const offline = { ...target, connection: `tcp://127.0.0.1:${await closedPort()}` };
    const outcome = await (await call('/print-receipt', { printer: offline, receipt: makeReceipt() })).json();
    expect(outcome).toMatchObject({ ok: false, reason: 'offline', mayHaveReachedPrinter: false });
    expect(outcome.message).toMatch(/ECONNREFUSED/);
  });

  it('answers offline when the printer takes the connection but never answers', async () => {
    printer.set({ offline: true });
    const outcome = await (await call('/print-receipt', { printer: target, receipt: makeReceipt() })).json();
    expect(outcome).toMatchObject({ ok: false, reason: 'offline', mayHaveReachedPrinter: false });
  });

  it('answers paper_out and prints nothing when the roll is empty', async () => {
    printer.set({ paperOut: true });
    const outcome = await (await call('/print-receipt', { printer: target, receipt: makeReceipt() })).json();
    expect(outcome).toEqual({
      ok: false,
      reason: 'paper_out',
      message: 'Out of paper.',
      mayHaveReachedPrinter: false,
    });
    expect(printer.jobs).toHaveLength(0);
  });

  it('refuses a wrong or missing token with 401 and prints nothing', async () => {
    const wrong = await call(
      '/print-receipt',
      { printer: target, receipt: makeReceipt() },
      { Authorization: 'Bearer guess' },
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'authentication_error', code: 'credentials_invalid' });
    const missing = await fetch(`${bridge.url}/health`, { headers: { Origin: TILL_ORIGIN } });
    expect(missing.status).toBe(401);
    // Proving nothing reaches the printer needs a moment for a job that wrongly got through.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(printer.jobs).toHaveLength(0);
  });

  it('refuses pages from another origin, preflight included, without CORS headers', async () => {
    const preflight = await fetch(`${bridge.url}/print-receipt`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const response = await call(
      '/print-receipt',
      { printer: target, receipt: makeReceipt() },
      { Origin: 'http://evil.example' },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'permission_error', code: 'origin_not_allowed' });
    expect(printer.jobs).toHaveLength(0);
  });

  it("answers the till origin's preflight with the methods and headers it may use", async () => {
    const preflight = await fetch(`${bridge.url}/print-receipt`, {
      method: 'OPTIONS',
      headers: {
        Origin: TILL_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(TILL_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
  });

  it('refuses a request addressed to another host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${bridge.url}/health`, {
        headers: { Host: `printer.evil.example:${bridge.port}`, Authorization: `Bearer ${bridge.token}` },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
  });

  it('answers 400 error objects for bad bodies and 404 for unknown routes', async () => {
    const floatAmount = await call('/print-receipt', {
      printer: target,
      receipt: makeReceipt({ total: 19.99 }),
    });
    expect(floatAmount.status).toBe(400);
    expect(await floatAmount.json()).toMatchObject({
      code: 'parameter_invalid',
      details: { 'receipt.total': expect.any(String) },
    });

    const badPrinter = await call('/open-drawer', { printer: { ...target, paperWidth: 76 } });
    expect(await badPrinter.json()).toMatchObject({
      code: 'parameter_invalid',
      details: { 'printer.paperWidth': expect.any(String) },
    });

    expect(await (await call('/print-text', '{"printer":')).json()).toMatchObject({
      code: 'body_invalid_json',
    });
    const huge = await call('/print-text', { printer: target, text: 'x'.repeat(MAX_BRIDGE_BODY_BYTES) });
    expect(huge.status).toBe(400);
    expect(await huge.json()).toMatchObject({ code: 'body_too_large' });
    const plain = await call('/print-text', 'hello', { 'Content-Type': 'text/plain' });
    expect(await plain.json()).toMatchObject({ code: 'content_type_invalid' });

    const unknown = await call('/reboot', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found', code: 'route_not_found' });
    expect(printer.jobs).toHaveLength(0);
  });

  it('answers the health check for a program without an Origin header', async () => {
    const response = await fetch(`${bridge.url}/health`, {
      headers: { Authorization: `Bearer ${bridge.token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, service: 'printer-bridge' });
  });
});
